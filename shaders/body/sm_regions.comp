#version 460
// Shape matching, stage B (digest-002 (7.7), (7.8)): per region, sums of the stage-A terms
// over its interval list from the segmented path scan (S[last] - S[first - 1], no subtraction
// at a path start), the centroid t and covariance A = sum m x x0^T - M t t0^T; the extra
// normal point (§2.7.4; its details are open, §10 item 4: we add m (p - t)(p0 - t0)^T with
// p = x_i + l n_i, p0 = x0_i + l n0_i, and leave t unchanged); the determinant fix (negate
// A's last column); the warm-started polar decomposition; T = [R | t - R t0], stored at the
// region's particle as three rows (R_r0, R_r1, R_r2, translation_r) for the goal scan.
#include "body/body_common.glsl"

FLOE_IN_VEC4(BODY_BIND_POSITIONS, positions);
FLOE_IN_VEC4(BODY_BIND_REST, rest);
FLOE_IN_VEC4(BODY_BIND_ORIGINS, origins);
FLOE_IN_VEC4(BODY_BIND_BODY_DATA, bodyData);
FLOE_IN_VEC4(BODY_BIND_SCAN, scanned);
FLOE_IN_VEC4(BODY_BIND_REGION_INFO, regionInfo);
FLOE_IN_VEC4(BODY_BIND_REGION_CENTRE, regionCentre);
FLOE_IN_UINT(BODY_BIND_REGION_START, regionStart);
FLOE_IN_UINT(BODY_BIND_INTERVALS, intervals);
FLOE_IN_UINT(BODY_BIND_HEADS, heads);
FLOE_IN_VEC4(BODY_BIND_NORMALS, normals);
FLOE_IN_VEC4(BODY_BIND_REST_NORMALS, restNormals);
FLOE_RW_VEC4(BODY_BIND_WARM, warm);
FLOE_OUT_VEC4(BODY_BIND_OUT, transforms);
FLOE_OUT_VEC4(BODY_BIND_CENTROIDS, centroids);

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
    FLOE_STORE_VEC4(centroids, i, vec4(t, 0.0));
    // P_rc = sum m x_r x0_c; GLSL matrices are indexed [column][row].
    mat3 A;
    A[0] = vec3(acc0.w, acc1.z, acc2.y);
    A[1] = vec3(acc1.x, acc1.w, acc2.z);
    A[2] = vec3(acc1.y, acc2.x, acc2.w);
    A -= M * outerProduct(t, t0);

    const vec4 r = FLOE_LOAD_VEC4(rest, i);
    const uint body = uint(r.w);
    const vec3 origin = FLOE_LOAD_VEC4(origins, body).xyz;
    const vec4 data = FLOE_LOAD_VEC4(bodyData, body);
    const vec3 xl = (FLOE_LOAD_VEC4(positions, i).xyz - origin) * data.x;
    const vec3 n = FLOE_LOAD_VEC4(normals, i).xyz;
    const vec3 unitNormal = dot(n, n) > 0.0 ? normalize(n) : FLOE_LOAD_VEC4(restNormals, i).xyz;
    const float l = info.z;
    const vec3 p = xl + l * unitNormal;
    const vec3 p0 = r.xyz + l * FLOE_LOAD_VEC4(restNormals, i).xyz;
    A += data.z * outerProduct(p - t, p0 - t0);

    if (determinant(A) < 0.0) A[2] = -A[2]; // Winkler et al. 2010 (digest-002 §2.7.4)
    mat3 V = mat3(FLOE_RW_LOAD_VEC4(warm, 3u * i).xyz, FLOE_RW_LOAD_VEC4(warm, 3u * i + 1u).xyz,
                  FLOE_RW_LOAD_VEC4(warm, 3u * i + 2u).xyz);
    const mat3 R = polarRotation(A, V, uint(params.control.w));
    for (int c = 0; c < 3; ++c) FLOE_STORE_VEC4(warm, 3u * i + uint(c), vec4(V[c], 0.0));
    const vec3 translation = t - R * t0;
    for (int row = 0; row < 3; ++row)
        FLOE_STORE_VEC4(transforms, 3u * i + uint(row), vec4(R[0][row], R[1][row], R[2][row], translation[row]));
}
