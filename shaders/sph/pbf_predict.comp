#version 460
// PBF (Macklin & Müller 2013, Alg. 1 lines 1-4; SPlisHSPlasH's TimeStepPBF): before the grid is
// built, each particle moves by its velocity after gravity, v* = v + dt g, x* = x + dt v*, so
// that neighbours are found at the predicted positions. Unsorted arrays, no neighbours.
#include "sph/sph_common.glsl"

layout(local_size_x = SPH_GROUP_SIZE) in;
layout(std140, binding = SPH_BIND_STATE) uniform State { SphState state; };
FLOE_RW_VEC4(SPH_BIND_POSITIONS, positions);
FLOE_RW_VEC4(SPH_BIND_VELOCITIES, velocities);

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= sphFluidCount()) return;
    const float dt = state.time.x;
    vec4 x = FLOE_RW_LOAD_VEC4(positions, i);
    vec4 v = FLOE_RW_LOAD_VEC4(velocities, i);
    v.xyz += dt * params.gravity.xyz;
    if (DIMS == 2u) v.z = 0.0;
    x.xyz += dt * v.xyz;
    FLOE_RW_STORE_VEC4(positions, i, x);
    FLOE_RW_STORE_VEC4(velocities, i, v);
}
