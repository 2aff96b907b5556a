#version 460
// IISPH advection prediction (digest-001 §2.7, Ihmsen et al. 2014): the predicted density
// rho*_i = rho_i + dt sum_j m_j (v*_i - v*_j).grad W_ij + dt sum_b Psi_b v*_i.grad W_ib (5.16),
// the source s_i = rho0 - rho*_i (5.15), the diagonal a_ii and the initial pressure.
//
// With d_ii = -dt^2 (G_f + (1 + rho_i^2/rho0^2) G_b)/rho_i^2 the coefficient of p_i in dt^2 a_i
// (Ihmsen's d_ii, extended by the mirrored boundary term of Alg. 7) and d_ji = dt^2 m_i/rho_i^2
// grad W_ij, Ihmsen's exact diagonal of the operator (5.19) is
//   a_ii = sum_j m_j (d_ii - d_ji).grad W_ij + sum_b Psi_b d_ii.grad W_ib
//        = d_ii.(G_f + G_b) - dt^2 m_i/rho_i^2 sum_j m_j |grad W_ij|^2,
// G_f = sum_j m_j grad W_ij, G_b = sum_b Psi_b grad W_ib. The thesis's (5.13)-(5.14) drops the
// mixed wall terms (erratum 5); it is the "thesis" diagonal option. Both converge to the same
// pressures (the Jacobi fixed point does not depend on the diagonal).
#include "sph/sph_common.glsl"

layout(local_size_x = SPH_GROUP_SIZE) in;
layout(std140, binding = SPH_BIND_STATE) uniform State { SphState state; };
layout(constant_id = 2) const uint THESIS_DIAGONAL = 0u;
layout(constant_id = 3) const uint WARM_START = 1u;
FLOE_IN_VEC4(SPH_BIND_POSITIONS, positions);
FLOE_IN_VEC4(SPH_BIND_VELOCITIES, velocities); // w: last step's pressure
FLOE_IN_UVEC4(SPH_BIND_NEIGHBOURS, neighbours);
FLOE_IN_UINT(SPH_BIND_NEIGHBOUR_COUNTS, neighbourCounts);
FLOE_IN_UINT(SPH_BIND_CELL_START, cellStart); // walked when a list overflowed
FLOE_IN_VEC4(SPH_BIND_BOUNDARY, boundary);
FLOE_IN_UINT(SPH_BIND_BOUNDARY_START, boundaryStart);
FLOE_IN_VEC4(SPH_BIND_PREDICTED, predicted);
FLOE_IN_VEC4(SPH_BIND_BOUNDARY_TERMS, boundaryTerms);
FLOE_IN_FLOAT(SPH_BIND_BOUNDARY_RATES, boundaryRates);
FLOE_RW_VEC4(SPH_BIND_FIELDS, fields);
FLOE_OUT_FLOAT(SPH_BIND_PRESSURE_TERMS, pressureTerms); // p_i / rho_i^2 for sph/jacobi_accel

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= sphFluidCount()) return;
    const vec4 pi4 = FLOE_LOAD_VEC4(positions, i);
    const vec3 xi = pi4.xyz;
    const float mi = pi4.w;
    const vec3 vi = FLOE_LOAD_VEC4(predicted, i).xyz;
    const float rhoi = FLOE_RW_LOAD_VEC4(fields, i).x;
    const float rho0 = sphRho0();
    const float dt = state.time.x;

    vec3 gradFluid = vec3(0.0);    // G_f
    float gradSquares = 0.0;       // sum_j m_j |grad W_ij|^2
    float divergence = 0.0;        // sum_j m_j (v*_i - v*_j).grad W_ij
    // With G = m_j grad W_ij: sum_j m_j |grad W_ij|^2 = sum_j |G|^2 / m_j.
#define FLUID_PAIR(j, gradient)                                               \
    {                                                                         \
        const vec3 g = (gradient);                                            \
        gradFluid += g;                                                       \
        gradSquares += dot(g, g) / FLOE_LOAD_VEC4(positions, j).w;            \
        divergence += dot(vi - FLOE_LOAD_VEC4(predicted, j).xyz, g);          \
    }
    FLUID_PAIRS(i, xi)
    // G_b from the density pass; the thesis's diagonal also needs sum_b Psi_b^2 |grad W_ib|^2,
    // the only reason left to walk the boundary here.
    const vec3 gradBoundary = sphBoundaryCount() > 0u ? FLOE_LOAD_VEC4(boundaryTerms, i).xyz : vec3(0.0);
    divergence += dot(vi, gradBoundary);
    if (SOLIDS != 0u) divergence -= FLOE_LOAD_FLOAT(boundaryRates, i); // moving solids: v_b . grad W_ib
    float boundarySquares = 0.0;
    if (THESIS_DIAGONAL != 0u && sphBoundaryCount() > 0u) {
        BOUNDARY_NEAR_BEGIN(xi, begin, end)
        for (uint b = begin; b < end; ++b) {
            const vec4 xb = FLOE_LOAD_VEC4(boundary, b);
            const vec3 xib = xi - xb.xyz;
            const float r = length(xib);
            if (!(r < sphSupport())) continue; // also skips NaN distances
            const vec3 g = sphGradW(xib, r);
            boundarySquares += xb.w * xb.w * dot(g, g);
        }
        BOUNDARY_NEAR_END
    }
    const float rhoi2 = rhoi * rhoi;
    float aii;
    if (THESIS_DIAGONAL != 0u) {
        // (5.13)-(5.14) with per-particle masses: -dt^2/rho_i^2 [|G_f|^2 + m_i S_f + |G_b|^2 + S_b].
        aii = -dt * dt / rhoi2 * (dot(gradFluid, gradFluid) + mi * gradSquares + dot(gradBoundary, gradBoundary) + boundarySquares);
    } else {
        const vec3 dii = -dt * dt * (gradFluid + (1.0 + rhoi2 / (rho0 * rho0)) * gradBoundary) / rhoi2;
        aii = dot(dii, gradFluid + gradBoundary) - dt * dt * mi / rhoi2 * gradSquares;
    }
    const float rhoStar = rhoi + dt * divergence;
    const float p0 = WARM_START != 0u ? 0.5 * FLOE_LOAD_VEC4(velocities, i).w : 0.0;
    const vec4 f = vec4(rhoi, p0, aii, rho0 - rhoStar);
    FLOE_RW_STORE_VEC4(fields, i, f);
    FLOE_STORE_FLOAT(pressureTerms, i, pressureTerm(f));
}
