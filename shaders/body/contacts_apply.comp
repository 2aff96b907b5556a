#version 460
// The contacts between bodies' corrections of one iteration (body/contacts_resolve): each
// vertex's summed position and velocity corrections (its contacts already saw it split by their
// number, so the sum does not overshoot), the sums cleared for the next iteration (the count
// stays for the step's later iterations), and the vertex flagged for the volume correction.
#include "body/body_common.glsl"
#include "common/fixed_point.glsl"

FLOE_RW_VEC4(BODY_BIND_POSITIONS, positions);
FLOE_RW_VEC4(BODY_BIND_VELOCITIES, velocities);
FLOE_RW_UINT(BODY_BIND_FLAGS, flags);
layout(std430, binding = BODY_BIND_CONTACT_SUMS) buffer Sums { int sums[]; };

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= params.particles) return;
    const uint base = BODY_CONTACT_WIDTH * i;
    const int count = sums[base + 3u];
    if (count == 0) return;
    const vec3 dx = fromFixedPoint(ivec3(sums[base], sums[base + 1u], sums[base + 2u]));
    const vec3 dv = fromFixedPoint(ivec3(sums[base + 4u], sums[base + 5u], sums[base + 6u]));
    const vec4 x = FLOE_RW_LOAD_VEC4(positions, i);
    FLOE_STORE_VEC4(positions, i, vec4(x.xyz + dx, x.w));
    FLOE_STORE_VEC4(velocities, i, vec4(FLOE_RW_LOAD_VEC4(velocities, i).xyz + dv, 0.0));
    for (uint c = 0u; c < BODY_CONTACT_WIDTH; ++c)
        if (c != 3u) sums[base + c] = 0;
    FLOE_RW_STORE_UINT(flags, i, 3u); // this round and this step
}
