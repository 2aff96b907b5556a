#version 460
// Fracture nodes against the deformable bodies' triangles (shared/solid_contacts.h), in each of
// the deformable step's collision rounds after coupling/vertex_faces: the nearest triangle in the
// node's cell of the triangle grid decides (ties: the lower triangle); a node (where its velocity
// carries it by the step's end) within the contact radius r of it, in front or up to r behind
// its plane, pushes the triangle's vertices back until the node lies r in front: vertex k moves
// by -w_k b_k / (sum_j w_j b_j^2) (r - side) n (the point-triangle projection with the node held:
// the node's position is the fracture bodies' to keep). The approach of the node relative to the
// triangle's point is taken out with the two-body impulse J (solidContactImpulse: the node's
// mass against the point's, sum_k b_k^2 / m_k): +J into the node's sums (coupling/
// node_impulses_apply), -b_k J and the moves into the vertices' sums (coupling/
// vertex_pushes_apply averages the moves and adds the impulses), in fixed point.
#include "shared/solid_contacts.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"
#include "common/fixed_point.glsl"

layout(local_size_x = SOLID_CONTACT_GROUP_SIZE) in;
layout(push_constant) uniform Push { SolidContactParams params; };
FLOE_IN_VEC4(SOLID_CONTACT_BIND_NODE_POSITIONS, nodePositions);
FLOE_IN_VEC4(SOLID_CONTACT_BIND_NODE_ORIGINS, nodeOrigins);
FLOE_IN_VEC4(SOLID_CONTACT_BIND_NODE_VELOCITIES, nodeVelocities);
FLOE_IN_UVEC4(SOLID_CONTACT_BIND_TRIANGLES, triangles);
FLOE_IN_UINT(SOLID_CONTACT_BIND_TRIANGLE_START, triangleStart);
FLOE_IN_UINT(SOLID_CONTACT_BIND_TRIANGLE_ENTRIES, entries);
FLOE_IN_VEC4(SOLID_CONTACT_BIND_VERTICES, vertices);
FLOE_IN_VEC4(SOLID_CONTACT_BIND_VERTEX_VELOCITIES, velocities);
FLOE_IN_VEC4(SOLID_CONTACT_BIND_VERTEX_REST, rest);
FLOE_IN_VEC4(SOLID_CONTACT_BIND_BODY_ORIGINS, bodyOrigins);
layout(std430, binding = SOLID_CONTACT_BIND_NODE_SUMS) buffer NodeSums { int nodeSums[]; };
layout(std430, binding = SOLID_CONTACT_BIND_VERTEX_SUMS) buffer VertexSums { int vertexSums[]; };
layout(std430, binding = SOLID_CONTACT_BIND_STATE) buffer State { uvec4 state; };
layout(std430, binding = SOLID_CONTACT_BIND_CONTACT) buffer Contact { uint contact; };
#include "coupling/triangle_point.glsl"

vec3 vertexWorld(uint k)
{
    return FLOE_LOAD_VEC4(vertices, k).xyz + FLOE_LOAD_VEC4(bodyOrigins, uint(FLOE_LOAD_VEC4(rest, k).w)).xyz;
}

void main()
{
    const uint n = floeGlobalIndex();
    if (n >= params.counts.y) return;
    const vec4 p = FLOE_LOAD_VEC4(nodePositions, n);
    const vec3 vNode = FLOE_LOAD_VEC4(nodeVelocities, n).xyz;
    const vec3 x = p.xyz + FLOE_LOAD_VEC4(nodeOrigins, n).xyz + params.contact.w * vNode;
    const float size = params.gridOrigin.w, r = params.contact.z;
    const ivec3 dims = ivec3(params.gridDims.xyz);
    const ivec3 cell = ivec3(floor((x - params.gridOrigin.xyz) / size));
    if (any(isnan(x)) || any(lessThan(cell, ivec3(0))) || any(greaterThanEqual(cell, dims))) return;
    const uint key = uint(cell.x) + uint(dims.x) * (uint(cell.y) + uint(dims.y) * uint(cell.z));
    const uint first = FLOE_LOAD_UINT(triangleStart, key);
    const uint last = min(FLOE_LOAD_UINT(triangleStart, key + 1u), params.triangles.y);
    float nearest = 1e30;
    uint best = SOLID_CONTACT_NONE;
    for (uint k = first; k < last; ++k) {
        const uint t = FLOE_LOAD_UINT(entries, k);
        const uvec4 tri = FLOE_LOAD_UVEC4(triangles, t);
        vec3 weights;
        const vec3 q = closestOnTriangle(x, vertexWorld(tri.x), vertexWorld(tri.y), vertexWorld(tri.z), weights);
        const float dist = length(x - q);
        if (dist < nearest || (dist == nearest && t < best)) {
            nearest = dist;
            best = t;
        }
    }
    if (best == SOLID_CONTACT_NONE || !(nearest <= r)) return;
    const uvec3 tri = FLOE_LOAD_UVEC4(triangles, best).xyz;
    const vec3 a = vertexWorld(tri.x), b = vertexWorld(tri.y), c = vertexWorld(tri.z);
    vec3 weights;
    const vec3 q = closestOnTriangle(x, a, b, c, weights);
    const vec3 cr = cross(b - a, c - a);
    if (!(length(cr) > 0.0)) return; // a degenerate triangle has no side
    const vec3 normal = normalize(cr);
    const float side = dot(x - q, normal);
    if (!(side < r)) return;
    // The triangle's point: its velocity and inverse mass with the barycentric weights.
    vec3 vTri = vec3(0.0);
    float wTri = 0.0;
    float w[3];
    for (int k = 0; k < 3; ++k) {
        const float mass = FLOE_LOAD_VEC4(vertices, tri[k]).w;
        w[k] = mass > 0.0 ? 1.0 / mass : 0.0;
        vTri += weights[k] * FLOE_LOAD_VEC4(velocities, tri[k]).xyz;
        wTri += weights[k] * weights[k] * w[k];
    }
    if (!(wTri > 0.0)) return; // nothing of the triangle can move
    const vec4 j = solidContactImpulse(vNode - vTri, normal, p.w, wTri, params.contact.x, params.contact.y);
    const float depth = r - side;
    for (int k = 0; k < 3; ++k) {
        if (!(weights[k] > 0.0) || !(w[k] > 0.0)) continue;
        const vec3 move = -(w[k] * weights[k] / wTri) * depth * normal;
        const uint base = 8u * tri[k];
        for (uint e = 0u; e < 3u; ++e) atomicAdd(vertexSums[base + e], fixedPoint(move[e]));
        atomicAdd(vertexSums[base + 3u], 1);
        if (j.w > 0.0)
            for (uint e = 0u; e < 3u; ++e) atomicAdd(vertexSums[base + 4u + e], fixedPoint(-weights[k] * j[e]));
    }
    if (j.w > 0.0) {
        for (uint e = 0u; e < 3u; ++e) atomicAdd(nodeSums[4u * n + e], fixedPoint(j[e]));
        contact = 1u;
    }
    atomicAdd(state.w, 1u);
}
