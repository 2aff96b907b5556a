#version 460
// One thread per node: the domain's walls and floor (the box domainMin..domainMax) with
// position-based Coulomb friction: the tangential move since the substep began is removed up to
// friction x penetration (static), else shortened by it (kinetic). A collided node gets
// FRACTURE_NODE_CONTACT and the walls' bits (fracture/bounce's restitution), and the step is marked as one with contact (digest-004 §3.0: stress is
// evaluated on such steps). The deepest penetration goes to FractureState.rounds.x
// (fracture/round_check: whether the substep needs another round).
#include "fracture/fracture_common.glsl"

FLOE_RW_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_RW_VEC4(FRACTURE_BIND_PREDICTED, predicted);
FLOE_RW_UINT(FRACTURE_BIND_NODE_FLAGS, flags);
FLOE_IN_VEC4(FRACTURE_BIND_NODE_ORIGIN, origins); // the walls in the node's frame: domain - origin
FRACTURE_STATE_BLOCK;

void main()
{
    const uint n = floeGlobalIndex();
    if (n >= params.nodes) return;
    const vec4 p4 = FLOE_RW_LOAD_VEC4(predicted, n); // the substep's displacement d = p - x
    if (p4.w == 0.0) return;
    vec3 d = p4.xyz;
    const vec4 x4 = FLOE_RW_LOAD_VEC4(positions, n);
    vec3 x = x4.xyz;
    const float friction = params.domainMin.w;
    const vec3 origin = FLOE_LOAD_VEC4(origins, n).xyz;
    const vec3 lo = params.domainMin.xyz - origin, hi = params.domainMax.xyz - origin;
    bool hit = false;
    uint walls = 0u;
    float deepest = 0.0;
    for (int a = 0; a < 3; ++a) {
        float depth = 0.0, side = 0.0;
        const float pa = x[a] + d[a];
        if (pa < lo[a]) {
            depth = lo[a] - pa;
            side = 1.0;
        } else if (pa > hi[a]) {
            depth = pa - hi[a];
            side = -1.0;
        }
        if (depth <= 0.0) continue;
        hit = true;
        deepest = max(deepest, depth);
        walls |= (side > 0.0 ? FRACTURE_NODE_WALL_LOW : FRACTURE_NODE_WALL_HIGH) << (2 * a);
        d[a] += side * depth;
        // A node that started the substep inside the wall (constraints pushed it there) is moved
        // out with its start, so that v = (p - x) / dt gets no speed from the depenetration:
        // PBD's projection alone launches crushed fragments off the floor.
        const float start = side > 0.0 ? max(x[a], lo[a]) : min(x[a], hi[a]);
        d[a] -= start - x[a]; // p stays where the push put it
        x[a] = start;
        vec3 move = d; // p - x
        move[a] = 0.0;
        const vec3 tangential = frictionRemoved(move, friction * depth);
        for (int b = 0; b < 3; ++b)
            if (b != a) d[b] -= tangential[b];
    }
    if (!hit) return;
    FLOE_STORE_VEC4(predicted, n, vec4(d, p4.w));
    FLOE_STORE_VEC4(positions, n, vec4(x, x4.w));
    FLOE_STORE_UINT(flags, n, FLOE_RW_LOAD_UINT(flags, n) | FRACTURE_NODE_CONTACT | walls);
    atomicOr(state.counts.y, 1u);
    atomicMax(state.rounds.x, floatBitsToUint(deepest)); // fracture/round_check
}
