#version 460
// Exclusive scan of uint32, phase 1 of reduce-then-scan: the sum of each block of
// PRIM_SCAN_BLOCK_SIZE elements (src/sim/prim/Scan.cpp scans these sums recursively).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "shared/prim.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"
#include "prim/prim_common.glsl"

layout(local_size_x = PRIM_GROUP_SIZE) in;
layout(push_constant) uniform Push { ScanParams params; };
FLOE_IN_UVEC4(PRIM_BIND_INPUT, inputValues);  // four elements per texel
FLOE_OUT_UINT(PRIM_BIND_BLOCK_SUMS, blockSums);

shared uint subgroupSums[PRIM_GROUP_SIZE];

void main()
{
    const uint block = floeGroupIndex();
    if (block >= params.blockCount) return; // whole workgroups only: no barrier is skipped by part of one
    const uint first = block * PRIM_SCAN_BLOCK_SIZE + primThread() * (4u * PRIM_SCAN_TEXELS_PER_THREAD);
    uint sum = 0u;
    for (uint t = 0u; t < PRIM_SCAN_TEXELS_PER_THREAD; ++t) {
        const uint at = first + 4u * t;
        if (at >= params.count) break;
        const uvec4 v = FLOE_LOAD_UVEC4(inputValues, at / 4u);
        for (uint k = 0u; k < 4u; ++k)
            if (at + k < params.count) sum += v[k];
    }
    const uint subgroupSum = subgroupAdd(sum);
    if (subgroupElect()) subgroupSums[gl_SubgroupID] = subgroupSum;
    barrier();
    if (primThread() == 0u) {
        uint total = 0u;
        for (uint s = 0u; s < gl_NumSubgroups; ++s) total += subgroupSums[s];
        FLOE_STORE_UINT(blockSums, block, total);
    }
}
