#version 460
// The counting sort's last pass: each particle's slot within its cell is its rank by input index
// among the cell's particles, so that the result is the stable sort by key (the order a stable
// radix sort gives), whatever order grid/cell_scatter's atomics chose: deterministic, and
// identical on every device. One loop over the cell per particle (about 8 at rest density); a
// cell of more than GRID_RANK_LIMIT particles keeps the atomics' order (and stays grouped).
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
FLOE_IN_UINT(GRID_BIND_SCATTERED, scattered);
FLOE_OUT_UINT(GRID_BIND_VALUES, values);
FLOE_OUT_UINT(GRID_BIND_SORTED_KEYS, sortedKeys);

void main()
{
    const uint s = floeGlobalIndex();
    if (s >= params.dims.w) return;
    const uint i = FLOE_LOAD_UINT(scattered, s);
    const uint key = FLOE_LOAD_UINT(keys, i);
    // The entries left out (key = the bin count, grid/cell_keys) end at the count.
    const uint bins = params.dims.x * params.dims.y * params.dims.z;
    const uint begin = FLOE_LOAD_UINT(cellStart, key), end = key < bins ? FLOE_LOAD_UINT(cellStart, key + 1u) : params.dims.w;
    uint slot = s;
    if (end - begin <= GRID_RANK_LIMIT) {
        slot = begin;
        for (uint t = begin; t < end; ++t) slot += FLOE_LOAD_UINT(scattered, t) < i ? 1u : 0u;
    }
    FLOE_STORE_UINT(values, slot, i);
    FLOE_STORE_UINT(sortedKeys, slot, key);
}
