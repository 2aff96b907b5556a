#version 460
// Positions relative to each fragment's origin (issue 17 item 4). A float position resolves
// about 1e-7 of its magnitude: 50 m from the world's origin that is 4 um, the size of a spinning
// body's corrections per substep, and the kinetic energy of a free iron cuboid drifted by -12 %
// in 2 s there (-0.7 % at the origin). Every node's position is therefore stored relative to an
// origin that all nodes of its fragment share (NODE_ORIGIN); what compares positions of two
// fragments or with the world (walls, contacts, the surface, the metrics) adds the origins.
// At the start of every step each fragment's origin moves to its root node (the label: the
// smallest node index of the fragment), so that positions stay as small as the fragment, wherever
// it flies. One thread per node:
//   stage 0: the new origin o' = o + x_root (rounded), and the shift s = o' - o, which is exact
//            where o' and o are near each other (Sterbenz) and otherwise at the scale of the
//            small one, so o' + (x - s) is the old world position to float rounding of x;
//            written to a scratch buffer, since the roots move too;
//   stage 1: x -= s, o = o'.
// Every node of a fragment computes the same o' and s from the same root, so the fragment keeps
// one origin: no strain and no velocity come from the shift. A cut copies the origin with the
// node (cut_duplicate); the new fragments split from one keep its origin until the next step.
#include "fracture/fracture_common.glsl"

FLOE_RW_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_RW_VEC4(FRACTURE_BIND_NODE_ORIGIN, origins);
FLOE_IN_UINT(FRACTURE_BIND_LABELS, labels);
FLOE_RW_VEC4(FRACTURE_BIND_SHIFT, shifts);
layout(push_constant) uniform Push { uint stage; };

void main()
{
    const uint n = floeGlobalIndex();
    if (n >= params.nodes) return;
    if (stage == 0u) {
        const vec3 o = FLOE_RW_LOAD_VEC4(origins, n).xyz;
        const uint root = FLOE_LOAD_UINT(labels, n);
        const vec3 r = FLOE_RW_LOAD_VEC4(positions, root < params.nodes ? root : n).xyz;
        precise const vec3 moved = o + r;
        precise const vec3 shift = moved - o;
        FLOE_STORE_VEC4(shifts, n, vec4(shift, 0.0));
        return;
    }
    const vec3 shift = FLOE_RW_LOAD_VEC4(shifts, n).xyz;
    const vec4 x = FLOE_RW_LOAD_VEC4(positions, n);
    const vec4 o = FLOE_RW_LOAD_VEC4(origins, n);
    precise const vec3 local = x.xyz - shift;
    precise const vec3 origin = o.xyz + shift;
    FLOE_STORE_VEC4(positions, n, vec4(local, x.w));
    FLOE_STORE_VEC4(origins, n, vec4(origin, 0.0));
}
