#version 460
// Constraint method: the velocities of each rigid piece made rigid, v_n = V + omega x (x_n - c),
// with V = P / M and omega = I^-1 L from the piece's momentum P = sum m v, angular momentum
// L = sum m (x - c) x v and inertia I = sum m (|r|^2 1 - r r^T) about its centre c, after the
// substep's finish. Contacts and the floor push single nodes, and v = (p - x) / dt of a piece
// whose start moved at those nodes only while its prediction moved as a whole gave the rest of
// the piece speed it never got from an impulse (a shattering body gained kinetic energy); a
// rigid body takes a push as a change of P and L alone. The projection keeps P and L and never
// adds kinetic energy. One workgroup per piece, sums reduced in shared memory.
#include "fracture/piece_common.glsl"

FLOE_IN_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_RW_VEC4(FRACTURE_BIND_VELOCITIES, velocities);

shared vec3 linear, angular, centre;

void main()
{
    const uint lane = gl_LocalInvocationIndex;
    for (uint piece = gl_WorkGroupID.x; piece < pieces; piece += gl_NumWorkGroups.x) {
        const uint first = FLOE_LOAD_UINT(pieceStart, piece), end = FLOE_LOAD_UINT(pieceStart, piece + 1u);
        const vec3 x0 = FLOE_LOAD_VEC4(positions, FLOE_LOAD_UINT(pieceNodes, first)).xyz; // rounding
        vec4 a = vec4(0.0), b = vec4(0.0);
        for (uint k = first + lane; k < end; k += PIECE_GROUP_SIZE) {
            const uint n = FLOE_LOAD_UINT(pieceNodes, k);
            const vec4 p = FLOE_LOAD_VEC4(positions, n);
            const float m = p.w > 0.0 ? 1.0 / p.w : 0.0;
            a += vec4(m * (p.xyz - x0), m);
            b += vec4(m * FLOE_RW_LOAD_VEC4(velocities, n).xyz, 0.0);
        }
        sumA[lane] = a;
        sumB[lane] = b;
        sumC[lane] = vec4(0.0);
        reduce();
        if (lane == 0u) {
            const float mass = sumA[0].w;
            centre = mass > 0.0 ? sumA[0].xyz / mass : vec3(0.0);
            linear = mass > 0.0 ? sumB[0].xyz / mass : vec3(0.0);
        }
        barrier();
        const vec3 c = centre;
        vec3 l = vec3(0.0), diagonal = vec3(0.0), off = vec3(0.0); // L; I's (xx, yy, zz), (xy, xz, yz)
        for (uint k = first + lane; k < end; k += PIECE_GROUP_SIZE) {
            const uint n = FLOE_LOAD_UINT(pieceNodes, k);
            const vec4 p = FLOE_LOAD_VEC4(positions, n);
            const float m = p.w > 0.0 ? 1.0 / p.w : 0.0;
            const vec3 r = p.xyz - x0 - c;
            l += m * cross(r, FLOE_RW_LOAD_VEC4(velocities, n).xyz);
            diagonal += m * (vec3(dot(r, r)) - r * r);
            off -= m * vec3(r.x * r.y, r.x * r.z, r.y * r.z);
        }
        sumA[lane] = vec4(l, 0.0);
        sumB[lane] = vec4(diagonal, 0.0);
        sumC[lane] = vec4(off, 0.0);
        reduce();
        if (lane == 0u) {
            const vec3 d = sumB[0].xyz, o = sumC[0].xyz;
            const mat3 I = mat3(d.x, o.x, o.y, o.x, d.y, o.z, o.y, o.z, d.z);
            const float det = determinant(I);
            const float size = d.x + d.y + d.z;
            // A piece of one node or on a line has no inverse inertia: it keeps no spin.
            angular = abs(det) > 1e-12 * size * size * size ? inverse(I) * sumA[0].xyz : vec3(0.0);
        }
        barrier();
        const vec3 V = linear, omega = angular;
        for (uint k = first + lane; k < end; k += PIECE_GROUP_SIZE) {
            const uint n = FLOE_LOAD_UINT(pieceNodes, k);
            const vec4 p = FLOE_LOAD_VEC4(positions, n);
            if (p.w > 0.0) FLOE_STORE_VEC4(velocities, n, vec4(V + cross(omega, p.xyz - x0 - c), 0.0));
        }
        barrier(); // the shared sums are reused by the next piece
    }
}
