#version 460
// cellStart[c] = number of particles with key < c, for c = 0..cells, from the sorted keys.
// Each cell is written by exactly one invocation: the particle that starts the run of cells
// (previous key, own key], and the last particle also the cells after it. No atomics, no
// clearing pass, deterministic; empty cells get empty ranges.
#include "shared/grid.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"

layout(local_size_x = GRID_GROUP_SIZE) in;
layout(push_constant) uniform Push { GridParams params; };
FLOE_IN_UINT(GRID_BIND_KEYS, keys);
FLOE_OUT_UINT(GRID_BIND_CELL_START, cellStart);

void main()
{
    const uint i = floeGlobalIndex();
    const uint n = params.dims.w;
    if (i >= n) return;
    const uint key = FLOE_LOAD_UINT(keys, i);
    const uint first = i == 0u ? 0u : FLOE_LOAD_UINT(keys, i - 1u) + 1u;
    for (uint c = first; c <= key; ++c) FLOE_STORE_UINT(cellStart, c, i);
    if (i == n - 1u) {
        const uint cells = params.dims.x * params.dims.y * params.dims.z;
        for (uint c = key + 1u; c <= cells; ++c) FLOE_STORE_UINT(cellStart, c, n);
    }
}
