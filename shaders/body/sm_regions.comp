#version 460
// Shape matching, stage B (digest-002 (7.7), (7.8)): per region, sums of the stage-A terms
// over its interval list from the segmented path scan (S[last] - S[first - 1], no subtraction
// at a path start), the centroid t and covariance A = sum m x x0^T - M t t0^T; the extra
// normal point (§2.7.4; its details are open, §10 item 4: we add m (p - t)(p0 - t0)^T with
// p = x_i + l n_i, p0 = x0_i + l n0_i, and leave t unchanged); the rotation nearest to A, from a
// warm-started Jacobi (body_common.glsl: proper also for det A < 0, where the thesis negates
// A's last column); T = [R | t - R t0], stored at the
// region's particle as three rows (R_r0, R_r1, R_r2, translation_r) for the goal scan.
//
// ENERGY (body/sm_energy, the energy account's measurement at the end of a step): the same
// region fit of the current positions, the warm start read and kept, and instead of the
// transform the region's elastic energy, the potential whose gradient is shape matching's pull
// (FastLSM, Rivers & James 2007: each member counts with m_j / (regions containing j), so that
// -dU/dx_j = (s m_j / dt^2) (mean goal - x_j), the force behind v += s (g - x) / dt):
//   U_r = s / (2 dt^2) * sum_{j in r} (m_j / n_j) |R (x0_j - t0) + t - x_j|^2   (J).
// digest-002 gives shape matching no potential; the stiffness it implies, s m / dt^2, is tied to
// the step, so U is only comparable between steps of one length. The record for the per-body
// scan: (U_r, the kinetic energy damping took from particle r this step, 1 if a contact moved
// particle r in this step, 0).
#include "body/body_common.glsl"

FLOE_IN_VEC4(BODY_BIND_POSITIONS, positions);
FLOE_IN_VEC4(BODY_BIND_REST, rest);
FLOE_IN_VEC4(BODY_BIND_BODY_DATA, bodyData);
FLOE_IN_VEC4(BODY_BIND_SCAN, scanned);
FLOE_IN_VEC4(BODY_BIND_REGION_INFO, regionInfo);
FLOE_IN_VEC4(BODY_BIND_REGION_CENTRE, regionCentre);
FLOE_IN_UINT(BODY_BIND_REGION_START, regionStart);
FLOE_IN_UINT(BODY_BIND_INTERVALS, intervals);
FLOE_IN_UINT(BODY_BIND_HEADS, heads);
FLOE_IN_VEC4(BODY_BIND_NORMALS, normals);
FLOE_IN_VEC4(BODY_BIND_REST_NORMALS, restNormals);
#ifdef ENERGY
FLOE_IN_VEC4(BODY_BIND_WARM, warm);
FLOE_IN_FLOAT(BODY_BIND_DAMP_LOSS, dampLoss);
FLOE_IN_UINT(BODY_BIND_FLAGS, flags);
FLOE_OUT_VEC4(BODY_BIND_OUT, records);
#define WARM_LOAD(i) FLOE_LOAD_VEC4(warm, i)
#else
FLOE_RW_VEC4(BODY_BIND_WARM, warm);
FLOE_OUT_VEC4(BODY_BIND_OUT, transforms);
FLOE_OUT_VEC4(BODY_BIND_CENTROIDS, centroids);
#define WARM_LOAD(i) FLOE_RW_LOAD_VEC4(warm, i)
#endif

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= params.particles) return;
    vec4 sums[3];
    for (uint c = 0u; c < 3u; ++c) sums[c] = vec4(0.0);
#ifdef NAIVE
    BODY_SUM_MEMBERS(scanned, i, 3u, sums);
#else
    BODY_GATHER_REGION(scanned, i, 3u, sums);
#endif
    const vec4 acc0 = sums[0], acc1 = sums[1], acc2 = sums[2];
    const vec4 info = FLOE_LOAD_VEC4(regionInfo, i);
    const float M = info.x;
    const vec3 t0 = FLOE_LOAD_VEC4(regionCentre, i).xyz;
    const vec3 t = acc0.xyz / M;
#ifndef ENERGY
    FLOE_STORE_VEC4(centroids, i, vec4(t, 0.0));
#endif
    // P_rc = sum m x_r x0_c; GLSL matrices are indexed [column][row].
    mat3 A;
    A[0] = vec3(acc0.w, acc1.z, acc2.y);
    A[1] = vec3(acc1.x, acc1.w, acc2.z);
    A[2] = vec3(acc1.y, acc2.x, acc2.w);
    A -= M * outerProduct(t, t0);

    const vec4 r = FLOE_LOAD_VEC4(rest, i);
    const uint body = uint(r.w);
    const vec4 data = FLOE_LOAD_VEC4(bodyData, body);
    const vec3 xl = FLOE_LOAD_VEC4(positions, i).xyz * data.x; // positions are relative to the body's origin
    const vec3 n = FLOE_LOAD_VEC4(normals, i).xyz;
    const vec3 unitNormal = dot(n, n) > 0.0 ? normalize(n) : FLOE_LOAD_VEC4(restNormals, i).xyz;
    const float l = info.z;
    const vec3 p = xl + l * unitNormal;
    const vec3 p0 = r.xyz + l * FLOE_LOAD_VEC4(restNormals, i).xyz;
    A += data.z * outerProduct(p - t, p0 - t0);

    mat3 V = mat3(WARM_LOAD(3u * i).xyz, WARM_LOAD(3u * i + 1u).xyz, WARM_LOAD(3u * i + 2u).xyz);
    const mat3 R = polarRotation(A, V, uint(params.control.w));
    const vec3 translation = t - R * t0;
#ifdef ENERGY
    // The members' distances from their goals, in the local frame (float32 keeps the digits of a
    // small mismatch there), back to metres by 1 / scale^2.
    float sum = 0.0;
    for (uint k = FLOE_LOAD_UINT(regionStart, i); k < FLOE_LOAD_UINT(regionStart, i + 1u); ++k)
        for (uint j = FLOE_LOAD_UINT(intervals, 2u * k); j <= FLOE_LOAD_UINT(intervals, 2u * k + 1u); ++j) {
            const vec4 xj = FLOE_LOAD_VEC4(positions, j);
            const vec3 d = R * FLOE_LOAD_VEC4(rest, j).xyz + translation - xj.xyz * data.x;
            sum += xj.w / FLOE_LOAD_VEC4(regionInfo, j).y * dot(d, d);
        }
    const float dt = params.gravity.w;
    const float elastic = params.control.x * sum / (2.0 * dt * dt * data.x * data.x);
    // The damping's loss only when it ran this step (its buffer keeps the last step it did).
    const float damping = params.damping.x > 0.0 ? FLOE_LOAD_FLOAT(dampLoss, i) : 0.0;
    FLOE_STORE_VEC4(records, i, vec4(elastic, damping, (FLOE_LOAD_UINT(flags, i) & 2u) != 0u ? 1.0 : 0.0, 0.0));
#else
    for (int c = 0; c < 3; ++c) FLOE_STORE_VEC4(warm, 3u * i + uint(c), vec4(V[c], 0.0));
    for (int row = 0; row < 3; ++row)
        FLOE_STORE_VEC4(transforms, 3u * i + uint(row), vec4(R[0][row], R[1][row], R[2][row], translation[row]));
#endif
}
