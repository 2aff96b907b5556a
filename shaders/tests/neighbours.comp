#version 460
// Test pass: for every sorted particle, the number of fluid neighbours within the kernel
// support found through the grid's bins within the support's chord (NEAR_BINS_BEGIN), and the
// sum and xor of their sorted indices (compared with brute force by tests/gpu/SphTest.cpp).
#include "sph/sph_common.glsl"

layout(local_size_x = SPH_GROUP_SIZE) in;
FLOE_IN_VEC4(SPH_BIND_POSITIONS, positions);
FLOE_IN_UINT(SPH_BIND_CELL_START, cellStart);
FLOE_OUT_UVEC4(SPH_BIND_OUT0, found);

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= sphFluidCount()) return;
    const vec3 xi = FLOE_LOAD_VEC4(positions, i).xyz;
    uvec4 result = uvec4(0u);
    NEAR_BINS_BEGIN(cellStart, xi, begin, end)
    for (uint j = begin; j < end; ++j) {
        if (length(xi - FLOE_LOAD_VEC4(positions, j).xyz) < sphSupport()) {
            result.x += 1u;
            result.y += j;
            result.z ^= j * 2654435761u;
        }
    }
    NEAR_BINS_END
    FLOE_STORE_UVEC4(found, i, result);
}
