// Accessors for per-element arrays. Read-only inputs are uniform texel buffers and read-write
// arrays storage texel buffers: lavapipe's fast path (VULKAN-ON-CPU.md), parity on GPUs.
// Defining FLOE_SSBO_ONLY turns every declaration into a plain storage buffer for devices whose
// maxTexelBufferElements is too small; the loads and stores keep their names.
// FLOE_COHERENT_VEC4 declares a read-write array that invocations of one workgroup read from
// each other after a barrier (coherent); its loads and stores are the FLOE_RW_ ones.
// FLOE_OUT_STORAGE, defined before this file is included, declares the write-only outputs
// (FLOE_OUT_*) as storage buffers: on lavapipe an imageStore goes through a per-lane texel path,
// and the SPH passes' stores cost 15 % of the density pass that way (its neighbour list: 0.5 ms
// of 3.4 in the 3D dam break); a storage buffer's store is a plain vector scatter. GPUs store
// either at the same speed. A storage buffer's binding is limited by maxStorageBufferRange (128
// MiB on lavapipe), so only passes whose outputs are bounded by it (per particle, at most
// ParticleBuffers::maxParticles) opt in. There, stores to read-write arrays are FLOE_RW_STORE_*
// (everywhere else FLOE_STORE_* and FLOE_RW_STORE_* are the same).
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
#define FLOE_COHERENT_VEC4(b, name) layout(binding = b, rgba32f) coherent uniform imageBuffer name
#define FLOE_RW_LOAD_VEC4(name, i) imageLoad(name, int(i))
#define FLOE_RW_LOAD_FLOAT(name, i) imageLoad(name, int(i)).x
#define FLOE_RW_LOAD_UINT(name, i) imageLoad(name, int(i)).x
#define FLOE_RW_LOAD_UVEC4(name, i) imageLoad(name, int(i))
#define FLOE_RW_STORE_VEC4(name, i, v) imageStore(name, int(i), (v))
#define FLOE_RW_STORE_FLOAT(name, i, v) imageStore(name, int(i), vec4((v), 0.0, 0.0, 0.0))
#define FLOE_RW_STORE_UINT(name, i, v) imageStore(name, int(i), uvec4((v), 0u, 0u, 0u))
#define FLOE_RW_STORE_UVEC4(name, i, v) imageStore(name, int(i), (v))
#ifndef FLOE_OUT_STORAGE
#define FLOE_OUT_VEC4(b, name) layout(binding = b, rgba32f) uniform writeonly imageBuffer name
#define FLOE_OUT_FLOAT(b, name) layout(binding = b, r32f) uniform writeonly imageBuffer name
#define FLOE_OUT_UINT(b, name) layout(binding = b, r32ui) uniform writeonly uimageBuffer name
#define FLOE_OUT_UVEC4(b, name) layout(binding = b, rgba32ui) uniform writeonly uimageBuffer name
#define FLOE_STORE_VEC4(name, i, v) FLOE_RW_STORE_VEC4(name, i, v)
#define FLOE_STORE_FLOAT(name, i, v) FLOE_RW_STORE_FLOAT(name, i, v)
#define FLOE_STORE_UINT(name, i, v) FLOE_RW_STORE_UINT(name, i, v)
#define FLOE_STORE_UVEC4(name, i, v) FLOE_RW_STORE_UVEC4(name, i, v)
#else
#define FLOE_OUT_VEC4(b, name) layout(std430, binding = b) writeonly buffer name##_block { vec4 name[]; }
#define FLOE_OUT_FLOAT(b, name) layout(std430, binding = b) writeonly buffer name##_block { float name[]; }
#define FLOE_OUT_UINT(b, name) layout(std430, binding = b) writeonly buffer name##_block { uint name[]; }
#define FLOE_OUT_UVEC4(b, name) layout(std430, binding = b) writeonly buffer name##_block { uvec4 name[]; }
#define FLOE_STORE_VEC4(name, i, v) name[i] = (v)
#define FLOE_STORE_FLOAT(name, i, v) name[i] = (v)
#define FLOE_STORE_UINT(name, i, v) name[i] = (v)
#define FLOE_STORE_UVEC4(name, i, v) name[i] = (v)
#endif
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
#define FLOE_COHERENT_VEC4(b, name) layout(std430, binding = b) coherent buffer name##_block { vec4 name[]; }
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
#define FLOE_RW_STORE_VEC4(name, i, v) name[i] = (v)
#define FLOE_RW_STORE_FLOAT(name, i, v) name[i] = (v)
#define FLOE_RW_STORE_UINT(name, i, v) name[i] = (v)
#define FLOE_RW_STORE_UVEC4(name, i, v) name[i] = (v)
#endif

