#version 460
// Substep end (one thread per node): with the substep's displacement d = p - x (PREDICTED),
// v = d / dt and x += d. The velocity is computed as v + (d - v dt) / dt with predict's v and the
// same rounded v dt that predict made: equal in exact arithmetic, and exactly v where nothing
// corrected the node. As absolute positions p (metres), every correction of microns was rounded
// to the position's float spacing: with each tet's net momentum already taken back
// (fracture/tet_goals), that still left a free stretched bar 1e-5 kg m off per sweep
// (FractureTest.FreeFlightKeepsItsMomentum); as displacements the corrections keep their
// digits. The position is rounded once per substep, x + d, and that rounding does not
// enter the velocity (5 m from the origin it is biased while a body falls through a binade: a
// free fall gained 2.7 % of its speed in 0.5 s when it did, FreeFallNeverFractures...).
#include "fracture/fracture_common.glsl"

FLOE_RW_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_RW_VEC4(FRACTURE_BIND_VELOCITIES, velocities);
FLOE_IN_VEC4(FRACTURE_BIND_PREDICTED, predicted);

void main()
{
    const uint n = floeGlobalIndex();
    if (n >= params.nodes) return;
    const float dt = params.gravity.w;
    const vec4 d = FLOE_LOAD_VEC4(predicted, n);
    const vec4 x = FLOE_RW_LOAD_VEC4(positions, n);
    const vec3 v = FLOE_RW_LOAD_VEC4(velocities, n).xyz;
    precise const vec3 moved = v * dt; // bit-identical to predict's (both precise: no fused multiply-add)
    FLOE_STORE_VEC4(velocities, n, vec4(v + (d.xyz - moved) / dt, 0.0));
    FLOE_STORE_VEC4(positions, n, vec4(x.xyz + d.xyz, d.w));
}
