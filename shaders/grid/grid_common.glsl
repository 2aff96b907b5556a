// Cell coordinates and keys (shared/grid.h). Positions outside the grid fall into the nearest
// edge cell, so every particle is in some cell whatever happens to it.
#ifndef FLOE_GRID_COMMON_GLSL
#define FLOE_GRID_COMMON_GLSL

// The bin of x in a grid that resolves x into xBins bins per cell (dims.x counts the bins), bins
// of cellSize / xBins along x.
ivec3 gridBin(vec3 x, vec4 origin, uvec4 dims, uint xBins)
{
    const vec3 size = vec3(origin.w / float(xBins), origin.w, origin.w);
    const vec3 c = floor((x - origin.xyz) / size);
    // Non-finite positions (a diverged particle) land in cell 0 instead of an undefined cast.
    const vec3 safe = mix(c, vec3(0.0), isnan(c));
    return clamp(ivec3(clamp(safe, vec3(-1.0), vec3(dims.xyz))), ivec3(0), ivec3(dims.xyz) - 1);
}

ivec3 gridCell(vec3 x, vec4 origin, uvec4 dims)
{
    return gridBin(x, origin, dims, 1u);
}

uint gridKey(ivec3 c, uvec4 dims)
{
    return uint(c.x) + dims.x * (uint(c.y) + dims.y * uint(c.z));
}

// Neighbour loop over the x-strips around cell `c`: `begin`/`end` bound the sorted indices of
// the particles in cells (c.x-1 .. c.x+1, c.y+dy, c.z+dz). Use as
//   GRID_STRIPS_BEGIN(cellStart, c, dims, begin, end) for (uint j = begin; j < end; ++j) {...} GRID_STRIPS_END
#define GRID_STRIPS_BEGIN(startTex, c, dims, begin, end)                                              \
    for (int dz_ = max((c).z - 1, 0); dz_ <= min((c).z + 1, int((dims).z) - 1); ++dz_)                 \
        for (int dy_ = max((c).y - 1, 0); dy_ <= min((c).y + 1, int((dims).y) - 1); ++dy_) {           \
            const uint row_ = gridKey(ivec3(0, dy_, dz_), (dims));                                      \
            const uint begin = FLOE_LOAD_UINT(startTex, row_ + uint(max((c).x - 1, 0)));               \
            const uint end = FLOE_LOAD_UINT(startTex, row_ + uint(min((c).x + 1, int((dims).x) - 1)) + 1u);
#define GRID_STRIPS_END }

#endif
