#version 460
// Every particle into a slot of its cell's range [cellStart[k], cellStart[k+1]) (cellStart: the
// exclusive scan of the counts), taking the slots by counting its cell's counter back down to
// zero: a valid grouping by cell, in an order the atomics choose; grid/cell_rank then puts each
// cell's particles in input order.
#include "shared/grid.h"
#include "common/dispatch.glsl"
// Per-particle outputs, within maxStorageBufferRange (sim::SpatialGrid checks): storage buffers,
// lavapipe's fast store (common/texel.glsl).
#define FLOE_OUT_STORAGE
#include "common/texel.glsl"

layout(local_size_x = GRID_GROUP_SIZE) in;
layout(push_constant) uniform Push { GridParams params; };
FLOE_IN_UINT(GRID_BIND_KEYS, keys);
FLOE_IN_UINT(GRID_BIND_CELL_START, cellStart);
layout(std430, binding = GRID_BIND_COUNTS) buffer Counts { uint counts[]; };
FLOE_OUT_UINT(GRID_BIND_SCATTERED, scattered);

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= params.dims.w) return;
    const uint key = FLOE_LOAD_UINT(keys, i);
    const uint left = atomicAdd(counts[key], 0xFFFFFFFFu); // this cell's particles not yet placed, this one included
    FLOE_STORE_UINT(scattered, FLOE_LOAD_UINT(cellStart, key) + left - 1u, i);
}
