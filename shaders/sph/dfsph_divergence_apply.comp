#version 460
// DFSPH divergence-free solver, end (Bender & Koschier 2017 Alg. 2 line 13): the velocities take
// the pressure acceleration of the solved kappa_v, v_i += dt a_i(p^v); kappa_v dt = p_i^v / rho_i^2
// dt is kept for the next step's warm start (independent of the step size, as SPlisHSPlasH).
#include "sph/sph_common.glsl"

layout(local_size_x = SPH_GROUP_SIZE) in;
layout(std140, binding = SPH_BIND_STATE) uniform State { SphState state; };
FLOE_IN_VEC4(SPH_BIND_POSITIONS, positions);
FLOE_IN_UVEC4(SPH_BIND_NEIGHBOURS, neighbours);
FLOE_IN_UINT(SPH_BIND_NEIGHBOUR_COUNTS, neighbourCounts);
FLOE_IN_UINT(SPH_BIND_CELL_START, cellStart); // walked when a list overflowed
FLOE_IN_VEC4(SPH_BIND_BOUNDARY_TERMS, boundaryTerms);
FLOE_IN_VEC4(SPH_BIND_FIELDS, fields);
FLOE_RW_VEC4(SPH_BIND_VELOCITIES, velocities);
FLOE_RW_VEC4(SPH_BIND_SOLVER_STATE, solverState);
FLOE_OUT_FLOAT(SPH_BIND_WALL_COEFFICIENTS, wallCoefficients); // with SOLIDS: sph/integrate adds its part
FLOE_IN_FLOAT(SPH_BIND_PRESSURE_TERMS, pressureTerms); // the neighbours' kappa_v (the last jacobi_update's)
#define PRESSURE_ACCEL_TERM(j) FLOE_LOAD_FLOAT(pressureTerms, j)
#include "sph/pressure_accel.glsl"

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= sphFluidCount()) return;
    const vec3 xi = FLOE_LOAD_VEC4(positions, i).xyz;
    const vec4 fi = FLOE_LOAD_VEC4(fields, i);
    const float dt = state.time.x;
    vec4 v = FLOE_RW_LOAD_VEC4(velocities, i);
    v.xyz += dt * pressureAcceleration(i, xi, fi.x, fi.y);
    if (DIMS == 2u) v.z = 0.0;
    FLOE_RW_STORE_VEC4(velocities, i, v);
    vec4 s = FLOE_RW_LOAD_VEC4(solverState, i);
    s.y = fi.y / (fi.x * fi.x) * dt;
    FLOE_RW_STORE_VEC4(solverState, i, s);
    if (SOLIDS != 0u) FLOE_STORE_FLOAT(wallCoefficients, i, dt * wallPressureCoefficient(fi.x, fi.y));
}
