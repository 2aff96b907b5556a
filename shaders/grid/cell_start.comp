#version 460
// cellStart[c] = number of particles with key < c, for c = 0..cells, from the sorted keys. Each
// invocation writes GRID_CELLS_PER_THREAD consecutive entries: a binary search for the first,
// then a walk along the sorted keys for the rest (a walk that would pass more than
// GRID_WALK_LIMIT particles, a crowded cell, falls back to a binary search). No atomics, no
// clearing pass, deterministic; empty cells get empty ranges, and no invocation loops more
// than a few thousand times.
//
// That bound matters on lavapipe: llvmpipe ends every loop of an invocation once the invocation
// has run 65535 iterations in all (LP_MAX_TGSI_LOOP_ITERATIONS). An earlier version let the
// particle that starts a run of empty cells fill the whole run, so in a large, sparsely filled
// grid the end of a long run was never written and the neighbour search read stale memory.
#include "shared/grid.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"

layout(local_size_x = GRID_GROUP_SIZE) in;
layout(push_constant) uniform Push { GridParams params; };
FLOE_IN_UINT(GRID_BIND_KEYS, keys);
FLOE_OUT_UINT(GRID_BIND_CELL_START, cellStart);

// The first sorted slot in [lo, n) whose key is >= c.
uint lowerBound(uint lo, uint n, uint c)
{
    uint hi = n;
    while (lo < hi) {
        const uint mid = (lo + hi) >> 1u;
        if (FLOE_LOAD_UINT(keys, mid) < c) lo = mid + 1u;
        else hi = mid;
    }
    return lo;
}

void main()
{
    const uint n = params.dims.w;
    const uint cells = params.dims.x * params.dims.y * params.dims.z;
    const uint first = floeGlobalIndex() * GRID_CELLS_PER_THREAD;
    if (first > cells) return;
    const uint last = min(first + GRID_CELLS_PER_THREAD - 1u, cells);
    uint slot = lowerBound(0u, n, first);
    FLOE_STORE_UINT(cellStart, first, slot);
    for (uint c = first + 1u; c <= last; ++c) {
        uint walked = 0u;
        while (slot < n && walked < GRID_WALK_LIMIT && FLOE_LOAD_UINT(keys, slot) < c) {
            ++slot;
            ++walked;
        }
        if (walked == GRID_WALK_LIMIT) slot = lowerBound(slot, n, c);
        FLOE_STORE_UINT(cellStart, c, slot);
    }
}
