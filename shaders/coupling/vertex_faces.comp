#version 460
// Deformable vertices against the fracture bodies' boundary faces (shared/solid_contacts.h),
// after the bodies' walls and static meshes in each of their collision rounds: the nearest face
// in the vertex's cell of the face grid decides (ties: the lower face); a vertex within the
// contact radius r of it, in front or up to r behind its plane, is put r in front of the plane,
// and the approaching part of its velocity relative to the face's point (the nodes' velocities
// with its barycentric weights) is taken out with the impulse of a two-body contact
// (solidContactImpulse: the vertex's mass against the face point's, sum_k b_k^2 / m_k). The
// opposite impulse goes to the three nodes by their weights, in fixed point, for
// coupling/node_impulses_apply.
//
// First the continuous part, as body/obstacles has for static meshes (digest-002 §2.4): the
// vertex's move of this step, from its position at the step's start p0 to now, against the faces
// where the step carries them. The earliest face it crosses from the front (ties: the lower face)
// takes the vertex r in front of the crossing, with the same impulse at the crossing's weights.
// The crossing lies on the move and on a face, whose box grown by r (coupling/face_bins) touches
// the crossing's cell: the cells that the box of p0 and x overlaps hold every face the move may
// cross. A box over more than kMaxCells cells (metres per step) is not looked in. Before (until
// 2026-11-30) only the end point was tested: a deformable ball at 10 m/s went through a fixed
// iron plate 4 cm thick at the 4 ms step (SolidContactsTest.AFastBallDoesNotPassThroughAThinPlate).
// The move relative to the face (the segment from p0 plus the face's mean move) was tried and
// not kept: a face that moves onto a vertex (a shard of the pane in solids_ball_through_glass)
// carried it along its whole move, which shape matching turned into speed, and the run stopped
// at step 81 with energy from nowhere. A face that meets a still vertex is left to the end
// point's test.
#include "shared/solid_contacts.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"
#include "common/fixed_point.glsl"

layout(local_size_x = SOLID_CONTACT_GROUP_SIZE) in;
layout(push_constant) uniform Push { SolidContactParams params; };
FLOE_IN_VEC4(SOLID_CONTACT_BIND_NODE_POSITIONS, nodePositions);
FLOE_IN_VEC4(SOLID_CONTACT_BIND_NODE_ORIGINS, nodeOrigins);
FLOE_IN_VEC4(SOLID_CONTACT_BIND_NODE_VELOCITIES, nodeVelocities);
FLOE_IN_UVEC4(SOLID_CONTACT_BIND_TETS, tets);
FLOE_IN_UVEC4(SOLID_CONTACT_BIND_FACE_NEIGHBOURS, faceNeighbours);
FLOE_IN_UINT(SOLID_CONTACT_BIND_FACE_START, faceStart);
FLOE_IN_UINT(SOLID_CONTACT_BIND_FACE_ENTRIES, entries);
FLOE_IN_VEC4(SOLID_CONTACT_BIND_VERTEX_REST, rest);
FLOE_IN_VEC4(SOLID_CONTACT_BIND_BODY_ORIGINS, bodyOrigins);
FLOE_IN_VEC4(SOLID_CONTACT_BIND_VERTEX_PREVIOUS, previous);
FLOE_RW_VEC4(SOLID_CONTACT_BIND_VERTICES, vertices);
FLOE_RW_VEC4(SOLID_CONTACT_BIND_VERTEX_VELOCITIES, velocities);
FLOE_RW_UINT(SOLID_CONTACT_BIND_VERTEX_FLAGS, flags);
layout(std430, binding = SOLID_CONTACT_BIND_NODE_SUMS) buffer Sums { int sums[]; };
layout(std430, binding = SOLID_CONTACT_BIND_STATE) buffer State { uvec4 state; };
layout(std430, binding = SOLID_CONTACT_BIND_CONTACT) buffer Contact { uint contact; };
#include "coupling/solid_contacts_common.glsl"
#include "coupling/triangle_point.glsl"

