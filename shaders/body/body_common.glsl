// Shared by the deformable-body passes: parameters, per-particle indexing, the region gather
// over interval lists, the polar decomposition.
#ifndef FLOE_BODY_COMMON_GLSL
#define FLOE_BODY_COMMON_GLSL

#include "shared/body.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"
#include "common/rotation.glsl"

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

// The rotation nearest to A (the one maximising tr(R^T A)): cyclic Jacobi on B = A^T A = V D^2 V^T
// with a warm-started V (digest-002 App. E, §2.7.5; `sweeps` caps the cycles, a warm start
// usually needs one or two), then common/rotation.glsl's nearestRotation, proper for any A.
//
// The thesis takes R = A V D^-1 V^T (App. E prints V^T D^-1 V: a typo, §10 item 8), which is a
// reflection for det A < 0, and before it negates A's last column when det A < 0 (§2.7.4, after
// Winkler et al. 2010). That fix depends on the rest frame's axes and jumps when det A crosses
// zero: a region folded at an impact has A nearly singular, the sign of its det is decided by the
// float32 rounding of the path scans, and the goals jumped with it. The energy account found
// it: a spinning capsule (bodies_drop) gained 130 J in a step with no contact, and the end-of-step
// fit of one region read 706 J where its double-precision fit has 4.9 J. Flipping the smallest
// singular direction instead is the nearest rotation in both cases and continuous as det A
// crosses zero. For det A > 0 it equals the thesis' R.
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
    return nearestRotation(A, V, vec3(B[0][0], B[1][1], B[2][2]));
}

#endif