// Index checks for debug builds (FLOE_INDEX_CHECKS, cmake -DFLOE_INDEX_CHECKS=ON, and the
// build/shaders-checked/ tree the tests run some scenes with): a load outside its array returns
// poison (NaN, 0xFFFFFFFF) on every device, so that the run's non-finite checks and the tests
// fail, instead of what the driver's robustness (or none) would give; a store outside is
// dropped. The unchecked macros above stay the fast path.
#ifdef FLOE_INDEX_CHECKS
#ifndef FLOE_SSBO_ONLY
#define FLOE_SIZE_IN_(name) textureSize(name)
#define FLOE_SIZE_RW_(name) imageSize(name)
#define FLOE_FETCH_IN_(name, i) texelFetch(name, i)
#define FLOE_FETCH_RW_(name, i) imageLoad(name, i)
#else
#define FLOE_SIZE_IN_(name) int(name.length())
#define FLOE_SIZE_RW_(name) int(name.length())
#endif
#define FLOE_INSIDE_(size, i) (int(i) >= 0 && int(i) < (size))
#define FLOE_NAN_ uintBitsToFloat(0x7fc00000u)
#undef FLOE_LOAD_VEC4
#undef FLOE_LOAD_FLOAT
#undef FLOE_LOAD_UINT
#undef FLOE_LOAD_UVEC4
#undef FLOE_RW_LOAD_VEC4
#undef FLOE_RW_LOAD_FLOAT
#undef FLOE_RW_LOAD_UINT
#undef FLOE_RW_LOAD_UVEC4
#undef FLOE_STORE_VEC4
#undef FLOE_STORE_FLOAT
#undef FLOE_STORE_UINT
#undef FLOE_STORE_UVEC4
#undef FLOE_RW_STORE_VEC4
#undef FLOE_RW_STORE_FLOAT
#undef FLOE_RW_STORE_UINT
#undef FLOE_RW_STORE_UVEC4
#ifndef FLOE_SSBO_ONLY
#define FLOE_LOAD_VEC4(name, i) (FLOE_INSIDE_(FLOE_SIZE_IN_(name), i) ? FLOE_FETCH_IN_(name, int(i)) : vec4(FLOE_NAN_))
#define FLOE_LOAD_FLOAT(name, i) (FLOE_INSIDE_(FLOE_SIZE_IN_(name), i) ? FLOE_FETCH_IN_(name, int(i)).x : FLOE_NAN_)
#define FLOE_LOAD_UINT(name, i) (FLOE_INSIDE_(FLOE_SIZE_IN_(name), i) ? FLOE_FETCH_IN_(name, int(i)).x : 0xFFFFFFFFu)
#define FLOE_LOAD_UVEC4(name, i) (FLOE_INSIDE_(FLOE_SIZE_IN_(name), i) ? FLOE_FETCH_IN_(name, int(i)) : uvec4(0xFFFFFFFFu))
#define FLOE_RW_LOAD_VEC4(name, i) (FLOE_INSIDE_(FLOE_SIZE_RW_(name), i) ? FLOE_FETCH_RW_(name, int(i)) : vec4(FLOE_NAN_))
#define FLOE_RW_LOAD_FLOAT(name, i) (FLOE_INSIDE_(FLOE_SIZE_RW_(name), i) ? FLOE_FETCH_RW_(name, int(i)).x : FLOE_NAN_)
#define FLOE_RW_LOAD_UINT(name, i) (FLOE_INSIDE_(FLOE_SIZE_RW_(name), i) ? FLOE_FETCH_RW_(name, int(i)).x : 0xFFFFFFFFu)
#define FLOE_RW_LOAD_UVEC4(name, i) (FLOE_INSIDE_(FLOE_SIZE_RW_(name), i) ? FLOE_FETCH_RW_(name, int(i)) : uvec4(0xFFFFFFFFu))
#define FLOE_RW_STORE_VEC4(name, i, v) \
    do {                            \
        if (FLOE_INSIDE_(FLOE_SIZE_RW_(name), i)) imageStore(name, int(i), (v)); \
    } while (false)
