#version 460
// Contacts between bodies, point against triangle (digest-002 §2.4, "closed triangle meshes";
// §2.7.13 step 3, done on the GPU here): each vertex a is tested against the triangles of the
// other bodies near its move in this step, and keeps the contact radius r in front of them.
// Three tests per triangle T (the kept one is chosen below, in main):
// - crossing (continuous): a was in front of T's plane at the step's start (start positions of
//   both) and is behind it now, and where its move crosses the plane (both moves interpolated
//   linearly, the thesis solves Provot's cubic instead) it is within r of T: a goes back r in
//   front of T's plane, wherever it is now. A vertex faster than r per step (or a coarse face
//   between the other body's vertices) cannot pass T;
// - proximity: a is in front of T and closer than r to it: it goes out along the direction
//   from its nearest point on T (T's normal over its interior);
// - overlap: a was behind T's plane at the start already, is less than r behind it now and
//   inside T's prism (an overlap an earlier step left): it goes back out through T. Deeper
//   behind, it is not pulled through T (it is in front of the other side of a thin body, or deep
//   inside a body; shape matching and the volume bring such a body back).
//
// The response (body/contacts_resolve, iterated with body/contacts_apply) keeps each contact's
// triangle, weights and normal for the step. This pass writes each vertex's contact
// (BODY_BIND_CONTACTS: normal and depth, triangle and weights, and the normal speed to reach;
// depth 0 for none) and counts the contacts of every vertex involved (BODY_BIND_CONTACT_SUMS'
// count slot) for the mass splitting. Candidates: the triangles body/triangle_bins put into the
// cells of the vertex's move (each triangle is in every cell within r of its own move).
#include "body/body_common.glsl"
#include "common/triangle.glsl"

FLOE_IN_VEC4(BODY_BIND_POSITIONS, positions);
FLOE_IN_VEC4(BODY_BIND_VELOCITIES, velocities);
FLOE_IN_VEC4(BODY_BIND_PREVIOUS, previous);
FLOE_IN_VEC4(BODY_BIND_REST, rest);
FLOE_IN_VEC4(BODY_BIND_ORIGINS, origins);
FLOE_IN_UINT(BODY_BIND_CELL_START, cellStart);
FLOE_IN_UINT(BODY_BIND_CONTACT_ENTRIES, entries);
FLOE_IN_UINT(BODY_BIND_CONTACT_MASKS, masks);
FLOE_IN_VEC4(BODY_BIND_CONTACT_PLANES, planes);
FLOE_IN_UVEC4(BODY_BIND_TRIANGLES, triangles);
layout(std430, binding = BODY_BIND_CONTACT_SUMS) buffer Sums { int sums[]; };
FLOE_OUT_VEC4(BODY_BIND_CONTACTS, contacts);

