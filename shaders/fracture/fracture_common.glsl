// Shared by the fracture passes: parameters, symmetric 3x3 matrices, the eigen-decomposition.
#ifndef FLOE_FRACTURE_COMMON_GLSL
#define FLOE_FRACTURE_COMMON_GLSL

#include "shared/fracture.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"

#ifndef FRACTURE_OWN_GROUP_SIZE // a shader that sizes its workgroups itself defines this first
layout(local_size_x = FRACTURE_GROUP_SIZE) in;
#endif
layout(std140, binding = FRACTURE_BIND_PARAMS) uniform Params { FractureParams params; };

// m(a) = a a^T / |a| (digest-004 u/n after (13)): eigenvector a, eigenvalue |a|; 0 for a = 0.
mat3 outerOverLength(vec3 a)
{
    const float l = length(a);
    return l > 0.0 ? outerProduct(a, a) / l : mat3(0.0);
}

// Symmetric matrices packed as (xx, yy, zz, xy), (xz, yz).
mat3 symFromPacked(vec4 a, vec2 b)
{
    return mat3(a.x, a.w, b.x, a.w, a.y, b.y, b.x, b.y, a.z);
}

// Cyclic Jacobi: A = V diag(w) V^T, columns of V unit eigenvectors. Converges quadratically;
// eight sweeps reach float precision for any symmetric 3x3 matrix.
void symEigen(mat3 A, out vec3 w, out mat3 V)
{
    V = mat3(1.0);
    const float scale = dot(A[0], A[0]) + dot(A[1], A[1]) + dot(A[2], A[2]);
    for (int sweep = 0; sweep < 8; ++sweep) {
        const float off = A[1][0] * A[1][0] + A[2][0] * A[2][0] + A[2][1] * A[2][1];
        if (off <= 1e-14 * scale) break;
        for (int k = 0; k < 3; ++k) {
            const int p = k == 2 ? 1 : 0;
            const int q = k == 0 ? 1 : 2;
            const float apq = A[q][p];
            if (abs(apq) <= 1e-30) continue;
            // t = tan(phi), the smaller root of t^2 + 2 theta t - 1 = 0.
            const float theta = (A[q][q] - A[p][p]) / (2.0 * apq);
            const float t = (theta >= 0.0 ? 1.0 : -1.0) / (abs(theta) + sqrt(theta * theta + 1.0));
            const float c = inversesqrt(t * t + 1.0);
            const float s = t * c;
            mat3 P = mat3(1.0); // P[column][row]
            P[p][p] = c;
            P[q][q] = c;
            P[q][p] = s;
            P[p][q] = -s;
            A = transpose(P) * A * P;
            V = V * P;
        }
    }
    w = vec3(A[0][0], A[1][1], A[2][2]);
}

// The largest eigenvalue and its unit eigenvector, the sign fixed so that the component of
// largest magnitude is positive (eigenvectors have no sign; this makes results reproducible).
vec4 largestEigen(mat3 A)
{
    vec3 w;
    mat3 V;
    symEigen(A, w, V);
    int k = 0;
    if (w[1] > w[k]) k = 1;
    if (w[2] > w[k]) k = 2;
    vec3 v = normalize(V[k]);
    const vec3 a = abs(v);
    const float big = a.x >= a.y && a.x >= a.z ? v.x : (a.y >= a.z ? v.y : v.z);
    if (big < 0.0) v = -v;
    return vec4(v, w[k]);
}

// Unit quaternions (x, y, z, w).
mat3 quatToMat3(vec4 q)
{
    const float x = q.x, y = q.y, z = q.z, w = q.w;
    return mat3(1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + w * z), 2.0 * (x * z - w * y),
                2.0 * (x * y - w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z + w * x),
                2.0 * (x * z + w * y), 2.0 * (y * z - w * x), 1.0 - 2.0 * (x * x + y * y));
}
vec4 quatMul(vec4 a, vec4 b)
{
    return vec4(a.w * b.xyz + b.w * a.xyz + cross(a.xyz, b.xyz), a.w * b.w - dot(a.xyz, b.xyz));
}

// The rotation of A's polar decomposition by Mueller et al. 2016 ("A robust method to extract
// the rotational part of deformations"): warm-started from q, always a proper rotation, also
// for inverted elements where an SVD-based polar decomposition returns a reflection.
vec4 extractRotation(mat3 A, vec4 q, int iterations)
{
    for (int k = 0; k < iterations; ++k) {
        const mat3 R = quatToMat3(q);
        const vec3 omega = (cross(R[0], A[0]) + cross(R[1], A[1]) + cross(R[2], A[2])) /
                           (abs(dot(R[0], A[0]) + dot(R[1], A[1]) + dot(R[2], A[2])) + 1e-9);
        const float angle = length(omega);
        if (angle < 1e-9) break;
        const vec3 axis = omega / angle;
        q = normalize(quatMul(vec4(axis * sin(0.5 * angle), cos(0.5 * angle)), q));
    }
    return q;
}

#define FRACTURE_STATE_BLOCK layout(std430, binding = FRACTURE_BIND_STATE) coherent buffer State { FractureState state; }

#endif
