#version 460
// Elastic tets (one thread per tet): co-rotational shape matching (Mueller et al. 2005) as an
// XPBD constraint. With the corners' masses m_i, the centroids c = sum m_i p_i / M and
// c0 = sum m_i u_i / M, the offsets r_i = u_i - c0 and R the rotation of
// A = sum m_i (p_i - c) r_i^T (polarRotation: exact, proper also for inverted tets), each corner's
// goal is g_i = c + R r_i and its constraint C_i = p_i - g_i (a zero-rest-length spring to the
// goal, per component), solved by XPBD with the multiplier accumulated over the substep's
// iterations, so the result converges to the compliant solution instead of growing stiffer with
// every iteration:
//   dlambda = (-C - alpha_i lambda) / (w_i + alpha_i),  dp_i = w_i dlambda,
//   alpha_i = w_i / (w_bar k dt^2)
// with w_i = 1/m_i, w_bar = 4 / M and the tet's stiffness k = E L (N/m: Young's modulus times
// the tet's size). The corner springs are stiffer in proportion to their masses (k m_i / m_bar,
// together 4 k), so that every corner moves the same share of its C_i: with the mass-weighted
// centroids sum m_i C_i = 0 and with R from A the C_i exert no torque, so a tet's correction
// keeps the momentum and angular momentum of its nodes (Mueller 2005 §3.3). The first version
// took the plain centroids, the rotation of the deformation gradient F and one compliance for
// all corners; nodes of unequal mass then got a net push and a torque from every deformed tet,
// and a freely spinning body gained energy without bound (an iron cuboid at 21 rad/s: 69 kJ to
// 5.6 MJ in 0.4 s). A tet with a fixed node (w = 0) weighs its corners equally.
// Tets are processed one colour at a time (no two tets of a colour share a node, so each
// writes its nodes directly: Gauss-Seidel across colours, which stiff tets need; averaging the
// corrections per node (Jacobi) left impacts to crush and invert the contact layer).
// Launches: a colour larger than a workgroup gets a dispatch of its own (one thread per tet).
// A run of consecutive colours that each fit in one workgroup is one dispatch of a single
// workgroup that walks the run's colours with a barrier between them (the FUSED pipeline; push
// `colours` > 0, `first` the run's first colour). Greedy colouring leaves a long tail of small
// colours: the 1296 tets of fracture_cube take 30 colours, all under 128 tets, so a sweep is one
// launch instead of 30. Each tet does the same arithmetic on the same inputs either way, so the
// results are identical; a colour that fits in one workgroup had no parallelism to lose.
#include "fracture/fracture_common.glsl"
#include "fracture/tet_goal.glsl"

FLOE_COHERENT_VEC4(FRACTURE_BIND_PREDICTED, predicted); // displacements; read back by the run's later colours
FLOE_IN_VEC4(FRACTURE_BIND_POSITIONS, positions);       // the substep's start
FLOE_IN_VEC4(FRACTURE_BIND_REST_NODES, restNodes);
FLOE_IN_UVEC4(FRACTURE_BIND_TETS, tets);
FLOE_IN_VEC4(FRACTURE_BIND_TET_INFO, tetInfo);
FLOE_RW_VEC4(FRACTURE_BIND_LAMBDAS, lambdas);
FLOE_IN_UINT(FRACTURE_BIND_COLOUR_START, colourStart);
layout(push_constant) uniform Push { uint first, count, iteration, colours; };
// The fused runs' pipeline: lavapipe runs a shader with a barrier as coroutines, which made the
// one-colour dispatches 20 % slower when both shared one pipeline.
layout(constant_id = 0) const uint FUSED = 0u;

