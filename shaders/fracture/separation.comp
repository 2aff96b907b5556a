#version 460
// The separation tensor per node (digest-004 (16), §10.3), one thread per node, from the
// segmented scan of its incidence records (the node's totals sit at its last slot):
//   eq16:     varsigma = 1/2 (-m(sum f+) + sum m(f+) + m(sum f-) - sum m(f-))
//   averaged: varsigma = the mean of the incident elements' tensors (§11 item 1, the code)
// Writes the largest eigenvalue (the fracture criterion w >= tau) and its unit eigenvector (the
// crack plane's normal); nodes without tets get 0.
#include "fracture/fracture_common.glsl"

FLOE_IN_VEC4(FRACTURE_BIND_SCANNED, scanned);
FLOE_IN_UINT(FRACTURE_BIND_NODE_START, nodeStart);
FLOE_OUT_VEC4(FRACTURE_BIND_NODE_SEPARATION, separation);

void main()
{
    const uint n = floeGlobalIndex();
    if (n >= params.nodes) return;
    const uint first = FLOE_LOAD_UINT(nodeStart, n), end = FLOE_LOAD_UINT(nodeStart, n + 1u);
    if (end == first) {
        FLOE_STORE_VEC4(separation, n, vec4(0.0));
        return;
    }
    const uint last = end - 1u;
    const vec4 r0 = FLOE_LOAD_VEC4(scanned, 3u * last);
    const vec4 r1 = FLOE_LOAD_VEC4(scanned, 3u * last + 1u);
    const vec4 r2 = FLOE_LOAD_VEC4(scanned, 3u * last + 2u);
    mat3 tensor;
    if (params.separation == FRACTURE_SEPARATION_EQ16) {
        const vec3 fp = r0.xyz, fm = vec3(r0.w, r1.xy);
        const mat3 d = symFromPacked(vec4(r1.zw, r2.x, r2.y), r2.zw);
        tensor = 0.5 * (d - outerOverLength(fp) + outerOverLength(fm));
    } else {
        tensor = symFromPacked(r0, r1.xy) / float(end - first);
    }
    FLOE_STORE_VEC4(separation, n, largestEigen(tensor));
}
