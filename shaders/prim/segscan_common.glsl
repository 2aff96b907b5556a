// Segmented inclusive scan (sum) of records: either floats (SEGSCAN_SCALAR, four per texel and
// invocation) or records of RECORD_VEC4S vec4 (1..PRIM_SEGSCAN_MAX_VEC4, i.e. up to 12 floats;
// PRIM_SEGSCAN_ITEMS_PER_THREAD records per invocation). A record whose head flag is non-zero
// starts a new segment; record 0 of the whole array always does.
//
// The operator on (value, flag) pairs is (a, fa) + (b, fb) = (fb ? b : a + b, fa | fb), which is
// associative; the scan within a subgroup uses shuffles, across subgroups one invocation walks
// the subgroup totals. Requires the subgroup basic and shuffle_relative extensions.
#ifndef FLOE_SEGSCAN_COMMON_GLSL
#define FLOE_SEGSCAN_COMMON_GLSL

#include "shared/prim.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"
#include "prim/prim_common.glsl"

layout(local_size_x = PRIM_GROUP_SIZE) in;
layout(push_constant) uniform Push { SegScanParams params; };
layout(constant_id = 0) const uint RECORD_VEC4S = 1;

#ifdef SEGSCAN_SCALAR
#define ITEMS 4u
#define BLOCK_ITEMS (PRIM_GROUP_SIZE * 4u)
struct Value {
    float x;
};
Value zeroValue() { return Value(0.0); }
Value addValues(Value a, Value b) { return Value(a.x + b.x); }
Value shuffleUpValue(Value a, uint d) { return Value(subgroupShuffleUp(a.x, d)); }
#else
#define ITEMS PRIM_SEGSCAN_ITEMS_PER_THREAD
#define BLOCK_ITEMS PRIM_SEGSCAN_BLOCK_SIZE
struct Value {
    vec4 c[PRIM_SEGSCAN_MAX_VEC4];
};
Value zeroValue()
{
    Value v;
    for (uint k = 0u; k < PRIM_SEGSCAN_MAX_VEC4; ++k) v.c[k] = vec4(0.0);
    return v;
}
Value addValues(Value a, Value b)
{
    for (uint k = 0u; k < RECORD_VEC4S; ++k) a.c[k] += b.c[k];
    return a;
}
Value shuffleUpValue(Value a, uint d)
{
    Value r = zeroValue();
    for (uint k = 0u; k < RECORD_VEC4S; ++k) r.c[k] = subgroupShuffleUp(a.c[k], d);
    return r;
}
#endif

shared Value subgroupValues[PRIM_GROUP_SIZE];
shared uint subgroupFlags[PRIM_GROUP_SIZE];

// Given this invocation's aggregate (value, flag) over its records, returns the exclusive
// segmented prefix of everything before it in the block, starting from `carry` (the inclusive
// scan of all earlier blocks, unflagged). Also returns the block's total in blockTotal/blockFlag
// (valid in invocation 0 only).
Value blockExclusivePrefix(Value value, uint flag, Value carry, out Value blockTotal, out uint blockFlag)
{
    // Inclusive segmented scan within the subgroup (Hillis-Steele with shuffles).
    Value inclusive = value;
    uint inclusiveFlag = flag;
    for (uint d = 1u; d < gl_SubgroupSize; d <<= 1u) {
        const Value other = shuffleUpValue(inclusive, d);
        const uint otherFlag = subgroupShuffleUp(inclusiveFlag, d);
        if (gl_SubgroupInvocationID >= d) {
            if (inclusiveFlag == 0u) inclusive = addValues(other, inclusive);
            inclusiveFlag |= otherFlag;
        }
    }
    Value exclusive = shuffleUpValue(inclusive, 1u);
    uint exclusiveFlag = subgroupShuffleUp(inclusiveFlag, 1u);
    if (gl_SubgroupInvocationID == 0u) {
        exclusive = zeroValue();
        exclusiveFlag = 0u;
    }
    if (primLastLane()) {
        subgroupValues[gl_SubgroupID] = inclusive;
        subgroupFlags[gl_SubgroupID] = inclusiveFlag;
    }
    barrier();
    blockTotal = carry;
    blockFlag = 0u;
    if (primThread() == 0u) {
        Value running = carry;
        uint runningFlag = 0u;
        for (uint s = 0u; s < gl_NumSubgroups; ++s) {
            const Value t = subgroupValues[s];
            const uint tf = subgroupFlags[s];
            subgroupValues[s] = running;
            running = tf != 0u ? t : addValues(running, t);
            runningFlag |= tf;
        }
        blockTotal = running;
        blockFlag = runningFlag;
    }
    barrier();
    return exclusiveFlag != 0u ? exclusive : addValues(subgroupValues[gl_SubgroupID], exclusive);
}

#endif