void solveTet(uint t)
{
    const uvec4 idx = FLOE_LOAD_UVEC4(tets, t);
    vec4 p[4], x[4];
    vec3 u[4], d[4];
    for (int i = 0; i < 4; ++i) {
        p[i] = FLOE_RW_LOAD_VEC4(predicted, idx[i]); // the displacement, w inverse mass
        x[i] = vec4(FLOE_LOAD_VEC4(positions, idx[i]).xyz, p[i].w);
        d[i] = p[i].xyz;
        u[i] = FLOE_LOAD_VEC4(restNodes, idx[i]).xyz;
    }
    vec3 C[4], offset[4];
    float m[4], mass;
    bool fixedCorner;
    tetGoalOffsets(x, d, u, C, offset, m, mass, fixedCorner);
    const float dt = params.gravity.w;
    const float compliance = 1.0 / (FLOE_LOAD_VEC4(tetInfo, t).z * dt * dt);
    const float wBar = 4.0 / mass;
    vec3 lambda[4], dLambda[4], net = vec3(0.0);
    for (int i = 0; i < 4; ++i) {
        lambda[i] = iteration == 0u ? vec3(0.0) : FLOE_RW_LOAD_VEC4(lambdas, 4u * t + uint(i)).xyz;
        const float w = p[i].w;
        const float alpha = fixedCorner ? compliance : compliance * w / wBar;
        dLambda[i] = w > 0.0 ? (-C[i] - alpha * lambda[i]) / (w + alpha) : vec3(0.0);
        net += dLambda[i]; // the momentum the correction gives the tet's nodes: sum m_i w_i dlambda_i
    }
    // In exact arithmetic sum m_i C_i = 0, the multipliers sum to zero and the goals exert no
    // torque (R is A's polar rotation), so the correction keeps the nodes' momentum and angular
    // momentum. In float the rounding of C (differences of offsets of 0.1 m) left a net of about
    // 1e-8 m per corner, of one sign for a given body and pose: summed over a body's tets it
    // pushed a free stretched bar by 4e-5 kg m per sweep, 0.05 kg m/s per substep at 20 substeps,
    // and a free spinning cuboid drifted by 1-3 % in momentum and gained up to 2.9 % of its
    // energy in 30 steps (FractureTest.FreeFlightKeepsItsMomentum). What is zero in exact
    // arithmetic is taken back: the net momentum, each corner its share m_i / M, and the net
    // torque about the centroid, L = sum (p_i - c) x dlambda_i, as the rigid rotation
    // omega = I^-1 L of the four corners (which carries no momentum). Not with fixed corners,
    // where the body's support takes both.
    if (!fixedCorner) {
        vec3 torque = vec3(0.0);
        mat3 inertia = mat3(0.0);
        for (int i = 0; i < 4; ++i) {
            dLambda[i] -= (m[i] / mass) * net;
            torque += cross(offset[i], dLambda[i]);
            inertia += m[i] * (dot(offset[i], offset[i]) * mat3(1.0) - outerProduct(offset[i], offset[i]));
        }
        const float scale = (inertia[0][0] + inertia[1][1] + inertia[2][2]) / 3.0;
        if (abs(determinant(inertia)) > 1e-9 * scale * scale * scale) {
            const vec3 omega = inverse(inertia) * torque;
            for (int i = 0; i < 4; ++i) dLambda[i] -= m[i] * cross(omega, offset[i]);
        }
    }
    for (int i = 0; i < 4; ++i) {
        const float w = p[i].w;
        FLOE_STORE_VEC4(lambdas, 4u * t + uint(i), vec4(lambda[i] + dLambda[i], 0.0));
        FLOE_STORE_VEC4(predicted, idx[i], vec4(p[i].xyz + w * dLambda[i], w));
    }
}

void main()
{
    if (FUSED == 0u) {
        // One colour: tets [first, first + count), a thread each.
        const uint k = floeGlobalIndex();
        if (k < count) solveTet(first + k);
        return;
    }
    // A run of small colours in one workgroup: each colour's stores are visible to the next
    // colour's loads after the barrier (predicted is coherent).
    for (uint c = first; c < first + colours; ++c) {
        const uint begin = FLOE_LOAD_UINT(colourStart, c), end = FLOE_LOAD_UINT(colourStart, c + 1u);
        for (uint t = begin + gl_LocalInvocationID.x; t < end; t += gl_WorkGroupSize.x) solveTet(t);
        memoryBarrierImage();
        memoryBarrierBuffer();
        barrier();
    }
}
