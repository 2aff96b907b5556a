#version 460
// One thread per tet (indirect): tets on the cut's negative side take the copies of their
// split nodes (digest-004 §3.1 cutThisNode: the copy goes to the "-" elements).
#include "fracture/fracture_common.glsl"

FLOE_IN_UINT(FRACTURE_BIND_TET_SIDE, side);
FLOE_IN_UINT(FRACTURE_BIND_SPLIT, split);
FLOE_IN_UINT(FRACTURE_BIND_OFFSETS, offsets);
FLOE_RW_UVEC4(FRACTURE_BIND_TETS, tets);
FRACTURE_STATE_BLOCK;

void main()
{
    const uint t = floeGlobalIndex();
    if (t >= params.tets || int(FLOE_LOAD_UINT(side, t)) >= 0) return;
    uvec4 idx = FLOE_RW_LOAD_UVEC4(tets, t);
    for (int i = 0; i < 4; ++i)
        if (FLOE_LOAD_UINT(split, idx[i]) != 0u) idx[i] = state.counts.x + FLOE_LOAD_UINT(offsets, idx[i]);
    FLOE_STORE_UVEC4(tets, t, idx);
}
