#version 460
// One thread per sorted slot: the CSR of the node-ordered incidence from the sorted (node,
// corner) pairs: nodeStart[n] = slots with a node below n (each entry written by exactly one
// invocation), the corner of each slot and its inverse, and the segment heads of the per-node
// segmented scan. Every node belongs to a tet (TetMesh drops unused nodes, duplication gives
// each copy tets), so a run of nodes between two slots holds one node and the loops below run
// once: grid/cell_start explains why a long loop here would break on lavapipe.
#include "fracture/fracture_common.glsl"

FLOE_IN_UINT(FRACTURE_BIND_KEYS, keys);
FLOE_IN_UINT(FRACTURE_BIND_VALUES, values);
FLOE_OUT_UINT(FRACTURE_BIND_NODE_START, nodeStart);
FLOE_OUT_UINT(FRACTURE_BIND_CORNERS, corners);
FLOE_OUT_UINT(FRACTURE_BIND_SLOTS, slots);
FLOE_OUT_UINT(FRACTURE_BIND_SPLIT, heads); // the heads, in the split flags' buffer slot

void main()
{
    const uint s = floeGlobalIndex();
    const uint count = 4u * params.tets;
    if (s >= count) return;
    const uint key = FLOE_LOAD_UINT(keys, s);
    const uint first = s == 0u ? 0u : FLOE_LOAD_UINT(keys, s - 1u) + 1u;
    for (uint n = first; n <= key; ++n) FLOE_STORE_UINT(nodeStart, n, s);
    if (s == count - 1u)
        for (uint n = key + 1u; n <= params.nodes; ++n) FLOE_STORE_UINT(nodeStart, n, count);
    const uint corner = FLOE_LOAD_UINT(values, s);
    FLOE_STORE_UINT(corners, s, corner);
    FLOE_STORE_UINT(slots, corner, s);
    FLOE_STORE_UINT(heads, s, first <= key ? 1u : 0u);
}
