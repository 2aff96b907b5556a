#version 460
// One thread per node: the mean of its tets' corrections (Jacobi averaging over the
// node-ordered incidence) added to the predicted position.
#include "fracture/fracture_common.glsl"

FLOE_RW_VEC4(FRACTURE_BIND_PREDICTED, predicted);
FLOE_IN_VEC4(FRACTURE_BIND_CORRECTIONS, corrections);
FLOE_IN_UINT(FRACTURE_BIND_NODE_START, nodeStart);
FLOE_IN_UINT(FRACTURE_BIND_CORNERS, corners);

void main()
{
    const uint n = floeGlobalIndex();
    if (n >= params.nodes) return;
    const uint first = FLOE_LOAD_UINT(nodeStart, n), end = FLOE_LOAD_UINT(nodeStart, n + 1u);
    if (end == first) return;
    vec3 sum = vec3(0.0);
    for (uint s = first; s < end; ++s) sum += FLOE_LOAD_VEC4(corrections, FLOE_LOAD_UINT(corners, s)).xyz;
    const vec4 p = FLOE_RW_LOAD_VEC4(predicted, n);
    FLOE_STORE_VEC4(predicted, n, vec4(p.xyz + sum / float(end - first), p.w));
}
