#version 460
// Deformable vertices against the fracture bodies' boundary faces (shared/solid_contacts.h),
// after the bodies' walls and static meshes in each of their collision rounds: the nearest face
// in the vertex's cell of the face grid decides (ties: the lower face); a vertex within the
// contact radius r of it, in front or up to r behind its plane, is put r in front of the plane,
// and the approaching part of its velocity relative to the face's point (the nodes' velocities
// with its barycentric weights) is taken out with the impulse of a two-body contact
// (solidContactImpulse: the vertex's mass against the face point's, sum_k b_k^2 / m_k). The
// opposite impulse goes to the three nodes by their weights, in fixed point, for
// coupling/node_impulses_apply. As body/obstacles does for static meshes, the test is discrete:
// a vertex that ends its step more than r behind a face (a fast impact through a thin body) is
// not caught.
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
FLOE_RW_VEC4(SOLID_CONTACT_BIND_VERTICES, vertices);
FLOE_RW_VEC4(SOLID_CONTACT_BIND_VERTEX_VELOCITIES, velocities);
FLOE_RW_UINT(SOLID_CONTACT_BIND_VERTEX_FLAGS, flags);
layout(std430, binding = SOLID_CONTACT_BIND_NODE_SUMS) buffer Sums { int sums[]; };
layout(std430, binding = SOLID_CONTACT_BIND_STATE) buffer State { uvec4 state; };
layout(std430, binding = SOLID_CONTACT_BIND_CONTACT) buffer Contact { uint contact; };
#include "coupling/solid_contacts_common.glsl"
#include "coupling/triangle_point.glsl"

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= params.counts.z) return;
    const vec3 origin = FLOE_LOAD_VEC4(bodyOrigins, uint(FLOE_LOAD_VEC4(rest, i).w)).xyz;
    const vec4 p = FLOE_RW_LOAD_VEC4(vertices, i);
    const vec3 x = p.xyz + origin;
    const float size = params.gridOrigin.w, r = params.contact.z;
    const ivec3 dims = ivec3(params.gridDims.xyz);
    const ivec3 cell = ivec3(floor((x - params.gridOrigin.xyz) / size));
    if (any(isnan(x)) || any(lessThan(cell, ivec3(0))) || any(greaterThanEqual(cell, dims))) return;
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
    FLOE_RW_STORE_VEC4(vertices, i, vec4(x + (r - side) * n - origin, p.w));
    FLOE_RW_STORE_VEC4(velocities, i, v);
    FLOE_RW_STORE_UINT(flags, i, 3u); // this round and this step
}
