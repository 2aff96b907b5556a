// Shared by the fracture passes: parameters, symmetric 3x3 matrices, the eigen-decomposition.
#ifndef FLOE_FRACTURE_COMMON_GLSL
#define FLOE_FRACTURE_COMMON_GLSL

#include "shared/fracture.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"
#include "common/rotation.glsl"

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

// The rotation of A's polar decomposition, A = R S, from the eigen-decomposition of A^T A
// (R maps each right singular vector v_k to A v_k / sigma_k). For det A < 0 (an inverted
// element) the rotation nearest to A keeps the two largest singular directions and flips the
// smallest (Irving et al. 2004's invertible elements), so R is always proper. Exact, where
// Mueller et al. 2016's iteration, used before, converges slowly for anisotropic A: for
// tet_goals' mass-weighted A = F sum m r r^T, warm-started, it lagged behind a spinning body by
// enough torque to take 14 % of its energy in 30 steps with 20 iterations per solve.
mat3 polarRotation(mat3 A)
{
    vec3 s2;
    mat3 V;
    symEigen(transpose(A) * A, s2, V);
    return nearestRotation(A, V, s2);
}

// Coulomb friction at a position-based contact (the walls, the static meshes, other fragments):
// the part of the tangential move that the contact removes, with stop = friction x depth: all of
// it where the slide is at most stop (static), else stop of it along the slide (kinetic). A
// node resting on a surface crosses it with no depth (stop 0), and its slide can be a denormal
// that the division flushes to zero: 0 / 0 made positions NaN (coupled_dam_break_glass diverged
// at step 391), so slides below 1e-20 m are stopped.
vec3 frictionRemoved(vec3 move, float stop)
{
    const float slide = length(move);
    return slide <= stop || !(slide > 1e-20) ? move : move * (stop / slide);
}

#define FRACTURE_STATE_BLOCK layout(std430, binding = FRACTURE_BIND_STATE) coherent buffer State { FractureState state; }

#endif
