#version 460
// The origin of each body's local frame for this step: its first particle's predicted
// position (digest-002 §2.7.12, §10 item 10: one origin per body).
#include "body/body_common.glsl"

FLOE_IN_VEC4(BODY_BIND_POSITIONS, positions);
FLOE_IN_UVEC4(BODY_BIND_BODY_RANGE, bodyRange);
FLOE_OUT_VEC4(BODY_BIND_ORIGINS, origins);

void main()
{
    const uint b = floeGlobalIndex();
    if (b >= params.bodies) return;
    FLOE_STORE_VEC4(origins, b, vec4(FLOE_LOAD_VEC4(positions, FLOE_LOAD_UVEC4(bodyRange, b).x).xyz, 0.0));
}
