#version 460
// Segmented scan, phase 2: each block scans its records, starting from its carry (the
// inclusive segmented scan of the block totals up to the previous block).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#include "prim/segscan_common.glsl"

#ifdef SEGSCAN_SCALAR
FLOE_IN_VEC4(PRIM_BIND_INPUT, records);
FLOE_IN_UVEC4(PRIM_BIND_HEADS, heads);
FLOE_IN_FLOAT(PRIM_BIND_BLOCK_SUMS, blockCarries);
FLOE_RW_VEC4(PRIM_BIND_OUTPUT, outputRecords); // read only for a partial last texel
#else
FLOE_IN_VEC4(PRIM_BIND_INPUT, records);
FLOE_IN_UINT(PRIM_BIND_HEADS, heads);
FLOE_IN_VEC4(PRIM_BIND_BLOCK_SUMS, blockCarries);
FLOE_OUT_VEC4(PRIM_BIND_OUTPUT, outputRecords);
#endif

void main()
{
    const uint block = floeGroupIndex();
    if (block >= params.blockCount) return;
    const uint first = block * BLOCK_ITEMS + primThread() * ITEMS;
    Value carry = zeroValue();
    if (block > 0u) {
#ifdef SEGSCAN_SCALAR
        carry.x = FLOE_LOAD_FLOAT(blockCarries, block - 1u);
#else
        for (uint c = 0u; c < RECORD_VEC4S; ++c) carry.c[c] = FLOE_LOAD_VEC4(blockCarries, (block - 1u) * RECORD_VEC4S + c);
#endif
    }

#ifdef SEGSCAN_SCALAR
    const vec4 v = FLOE_LOAD_VEC4(records, first / 4u);
    const uvec4 h = FLOE_LOAD_UVEC4(heads, first / 4u);
    bvec4 isHead;
    Value aggregate = zeroValue();
    uint flag = 0u;
    for (uint k = 0u; k < 4u; ++k) {
        isHead[k] = h[k] != 0u || first + k == 0u;
        if (first + k < params.count) {
            aggregate.x = isHead[k] ? v[k] : aggregate.x + v[k];
            flag |= isHead[k] ? 1u : 0u;
        }
    }
    Value total;
    uint totalFlag;
    const Value prefix = blockExclusivePrefix(aggregate, flag, carry, total, totalFlag);
    if (first >= params.count) return;
    vec4 result;
    float running = prefix.x;
    for (uint k = 0u; k < 4u; ++k) {
        running = isHead[k] ? v[k] : running + v[k];
        result[k] = running;
    }
    if (first + 3u < params.count) {
        FLOE_STORE_VEC4(outputRecords, first / 4u, result);
    } else {
        vec4 old = FLOE_RW_LOAD_VEC4(outputRecords, first / 4u);
        for (uint k = 0u; k < 4u; ++k)
            if (first + k < params.count) old[k] = result[k];
        FLOE_STORE_VEC4(outputRecords, first / 4u, old);
    }
#else
    Value items[ITEMS];
    bool isHead[ITEMS];
    Value aggregate = zeroValue();
    uint flag = 0u;
    for (uint k = 0u; k < ITEMS; ++k) {
        const uint i = first + k;
        items[k] = zeroValue();
        isHead[k] = false;
        if (i >= params.count) continue;
        isHead[k] = FLOE_LOAD_UINT(heads, i) != 0u || i == 0u;
        for (uint c = 0u; c < RECORD_VEC4S; ++c) items[k].c[c] = FLOE_LOAD_VEC4(records, i * RECORD_VEC4S + c);
        aggregate = isHead[k] ? items[k] : addValues(aggregate, items[k]);
        flag |= isHead[k] ? 1u : 0u;
    }
    Value total;
    uint totalFlag;
    Value running = blockExclusivePrefix(aggregate, flag, carry, total, totalFlag);
    for (uint k = 0u; k < ITEMS; ++k) {
        const uint i = first + k;
        if (i >= params.count) break;
        running = isHead[k] ? items[k] : addValues(running, items[k]);
        for (uint c = 0u; c < RECORD_VEC4S; ++c) FLOE_STORE_VEC4(outputRecords, i * RECORD_VEC4S + c, running.c[c]);
    }
#endif
}
