#version 460
// One relaxed Jacobi iteration of a pressure system, pass 2 (IISPH: digest-001 (5.18)-(5.20);
// DFSPH: Bender & Koschier 2017 Alg. 2 and 3, which iterate the same operator): the density
// change of the current pressures
//   (Ap)_i = sum_j m_j (a_i - a_j).grad W_ij + sum_b Psi_b a_i.grad W_ib
// (a: pass 1's pressure accelerations), scaled by dt^2 for a density (IISPH, DFSPH's constant
// density solve) or by dt for a density rate (DFSPH's divergence-free solve); the update (UPDATE)
// and the iteration's error per workgroup, summed
// in a fixed order (ERROR_MODE, shared/sph.h): Floe's predicted compression max((Ap)_i - s_i, 0)/rho0
// averaged over the particles under pressure (averaged over all particles the few compressed ones
// at a floor are diluted by the many at rest and a column sags before the solver acts), the
// thesis's signed average over all particles (digest-001 §2.7 step 4d), or SPlisHSPlasH's sums
// divided by all fluid particles. Divergence errors are per time step (times dt), as
// SPlisHSPlasH's maxErrorV.
// The pass ends the iteration (sph/solver_stop.glsl): an iteration is two dispatches, not three.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "sph/sph_common.glsl"

layout(local_size_x = SPH_GROUP_SIZE) in;
layout(std430, binding = SPH_BIND_STATE) buffer State { SphState state; };
layout(constant_id = 2) const uint ERROR_MODE = SPH_ERROR_PRESSURED;
layout(constant_id = 3) const uint SYSTEM = SPH_SYSTEM_IISPH;
layout(constant_id = 4) const uint UPDATE = SPH_UPDATE_RELAXED;
layout(constant_id = 5) const uint COUNTER = 0u; // 0: the pressure solve, 1: DFSPH's divergence-free solve
const uint STALL = 0u;
FLOE_IN_VEC4(SPH_BIND_POSITIONS, positions);
FLOE_IN_UVEC4(SPH_BIND_NEIGHBOURS, neighbours);
FLOE_IN_UINT(SPH_BIND_NEIGHBOUR_COUNTS, neighbourCounts);
FLOE_IN_UINT(SPH_BIND_CELL_START, cellStart); // walked when a list overflowed
FLOE_IN_VEC4(SPH_BIND_BOUNDARY_TERMS, boundaryTerms);
FLOE_IN_VEC4(SPH_BIND_ACCEL, accelerations);
FLOE_RW_VEC4(SPH_BIND_FIELDS, fields);
FLOE_OUT_FLOAT(SPH_BIND_PRESSURE_TERMS, pressureTerms); // p_i / rho_i^2 for sph/jacobi_accel
#include "sph/solver_stop.glsl"

void main()
{
    const uint i = floeGlobalIndex();
    float error = 0.0;
    float counted = 0.0;
    if (i < sphFluidCount()) {
        const vec3 xi = FLOE_LOAD_VEC4(positions, i).xyz;
        const vec3 ai = FLOE_LOAD_VEC4(accelerations, i).xyz;
        float ap = 0.0;
        uint neighbourCount = 0u;
#define FLUID_PAIR(j, gradient)                                            \
    {                                                                      \
        ap += dot(ai - FLOE_LOAD_VEC4(accelerations, j).xyz, (gradient)); \
        ++neighbourCount;                                                  \
    }
        FLUID_PAIRS(i, xi)
        if (sphBoundaryCount() > 0u) {
            const vec4 walls = FLOE_LOAD_VEC4(boundaryTerms, i);
            ap += dot(ai, walls.xyz);
            neighbourCount += uint(walls.w);
        }
        const float dt = state.time.x;
        vec4 f = FLOE_RW_LOAD_VEC4(fields, i); // density, pressure, a_ii (or D_i), s_i
        float aii = f.z;
        if (SYSTEM == SPH_SYSTEM_DIVERGENCE) {
            ap *= dt;
            aii *= dt;
        } else {
            ap *= dt * dt;
            if (SYSTEM == SPH_SYSTEM_DENSITY) aii *= dt * dt;
        }
        float residual = f.w - ap;
        // An isolated particle has a_ii = 0 (digest-001 erratum 7): its pressure is 0.
        if (!(abs(aii) > 1e-30))
            f.y = 0.0;
        else if (UPDATE == SPH_UPDATE_INCREMENTS)
            // DFSPH (Bender & Koschier 2017 Alg. 2 and 3, as SPlisHSPlasH's DFSPH runs them): each
            // iteration adds kappa_i = max(rho*_i/rho0 - 1, 0) alpha_i / dt^2 (the density rate's
            // positive part in the divergence solve), the whole Jacobi step where the fluid is still
            // compressed and nothing where it is not; a pressure is never taken back within a
            // step. Measured on SPlisHSPlasH's 3D dam break (DFSPH, CFL, 0.1 %): 2.06 iterations
            // per step against 2.59 relaxed with omega 0.5, the largest compression 9 % against
            // 13 %, and corner jets 10 % slower, closer to the reference's.
            f.y += max(residual / aii, 0.0);
        else
            f.y = max(f.y + params.iisph.x * residual / aii, 0.0);
        FLOE_RW_STORE_VEC4(fields, i, f);
        FLOE_STORE_FLOAT(pressureTerms, i, pressureTerm(f));
        // SPlisHSPlasH leaves particles with too few neighbours out of the divergence error.
        if (SYSTEM == SPH_SYSTEM_DIVERGENCE && neighbourCount < dfsphMinNeighbours(DIMS)) residual = 0.0;
        const float rho0 = sphRho0();
        if (SYSTEM == SPH_SYSTEM_DIVERGENCE) residual *= dt; // per time step
        const bool pressured = f.y > 0.0;
        if (ERROR_MODE == SPH_ERROR_SIGNED) {
            counted = 1.0;
            error = -residual / rho0;
        } else if (ERROR_MODE == SPH_ERROR_ALL) {
            counted = 1.0;
            error = max(-residual, 0.0) / rho0;
        } else if (ERROR_MODE == SPH_ERROR_SIGNED_PRESSURED) {
            counted = 1.0;
            error = pressured ? -residual / rho0 : 0.0;
        } else {
            counted = pressured ? 1.0 : 0.0;
            error = counted * max(-residual, 0.0) / rho0;
        }
    }
    sphEndIteration(subgroupAdd(vec2(error, counted)));
}
