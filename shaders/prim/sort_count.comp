#version 460
// Radix sort pass, step 1: how many keys of each digit every block holds, written digit-major
// (counts[digit * blockCount + block]) so that one exclusive scan yields every block's offsets.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "shared/prim.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"
#include "prim/prim_common.glsl"
#include "prim/sort_common.glsl"

layout(local_size_x = PRIM_GROUP_SIZE) in;
layout(push_constant) uniform Push { SortParams params; };
FLOE_IN_UVEC4(PRIM_BIND_KEYS_IN, keys); // four keys per texel
FLOE_OUT_UINT(PRIM_BIND_DIGIT_COUNTS, digitCounts);

shared DigitCounts subgroupCounts[PRIM_GROUP_SIZE];

void main()
{
    const uint block = floeGroupIndex();
    if (block >= params.blockCount) return;
    const uint first = block * PRIM_BLOCK_SIZE + primThread() * PRIM_ITEMS_PER_THREAD;
    const uvec4 k4 = FLOE_LOAD_UVEC4(keys, first / 4u);
    DigitCounts mine;
    mine.lo = uvec4(0u);
    mine.hi = uvec4(0u);
    for (uint k = 0u; k < 4u; ++k)
        if (first + k < params.count) mine = addCounts(mine, countOne(digitOf(k4[k], params.shift)));
    DigitCounts sum;
    sum.lo = subgroupAdd(mine.lo);
    sum.hi = subgroupAdd(mine.hi);
    if (subgroupElect()) subgroupCounts[gl_SubgroupID] = sum;
    barrier();
    const uint digit = primThread();
    if (digit < PRIM_SORT_RADIX) {
        uint total = 0u;
        for (uint s = 0u; s < gl_NumSubgroups; ++s) total += countOf(subgroupCounts[s], digit);
        FLOE_STORE_UINT(digitCounts, digit * params.blockCount + block, total);
    }
}
