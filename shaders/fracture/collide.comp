#version 460
// One thread per node: the domain's walls and floor (the box domainMin..domainMax) with
// position-based Coulomb friction: the tangential move since the substep began is removed up to
// friction x penetration (static), else shortened by it (kinetic). A collided node gets
// FRACTURE_NODE_CONTACT and the walls' bits (fracture/bounce's restitution), and the step is marked as one with contact (digest-004 §3.0: stress is
// evaluated on such steps).
#include "fracture/fracture_common.glsl"

FLOE_IN_VEC4(FRACTURE_BIND_POSITIONS, positions); // the substep's start, not moved (below)
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
    const vec3 x = FLOE_LOAD_VEC4(positions, n).xyz;
    const float friction = params.domainMin.w;
    const vec3 origin = FLOE_LOAD_VEC4(origins, n).xyz;
    const vec3 lo = params.domainMin.xyz - origin, hi = params.domainMax.xyz - origin;
    bool hit = false;
    uint walls = 0u;
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
        walls |= (side > 0.0 ? FRACTURE_NODE_WALL_LOW : FRACTURE_NODE_WALL_HIGH) << (2 * a);
        d[a] += side * depth;
        // A node that started the substep inside the wall (the last sweep pushed it there) keeps
        // its start: v = (p - x) / dt takes the depenetration's speed, which fracture/bounce
        // limits per fragment by the restitution. Moving the start out with it (so that v got no
        // speed, against PBD's projection launching crushed fragments, before the bounce existed)
        // moved the node without velocity into its tets, compressing them with nothing paying
        // for it: fracture_cube_with_holes made 7232 J of its 43706 J in its landing step (1427 J
        // now), a glass cube with one round per substep 23 % (now none); the nodes also rested
        // deeper in the floor (1.0 mm against 0.1 mm). Static meshes keep that move
        // (fracture/obstacles): without it a cube sank 7 mm into a table.
        vec3 move = d; // p - x
        move[a] = 0.0;
        const vec3 tangential = frictionRemoved(move, friction * depth);
        for (int b = 0; b < 3; ++b)
            if (b != a) d[b] -= tangential[b];
    }
    if (!hit) return;
    FLOE_STORE_VEC4(predicted, n, vec4(d, p4.w));
    FLOE_STORE_UINT(flags, n, FLOE_RW_LOAD_UINT(flags, n) | FRACTURE_NODE_CONTACT | walls);
    atomicOr(state.counts.y, 1u);
}
