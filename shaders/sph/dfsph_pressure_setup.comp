#version 460
// DFSPH constant-density solver, set-up (Bender & Koschier 2017 Alg. 3, §3.3; SPlisHSPlasH's
// pressureSolve): the density predicted from the velocities after the non-pressure forces,
//   rho*_i = rho_i + dt [sum_j m_j (v*_i - v*_j).grad W_ij + sum_b Psi_b v*_i.grad W_ib],
// the source s_i = rho0 - rho*_i, and the warm start (their §4.3): half the last step's kappa
// where the fluid is predicted compressed, limited (dfsphWarmStartLimit), as p = kappa rho_i^2.
// The diagonal D_i comes from the density pass.
#include "sph/sph_common.glsl"

layout(local_size_x = SPH_GROUP_SIZE) in;
layout(std140, binding = SPH_BIND_STATE) uniform State { SphState state; };
FLOE_IN_VEC4(SPH_BIND_POSITIONS, positions);
FLOE_IN_UVEC4(SPH_BIND_NEIGHBOURS, neighbours);
FLOE_IN_UINT(SPH_BIND_NEIGHBOUR_COUNTS, neighbourCounts);
FLOE_IN_UINT(SPH_BIND_CELL_START, cellStart); // walked when a list overflowed
FLOE_IN_VEC4(SPH_BIND_BOUNDARY_TERMS, boundaryTerms);
FLOE_IN_FLOAT(SPH_BIND_BOUNDARY_RATES, boundaryRates);
FLOE_IN_VEC4(SPH_BIND_PREDICTED, predicted);
FLOE_IN_VEC4(SPH_BIND_SOLVER_STATE, solverState);
FLOE_RW_VEC4(SPH_BIND_FIELDS, fields);
FLOE_OUT_FLOAT(SPH_BIND_PRESSURE_TERMS, pressureTerms); // p_i / rho_i^2 for sph/jacobi_accel

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= sphFluidCount()) return;
    const vec3 xi = FLOE_LOAD_VEC4(positions, i).xyz;
    const vec3 vi = FLOE_LOAD_VEC4(predicted, i).xyz;
    float divergence = 0.0;
#define FLUID_PAIR(j, gradient) divergence += dot(vi - FLOE_LOAD_VEC4(predicted, j).xyz, (gradient));
    FLUID_PAIRS(i, xi)
    if (sphBoundaryCount() > 0u) divergence += dot(vi, FLOE_LOAD_VEC4(boundaryTerms, i).xyz);
    if (SOLIDS != 0u) divergence -= FLOE_LOAD_FLOAT(boundaryRates, i); // moving solids: v_b . grad W_ib
    const float dt = state.time.x;
    const float rho0 = sphRho0();
    vec4 f = FLOE_RW_LOAD_VEC4(fields, i); // density, -, D_i, -
    const float rhoStar = f.x + dt * divergence;
    const float stored = FLOE_LOAD_VEC4(solverState, i).x; // kappa dt^2 of the last step
    const float kappa = rhoStar > rho0 && dt > 0.0 ? 0.5 * min(stored, dfsphWarmStartLimit(sphH(), rho0)) / (dt * dt) : 0.0;
    f = vec4(f.x, kappa * f.x * f.x, f.z, rho0 - rhoStar);
    FLOE_RW_STORE_VEC4(fields, i, f);
    FLOE_STORE_FLOAT(pressureTerms, i, pressureTerm(f));
}