void main()
{
    const uint a = floeGlobalIndex();
    if (a >= params.particles) return;
    // World coordinates (positions are relative to their body's origin).
    const uint body = uint(FLOE_LOAD_VEC4(rest, a).w);
    const vec3 origin = FLOE_LOAD_VEC4(origins, body).xyz;
    const vec4 xa = FLOE_LOAD_VEC4(positions, a) + vec4(origin, 0.0);
    const vec3 p0 = FLOE_LOAD_VEC4(previous, a).xyz + origin;
    const float r = params.contact.w;
    const float cell = params.gridOrigin.w;
    const ivec3 dims = ivec3(params.gridDims.xyz);
    FLOE_STORE_VEC4(contacts, 3u * a, vec4(0.0));
    if (any(isnan(xa.xyz)) || any(isinf(xa.xyz)) || any(isnan(p0)) || any(isinf(p0))) return;
    // The cells of the move's box; a move across more than 64 cells (metres per step for the
    // scenes' bodies) is searched in its end's cell only.
    ivec3 lo = ivec3(floor((min(p0, xa.xyz) - params.gridOrigin.xyz) / cell));
    ivec3 hi = ivec3(floor((max(p0, xa.xyz) - params.gridOrigin.xyz) / cell));
    if ((hi.x - lo.x + 1) * (hi.y - lo.y + 1) * (hi.z - lo.z + 1) > 64) lo = hi = ivec3(floor((xa.xyz - params.gridOrigin.xyz) / cell));
    lo = clamp(lo, ivec3(0), dims - 1);
    hi = clamp(hi, ivec3(0), dims - 1);

    // The contact kept, by kind: 2, T crossed in this step (the earliest crossing: a fast vertex
    // passing a thin body stops at the first face); 1, in front of T within r (the deepest); 0,
    // already behind T at the start and within r of its plane, inside its prism: an overlap an
    // earlier step left (the shallowest, the least move out, as at a box's edge where the vertex
    // is also behind the side's plane). Being in front of a face within r outranks being behind
    // another: behind a thin body's back face is where a vertex in front of its front face is.
    // A higher kind wins; ties go to the lower triangle index, so the atomics' order in the cells
    // changes nothing.
    int bestKind = -1;
    float bestValue = 0.0, depthKept = 0.0;
    uint bestIndex = 0xFFFFFFFFu;
    uvec4 bestTriangle = uvec4(0u);
    vec3 bestWeights = vec3(0.0), bestNormal = vec3(0.0);
    for (int z = lo.z; z <= hi.z; ++z)
        for (int y = lo.y; y <= hi.y; ++y)
            for (int x = lo.x; x <= hi.x; ++x) {
                const uint key = uint(x) + uint(dims.x) * (uint(y) + uint(dims.y) * uint(z));
                if ((FLOE_LOAD_UINT(masks, key) & ~(1u << (body & 31u))) == 0u) continue; // only its own body's triangles
                const uint end = min(FLOE_LOAD_UINT(cellStart, key + 1u), params.contactCapacity);
                for (uint e = FLOE_LOAD_UINT(cellStart, key); e < end; ++e) {
                    const uint index = FLOE_LOAD_UINT(entries, e);
                    const uvec4 t = FLOE_LOAD_UVEC4(triangles, index);
                    if (t.w == body) continue;
                    // The planes first: most candidates are too far in front, or far behind T,
                    // and need no corners.
                    const vec4 plane1 = FLOE_LOAD_VEC4(planes, 2u * index);
                    const float s1 = dot(plane1.xyz, xa.xyz) - plane1.w;
                    if (s1 >= r || plane1.xyz == vec3(0.0)) continue; // farther than r in front, or degenerate
                    float s0 = 0.0;
                    if (s1 < 0.0) {
                        const vec4 plane0 = FLOE_LOAD_VEC4(planes, 2u * index + 1u);
                        s0 = dot(plane0.xyz, p0) - plane0.w;
                        if (!(s0 >= 0.0) && !(s1 > -r)) continue; // behind since the start, deeper than r
                    }
                    const vec3 ot = FLOE_LOAD_VEC4(origins, t.w).xyz;
                    const vec3 A1 = FLOE_LOAD_VEC4(positions, t.x).xyz + ot, B1 = FLOE_LOAD_VEC4(positions, t.y).xyz + ot,
                               C1 = FLOE_LOAD_VEC4(positions, t.z).xyz + ot;
                    const vec3 w1 = nearestOnTriangle(xa.xyz, A1, B1, C1);
                    const vec3 q1 = w1.x * A1 + w1.y * B1 + w1.z * C1;
                    int kind = 1;
                    float value = 0.0, depth = 0.0;
                    vec3 normal = plane1.xyz;
                    if (s1 >= 0.0) {
                        // In front.
                        const vec3 d = xa.xyz - q1;
                        const float distance = length(d);
                        if (distance >= r) continue;
                        depth = r - distance;
                        value = depth;
                        if (distance > 1e-4 * r) normal = d / distance;
                    } else if (s0 >= 0.0) {
                        // Crossed T's plane in this step: a contact if where it crossed is on T.
                        const vec3 A0 = FLOE_LOAD_VEC4(previous, t.x).xyz + ot, B0 = FLOE_LOAD_VEC4(previous, t.y).xyz + ot,
                                   C0 = FLOE_LOAD_VEC4(previous, t.z).xyz + ot;
                        const float f = s0 / (s0 - s1);
                        const vec3 P = mix(p0, xa.xyz, f);
                        const vec3 At = mix(A0, A1, f), Bt = mix(B0, B1, f), Ct = mix(C0, C1, f);
                        const vec3 wt = nearestOnTriangle(P, At, Bt, Ct);
                        if (!(length(P - (wt.x * At + wt.y * Bt + wt.z * Ct)) < r)) continue;
                        kind = 2;
                        value = -f;
                        depth = r - s1;
                    } else {
                        // Behind since the start, less than r deep, inside T's prism.
                        if (!(length(xa.xyz - s1 * plane1.xyz - q1) < 0.05 * r)) continue;
                        kind = 0;
                        value = s1;
                        depth = r - s1;
                    }
                    if (kind > bestKind || (kind == bestKind && (value > bestValue || (value == bestValue && index < bestIndex)))) {
                        bestKind = kind;
                        bestValue = value;
                        depthKept = depth;
                        bestIndex = index;
                        bestTriangle = t;
                        bestWeights = w1;
                        bestNormal = normal;
                    }
                }
            }
    if (bestKind < 0 || !(depthKept > 0.0)) return;
    // The normal speed to reach: an approaching contact is reflected by the restitution e, any
    // other only kept from approaching (Newton's impact law, digest-002 §4.2.1).
    const vec3 vb = bestWeights.x * FLOE_LOAD_VEC4(velocities, bestTriangle.x).xyz +
                    bestWeights.y * FLOE_LOAD_VEC4(velocities, bestTriangle.y).xyz +
                    bestWeights.z * FLOE_LOAD_VEC4(velocities, bestTriangle.z).xyz;
    const float u0 = dot(FLOE_LOAD_VEC4(velocities, a).xyz - vb, bestNormal);
    FLOE_STORE_VEC4(contacts, 3u * a, vec4(bestNormal, depthKept));
    FLOE_STORE_VEC4(contacts, 3u * a + 1u, vec4(uintBitsToFloat(bestIndex), bestWeights));
    FLOE_STORE_VEC4(contacts, 3u * a + 2u, vec4(max(-params.contact.y * u0, 0.0), 0.0, 0.0, 0.0));
    atomicAdd(sums[BODY_CONTACT_WIDTH * a + 3u], 1);
    for (uint c = 0u; c < 3u; ++c)
        if (bestWeights[c] > 0.0) atomicAdd(sums[BODY_CONTACT_WIDTH * bestTriangle[c] + 3u], 1);
}
