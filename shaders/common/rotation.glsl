// The rotation nearest to A (the one maximising tr(R^T A); Kabsch 1976, Irving et al. 2004's
// invertible elements) from the eigen-decomposition A^T A = V diag(s2) V^T: R maps the largest
// and the middle right singular vectors v to A v / |A v| and their cross product to the cross
// product, so R is proper for any A and continuous as det A crosses zero (the smallest
// direction's own A v is the noisiest and points the wrong way for det A < 0; V's own column for
// it is not used). Shared by shape matching (body/body_common.glsl) and the tets
// (fracture/fracture_common.glsl).
#ifndef FLOE_COMMON_ROTATION_GLSL
#define FLOE_COMMON_ROTATION_GLSL

mat3 nearestRotation(mat3 A, mat3 V, vec3 s2)
{
    // a: the largest singular direction, b: the middle one (the smallest is completed by the cross product).
    const int a = s2.x >= s2.y ? (s2.x >= s2.z ? 0 : 2) : (s2.y >= s2.z ? 1 : 2);
    const int lo = s2.x < s2.y ? (s2.x < s2.z ? 0 : 2) : (s2.y < s2.z ? 1 : 2);
    const int b = a == lo ? (a + 1) % 3 : 3 - a - lo;
    vec3 ua = A * V[a];
    const float la = length(ua);
    if (!(la > 1e-20)) return mat3(1.0); // A = 0: no rotation to find
    ua /= la;
    vec3 ub = A * V[b];
    ub -= dot(ub, ua) * ua;
    const float lb = length(ub);
    // A of rank 1 (crushed onto a line): any direction normal to ua completes it.
    ub = lb > 1e-6 * la ? ub / lb : normalize(cross(ua, abs(ua.x) < 0.9 ? vec3(1.0, 0.0, 0.0) : vec3(0.0, 1.0, 0.0)));
    return outerProduct(ua, V[a]) + outerProduct(ub, V[b]) + outerProduct(cross(ua, ub), cross(V[a], V[b]));
}

#endif
