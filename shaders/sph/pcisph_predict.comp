#version 460
// PCISPH (Solenthaler & Pajarola 2009, Alg. 2 lines 8-10; SPlisHSPlasH's TimeStepPCISPH): the
// pressure acceleration of the current pressures at the step's positions, and the positions it
// predicts, x*_i = x_i + dt (v*_i + dt a_i^p). With FIRST (before the first iteration) the
// pressures start at 0 and x*_i = x_i + dt v*_i.
#include "sph/sph_common.glsl"

layout(local_size_x = SPH_GROUP_SIZE) in;
layout(constant_id = 2) const uint FIRST = 0u;
layout(std140, binding = SPH_BIND_STATE) uniform State { SphState state; };
FLOE_IN_VEC4(SPH_BIND_POSITIONS, positions);
FLOE_IN_UVEC4(SPH_BIND_NEIGHBOURS, neighbours);
FLOE_IN_UINT(SPH_BIND_NEIGHBOUR_COUNTS, neighbourCounts);
FLOE_IN_UINT(SPH_BIND_CELL_START, cellStart); // walked when a list overflowed
FLOE_IN_VEC4(SPH_BIND_BOUNDARY_TERMS, boundaryTerms);
FLOE_IN_VEC4(SPH_BIND_PREDICTED, predicted);
FLOE_RW_VEC4(SPH_BIND_FIELDS, fields);
FLOE_OUT_VEC4(SPH_BIND_ACCEL, predictedPositions);
#define PRESSURE_ACCEL_RW_FIELDS
#include "sph/pressure_accel.glsl"

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= sphFluidCount()) return;
    const vec3 xi = FLOE_LOAD_VEC4(positions, i).xyz;
    const float dt = state.time.x;
    vec3 v = FLOE_LOAD_VEC4(predicted, i).xyz;
    if (FIRST != 0u) {
        vec4 f = FLOE_RW_LOAD_VEC4(fields, i);
        f.y = 0.0;
        FLOE_RW_STORE_VEC4(fields, i, f);
    } else {
        const vec4 fi = FLOE_RW_LOAD_VEC4(fields, i);
        v += dt * pressureAcceleration(i, xi, fi.x, fi.y);
    }
    vec3 x = xi + dt * v;
    if (DIMS == 2u) x.z = 0.0;
    FLOE_STORE_VEC4(predictedPositions, i, vec4(x, 0.0));
}
