// Shared by the Constraint method's per-piece passes (piece_match, piece_velocity): one
// workgroup per piece (strided when there are more pieces than workgroups), three vec4 sums per
// invocation reduced in shared memory.
// Workgroups of 8: pieces have tens of nodes (every tet a piece: four), and larger groups spent
// their time idle at the reductions' barriers, which lavapipe runs every invocation through: on
// a cuboid with every tet a piece, piece_match took 811 GPU ms per step with 128, 183 with 32
// and 43 with 8 (lavapipe's SIMD width). A GPU runs an 8-wide group in part of a warp.
#ifndef FLOE_PIECE_COMMON_GLSL
#define FLOE_PIECE_COMMON_GLSL

#define FRACTURE_OWN_GROUP_SIZE
#define PIECE_GROUP_SIZE 8
#include "fracture/fracture_common.glsl"
layout(local_size_x = PIECE_GROUP_SIZE) in;

FLOE_IN_UINT(FRACTURE_BIND_PIECE_NODE_START, pieceStart);
FLOE_IN_UINT(FRACTURE_BIND_PIECE_NODES, pieceNodes);
layout(push_constant) uniform Push { uint pieces; };

shared vec4 sumA[PIECE_GROUP_SIZE], sumB[PIECE_GROUP_SIZE], sumC[PIECE_GROUP_SIZE];

// Sums sumA, sumB and sumC over the workgroup into element 0 (all invocations call it).
void reduce()
{
    for (uint stride = PIECE_GROUP_SIZE / 2u; stride > 0u; stride /= 2u) {
        barrier();
        if (gl_LocalInvocationIndex < stride) {
            const uint o = gl_LocalInvocationIndex + stride;
            sumA[gl_LocalInvocationIndex] += sumA[o];
            sumB[gl_LocalInvocationIndex] += sumB[o];
            sumC[gl_LocalInvocationIndex] += sumC[o];
        }
    }
    barrier();
}

#endif
