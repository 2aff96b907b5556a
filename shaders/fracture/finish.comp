#version 460
// Substep end (one thread per node): v = (p - x) / dt, x = p.
#include "fracture/fracture_common.glsl"

FLOE_RW_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_OUT_VEC4(FRACTURE_BIND_VELOCITIES, velocities);
FLOE_IN_VEC4(FRACTURE_BIND_PREDICTED, predicted);

void main()
{
    const uint n = floeGlobalIndex();
    if (n >= params.nodes) return;
    const vec4 p = FLOE_LOAD_VEC4(predicted, n);
    const vec4 x = FLOE_RW_LOAD_VEC4(positions, n);
    FLOE_STORE_VEC4(velocities, n, vec4((p.xyz - x.xyz) / params.gravity.w, 0.0));
    FLOE_STORE_VEC4(positions, n, p);
}
