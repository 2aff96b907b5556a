#version 460
// Elastic tets (one thread per tet): co-rotational shape matching as an XPBD constraint. The
// tet's rotation R comes from its deformation gradient F = sum_i p_i b_i^T (Mueller 2016,
// warm-started per tet); each corner's goal is g_i = c + R (u_i - c0) (centroids c, c0) and its
// constraint C_i = p_i - g_i (a zero-rest-length spring to the goal, per component) is solved
// by XPBD with the multiplier accumulated over the substep's iterations, so the result
// converges to the compliant solution instead of growing stiffer with every iteration:
//   dlambda = (-C - alpha~ lambda) / (w + alpha~),  dp_i = w dlambda,  alpha~ = 1 / (k dt^2)
// with w = 1/m_i and the tet's stiffness k = E L (N/m: Young's modulus times the tet's size).
// Tets are processed one colour at a time (no two tets of a colour share a node, so each
// writes its nodes directly: Gauss-Seidel across colours, which stiff tets need; averaging the
// corrections per node (Jacobi) left impacts to crush and invert the contact layer).
#include "fracture/fracture_common.glsl"

FLOE_RW_VEC4(FRACTURE_BIND_PREDICTED, predicted);
FLOE_IN_VEC4(FRACTURE_BIND_REST_NODES, restNodes);
FLOE_IN_UVEC4(FRACTURE_BIND_TETS, tets);
FLOE_IN_VEC4(FRACTURE_BIND_TET_REST, rest);
FLOE_IN_VEC4(FRACTURE_BIND_TET_INFO, tetInfo);
FLOE_RW_VEC4(FRACTURE_BIND_TET_ROTATION, rotation);
FLOE_RW_VEC4(FRACTURE_BIND_LAMBDAS, lambdas);
layout(push_constant) uniform Push { uint first, count, iteration, unused; };

void main()
{
    const uint k = floeGlobalIndex();
    if (k >= count) return;
    const uint t = first + k;
    const uvec4 idx = FLOE_LOAD_UVEC4(tets, t);
    vec4 p[4];
    vec3 u[4];
    for (int i = 0; i < 4; ++i) {
        p[i] = FLOE_RW_LOAD_VEC4(predicted, idx[i]);
        u[i] = FLOE_LOAD_VEC4(restNodes, idx[i]).xyz;
    }
    mat3 F = mat3(0.0);
    for (int i = 1; i < 4; ++i) F += outerProduct(p[i].xyz - p[0].xyz, FLOE_LOAD_VEC4(rest, 4u * t + uint(i)).xyz);
    const vec4 q = extractRotation(F, FLOE_RW_LOAD_VEC4(rotation, t), 10);
    FLOE_STORE_VEC4(rotation, t, q);
    const mat3 R = quatToMat3(q);
    const vec3 c = 0.25 * (p[0].xyz + p[1].xyz + p[2].xyz + p[3].xyz);
    const vec3 c0 = 0.25 * (u[0] + u[1] + u[2] + u[3]);
    const float dt = params.gravity.w;
    const float compliance = 1.0 / (FLOE_LOAD_VEC4(tetInfo, t).z * dt * dt);
    for (int i = 0; i < 4; ++i) {
        const uint corner = 4u * t + uint(i);
        const vec3 lambda = iteration == 0u ? vec3(0.0) : FLOE_RW_LOAD_VEC4(lambdas, corner).xyz;
        const float w = p[i].w;
        const vec3 C = p[i].xyz - (c + R * (u[i] - c0));
        const vec3 dLambda = w > 0.0 ? (-C - compliance * lambda) / (w + compliance) : vec3(0.0);
        FLOE_STORE_VEC4(lambdas, corner, vec4(lambda + dLambda, 0.0));
        FLOE_STORE_VEC4(predicted, idx[i], vec4(p[i].xyz + w * dLambda, w));
    }
}
