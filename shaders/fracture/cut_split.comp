#version 460
// One thread per node slot up to the capacity (indirect): 1 where the cut separates tets on
// both sides of the node (digest-004 §3.1 compareAndSplit), for the exclusive scan that
// numbers the duplicates.
#include "fracture/fracture_common.glsl"

FLOE_IN_UINT(FRACTURE_BIND_NODE_SIDES, nodeSides);
FLOE_OUT_UINT(FRACTURE_BIND_SPLIT, split);
FRACTURE_STATE_BLOCK;

void main()
{
    const uint n = floeGlobalIndex();
    if (n >= params.nodeCapacity) return;
    FLOE_STORE_UINT(split, n, n < state.counts.x && FLOE_LOAD_UINT(nodeSides, n) == 3u ? 1u : 0u);
}
