#version 460
// Cell key and index of every particle, the input of the stable sort by cell.
#include "shared/grid.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"
#include "grid/grid_common.glsl"

layout(local_size_x = GRID_GROUP_SIZE) in;
layout(push_constant) uniform Push { GridParams params; };
FLOE_IN_VEC4(GRID_BIND_POSITIONS, positions);
FLOE_OUT_UINT(GRID_BIND_KEYS, keys);
FLOE_OUT_UINT(GRID_BIND_VALUES, values);

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= params.dims.w) return;
    const vec3 x = FLOE_LOAD_VEC4(positions, i).xyz;
    FLOE_STORE_UINT(keys, i, gridKey(gridCell(x, params.origin, params.dims), params.dims));
    FLOE_STORE_UINT(values, i, i);
}
