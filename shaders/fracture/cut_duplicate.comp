#version 460
// One thread per node slot (indirect): a split node gets a copy at nodes + offset (position,
// velocity, rest position, node data, peak load, fragment label, flags, wall approach; an empty energy ledger); both are marked as
// crack nodes (the thesis marked only the original, §11 item 5; the copy lies on the same
// crack). The copy's mass is set when the incidence is rebuilt: lumped from its own tets, so
// mass is conserved (the thesis gave both the full mass, §11 item 11).
#include "fracture/fracture_common.glsl"

FLOE_IN_UINT(FRACTURE_BIND_SPLIT, split);
FLOE_IN_UINT(FRACTURE_BIND_OFFSETS, offsets);
FLOE_RW_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_RW_VEC4(FRACTURE_BIND_NODE_ORIGIN, origins);
FLOE_RW_VEC4(FRACTURE_BIND_VELOCITIES, velocities);
FLOE_RW_VEC4(FRACTURE_BIND_REST_NODES, restNodes);
FLOE_RW_VEC4(FRACTURE_BIND_NODE_DATA, nodeData);
FLOE_RW_VEC4(FRACTURE_BIND_PEAK, peak);
FLOE_RW_UINT(FRACTURE_BIND_LABELS, labels);
FLOE_RW_UINT(FRACTURE_BIND_NODE_FLAGS, flags);
FLOE_OUT_FLOAT(FRACTURE_BIND_LEDGER, ledger);
FLOE_RW_VEC4(FRACTURE_BIND_APPROACH, approach);
FRACTURE_STATE_BLOCK;

void main()
{
    const uint n = floeGlobalIndex();
    const uint count = state.counts.x;
    if (n >= count || FLOE_LOAD_UINT(split, n) == 0u) return;
    const uint copy = count + FLOE_LOAD_UINT(offsets, n);
    if (copy >= params.nodeCapacity) return; // cannot happen: every node holds a distinct tet corner
    FLOE_STORE_VEC4(positions, copy, FLOE_RW_LOAD_VEC4(positions, n));
    FLOE_STORE_VEC4(origins, copy, FLOE_RW_LOAD_VEC4(origins, n));
    FLOE_STORE_VEC4(velocities, copy, FLOE_RW_LOAD_VEC4(velocities, n));
    FLOE_STORE_VEC4(restNodes, copy, FLOE_RW_LOAD_VEC4(restNodes, n));
    FLOE_STORE_VEC4(nodeData, copy, FLOE_RW_LOAD_VEC4(nodeData, n));
    FLOE_STORE_VEC4(peak, copy, FLOE_RW_LOAD_VEC4(peak, n));
    FLOE_STORE_UINT(labels, copy, FLOE_RW_LOAD_UINT(labels, n));
    FLOE_STORE_FLOAT(ledger, copy, 0.0); // the original keeps what its step took
    FLOE_STORE_VEC4(approach, copy, FLOE_RW_LOAD_VEC4(approach, n)); // a piece split off in a contact keeps its approach
    const uint f = FLOE_RW_LOAD_UINT(flags, n) | FRACTURE_NODE_CRACK;
    FLOE_STORE_UINT(flags, n, f);
    FLOE_STORE_UINT(flags, copy, f);
}
