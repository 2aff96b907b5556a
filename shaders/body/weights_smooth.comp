#version 460
// One umbrella (Laplacian) smoothing pass of the volume weights over each vertex's 1-ring
// (digest-002 §2.7.9; the thesis gives neither the ring nor the number of passes, §10 item 5):
// w_i <- (w_i + mean of the neighbours' w) / 2. A gather per vertex, no atomics.
#include "body/body_common.glsl"

FLOE_IN_VEC4(BODY_BIND_SCAN, weightsIn);
FLOE_IN_UINT(BODY_BIND_ADJ_START, adjStart);
FLOE_IN_UINT(BODY_BIND_ADJ, adj);
FLOE_OUT_VEC4(BODY_BIND_WEIGHTS, weightsOut);

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= params.particles) return;
    const uint begin = FLOE_LOAD_UINT(adjStart, i), end = FLOE_LOAD_UINT(adjStart, i + 1u);
    float sum = 0.0;
    for (uint k = begin; k < end; ++k) sum += FLOE_LOAD_VEC4(weightsIn, FLOE_LOAD_UINT(adj, k)).x;
    const float w = FLOE_LOAD_VEC4(weightsIn, i).x;
    FLOE_STORE_VEC4(weightsOut, i, vec4(end > begin ? 0.5 * (w + sum / float(end - begin)) : w, 0.0, 0.0, 0.0));
}