const int kMaxCells = 64;

// The earliest boundary face (where the step carries it) that the move from p0 to x crosses from
// the front (Moller and Trumbore's segment-triangle test): false if none. face: 4 tet + c; s:
// where along the move; weights: the crossing's barycentric weights on the face.
bool sweep(vec3 p0, vec3 x, out uint face, out float s, out vec3 weights)
{
    face = SOLID_CONTACT_NONE;
    s = 2.0;
    weights = vec3(0.0);
    const float size = params.gridOrigin.w;
    const ivec3 dims = ivec3(params.gridDims.xyz);
    if (any(isnan(p0))) return false;
    const ivec3 lo = max(ivec3(floor((min(p0, x) - params.gridOrigin.xyz) / size)), ivec3(0));
    const ivec3 hi = min(ivec3(floor((max(p0, x) - params.gridOrigin.xyz) / size)), dims - 1);
    if (any(greaterThan(lo, hi))) return false;
    const ivec3 span = hi - lo + 1;
    if (span.x * span.y * span.z > kMaxCells) return false;
    for (int cz = lo.z; cz <= hi.z; ++cz)
        for (int cy = lo.y; cy <= hi.y; ++cy)
            for (int cx = lo.x; cx <= hi.x; ++cx) {
                const uint key = uint(cx) + uint(dims.x) * (uint(cy) + uint(dims.y) * uint(cz));
                const uint first = FLOE_LOAD_UINT(faceStart, key);
                const uint last = min(FLOE_LOAD_UINT(faceStart, key + 1u), params.gridDims.w);
                for (uint k = first; k < last; ++k) {
                    const uint f = FLOE_LOAD_UINT(entries, k);
                    const uvec3 nodes = faceNodes(FLOE_LOAD_UVEC4(tets, f / 4u), f % 4u);
                    const vec3 a = nodeAhead(nodes.x), e1 = nodeAhead(nodes.y) - a, e2 = nodeAhead(nodes.z) - a;
                    const vec3 d = x - p0;
                    const vec3 pv = cross(d, e2);
                    const float det = dot(e1, pv); // -d . (e1 x e2): positive when the move goes against the normal
                    if (!(det > 1e-20)) continue;
                    const vec3 tv = p0 - a;
                    const float u = dot(tv, pv) / det;
                    if (u < 0.0 || u > 1.0) continue;
                    const vec3 qv = cross(tv, e1);
                    const float w = dot(d, qv) / det;
                    if (w < 0.0 || u + w > 1.0) continue;
                    const float t = dot(e2, qv) / det;
                    if (t < 0.0 || t > 1.0 || t > s || (t == s && f >= face)) continue;
                    s = t;
                    face = f;
                    weights = vec3(1.0 - u - w, u, w);
                }
            }
    return face != SOLID_CONTACT_NONE;
}

