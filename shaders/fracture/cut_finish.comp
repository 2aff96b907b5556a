#version 460
// One thread: the cut's copies join the node count (after cut_duplicate and cut_rewrite read
// the old count). Only a cut that split nodes counts as a cut (a plane through a surface node
// can leave the whole fragment on one side), and the step's first such cut as a fracture event.
#include "fracture/fracture_common.glsl"

FLOE_IN_UINT(FRACTURE_BIND_SPLIT, split);
FLOE_IN_UINT(FRACTURE_BIND_OFFSETS, offsets);
FRACTURE_STATE_BLOCK;

void main()
{
    if (gl_GlobalInvocationID.x != 0u || state.cutNormal.w == 0.0) return;
    const uint last = params.nodeCapacity - 1u;
    const uint added = FLOE_LOAD_UINT(offsets, last) + FLOE_LOAD_UINT(split, last);
    state.counts2.z = added;
    state.counts.x = min(state.counts.x + added, params.nodeCapacity);
    if (added == 0u) {
        // A first secondary-split cut that split nothing is no crack: the next cut tries the next node.
        if (params.control.x == FRACTURE_METHOD_SECONDARY && state.extra.y == 0u) state.primary.w = 0.0;
        return;
    }
    state.counts.w += 1u;
    if (state.extra.y == 0u) state.counts.z += 1u;
    state.extra.y += 1u;
}
