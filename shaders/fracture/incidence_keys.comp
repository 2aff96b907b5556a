#version 460
// One thread per tet corner: (node, corner) pairs for the sort that rebuilds the node-ordered
// incidence after cuts changed the tets (digest-004 §10.1).
#include "fracture/fracture_common.glsl"

FLOE_IN_UVEC4(FRACTURE_BIND_TETS, tets);
FLOE_OUT_UINT(FRACTURE_BIND_KEYS, keys);
FLOE_OUT_UINT(FRACTURE_BIND_VALUES, values);

void main()
{
    const uint c = floeGlobalIndex();
    if (c >= 4u * params.tets) return;
    FLOE_STORE_UINT(keys, c, FLOE_LOAD_UVEC4(tets, c / 4u)[c % 4u]);
    FLOE_STORE_UINT(values, c, c);
}
