#version 460
// Face contacts between fragments, one Jacobi round (after the node spheres' in each of a
// substep's rounds): a node must not be behind the face it was found against,
// C = n . (p_a - sum_k beta_k p_k) >= 0 at the current predicted positions (n the face's outward
// normal and beta_k the weights of its nearest point, both from detection). While C < 0,
// lambda = -C / W with W = c_a w_a + sum_k beta_k^2 c_k w_k (w inverse masses, c a node's number
// of contacts this substep: mass splitting, Tonge et al. 2012), the node moves w_a lambda n and
// face node k -beta_k w_k lambda n: equal and opposite, so momentum is kept, and summed per node
// in fixed point (order-free) for fracture/face_apply. A crossing's push moves p only: the
// approach is stopped (the contact is inelastic, as at the walls); an overlap the substep
// started with moves the start x too, so that resolving it gives no speed (fracture/contacts
// does the same for the spheres).
#include "fracture/fracture_common.glsl"
#include "fracture/face_common.glsl"
#include "common/fixed_point.glsl"

FLOE_IN_UVEC4(FRACTURE_BIND_TETS, tets);
FLOE_IN_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_IN_VEC4(FRACTURE_BIND_PREDICTED, predicted);
FLOE_IN_VEC4(FRACTURE_BIND_NODE_ORIGIN, origins);
FLOE_IN_VEC4(FRACTURE_BIND_FACE_CONTACTS, contacts);
layout(std430, binding = FRACTURE_BIND_FACE_SUMS) buffer Sums { int sums[]; };

void addMove(uint k, vec3 move, bool start)
{
    for (uint c = 0u; c < 3u; ++c) {
        const int v = fixedPoint(move[c]);
        atomicAdd(sums[8u * k + c], v);
        if (start) atomicAdd(sums[8u * k + 4u + c], v);
    }
}

vec3 world(uint n)
{
    return (FLOE_LOAD_VEC4(positions, n).xyz + FLOE_LOAD_VEC4(predicted, n).xyz) + FLOE_LOAD_VEC4(origins, n).xyz;
}

void main()
{
    const uint a = floeGlobalIndex();
    if (a >= params.nodes) return;
    const vec4 contact = FLOE_LOAD_VEC4(contacts, 2u * a);
    if (contact.w < 0.0) return;
    const vec4 record = FLOE_LOAD_VEC4(contacts, 2u * a + 1u);
    const uint f = floatBitsToUint(record.x);
    const uvec4 tet = FLOE_LOAD_UVEC4(tets, f >> 2u);
    const ivec3 q = kFaceCorners[f & 3u];
    const uvec3 face = uvec3(tet[q.x], tet[q.y], tet[q.z]);
    const vec3 beta = record.yzw, n = contact.xyz;
    const float gap = dot(n, world(a) - (beta.x * world(face.x) + beta.y * world(face.y) + beta.z * world(face.z)));
    if (!(gap < 0.0)) return;
    const float wa = FLOE_LOAD_VEC4(predicted, a).w;
    const vec3 wk = vec3(FLOE_LOAD_VEC4(predicted, face.x).w, FLOE_LOAD_VEC4(predicted, face.y).w, FLOE_LOAD_VEC4(predicted, face.z).w);
    float W = float(max(sums[8u * a + 3u], 1)) * wa;
    for (int k = 0; k < 3; ++k) W += beta[k] * beta[k] * float(max(sums[8u * face[k] + 3u], 1)) * wk[k];
    if (!(W > 0.0)) return;
    const float lambda = -gap / W;
    const bool start = contact.w < 1.5; // kind 1: an overlap the substep started with
    addMove(a, wa * lambda * n, start);
    for (int k = 0; k < 3; ++k)
        if (beta[k] > 0.0 && wk[k] > 0.0) addMove(face[k], -beta[k] * wk[k] * lambda * n, start);
}
