#version 460
// Exclusive scan of uint32, phase 2: each block scans its elements and adds its carry (the
// exclusive scan of the block sums at the level above; zeros for a single block).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "shared/prim.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"
#include "prim/prim_common.glsl"

layout(local_size_x = PRIM_GROUP_SIZE) in;
layout(push_constant) uniform Push { ScanParams params; };
FLOE_IN_UVEC4(PRIM_BIND_INPUT, inputValues);
FLOE_IN_UINT(PRIM_BIND_BLOCK_SUMS, blockCarries);
// The output is a read-write storage buffer of texels, not a storage texel buffer: on lavapipe a
// storage buffer's uvec4 store is one vector scatter where imageStore takes a per-lane path, which
// made the fluid grid's table scan (142k bins in SPlisHSPlasH's 3D dam break) 0.61 against 0.37 ms
// per step. gpu::Buffer allocates whole 16-byte texels and the graph binds the whole allocation, so
// a partial last texel lies inside the array. A texel stored as four uints of a scalar array
// takes four per-lane stores: slower than imageStore (1.5-2.0 ms there).
layout(std430, binding = PRIM_BIND_OUTPUT) buffer OutputBlock { uvec4 outputValues[]; };

// Index checks (common/texel.glsl's FLOE_INDEX_CHECKS): outside the array a load is poison and a
// store is dropped.
uvec4 loadTexel(uint t)
{
#ifdef FLOE_INDEX_CHECKS
    if (t >= uint(outputValues.length())) return uvec4(0xFFFFFFFFu);
#endif
    return outputValues[t];
}

void storeTexel(uint t, uvec4 v)
{
#ifdef FLOE_INDEX_CHECKS
    if (t >= uint(outputValues.length())) return;
#endif
    outputValues[t] = v;
}

shared uint subgroupPrefix[PRIM_GROUP_SIZE];

void main()
{
    const uint block = floeGroupIndex();
    if (block >= params.blockCount) return;
    const uint first = block * PRIM_SCAN_BLOCK_SIZE + primThread() * (4u * PRIM_SCAN_TEXELS_PER_THREAD);
    // The invocation's PRIM_SCAN_TEXELS_PER_THREAD texels, 0 past the end, and their exclusive
    // prefixes within the invocation.
    uvec4 local[PRIM_SCAN_TEXELS_PER_THREAD];
    uint sum = 0u;
    for (uint t = 0u; t < PRIM_SCAN_TEXELS_PER_THREAD; ++t) {
        const uint at = first + 4u * t;
        uvec4 v = at < params.count ? FLOE_LOAD_UVEC4(inputValues, at / 4u) : uvec4(0u);
        for (uint k = 0u; k < 4u; ++k)
            if (at + k >= params.count) v[k] = 0u;
        local[t] = sum + uvec4(0u, v.x, v.x + v.y, v.x + v.y + v.z);
        sum += v.x + v.y + v.z + v.w;
    }
    const uint lanePrefix = subgroupExclusiveAdd(sum);
    if (primLastLane()) subgroupPrefix[gl_SubgroupID] = lanePrefix + sum;
    barrier();
    if (primThread() == 0u) {
        uint running = FLOE_LOAD_UINT(blockCarries, block);
        for (uint s = 0u; s < gl_NumSubgroups; ++s) {
            const uint t = subgroupPrefix[s];
            subgroupPrefix[s] = running;
            running += t;
        }
    }
    barrier();
    const uint carry = subgroupPrefix[gl_SubgroupID] + lanePrefix;
    for (uint t = 0u; t < PRIM_SCAN_TEXELS_PER_THREAD; ++t) {
        const uint at = first + 4u * t;
        if (at >= params.count) return;
        const uvec4 result = local[t] + carry;
        if (at + 3u < params.count) {
            storeTexel(at / 4u, result);
        } else { // the last, partial texel: keep what lies past the end
            uvec4 old = loadTexel(at / 4u);
            for (uint k = 0u; k < 4u; ++k)
                if (at + k < params.count) old[k] = result[k];
            storeTexel(at / 4u, old);
        }
    }
}
