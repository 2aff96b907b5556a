#version 460
// PBF iteration, pass 2 (Macklin & Müller 2013 eq. (12)): the position correction
//   dx_i = (1/rho0) [sum_j m_j (lambda_i + lambda_j) grad W_ij + sum_b Psi_b lambda_i grad W_ib]
// (static boundary samples take no correction, so theirs is one-sided, as SPlisHSPlasH's).
#define FLUID_ANCHOR(j) FLOE_LOAD_VEC4(anchors, j).xyz
#include "sph/sph_common.glsl"

layout(local_size_x = SPH_GROUP_SIZE) in;
FLOE_IN_VEC4(SPH_BIND_POSITIONS, positions);
FLOE_IN_UINT(SPH_BIND_CELL_START, cellStart); // walked when a list overflowed
FLOE_IN_VEC4(SPH_BIND_ANCHORS, anchors);       // the predicted positions the lists were built at
FLOE_IN_UVEC4(SPH_BIND_NEIGHBOURS, neighbours);
FLOE_IN_UINT(SPH_BIND_NEIGHBOUR_COUNTS, neighbourCounts);
FLOE_IN_VEC4(SPH_BIND_BOUNDARY, boundary);
FLOE_IN_UINT(SPH_BIND_BOUNDARY_START, boundaryStart);
FLOE_IN_VEC4(SPH_BIND_FIELDS, fields);
FLOE_OUT_VEC4(SPH_BIND_ACCEL, corrections);

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= sphFluidCount()) return;
    const vec3 xi = FLOE_LOAD_VEC4(positions, i).xyz;
    const float lambdaI = FLOE_LOAD_VEC4(fields, i).y;
    vec3 dx = vec3(0.0);
    FLUID_NEIGHBOURS_BEGIN(i, FLOE_LOAD_VEC4(anchors, i).xyz, j)
        const vec4 pj = FLOE_LOAD_VEC4(positions, j);
        const vec3 xij = xi - pj.xyz;
        const float r = length(xij);
        if (!(r < sphSupport())) continue;
        dx += pj.w * (lambdaI + FLOE_LOAD_VEC4(fields, j).y) * sphGradW(xij, r);
    FLUID_NEIGHBOURS_END
    if (sphBoundaryCount() > 0u && lambdaI != 0.0) {
        BOUNDARY_NEAR_BEGIN(xi, begin, end)
        for (uint b = begin; b < end; ++b) {
            const vec4 xb = FLOE_LOAD_VEC4(boundary, b);
            const vec3 xib = xi - xb.xyz;
            const float r = length(xib);
            if (!(r < sphSupport())) continue;
            dx += xb.w * lambdaI * sphGradW(xib, r);
        }
        BOUNDARY_NEAR_END
    }
    dx /= sphRho0();
    if (DIMS == 2u) dx.z = 0.0;
    FLOE_STORE_VEC4(corrections, i, vec4(dx, 0.0));
}
