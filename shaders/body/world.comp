#version 460
// The particles' world positions, for everything outside the bodies' own passes (the coupling
// with a fluid, pictures, exports, read-backs): the stored positions are relative to their
// body's origin (body/origins), o + x here.
#include "body/body_common.glsl"

FLOE_IN_VEC4(BODY_BIND_POSITIONS, positions);
FLOE_IN_VEC4(BODY_BIND_REST, rest);
FLOE_IN_VEC4(BODY_BIND_ORIGINS, origins);
FLOE_OUT_VEC4(BODY_BIND_OUT, world);

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= params.particles) return;
    const vec4 x = FLOE_LOAD_VEC4(positions, i);
    FLOE_STORE_VEC4(world, i, vec4(x.xyz + FLOE_LOAD_VEC4(origins, uint(FLOE_LOAD_VEC4(rest, i).w)).xyz, x.w));
}
