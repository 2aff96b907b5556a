#version 460
// One thread per tet (indirect: only when a cut is active): the side of the cut plane its
// centroid b lies on, (b - x_n) . n >= 0 -> +1 else -1 (the node-relative plane, digest-004
// §11 item 2; the thesis' code put the plane through the origin). Only tets of the node's
// fragment take part; Radius also only those with a node within the radius of the node,
// radius_connected only those cut_reach reached. Wave: the tets cut_wave crossed are +1 and the
// rest of the fragment -1 (the band detaches, as the thesis' code does), or with the band split
// (control2.z = 1) by side like a plane cut, where tets the plane crosses beyond the crack's
// end (not reached) stay untouched: the crack ends there.
// Marks every node of a classified tet with the side(s) it is on.
#include "fracture/fracture_common.glsl"

FLOE_IN_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_IN_UVEC4(FRACTURE_BIND_TETS, tets);
FLOE_IN_UINT(FRACTURE_BIND_LABELS, labels);
FLOE_OUT_UINT(FRACTURE_BIND_TET_SIDE, side);
FLOE_IN_UINT(FRACTURE_BIND_TET_REACH, reach); // radius_connected: the tets cut_reach reached
layout(std430, binding = FRACTURE_BIND_NODE_SIDES) buffer Sides { uint nodeSides[]; };
FRACTURE_STATE_BLOCK;

void main()
{
    const uint t = floeGlobalIndex();
    if (t >= params.tets) return;
    const uvec4 idx = FLOE_LOAD_UVEC4(tets, t);
    const vec3 point = state.cutPoint.xyz;
    const float radius = state.cutPoint.w;
    int s = 0;
    if (FLOE_LOAD_UINT(labels, idx.x) == state.cutInfo.z) {
        vec3 middle = vec3(0.0);
        bool near = radius < 0.0;
        for (int i = 0; i < 4; ++i) {
            const vec3 x = FLOE_LOAD_VEC4(positions, idx[i]).xyz;
            middle += 0.25 * x;
            near = near || distance(x, point) <= radius;
        }
        if (params.control.x == FRACTURE_METHOD_RADIUS_CONNECTED) near = FLOE_LOAD_UINT(reach, t) != 0u;
        if (near) s = dot(middle - point, state.cutNormal.xyz) >= 0.0 ? 1 : -1;
        if (params.control.x == FRACTURE_METHOD_WAVE) {
            const bool reached = FLOE_LOAD_UINT(reach, t) != 0u;
            if (params.control2.z == 0u) {
                s = reached ? 1 : -1;
            } else if (!reached) {
                // Split band: every tet by side, except those the plane crosses beyond the
                // crack's end, which hold both sides together there (its tip).
                bool front = false, back = false;
                for (int i = 0; i < 4; ++i) {
                    const float d = dot(FLOE_LOAD_VEC4(positions, idx[i]).xyz - point, state.cutNormal.xyz);
                    front = front || d >= 0.0;
                    back = back || d < 0.0;
                }
                if (front && back) s = 0;
            }
        }
    }
    FLOE_STORE_UINT(side, t, uint(s));
    if (s != 0)
        for (int i = 0; i < 4; ++i) atomicOr(nodeSides[idx[i]], s > 0 ? 1u : 2u);
}
