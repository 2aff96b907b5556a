#version 460
// Segmented scan, phase 1: each block's total (the sum from its last head to its end, or of the
// whole block) and whether it contains a head; these are scanned recursively.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#include "prim/segscan_common.glsl"

#ifdef SEGSCAN_SCALAR
FLOE_IN_VEC4(PRIM_BIND_INPUT, records);   // four floats per texel
FLOE_IN_UVEC4(PRIM_BIND_HEADS, heads);    // four flags per texel
FLOE_OUT_FLOAT(PRIM_BIND_BLOCK_SUMS, blockSums);
#else
FLOE_IN_VEC4(PRIM_BIND_INPUT, records);   // RECORD_VEC4S texels per record
FLOE_IN_UINT(PRIM_BIND_HEADS, heads);
FLOE_OUT_VEC4(PRIM_BIND_BLOCK_SUMS, blockSums);
#endif
FLOE_OUT_UINT(PRIM_BIND_BLOCK_HEADS, blockHeads);

void main()
{
    const uint block = floeGroupIndex();
    if (block >= params.blockCount) return;
    const uint first = block * BLOCK_ITEMS + primThread() * ITEMS;
    Value aggregate = zeroValue();
    uint flag = 0u;
#ifdef SEGSCAN_SCALAR
    const vec4 v = FLOE_LOAD_VEC4(records, first / 4u);
    const uvec4 h = FLOE_LOAD_UVEC4(heads, first / 4u);
    for (uint k = 0u; k < 4u; ++k) {
        if (first + k >= params.count) break;
        const bool head = h[k] != 0u || first + k == 0u;
        aggregate.x = head ? v[k] : aggregate.x + v[k];
        flag |= head ? 1u : 0u;
    }
#else
    for (uint k = 0u; k < ITEMS; ++k) {
        const uint i = first + k;
        if (i >= params.count) break;
        const bool head = FLOE_LOAD_UINT(heads, i) != 0u || i == 0u;
        for (uint c = 0u; c < RECORD_VEC4S; ++c) {
            const vec4 r = FLOE_LOAD_VEC4(records, i * RECORD_VEC4S + c);
            aggregate.c[c] = head ? r : aggregate.c[c] + r;
        }
        flag |= head ? 1u : 0u;
    }
#endif
    Value total;
    uint totalFlag;
    blockExclusivePrefix(aggregate, flag, zeroValue(), total, totalFlag);
    if (primThread() == 0u) {
#ifdef SEGSCAN_SCALAR
        FLOE_STORE_FLOAT(blockSums, block, total.x);
#else
        for (uint c = 0u; c < RECORD_VEC4S; ++c) FLOE_STORE_VEC4(blockSums, block * RECORD_VEC4S + c, total.c[c]);
#endif
        FLOE_STORE_UINT(blockHeads, block, totalFlag);
    }
}
