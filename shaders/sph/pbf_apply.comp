#version 460
// PBF iteration, pass 3 (Macklin & Müller 2013 Alg. 1 line 17): x_i += dx_i, and the velocity
// follows, v_i += dx_i / dt, so that after the last iteration v_i = (x_i - x_i^old) / dt (line 21,
// SPlisHSPlasH's first-order velocity update) without keeping the old positions.
#include "sph/sph_common.glsl"

layout(local_size_x = SPH_GROUP_SIZE) in;
layout(std140, binding = SPH_BIND_STATE) uniform State { SphState state; };
FLOE_IN_VEC4(SPH_BIND_ACCEL, corrections);
FLOE_RW_VEC4(SPH_BIND_POSITIONS, positions);
FLOE_RW_VEC4(SPH_BIND_VELOCITIES, velocities);

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= sphFluidCount()) return;
    const float dt = state.time.x;
    const vec3 dx = FLOE_LOAD_VEC4(corrections, i).xyz;
    vec4 x = FLOE_RW_LOAD_VEC4(positions, i);
    vec4 v = FLOE_RW_LOAD_VEC4(velocities, i);
    if (dt > 0.0) { // a step after the stop time (dt = 0) moves nothing
        x.xyz += dx;
        v.xyz += dx / dt;
    }
    FLOE_RW_STORE_VEC4(positions, i, x);
    FLOE_RW_STORE_VEC4(velocities, i, v);
}
