#version 460
// Substep begin (one thread per node): gravity, damping, the predicted position p = x + v dt.
// Nodes of inverse mass 0 stay. The first substep also clears the nodes' contact flags and
// peak loads.
#include "fracture/fracture_common.glsl"

FLOE_IN_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_RW_VEC4(FRACTURE_BIND_VELOCITIES, velocities);
FLOE_OUT_VEC4(FRACTURE_BIND_PREDICTED, predicted);
FLOE_RW_UINT(FRACTURE_BIND_NODE_FLAGS, flags);
FLOE_OUT_VEC4(FRACTURE_BIND_PEAK, peak);
layout(push_constant) uniform Push { uint substep; };

void main()
{
    const uint n = floeGlobalIndex();
    if (n >= params.nodes) return;
    const float dt = params.gravity.w;
    const vec4 x = FLOE_LOAD_VEC4(positions, n);
    vec3 v = FLOE_RW_LOAD_VEC4(velocities, n).xyz;
    if (x.w > 0.0) v = (v + params.gravity.xyz * dt) * max(0.0, 1.0 - params.domainMax.w * dt);
    else v = vec3(0.0);
    FLOE_STORE_VEC4(velocities, n, vec4(v, 0.0));
    precise const vec3 moved = x.xyz + v * dt; // finish repeats this bit for bit
    FLOE_STORE_VEC4(predicted, n, vec4(moved, x.w));
    if (substep == 0u) {
        FLOE_STORE_UINT(flags, n, FLOE_RW_LOAD_UINT(flags, n) & ~FRACTURE_NODE_CONTACT);
        FLOE_STORE_VEC4(peak, n, vec4(0.0, 0.0, 0.0, -1.0)); // the step's peak load starts anew
    }
}
