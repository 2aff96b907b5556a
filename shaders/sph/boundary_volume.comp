#version 460
// Akinci et al. 2012, eq. (4)-(5): the volume of a boundary particle is the inverse of its
// boundary-only kernel sum, V_b = 1 / sum_k W(x_b - x_k) (itself included), and it weighs
// Psi_b = gamma rho0 V_b in every sum with fluid particles; gamma (params.material.w, see
// sim::boundaryVolumeScale) makes a fluid at rest next to a flat wall start at the bulk
// density. Run once when the boundary is built.
#include "sph/sph_common.glsl"

layout(local_size_x = SPH_GROUP_SIZE) in;
FLOE_IN_VEC4(SPH_BIND_BOUNDARY, boundary); // sorted by cell, w unused
FLOE_IN_UINT(SPH_BIND_BOUNDARY_START, boundaryStart);
FLOE_OUT_VEC4(SPH_BIND_OUT0, boundaryOut);

void main()
{
    const uint b = floeGlobalIndex();
    if (b >= sphBoundaryCount()) return;
    const vec3 xb = FLOE_LOAD_VEC4(boundary, b).xyz;
    float sum = 0.0;
    BOUNDARY_NEAR_BEGIN(xb, begin, end)
    for (uint k = begin; k < end; ++k) sum += sphW(length(xb - FLOE_LOAD_VEC4(boundary, k).xyz));
    BOUNDARY_NEAR_END
    FLOE_STORE_VEC4(boundaryOut, b, vec4(xb, params.material.w * sphRho0() / sum));
}
