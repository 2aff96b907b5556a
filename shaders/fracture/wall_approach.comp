#version 460
// One thread per node, at the end of a step: counts the nodes that approach a wall of the domain
// fast enough to need the rounds past Fracture.iterations in the next step
// (FractureState.rounds.w; fracture/round_check): nearer to the wall than |v| T + |g| T^2 / 2
// plus a margin (push.y: the largest mean edge, for what the tets and contacts between fragments
// may add), T the step (push.x), and moving towards it faster than the tolerance per substep
// (push.z, m/s). The host records those rounds only for a step after one with such a node or one
// that ran them: a body at rest on the floor or far from the walls then records no launches it
// would skip (on lavapipe each skipped launch costs about 5 us: a cube with holes at rest took 102
// GPU ms per step with 29 skipped rounds recorded, 71 without).
#include "fracture/fracture_common.glsl"

FLOE_IN_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_IN_VEC4(FRACTURE_BIND_VELOCITIES, velocities);
FLOE_IN_VEC4(FRACTURE_BIND_NODE_ORIGIN, origins);
FRACTURE_STATE_BLOCK;
layout(push_constant) uniform Push { float step, margin, speed; };

void main()
{
    const uint n = floeGlobalIndex();
    if (n >= params.nodes) return;
    const vec4 x = FLOE_LOAD_VEC4(positions, n);
    if (x.w == 0.0) return; // fixed
    const vec3 p = x.xyz + FLOE_LOAD_VEC4(origins, n).xyz;
    const vec3 v = FLOE_LOAD_VEC4(velocities, n).xyz;
    const float reach = length(v) * step + 0.5 * length(params.gravity.xyz) * step * step + margin;
    bool approaching = false;
    for (int a = 0; a < 3; ++a) {
        approaching = approaching || (p[a] - params.domainMin[a] < reach && -v[a] > speed);
        approaching = approaching || (params.domainMax[a] - p[a] < reach && v[a] > speed);
    }
    if (approaching) atomicAdd(state.rounds.w, 1u);
}
