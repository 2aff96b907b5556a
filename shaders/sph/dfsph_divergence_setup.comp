#version 460
// DFSPH divergence-free solver, set-up (Bender & Koschier 2017, Alg. 2; SPlisHSPlasH's
// divergenceSolve): the density change rate of the current velocities
//   (D rho / Dt)_i = sum_j m_j (v_i - v_j).grad W_ij + sum_b Psi_b v_i.grad W_ib   (eq. (9)),
// kept only where it compresses (> 0) and where the particle has enough neighbours (deficient
// particles at the free surface are left alone, dfsphMinNeighbours); the source of the solve is
// s_i = -(D rho / Dt)_i. Warm start (their §4.3): half the last step's kappa_v where the fluid
// compresses, limited (dfsphDivergenceWarmStartLimit), as a pressure p = kappa rho_i^2.
#include "sph/sph_common.glsl"

layout(local_size_x = SPH_GROUP_SIZE) in;
layout(std140, binding = SPH_BIND_STATE) uniform State { SphState state; };
FLOE_IN_VEC4(SPH_BIND_POSITIONS, positions);
FLOE_IN_VEC4(SPH_BIND_VELOCITIES, velocities);
FLOE_IN_UVEC4(SPH_BIND_NEIGHBOURS, neighbours);
FLOE_IN_UINT(SPH_BIND_NEIGHBOUR_COUNTS, neighbourCounts);
FLOE_IN_UINT(SPH_BIND_CELL_START, cellStart); // walked when a list overflowed
FLOE_IN_VEC4(SPH_BIND_BOUNDARY_TERMS, boundaryTerms);
FLOE_IN_FLOAT(SPH_BIND_BOUNDARY_RATES, boundaryRates);
FLOE_IN_VEC4(SPH_BIND_SOLVER_STATE, solverState);
FLOE_RW_VEC4(SPH_BIND_FIELDS, fields);
FLOE_OUT_FLOAT(SPH_BIND_PRESSURE_TERMS, pressureTerms); // p_i / rho_i^2 for sph/jacobi_accel

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= sphFluidCount()) return;
    const vec3 xi = FLOE_LOAD_VEC4(positions, i).xyz;
    const vec3 vi = FLOE_LOAD_VEC4(velocities, i).xyz;
    float rate = 0.0;
    uint neighbourCount = 0u;
#define FLUID_PAIR(j, gradient)                                          \
    {                                                                    \
        rate += dot(vi - FLOE_LOAD_VEC4(velocities, j).xyz, (gradient)); \
        ++neighbourCount;                                                \
    }
    FLUID_PAIRS(i, xi)
    if (sphBoundaryCount() > 0u) {
        const vec4 walls = FLOE_LOAD_VEC4(boundaryTerms, i);
        rate += dot(vi, walls.xyz);
        if (SOLIDS != 0u) rate -= FLOE_LOAD_FLOAT(boundaryRates, i); // moving solids: v_b . grad W_ib
        neighbourCount += uint(walls.w);
    }
    if (neighbourCount < dfsphMinNeighbours(DIMS)) rate = 0.0;
    rate = max(rate, 0.0);
    const float dt = state.time.x;
    vec4 f = FLOE_RW_LOAD_VEC4(fields, i); // density, -, D_i, -
    const float stored = FLOE_LOAD_VEC4(solverState, i).y; // kappa_v dt of the last step
    const float kappa = rate > 0.0 && dt > 0.0 ? 0.5 * min(stored, dfsphDivergenceWarmStartLimit(sphH(), sphRho0())) / dt : 0.0;
    f = vec4(f.x, kappa * f.x * f.x, f.z, -rate);
    FLOE_RW_STORE_VEC4(fields, i, f);
    FLOE_STORE_FLOAT(pressureTerms, i, pressureTerm(f));
}