// Vertex i at x (world) against face `best` (unit normal n, the point's barycentric weights):
// put r in front of the face's plane along n from `onPlane`, the approach relative to the face's
// point taken out with a two-body impulse, whose opposite goes to the face's nodes.
void respond(uint i, vec4 p, vec3 origin, uint best, vec3 weights, vec3 n, vec3 onPlane)
{
    const uvec3 face = faceNodes(FLOE_LOAD_UVEC4(tets, best / 4u), best % 4u);
    // The face's point: its velocity and inverse mass with the barycentric weights.
    vec3 vFace = vec3(0.0);
    float wFace = 0.0;
    for (int k = 0; k < 3; ++k) {
        vFace += weights[k] * FLOE_LOAD_VEC4(nodeVelocities, face[k]).xyz;
        wFace += weights[k] * weights[k] * FLOE_LOAD_VEC4(nodePositions, face[k]).w;
    }
    vec4 v = FLOE_RW_LOAD_VEC4(velocities, i);
    const float wVertex = p.w > 0.0 ? 1.0 / p.w : 0.0;
    const vec4 j = solidContactImpulse(v.xyz - vFace, n, wVertex, wFace, params.contact.x, params.contact.y);
    v.xyz += wVertex * j.xyz;
    if (j.w > 0.0) {
        for (int k = 0; k < 3; ++k)
            if (weights[k] > 0.0)
                for (int e = 0; e < 3; ++e) atomicAdd(sums[4u * face[k] + uint(e)], fixedPoint(-weights[k] * j[e]));
        contact = 1u;
        atomicAdd(state.y, 1u);
    }
    FLOE_RW_STORE_VEC4(vertices, i, vec4(onPlane + params.contact.z * n - origin, p.w));
    FLOE_RW_STORE_VEC4(velocities, i, v);
    FLOE_RW_STORE_UINT(flags, i, 3u); // this round and this step
}

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= params.counts.z) return;
    const vec3 origin = FLOE_LOAD_VEC4(bodyOrigins, uint(FLOE_LOAD_VEC4(rest, i).w)).xyz;
    const vec4 p = FLOE_RW_LOAD_VEC4(vertices, i);
    const vec3 x = p.xyz + origin;
    if (any(isnan(x))) return;
    {
        uint crossed;
        float s;
        vec3 weights;
        if (sweep(FLOE_LOAD_VEC4(previous, i).xyz + origin, x, crossed, s, weights)) {
            const uvec3 face = faceNodes(FLOE_LOAD_UVEC4(tets, crossed / 4u), crossed % 4u);
            const vec3 a = nodeAhead(face.x), b = nodeAhead(face.y), c = nodeAhead(face.z);
            respond(i, p, origin, crossed, weights, normalize(cross(b - a, c - a)), weights.x * a + weights.y * b + weights.z * c);
            return;
        }
    }
    // Then the end point: the nearest face in the vertex's cell.
    const float size = params.gridOrigin.w, r = params.contact.z;
    const ivec3 dims = ivec3(params.gridDims.xyz);
    const ivec3 cell = ivec3(floor((x - params.gridOrigin.xyz) / size));
    if (any(lessThan(cell, ivec3(0))) || any(greaterThanEqual(cell, dims))) return;
    const uint key = uint(cell.x) + uint(dims.x) * (uint(cell.y) + uint(dims.y) * uint(cell.z));
    const uint first = FLOE_LOAD_UINT(faceStart, key);
    const uint last = min(FLOE_LOAD_UINT(faceStart, key + 1u), params.gridDims.w);
    float nearest = 1e30;
    uint best = SOLID_CONTACT_NONE;
    for (uint k = first; k < last; ++k) {
        const uint f = FLOE_LOAD_UINT(entries, k);
        const uvec3 face = faceNodes(FLOE_LOAD_UVEC4(tets, f / 4u), f % 4u);
        vec3 weights;
        const vec3 q = closestOnTriangle(x, nodeAhead(face.x), nodeAhead(face.y), nodeAhead(face.z), weights);
        const float dist = length(x - q);
        if (dist < nearest || (dist == nearest && f < best)) {
            nearest = dist;
            best = f;
        }
    }
    if (best == SOLID_CONTACT_NONE || !(nearest <= r)) return;
    const uvec3 face = faceNodes(FLOE_LOAD_UVEC4(tets, best / 4u), best % 4u);
    const vec3 a = nodeAhead(face.x), b = nodeAhead(face.y), c = nodeAhead(face.z);
    vec3 weights;
    const vec3 q = closestOnTriangle(x, a, b, c, weights);
    const vec3 cr = cross(b - a, c - a);
    if (!(length(cr) > 0.0)) return; // a degenerate face has no side
    const vec3 n = normalize(cr);
    const float side = dot(x - q, n);
    if (!(side < r)) return;
    // Onto the plane at x's foot: x + (r - side) n.
    respond(i, p, origin, best, weights, n, x - side * n);
}
