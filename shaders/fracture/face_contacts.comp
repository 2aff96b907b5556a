#version 460
// Face contacts between fragments, detection (once per substep, before its first round): each
// node tests the boundary faces of other fragments (fracture/face_bins) in the cells of its move
// from the substep's start x to its predicted p. The node spheres of fracture/contacts keep
// fragments apart; this pass only keeps a node from passing through a face, which the spheres
// miss where a face is larger than they cover. One contact per node, by kind:
// - 2, crossing: in front of the face's plane at the start, behind it at p, and where its move
//   crosses the plane (both moves interpolated linearly) on the face: the earliest crossing;
// - 1, an overlap the substep started with, between two bodies: behind the plane at the start
//   and at p, and inside the face's own tet (the tet behind the face): the shallowest. A node
//   deeper inside a fragment is left to the spheres; one in front of a thin fragment's other
//   face is in no such tet.
// Faces of the node's own fragment are skipped, and so are faces of its own body whose rest
// position lies within two contact radii of the node's (a fresh crack's two sides start on each
// other; fracture/contacts skips such pairs for the same reason). Normals point out of the
// face's tet (away from its fourth node). Writes the node's contact (FACE_CONTACTS: normal and
// kind, face and barycentric weights; kind -1 for none) and counts every node's contacts in
// FACE_SUMS (slot 3, zero before) for fracture/face_resolve's mass splitting.
#include "fracture/fracture_common.glsl"
#include "fracture/face_common.glsl"
#include "common/triangle.glsl"

FLOE_IN_UVEC4(FRACTURE_BIND_TETS, tets);
FLOE_IN_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_IN_VEC4(FRACTURE_BIND_PREDICTED, predicted);
FLOE_IN_VEC4(FRACTURE_BIND_NODE_ORIGIN, origins);
FLOE_IN_VEC4(FRACTURE_BIND_REST_NODES, restNodes);
FLOE_IN_VEC4(FRACTURE_BIND_BODY_INFO, bodyInfo);
FLOE_IN_UINT(FRACTURE_BIND_LABELS, labels);
FLOE_IN_UINT(FRACTURE_BIND_FACE_START, cellStart);
FLOE_IN_UINT(FRACTURE_BIND_FACE_ENTRIES, entries);
FLOE_OUT_VEC4(FRACTURE_BIND_FACE_CONTACTS, contacts);
layout(std430, binding = FRACTURE_BIND_FACE_SUMS) buffer Sums { int sums[]; };

// The outward unit normal of triangle (a, b, c) whose tet's fourth node is at d; 0 if degenerate.
vec3 outward(vec3 a, vec3 b, vec3 c, vec3 d)
{
    const vec3 m = cross(b - a, c - a);
    if (!(dot(m, m) > 0.0)) return vec3(0.0);
    const vec3 n = normalize(m);
    return dot(n, d - a) > 0.0 ? -n : n;
}

