#version 460
// Constraint method (digest-004 §3.4; Smith et al. 2001): the pre-fractured pieces move as
// rigid bodies. The thesis had Bullet's rigid bodies; Floe keeps the pieces' nodes and makes
// each piece rigid by shape matching with stiffness 1 (Mueller et al. 2005, the rigid case):
// after the links have moved its nodes, a piece is put where a rigid motion of its rest shape
// fits them best in the mass-weighted least-squares sense,
//   c = sum m x / sum m,  c0 = sum m u / sum m,  A = sum m (x - c)(u - c0)^T,  R = polar(A),
//   x <- c + R (u - c0),
// which conserves the piece's linear and angular momentum of the moved nodes. One workgroup per
// piece (strided when there are more pieces than workgroups), the sums reduced in shared
// memory, R exact (polarRotation).
#include "fracture/piece_common.glsl"

FLOE_RW_VEC4(FRACTURE_BIND_PREDICTED, predicted); // displacements d = p - x
FLOE_IN_VEC4(FRACTURE_BIND_POSITIONS, positions);

// Node n's predicted position relative to the piece's first node n0: (x_n - x_n0) + (d_n - d_n0).
vec3 relative(uint n, vec3 x0, vec3 d0)
{
    return (FLOE_LOAD_VEC4(positions, n).xyz - x0) + (FLOE_RW_LOAD_VEC4(predicted, n).xyz - d0);
}
FLOE_IN_VEC4(FRACTURE_BIND_REST_NODES, restNodes);

shared mat3 fit;
shared vec3 centre, centre0;

void main()
{
    const uint lane = gl_LocalInvocationIndex;
    for (uint piece = gl_WorkGroupID.x; piece < pieces; piece += gl_NumWorkGroups.x) {
        const uint first = FLOE_LOAD_UINT(pieceStart, piece), end = FLOE_LOAD_UINT(pieceStart, piece + 1u);
        // Positions relative to the piece's first node keep the sums' rounding small.
        const uint n0 = FLOE_LOAD_UINT(pieceNodes, first);
        const vec3 x0 = FLOE_LOAD_VEC4(positions, n0).xyz, d0 = FLOE_RW_LOAD_VEC4(predicted, n0).xyz;
        const vec3 u0 = FLOE_LOAD_VEC4(restNodes, n0).xyz;
        vec4 a = vec4(0.0), b = vec4(0.0);
        for (uint k = first + lane; k < end; k += PIECE_GROUP_SIZE) {
            const uint n = FLOE_LOAD_UINT(pieceNodes, k);
            const vec4 p = FLOE_RW_LOAD_VEC4(predicted, n);
            const float m = p.w > 0.0 ? 1.0 / p.w : 0.0;
            a += vec4(m * relative(n, x0, d0), m);
            b += vec4(m * (FLOE_LOAD_VEC4(restNodes, n).xyz - u0), 0.0);
        }
        sumA[lane] = a;
        sumB[lane] = b;
        sumC[lane] = vec4(0.0);
        reduce();
        if (lane == 0u) {
            const float mass = sumA[0].w;
            centre = mass > 0.0 ? sumA[0].xyz / mass : vec3(0.0);
            centre0 = mass > 0.0 ? sumB[0].xyz / mass : vec3(0.0);
        }
        barrier();
        const vec3 c = centre, c0 = centre0;
        vec3 r0 = vec3(0.0), r1 = vec3(0.0), r2 = vec3(0.0); // rows of A
        for (uint k = first + lane; k < end; k += PIECE_GROUP_SIZE) {
            const uint n = FLOE_LOAD_UINT(pieceNodes, k);
            const vec4 p = FLOE_RW_LOAD_VEC4(predicted, n);
            const float m = p.w > 0.0 ? 1.0 / p.w : 0.0;
            const vec3 d = m * (relative(n, x0, d0) - c), e = FLOE_LOAD_VEC4(restNodes, n).xyz - u0 - c0;
            r0 += d.x * e;
            r1 += d.y * e;
            r2 += d.z * e;
        }
        sumA[lane] = vec4(r0, 0.0);
        sumB[lane] = vec4(r1, 0.0);
        sumC[lane] = vec4(r2, 0.0);
        reduce();
        if (lane == 0u) {
            const mat3 A = transpose(mat3(sumA[0].xyz, sumB[0].xyz, sumC[0].xyz));
            fit = polarRotation(A);
        }
        barrier();
        const mat3 R = fit;
        for (uint k = first + lane; k < end; k += PIECE_GROUP_SIZE) {
            const uint n = FLOE_LOAD_UINT(pieceNodes, k);
            const vec4 p = FLOE_RW_LOAD_VEC4(predicted, n);
            // The goal relative to n0's predicted position, as a displacement from x_n; n0 last,
            // since every lane reads its displacement.
            const vec3 goal = c + R * (FLOE_LOAD_VEC4(restNodes, n).xyz - u0 - c0);
            if (p.w > 0.0 && n != n0)
                FLOE_STORE_VEC4(predicted, n, vec4(goal - (FLOE_LOAD_VEC4(positions, n).xyz - x0) + d0, p.w));
        }
        barrier();
        if (lane == 0u) {
            const vec4 p = FLOE_RW_LOAD_VEC4(predicted, n0);
            if (p.w > 0.0) FLOE_STORE_VEC4(predicted, n0, vec4(c - R * c0 + d0, p.w));
        }
        barrier(); // the shared sums are reused by the next piece
    }
}
