#version 460
// Reduction (sum, min or max per component) of vec4 records, or of floats with REDUCE_SCALAR.
// Each block writes one result; src/sim/prim/Reduce.cpp repeats until one value is left. The
// order of operations depends only on the element count, so results are deterministic.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "shared/prim.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"
#include "prim/prim_common.glsl"

layout(local_size_x = PRIM_GROUP_SIZE) in;
layout(push_constant) uniform Push { ReduceParams params; };
layout(constant_id = 0) const uint OP_X = PRIM_REDUCE_SUM;
layout(constant_id = 1) const uint OP_Y = PRIM_REDUCE_SUM;
layout(constant_id = 2) const uint OP_Z = PRIM_REDUCE_SUM;
layout(constant_id = 3) const uint OP_W = PRIM_REDUCE_SUM;

FLOE_IN_VEC4(PRIM_BIND_INPUT, inputValues);
#ifdef REDUCE_SCALAR
FLOE_OUT_FLOAT(PRIM_BIND_OUTPUT, blockResults);
#else
FLOE_OUT_VEC4(PRIM_BIND_OUTPUT, blockResults);
#endif

shared vec4 subgroupResults[PRIM_GROUP_SIZE];

float combine1(uint op, float a, float b)
{
    return op == PRIM_REDUCE_SUM ? a + b : (op == PRIM_REDUCE_MIN ? min(a, b) : max(a, b));
}

vec4 combine(vec4 a, vec4 b)
{
    return vec4(combine1(OP_X, a.x, b.x), combine1(OP_Y, a.y, b.y), combine1(OP_Z, a.z, b.z), combine1(OP_W, a.w, b.w));
}

float subgroupCombine1(uint op, float a)
{
    return op == PRIM_REDUCE_SUM ? subgroupAdd(a) : (op == PRIM_REDUCE_MIN ? subgroupMin(a) : subgroupMax(a));
}

void main()
{
    const uint block = floeGroupIndex();
    if (block >= params.blockCount) return;
    const uint first = block * PRIM_BLOCK_SIZE + primThread() * PRIM_ITEMS_PER_THREAD;
    vec4 acc = params.identity;
#ifdef REDUCE_SCALAR
    // Four floats per texel, one texel per invocation; all components use OP_X.
    const vec4 v = FLOE_LOAD_VEC4(inputValues, first / 4u);
    float a = params.identity.x;
    for (uint k = 0u; k < 4u; ++k)
        if (first + k < params.count) a = combine1(OP_X, a, v[k]);
    acc = vec4(a);
#else
    for (uint k = 0u; k < PRIM_ITEMS_PER_THREAD; ++k)
        if (first + k < params.count) acc = combine(acc, FLOE_LOAD_VEC4(inputValues, first + k));
#endif
    const vec4 sub = vec4(subgroupCombine1(OP_X, acc.x), subgroupCombine1(OP_Y, acc.y), subgroupCombine1(OP_Z, acc.z),
                          subgroupCombine1(OP_W, acc.w));
    if (subgroupElect()) subgroupResults[gl_SubgroupID] = sub;
    barrier();
    if (primThread() == 0u) {
        vec4 total = params.identity;
        for (uint s = 0u; s < gl_NumSubgroups; ++s) total = combine(total, subgroupResults[s]);
#ifdef REDUCE_SCALAR
        FLOE_STORE_FLOAT(blockResults, block, total.x);
#else
        FLOE_STORE_VEC4(blockResults, block, total);
#endif
    }
}
