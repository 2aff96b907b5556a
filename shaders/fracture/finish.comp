#version 460
// Substep end (one thread per node): v = (p - x) / dt, x = p. The velocity is computed as
// v + (p - (x + v dt)) / dt with predict's v and the same rounded x + v dt that predict made:
// equal in exact arithmetic, but the rounding of x + v dt stays in the position instead of
// entering the velocity. 5 m from the origin that rounding (half of 0.5 um per substep) is
// biased while a body falls through a binade, and a free fall gained 2.7 % of its speed in
// 0.5 s once the tet solve stopped adding noise of the same size (FreeFallNeverFractures...).
#include "fracture/fracture_common.glsl"

FLOE_RW_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_RW_VEC4(FRACTURE_BIND_VELOCITIES, velocities);
FLOE_IN_VEC4(FRACTURE_BIND_PREDICTED, predicted);

void main()
{
    const uint n = floeGlobalIndex();
    if (n >= params.nodes) return;
    const float dt = params.gravity.w;
    const vec4 p = FLOE_LOAD_VEC4(predicted, n);
    const vec4 x = FLOE_RW_LOAD_VEC4(positions, n);
    const vec3 v = FLOE_RW_LOAD_VEC4(velocities, n).xyz;
    precise const vec3 moved = x.xyz + v * dt; // bit-identical to predict's p (both precise: no fused multiply-add)
    FLOE_STORE_VEC4(velocities, n, vec4(v + (p.xyz - moved) / dt, 0.0));
    FLOE_STORE_VEC4(positions, n, p);
}
