#version 460
// One relaxed Jacobi iteration of a pressure system (IISPH, DFSPH), pass 1: the pressure
// acceleration of the current pressures (thesis Alg. 7;
// dt^2 a_i = d_ii p_i + sum_j d_ij p_j in Ihmsen's notation). Dispatched indirectly: once the
// solver has converged the GPU sets the group count to zero.
#include "sph/sph_common.glsl"

layout(local_size_x = SPH_GROUP_SIZE) in;
FLOE_IN_VEC4(SPH_BIND_POSITIONS, positions);
FLOE_IN_UVEC4(SPH_BIND_NEIGHBOURS, neighbours);
FLOE_IN_UINT(SPH_BIND_NEIGHBOUR_COUNTS, neighbourCounts);
FLOE_IN_UINT(SPH_BIND_CELL_START, cellStart); // walked when a list overflowed
FLOE_IN_VEC4(SPH_BIND_BOUNDARY_TERMS, boundaryTerms);
FLOE_IN_VEC4(SPH_BIND_FIELDS, fields);
FLOE_IN_FLOAT(SPH_BIND_PRESSURE_TERMS, pressureTerms); // the neighbours' p_j / rho_j^2
FLOE_OUT_VEC4(SPH_BIND_ACCEL, accelerations);
#define PRESSURE_ACCEL_TERM(j) FLOE_LOAD_FLOAT(pressureTerms, j)
#include "sph/pressure_accel.glsl"

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= sphFluidCount()) return;
    const vec3 xi = FLOE_LOAD_VEC4(positions, i).xyz;
    const vec4 fi = FLOE_LOAD_VEC4(fields, i);
    FLOE_STORE_VEC4(accelerations, i, vec4(pressureAcceleration(i, xi, fi.x, fi.y), 0.0));
}
