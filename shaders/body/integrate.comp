#version 460
// Free integration (digest-002 §2.7.13 step 1, semi-implicit Euler): v += dt g, remembering
// the start position; x = x + dt v is the prediction shape matching works on. No contact yet
// this step: the contact flags are cleared. Positions are relative to their body's origin, which
// body/origins has just moved by d: x - d first.
#include "body/body_common.glsl"

FLOE_RW_VEC4(BODY_BIND_POSITIONS, positions);
FLOE_RW_VEC4(BODY_BIND_VELOCITIES, velocities);
FLOE_OUT_VEC4(BODY_BIND_PREVIOUS, previous);
FLOE_IN_VEC4(BODY_BIND_REST, rest);
FLOE_IN_VEC4(BODY_BIND_ORIGINS, origins);
FLOE_OUT_UINT(BODY_BIND_FLAGS, flags);

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= params.particles) return;
    const float dt = params.gravity.w;
    const uint body = uint(FLOE_LOAD_VEC4(rest, i).w);
    const vec4 stored = FLOE_RW_LOAD_VEC4(positions, i);
    const vec4 x = vec4(stored.xyz - FLOE_LOAD_VEC4(origins, params.bodies + body).xyz, stored.w);
    const vec3 v = FLOE_RW_LOAD_VEC4(velocities, i).xyz + dt * params.gravity.xyz;
    FLOE_STORE_VEC4(previous, i, x);
    FLOE_STORE_UINT(flags, i, 0u);
    FLOE_STORE_VEC4(velocities, i, vec4(v, 0.0));
    FLOE_STORE_VEC4(positions, i, vec4(x.xyz + dt * v, x.w));
}
