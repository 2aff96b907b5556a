#version 460
// Cell key (bin key where the grid resolves x finer than its cells) of every particle, and the particles per cell (counts, zero before this pass): the
// counting sort's first pass (src/sim/SpatialGrid.h).
#include "shared/grid.h"
#include "common/dispatch.glsl"
// Per-particle outputs, within maxStorageBufferRange (sim::SpatialGrid checks): storage buffers,
// lavapipe's fast store (common/texel.glsl).
#define FLOE_OUT_STORAGE
#include "common/texel.glsl"
#include "grid/grid_common.glsl"

layout(local_size_x = GRID_GROUP_SIZE) in;
layout(push_constant) uniform Push { GridParams params; };
FLOE_IN_VEC4(GRID_BIND_POSITIONS, positions);
FLOE_OUT_UINT(GRID_BIND_KEYS, keys);
layout(std430, binding = GRID_BIND_COUNTS) buffer Counts { uint counts[]; };

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= params.dims.w) return;
    const vec4 x = FLOE_LOAD_VEC4(positions, i);
    // Left out (params.bins.y): an entry of weight 0 (a coupled solid's sample that is off) takes
    // the key past the last bin, so that the sort puts it after every bin's range and no walk
    // meets it.
    const uint key = params.bins.y != 0u && x.w == 0.0 ? params.dims.x * params.dims.y * params.dims.z
                                                       : gridKey(gridBin(x.xyz, params.origin, params.dims, params.bins.x), params.dims);
    FLOE_STORE_UINT(keys, i, key);
    atomicAdd(counts[key], 1u);
}
