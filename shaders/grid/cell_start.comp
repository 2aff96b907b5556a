#version 460
// cellStart[c] = number of particles with key < c, for c = 0..cells, from the sorted keys: one
// invocation per cell, each a binary search (at most log2(n) + 1 steps). No atomics, no
// clearing pass, deterministic; empty cells get empty ranges.
//
// An earlier version let the particle that starts a run of cells write the whole run, which is
// one long loop per invocation where the fluid fills a small part of a large domain. Besides
// serialising the work, that broke on lavapipe: llvmpipe ends every loop of an invocation once
// the invocation has run 65535 iterations in all (LP_MAX_TGSI_LOOP_ITERATIONS), so the end of
// long gaps was never written and the neighbour search read stale memory. Shaders in Floe keep
// each invocation's loops far below that count.
#include "shared/grid.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"

layout(local_size_x = GRID_GROUP_SIZE) in;
layout(push_constant) uniform Push { GridParams params; };
FLOE_IN_UINT(GRID_BIND_KEYS, keys);
FLOE_OUT_UINT(GRID_BIND_CELL_START, cellStart);

void main()
{
    const uint c = floeGlobalIndex();
    const uint n = params.dims.w;
    const uint cells = params.dims.x * params.dims.y * params.dims.z;
    if (c > cells) return;
    // Lower bound: the first sorted slot whose key is >= c.
    uint lo = 0u, hi = n;
    while (lo < hi) {
        const uint mid = (lo + hi) >> 1u;
        if (FLOE_LOAD_UINT(keys, mid) < c) lo = mid + 1u;
        else hi = mid;
    }
    FLOE_STORE_UINT(cellStart, c, lo);
}
