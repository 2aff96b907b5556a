// The C++/GLSL contract's base: this header compiles as C++ (namespace floe::shared, glm
// types) and as GLSL. Structs in shaders/shared/ use only uint, int, float, vec4, uvec4 and
// mat4, ordered so that every vec4/uvec4/mat4 starts on a 16-byte boundary; SHARED_SIZE checks
// the size in C++ and tests/gpu/SharedLayoutTest.cpp round-trips every struct through the GPU.
#ifndef FLOE_SHARED_TYPES_H
#define FLOE_SHARED_TYPES_H

#ifdef __cplusplus
#include <cstdint>
#include <glm/glm.hpp>
#define FLOE_SHARED_BEGIN namespace floe::shared {
#define FLOE_SHARED_END }
#define SHARED_SIZE(type, bytes) static_assert(sizeof(type) == (bytes), #type " must be " #bytes " bytes")
#define SHARED_CONST(type, name, value) inline constexpr type name = (value)
// Pure functions shared by CPU references and shaders: `inline` in C++, plain in GLSL.
#define SHARED_FN inline
FLOE_SHARED_BEGIN
using uint = std::uint32_t;
using vec2 = glm::vec2; // functions only; buffers use vec4
using vec3 = glm::vec3; // functions only; buffers use vec4
using vec4 = glm::vec4;
using uvec4 = glm::uvec4;
using mat4 = glm::mat4;
using glm::clamp;
using glm::dot;
using glm::length;
using glm::max;
using glm::min;
using glm::pow;
FLOE_SHARED_END
#else
#define FLOE_SHARED_BEGIN
#define FLOE_SHARED_END
#define SHARED_SIZE(type, bytes)
#define SHARED_CONST(type, name, value) const type name = (value)
#define SHARED_FN
#endif

#endif
