#version 460
// Damping, stage B: per region from its gathered sums and centroid t (of this step's shape
// matching): v_t = sum m v / M, L = sum m x cross v - M t cross v_t, the inertia about t
// I = sum m (|x|^2 E - x x^T) - M (|t|^2 E - t t^T), omega = I^-1 L (digest-002 §2.7.10 in the
// region-independent form). Stores (v_t - omega cross t, omega), whose average over the
// regions containing a particle gives its averaged rigid velocity a + w cross x.
#include "body/body_common.glsl"

FLOE_IN_VEC4(BODY_BIND_SCAN, scanned);
FLOE_IN_VEC4(BODY_BIND_REGION_INFO, regionInfo);
FLOE_IN_UINT(BODY_BIND_REGION_START, regionStart);
FLOE_IN_UINT(BODY_BIND_INTERVALS, intervals);
FLOE_IN_UINT(BODY_BIND_HEADS, heads);
FLOE_IN_VEC4(BODY_BIND_CENTROIDS, centroids);
FLOE_OUT_VEC4(BODY_BIND_OUT, rigid);

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= params.particles) return;
    vec4 sums[3];
    for (uint c = 0u; c < 3u; ++c) sums[c] = vec4(0.0);
    BODY_GATHER_REGION(scanned, i, 3u, sums);
    const vec4 a0 = sums[0], a1 = sums[1], a2 = sums[2];
    const float M = FLOE_LOAD_VEC4(regionInfo, i).x;
    const vec3 t = FLOE_LOAD_VEC4(centroids, i).xyz;
    const vec3 vt = a0.xyz / M;
    const vec3 L = vec3(a0.w, a1.x, a1.y) - M * cross(t, vt);
    // S = sum m x x^T (symmetric), then I = tr(S') E - S' with S' = S - M t t^T.
    mat3 S;
    S[0] = vec3(a1.z, a1.w, a2.x);
    S[1] = vec3(a1.w, a2.y, a2.z);
    S[2] = vec3(a2.x, a2.z, a2.w);
    S -= M * outerProduct(t, t);
    const mat3 I = (S[0][0] + S[1][1] + S[2][2]) * mat3(1.0) - S;
    // A region on a line has a singular inertia: then only its linear velocity is kept.
    const float det = determinant(I);
    const vec3 omega = abs(det) > 1e-12 * pow(max(I[0][0] + I[1][1] + I[2][2], 1e-30), 3.0) ? inverse(I) * L : vec3(0.0);
    FLOE_STORE_VEC4(rigid, 2u * i, vec4(vt - cross(omega, t), 0.0));
    FLOE_STORE_VEC4(rigid, 2u * i + 1u, vec4(omega, 0.0));
}