void main()
{
    const uint a = floeGlobalIndex();
    if (a >= params.nodes) return;
    FLOE_STORE_VEC4(contacts, 2u * a, vec4(0.0, 0.0, 0.0, -1.0));
    const vec4 da = FLOE_LOAD_VEC4(predicted, a);
    if (da.w == 0.0) return; // no mass here (a fixed node or an unused slot)
    const vec3 p0 = FLOE_LOAD_VEC4(positions, a).xyz + FLOE_LOAD_VEC4(origins, a).xyz, p1 = p0 + da.xyz;
    if (any(isnan(p1)) || any(isinf(p1))) return;
    const uint label = FLOE_LOAD_UINT(labels, a);
    const vec4 ra = FLOE_LOAD_VEC4(restNodes, a);
    const float radius = params.methods.w * FLOE_LOAD_VEC4(bodyInfo, uint(ra.w)).w;
    ivec3 lo = faceCell(min(p0, p1)), hi = faceCell(max(p0, p1));
    if (any(greaterThan(hi - lo, ivec3(3)))) lo = hi = faceCell(p1); // metres per substep: its end only

    int bestKind = -1;
    float bestValue = 0.0;
    uint bestFace = FRACTURE_NONE;
    uvec3 bestNodes = uvec3(0u);
    vec3 bestWeights = vec3(0.0), bestNormal = vec3(0.0);
    FACE_CELLS_BEGIN(lo, hi, key)
    const uint end = FLOE_LOAD_UINT(cellStart, key + 1u);
    for (uint e = FLOE_LOAD_UINT(cellStart, key); e < end; ++e) {
        const uint f = FLOE_LOAD_UINT(entries, e);
        const uint t = f >> 2u, c = f & 3u;
        const uvec4 tet = FLOE_LOAD_UVEC4(tets, t);
        const uvec3 face = uvec3(tet[kFaceCorners[c].x], tet[kFaceCorners[c].y], tet[kFaceCorners[c].z]);
        if (FLOE_LOAD_UINT(labels, face.x) == label) continue;
        const vec4 rA = FLOE_LOAD_VEC4(restNodes, face.x);
        if (rA.w == ra.w) {
            const vec3 rB = FLOE_LOAD_VEC4(restNodes, face.y).xyz, rC = FLOE_LOAD_VEC4(restNodes, face.z).xyz;
            const vec3 w = nearestOnTriangle(ra.xyz, rA.xyz, rB, rC);
            if (distance(ra.xyz, w.x * rA.xyz + w.y * rB + w.z * rC) < 2.0 * radius) continue; // neighbours at rest
        }
        vec3 X0[4], X1[4];
        for (int k = 0; k < 4; ++k) {
            X0[k] = FLOE_LOAD_VEC4(positions, tet[k]).xyz + FLOE_LOAD_VEC4(origins, tet[k]).xyz;
            X1[k] = X0[k] + FLOE_LOAD_VEC4(predicted, tet[k]).xyz;
        }
        const ivec3 q = kFaceCorners[c];
        const vec3 n1 = outward(X1[q.x], X1[q.y], X1[q.z], X1[c]);
        const vec3 n0 = outward(X0[q.x], X0[q.y], X0[q.z], X0[c]);
        if (n1 == vec3(0.0) || n0 == vec3(0.0)) continue;
        const float s1 = dot(n1, p1 - X1[q.x]);
        if (!(s1 < 0.0)) continue; // in front now: the spheres' business
        const float s0 = dot(n0, p0 - X0[q.x]);
        const vec3 w1 = nearestOnTriangle(p1, X1[q.x], X1[q.y], X1[q.z]);
        int kind;
        float value;
        if (s0 >= 0.0) {
            const float s = s0 / (s0 - s1);
            const vec3 P = mix(p0, p1, s);
            const vec3 A = mix(X0[q.x], X1[q.x], s), B = mix(X0[q.y], X1[q.y], s), C = mix(X0[q.z], X1[q.z], s);
            const vec3 wt = nearestOnTriangle(P, A, B, C);
            // Through the face itself (a hair's tolerance for shared edges): a node passing beside
            // a fragment's corner crosses the planes of its side faces outside them.
            if (!(distance(P, wt.x * A + wt.y * B + wt.z * C) < 0.05 * radius)) continue;
            kind = 2;
            value = -s;
        } else {
            // Only between bodies: the fragments of one body overlap where the impact that broke
            // them compressed them, and pushing them apart blew the cone's pieces apart (its
            // energy rose from 15 to 24 kJ; fracture/contacts skips such pairs for the same reason).
            if (rA.w == ra.w) continue;
            // Inside the face's own tet: a node that got through the face lies in the tet behind
            // it (one in front of a thin body's other face does not).
            const mat3 E = mat3(X1[1] - X1[0], X1[2] - X1[0], X1[3] - X1[0]);
            if (!(abs(determinant(E)) > 0.0)) continue;
            const vec3 l = inverse(E) * (p1 - X1[0]);
            if (!(min(min(l.x, l.y), min(l.z, 1.0 - l.x - l.y - l.z)) > -1e-4)) continue;
            kind = 1;
            value = s1;
        }
        if (kind > bestKind || (kind == bestKind && (value > bestValue || (value == bestValue && f < bestFace)))) {
            bestKind = kind;
            bestValue = value;
            bestFace = f;
            bestNodes = face;
            bestWeights = w1;
            bestNormal = n1;
        }
    }
    FACE_CELLS_END
    if (bestKind < 0) return;
    FLOE_STORE_VEC4(contacts, 2u * a, vec4(bestNormal, float(bestKind)));
    FLOE_STORE_VEC4(contacts, 2u * a + 1u, vec4(uintBitsToFloat(bestFace), bestWeights));
    atomicAdd(sums[8u * a + 3u], 1);
    for (int k = 0; k < 3; ++k)
        if (bestWeights[k] > 0.0) atomicAdd(sums[8u * bestNodes[k] + 3u], 1);
}
