// Accessors for per-element arrays. Read-only inputs are uniform texel buffers and read-write
// arrays storage texel buffers: lavapipe's fast path (VULKAN-ON-CPU.md), parity on GPUs.
// Defining FLOE_SSBO_ONLY turns every declaration into a plain storage buffer for devices whose
// maxTexelBufferElements is too small; the loads and stores keep their names.
#ifndef FLOE_COMMON_TEXEL_GLSL
#define FLOE_COMMON_TEXEL_GLSL

#ifndef FLOE_SSBO_ONLY
#define FLOE_IN_VEC4(b, name) layout(binding = b) uniform samplerBuffer name
#define FLOE_IN_FLOAT(b, name) layout(binding = b) uniform samplerBuffer name
#define FLOE_IN_UINT(b, name) layout(binding = b) uniform usamplerBuffer name
#define FLOE_IN_UVEC4(b, name) layout(binding = b) uniform usamplerBuffer name
#define FLOE_LOAD_VEC4(name, i) texelFetch(name, int(i))
#define FLOE_LOAD_FLOAT(name, i) texelFetch(name, int(i)).x
#define FLOE_LOAD_UINT(name, i) texelFetch(name, int(i)).x
#define FLOE_LOAD_UVEC4(name, i) texelFetch(name, int(i))

#define FLOE_RW_VEC4(b, name) layout(binding = b, rgba32f) uniform imageBuffer name
#define FLOE_RW_FLOAT(b, name) layout(binding = b, r32f) uniform imageBuffer name
#define FLOE_RW_UINT(b, name) layout(binding = b, r32ui) uniform uimageBuffer name
#define FLOE_RW_UVEC4(b, name) layout(binding = b, rgba32ui) uniform uimageBuffer name
#define FLOE_OUT_VEC4(b, name) layout(binding = b, rgba32f) uniform writeonly imageBuffer name
#define FLOE_OUT_FLOAT(b, name) layout(binding = b, r32f) uniform writeonly imageBuffer name
#define FLOE_OUT_UINT(b, name) layout(binding = b, r32ui) uniform writeonly uimageBuffer name
#define FLOE_OUT_UVEC4(b, name) layout(binding = b, rgba32ui) uniform writeonly uimageBuffer name
#define FLOE_RW_LOAD_VEC4(name, i) imageLoad(name, int(i))
#define FLOE_RW_LOAD_FLOAT(name, i) imageLoad(name, int(i)).x
#define FLOE_RW_LOAD_UINT(name, i) imageLoad(name, int(i)).x
#define FLOE_RW_LOAD_UVEC4(name, i) imageLoad(name, int(i))
#define FLOE_STORE_VEC4(name, i, v) imageStore(name, int(i), (v))
#define FLOE_STORE_FLOAT(name, i, v) imageStore(name, int(i), vec4((v), 0.0, 0.0, 0.0))
#define FLOE_STORE_UINT(name, i, v) imageStore(name, int(i), uvec4((v), 0u, 0u, 0u))
#define FLOE_STORE_UVEC4(name, i, v) imageStore(name, int(i), (v))
#else
#define FLOE_IN_VEC4(b, name) layout(std430, binding = b) readonly buffer name##_block { vec4 name[]; }
#define FLOE_IN_FLOAT(b, name) layout(std430, binding = b) readonly buffer name##_block { float name[]; }
#define FLOE_IN_UINT(b, name) layout(std430, binding = b) readonly buffer name##_block { uint name[]; }
#define FLOE_IN_UVEC4(b, name) layout(std430, binding = b) readonly buffer name##_block { uvec4 name[]; }
#define FLOE_LOAD_VEC4(name, i) name[i]
#define FLOE_LOAD_FLOAT(name, i) name[i]
#define FLOE_LOAD_UINT(name, i) name[i]
#define FLOE_LOAD_UVEC4(name, i) name[i]

#define FLOE_RW_VEC4(b, name) layout(std430, binding = b) buffer name##_block { vec4 name[]; }
#define FLOE_RW_FLOAT(b, name) layout(std430, binding = b) buffer name##_block { float name[]; }
#define FLOE_RW_UINT(b, name) layout(std430, binding = b) buffer name##_block { uint name[]; }
#define FLOE_RW_UVEC4(b, name) layout(std430, binding = b) buffer name##_block { uvec4 name[]; }
#define FLOE_OUT_VEC4(b, name) layout(std430, binding = b) writeonly buffer name##_block { vec4 name[]; }
#define FLOE_OUT_FLOAT(b, name) layout(std430, binding = b) writeonly buffer name##_block { float name[]; }
#define FLOE_OUT_UINT(b, name) layout(std430, binding = b) writeonly buffer name##_block { uint name[]; }
#define FLOE_OUT_UVEC4(b, name) layout(std430, binding = b) writeonly buffer name##_block { uvec4 name[]; }
#define FLOE_RW_LOAD_VEC4(name, i) name[i]
#define FLOE_RW_LOAD_FLOAT(name, i) name[i]
#define FLOE_RW_LOAD_UINT(name, i) name[i]
#define FLOE_RW_LOAD_UVEC4(name, i) name[i]
#define FLOE_STORE_VEC4(name, i, v) name[i] = (v)
#define FLOE_STORE_FLOAT(name, i, v) name[i] = (v)
#define FLOE_STORE_UINT(name, i, v) name[i] = (v)
#define FLOE_STORE_UVEC4(name, i, v) name[i] = (v)
#endif

#endif
