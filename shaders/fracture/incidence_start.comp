#version 460
// The CSR of the node-ordered incidence from the sorted (node, corner) pairs, with an invocation
// per sorted slot and one per node entry (the dispatch covers both): a slot writes its corner,
// the corner's slot and whether it heads its node's segment (for the per-node segmented scan); a
// node n writes nodeStart[n] = the number of slots with a node below n, by a binary search of the
// sorted keys. No invocation loops over a run of nodes, so nodes without tets (or a long run of
// them) cost nothing extra and no driver's loop cap can cut a run short (grid/cell_start).
#include "fracture/fracture_common.glsl"

FLOE_IN_UINT(FRACTURE_BIND_KEYS, keys);
FLOE_IN_UINT(FRACTURE_BIND_VALUES, values);
FLOE_OUT_UINT(FRACTURE_BIND_NODE_START, nodeStart);
FLOE_OUT_UINT(FRACTURE_BIND_CORNERS, corners);
FLOE_OUT_UINT(FRACTURE_BIND_SLOTS, slots);
FLOE_OUT_UINT(FRACTURE_BIND_SPLIT, heads); // the heads, in the split flags' buffer slot

// The first sorted slot whose key is >= n.
uint lowerBound(uint count, uint n)
{
    uint lo = 0u, hi = count;
    while (lo < hi) {
        const uint mid = (lo + hi) >> 1u;
        if (FLOE_LOAD_UINT(keys, mid) < n)
            lo = mid + 1u;
        else
            hi = mid;
    }
    return lo;
}

void main()
{
    const uint t = floeGlobalIndex();
    const uint count = 4u * params.tets;
    if (t <= params.nodes) FLOE_STORE_UINT(nodeStart, t, lowerBound(count, t));
    if (t >= count) return;
    const uint key = FLOE_LOAD_UINT(keys, t);
    const uint corner = FLOE_LOAD_UINT(values, t);
    FLOE_STORE_UINT(corners, t, corner);
    FLOE_STORE_UINT(slots, corner, t);
    FLOE_STORE_UINT(heads, t, t == 0u || FLOE_LOAD_UINT(keys, t - 1u) != key ? 1u : 0u);
}
