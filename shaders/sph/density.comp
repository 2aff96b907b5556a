#version 460
// Density (digest-001 (5.3): the particle itself and boundary particles included; Akinci et
// al. 2012: a boundary particle weighs Psi_b = rho0 V_b) and the equation-of-state pressure
// (digest-001 (4.1), Tait, digest-003 (3.5a)).
#include "sph/sph_common.glsl"

layout(local_size_x = SPH_GROUP_SIZE) in;
FLOE_IN_VEC4(SPH_BIND_POSITIONS, positions);
FLOE_IN_UINT(SPH_BIND_CELL_START, cellStart);
FLOE_IN_VEC4(SPH_BIND_BOUNDARY, boundary);
FLOE_IN_UINT(SPH_BIND_BOUNDARY_START, boundaryStart);
FLOE_OUT_VEC4(SPH_BIND_FIELDS, fields);

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= sphFluidCount()) return;
    const vec3 xi = FLOE_LOAD_VEC4(positions, i).xyz;
    const ivec3 c = sphCell(xi);
    float rho = 0.0;
    GRID_STRIPS_BEGIN(cellStart, c, params.gridDims, begin, end)
    for (uint j = begin; j < end; ++j) {
        const vec4 pj = FLOE_LOAD_VEC4(positions, j);
        const float r = length(xi - pj.xyz);
        if (r < sphSupport()) rho += pj.w * sphW(r); // false for NaN: one broken particle does not spread
    }
    GRID_STRIPS_END
    if (sphBoundaryCount() > 0u) {
        GRID_STRIPS_BEGIN(boundaryStart, c, params.gridDims, begin, end)
        for (uint b = begin; b < end; ++b) {
            const vec4 xb = FLOE_LOAD_VEC4(boundary, b);
            const float r = length(xi - xb.xyz);
            if (r < sphSupport()) rho += xb.w * sphW(r);
        }
        GRID_STRIPS_END
    }
    const float p = eosPressure(params.flags.z, rho, sphRho0(), params.material.z, params.domainMax.w, params.flags.w != 0u);
    FLOE_STORE_VEC4(fields, i, vec4(rho, p, 0.0, 0.0));
}