#define FLOE_RW_STORE_FLOAT(name, i, v) \
    do {                             \
        if (FLOE_INSIDE_(FLOE_SIZE_RW_(name), i)) imageStore(name, int(i), vec4((v), 0.0, 0.0, 0.0)); \
    } while (false)
#define FLOE_RW_STORE_UINT(name, i, v) \
    do {                            \
        if (FLOE_INSIDE_(FLOE_SIZE_RW_(name), i)) imageStore(name, int(i), uvec4((v), 0u, 0u, 0u)); \
    } while (false)
#define FLOE_RW_STORE_UVEC4(name, i, v) \
    do {                             \
        if (FLOE_INSIDE_(FLOE_SIZE_RW_(name), i)) imageStore(name, int(i), (v)); \
    } while (false)
#ifndef FLOE_OUT_STORAGE
#define FLOE_STORE_VEC4(name, i, v) FLOE_RW_STORE_VEC4(name, i, v)
#define FLOE_STORE_FLOAT(name, i, v) FLOE_RW_STORE_FLOAT(name, i, v)
#define FLOE_STORE_UINT(name, i, v) FLOE_RW_STORE_UINT(name, i, v)
#define FLOE_STORE_UVEC4(name, i, v) FLOE_RW_STORE_UVEC4(name, i, v)
#else
#define FLOE_STORE_VEC4(name, i, v) \
    do {                            \
        if (FLOE_INSIDE_(int(name.length()), i)) name[int(i)] = (v); \
    } while (false)
#define FLOE_STORE_FLOAT(name, i, v) FLOE_STORE_VEC4(name, i, v)
#define FLOE_STORE_UINT(name, i, v) FLOE_STORE_VEC4(name, i, v)
#define FLOE_STORE_UVEC4(name, i, v) FLOE_STORE_VEC4(name, i, v)
#endif
#else
#define FLOE_LOAD_VEC4(name, i) (FLOE_INSIDE_(FLOE_SIZE_IN_(name), i) ? name[int(i)] : vec4(FLOE_NAN_))
#define FLOE_LOAD_FLOAT(name, i) (FLOE_INSIDE_(FLOE_SIZE_IN_(name), i) ? name[int(i)] : FLOE_NAN_)
#define FLOE_LOAD_UINT(name, i) (FLOE_INSIDE_(FLOE_SIZE_IN_(name), i) ? name[int(i)] : 0xFFFFFFFFu)
#define FLOE_LOAD_UVEC4(name, i) (FLOE_INSIDE_(FLOE_SIZE_IN_(name), i) ? name[int(i)] : uvec4(0xFFFFFFFFu))
#define FLOE_RW_LOAD_VEC4(name, i) FLOE_LOAD_VEC4(name, i)
#define FLOE_RW_LOAD_FLOAT(name, i) FLOE_LOAD_FLOAT(name, i)
#define FLOE_RW_LOAD_UINT(name, i) FLOE_LOAD_UINT(name, i)
#define FLOE_RW_LOAD_UVEC4(name, i) FLOE_LOAD_UVEC4(name, i)
#define FLOE_STORE_VEC4(name, i, v) \
    do {                            \
        if (FLOE_INSIDE_(FLOE_SIZE_RW_(name), i)) name[int(i)] = (v); \
    } while (false)
#define FLOE_STORE_FLOAT(name, i, v) FLOE_STORE_VEC4(name, i, v)
#define FLOE_STORE_UINT(name, i, v) FLOE_STORE_VEC4(name, i, v)
#define FLOE_STORE_UVEC4(name, i, v) FLOE_STORE_VEC4(name, i, v)
#define FLOE_RW_STORE_VEC4(name, i, v) FLOE_STORE_VEC4(name, i, v)
#define FLOE_RW_STORE_FLOAT(name, i, v) FLOE_STORE_VEC4(name, i, v)
#define FLOE_RW_STORE_UINT(name, i, v) FLOE_STORE_VEC4(name, i, v)
#define FLOE_RW_STORE_UVEC4(name, i, v) FLOE_STORE_VEC4(name, i, v)
#endif
#endif

#endif
