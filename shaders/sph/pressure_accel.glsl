// Pressure acceleration (digest-001 (5.21) with the boundary of Alg. 7: mirrored pressure
// p_b = p_i and density rho0, weighted by Akinci's Psi_b instead of the thesis's equal mass):
//   a_i = - sum_j m_j (p_i/rho_i^2 + p_j/rho_j^2) grad W_ij - sum_b Psi_b p_i (1/rho_i^2 + 1/rho0^2) grad W_ib
// Needs positions, fields (x density, y pressure), cellStart, boundary and boundaryStart bound;
// define PRESSURE_ACCEL_RW_FIELDS where fields is a read-write binding.
#ifndef FLOE_SPH_PRESSURE_ACCEL_GLSL
#define FLOE_SPH_PRESSURE_ACCEL_GLSL
// 1: the boundary term mirrors the pressure (IISPH, DFSPH, EOS); 0: Akinci's one-sided
// p_i/rho_i^2 (PCISPH, whose fixed prototype scaling assumes a fluid neighbourhood).
layout(constant_id = 8) const uint MIRROR_BOUNDARY_PRESSURE = 1u;

#ifdef PRESSURE_ACCEL_RW_FIELDS
#define PRESSURE_ACCEL_FIELD(j) FLOE_RW_LOAD_VEC4(fields, j)
#else
#define PRESSURE_ACCEL_FIELD(j) FLOE_LOAD_VEC4(fields, j)
#endif

vec3 pressureAcceleration(uint i, vec3 xi, float rhoi, float pi)
{
    const ivec3 c = sphCell(xi);
    const float pi_rho2 = pi / (rhoi * rhoi);
    vec3 a = vec3(0.0);
    GRID_STRIPS_BEGIN(cellStart, c, params.gridDims, begin, end)
    for (uint j = begin; j < end; ++j) {
        const vec4 pj = FLOE_LOAD_VEC4(positions, j);
        const vec3 xij = xi - pj.xyz;
        const float r = length(xij);
        if (!(r < sphSupport()) || j == i) continue; // also skips NaN distances
        const vec4 fj = PRESSURE_ACCEL_FIELD(j);
        a -= pj.w * (pi_rho2 + fj.y / (fj.x * fj.x)) * sphGradW(xij, r);
    }
    GRID_STRIPS_END
    if (sphBoundaryCount() > 0u && pi != 0.0) {
        const float rho0 = sphRho0();
        const float mirrored = MIRROR_BOUNDARY_PRESSURE != 0u ? pi_rho2 + pi / (rho0 * rho0) : pi_rho2;
        GRID_STRIPS_BEGIN(boundaryStart, c, params.gridDims, begin, end)
        for (uint b = begin; b < end; ++b) {
            const vec4 xb = FLOE_LOAD_VEC4(boundary, b);
            const vec3 xib = xi - xb.xyz;
            const float r = length(xib);
            if (!(r < sphSupport())) continue; // also skips NaN distances
            a -= xb.w * mirrored * sphGradW(xib, r);
        }
        GRID_STRIPS_END
    }
    return a;
}

#endif
