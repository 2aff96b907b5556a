#version 460
// Radix sort pass, step 2: every key moves to its block's offset for its digit plus its rank
// among the block's keys of that digit in index order, which makes the sort stable.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "shared/prim.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"
#include "prim/prim_common.glsl"
#include "prim/sort_common.glsl"

layout(local_size_x = PRIM_GROUP_SIZE) in;
layout(push_constant) uniform Push { SortParams params; };
FLOE_IN_UVEC4(PRIM_BIND_KEYS_IN, keys);
FLOE_IN_UVEC4(PRIM_BIND_VALUES_IN, values);
FLOE_IN_UINT(PRIM_BIND_DIGIT_OFFSETS, digitOffsets);
FLOE_OUT_UINT(PRIM_BIND_KEYS_OUT, keysOut);
FLOE_OUT_UINT(PRIM_BIND_VALUES_OUT, valuesOut);

shared DigitCounts subgroupPrefix[PRIM_GROUP_SIZE];
shared uint blockOffsets[PRIM_SORT_RADIX];

void main()
{
    const uint block = floeGroupIndex();
    if (block >= params.blockCount) return;
    const uint first = block * PRIM_BLOCK_SIZE + primThread() * PRIM_ITEMS_PER_THREAD;
    const uvec4 k4 = FLOE_LOAD_UVEC4(keys, first / 4u);
    const uvec4 v4 = FLOE_LOAD_UVEC4(values, first / 4u);
    uvec4 digits;
    DigitCounts mine;
    mine.lo = uvec4(0u);
    mine.hi = uvec4(0u);
    for (uint k = 0u; k < 4u; ++k) {
        digits[k] = digitOf(k4[k], params.shift);
        if (first + k < params.count) mine = addCounts(mine, countOne(digits[k]));
    }
    DigitCounts lane;
    lane.lo = subgroupExclusiveAdd(mine.lo);
    lane.hi = subgroupExclusiveAdd(mine.hi);
    if (primLastLane()) subgroupPrefix[gl_SubgroupID] = addCounts(lane, mine);
    if (primThread() < PRIM_SORT_RADIX)
        blockOffsets[primThread()] = FLOE_LOAD_UINT(digitOffsets, primThread() * params.blockCount + block);
    barrier();
    if (primThread() == 0u) {
        DigitCounts running;
        running.lo = uvec4(0u);
        running.hi = uvec4(0u);
        for (uint s = 0u; s < gl_NumSubgroups; ++s) {
            const DigitCounts t = subgroupPrefix[s];
            subgroupPrefix[s] = running;
            running = addCounts(running, t);
        }
    }
    barrier();
    DigitCounts rank = addCounts(subgroupPrefix[gl_SubgroupID], lane);
    for (uint k = 0u; k < 4u; ++k) {
        if (first + k >= params.count) break;
        const uint d = digits[k];
        const uint destination = blockOffsets[d] + countOf(rank, d);
        rank = addCounts(rank, countOne(d));
        FLOE_STORE_UINT(keysOut, destination, k4[k]);
        FLOE_STORE_UINT(valuesOut, destination, v4[k]);
    }
}
