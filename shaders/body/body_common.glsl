// Shared by the deformable-body passes: parameters, per-particle indexing, the region gather
// over interval lists, the polar decomposition.
#ifndef FLOE_BODY_COMMON_GLSL
#define FLOE_BODY_COMMON_GLSL

#include "shared/body.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"

layout(local_size_x = BODY_GROUP_SIZE) in;
layout(std140, binding = BODY_BIND_PARAMS) uniform Params { BodyParams params; };

// Region i's sums over its interval list of a path-scanned array of WIDTH vec4 per particle
// (digest-002 (7.8)): sum[c] += S[last] - S[first - 1], nothing subtracted at a path start.
// The shader declares regionStart, intervals and heads.
#define BODY_GATHER_REGION(scanned, i, WIDTH, sum)                                                              \
    for (uint k_ = FLOE_LOAD_UINT(regionStart, i); k_ < FLOE_LOAD_UINT(regionStart, (i) + 1u); ++k_) {         \
        const uint lo_ = FLOE_LOAD_UINT(intervals, 2u * k_), hi_ = FLOE_LOAD_UINT(intervals, 2u * k_ + 1u);     \
        const bool pathStart_ = FLOE_LOAD_UINT(heads, lo_) != 0u;                                              \
        for (uint c_ = 0u; c_ < (WIDTH); ++c_) {                                                               \
            sum[c_] += FLOE_LOAD_VEC4(scanned, (WIDTH) * hi_ + c_);                                            \
            if (!pathStart_) sum[c_] -= FLOE_LOAD_VEC4(scanned, (WIDTH) * (lo_ - 1u) + c_);                     \
        }                                                                                                      \
    }

// Naive summation (benchmarks, tests): every member's term read directly; regionStart and the
// intervals binding hold the member lists instead of interval lists.
#define BODY_SUM_MEMBERS(terms, i, WIDTH, sum)                                                                  \
    for (uint k_ = FLOE_LOAD_UINT(regionStart, i); k_ < FLOE_LOAD_UINT(regionStart, (i) + 1u); ++k_)           \
        for (uint c_ = 0u; c_ < (WIDTH); ++c_) sum[c_] += FLOE_LOAD_VEC4(terms, (WIDTH) * FLOE_LOAD_UINT(intervals, k_) + c_);

// Cyclic Jacobi on B = A^T A = V D^2 V^T with a warm-started V (digest-002 App. E, §2.7.5),
// then R = A V D^-1 V^T (the appendix prints V^T D^-1 V: a typo, §10 item 8). `sweeps` caps
// the cycles; a warm start usually needs one or two.
mat3 polarRotation(mat3 A, inout mat3 V, uint sweeps)
{
    mat3 B = transpose(V) * (transpose(A) * A) * V;
    const float scale = max(B[0][0] + B[1][1] + B[2][2], 1e-30);
    for (uint sweep = 0u; sweep < sweeps; ++sweep) {
        const float off = B[1][0] * B[1][0] + B[2][0] * B[2][0] + B[2][1] * B[2][1];
        if (off <= 1e-14 * scale * scale) break;
        for (int k = 0; k < 3; ++k) {
            const int p = k == 2 ? 1 : 0;
            const int q = k == 0 ? 1 : 2;
            const float bpq = B[q][p];
            if (abs(bpq) <= 1e-30 * scale) continue;
            // t: the smaller root of t^2 + 2 theta t - 1 = 0, theta = (b_qq - b_pp) / (2 b_pq).
            const float theta = (B[q][q] - B[p][p]) / (2.0 * bpq);
            const float t = (theta >= 0.0 ? 1.0 : -1.0) / (abs(theta) + sqrt(theta * theta + 1.0));
            const float c = inversesqrt(t * t + 1.0);
            const float s = t * c;
            mat3 J = mat3(1.0);
            J[p][p] = c;
            J[q][q] = c;
            J[q][p] = s;  // row p, column q
            J[p][q] = -s; // row q, column p
            B = transpose(J) * B * J;
            V = V * J;
        }
    }
    const float largest = max(max(B[0][0], B[1][1]), B[2][2]);
    const vec3 d = sqrt(max(vec3(B[0][0], B[1][1], B[2][2]), vec3(max(largest, 1e-30) * 1e-12)));
    mat3 inverseD = mat3(1.0);
    inverseD[0][0] = 1.0 / d.x;
    inverseD[1][1] = 1.0 / d.y;
    inverseD[2][2] = 1.0 / d.z;
    return A * V * inverseD * transpose(V);
}

#endif
