#version 460
// One thread per node: the static triangle meshes (the scene's RigidBodies that do not move:
// tanks, tables, ramps), after the domain's walls in each iteration of a substep, in the same
// position-based way (fracture/collide). The node's position at the iteration's end p = x + d,
// in world coordinates (plus its fragment's origin), is tested against the nearest triangle
// listed in its grid cell (each triangle is listed in every cell within the grid's margin of
// it). A node behind that triangle's face, within the margin, is put back onto it (its closest
// point); a node that started the substep behind it too is moved out with its start, so that
// v = (p - x) / dt gains no speed from the push (fracture/collide does the same at the walls);
// the tangential move is removed up to friction x depth (static), else shortened by it
// (kinetic). A collided node gets FRACTURE_NODE_CONTACT, and the step is one with contact
// (stress is evaluated on such steps, digest-004 §3.0).
//
// Where the thesis is silent: it drops its objects on the ground only. The meshes take no
// restitution (fracture/bounce restores the walls' normal speed only): a fragment's approach
// to a mesh is stopped. A node is a point here, as at the walls; the substeps keep its move per
// iteration far below the margin, so it is not tested as a segment.
#include "fracture/fracture_common.glsl"

FLOE_RW_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_RW_VEC4(FRACTURE_BIND_PREDICTED, predicted);
FLOE_RW_UINT(FRACTURE_BIND_NODE_FLAGS, flags);
FLOE_IN_VEC4(FRACTURE_BIND_NODE_ORIGIN, origins);
FLOE_IN_VEC4(FRACTURE_BIND_OBSTACLE_TRIANGLES, triangles);
FLOE_IN_UINT(FRACTURE_BIND_OBSTACLE_CELLS, cells);
FLOE_IN_UINT(FRACTURE_BIND_OBSTACLE_ENTRIES, entries);
FRACTURE_STATE_BLOCK;
layout(push_constant) uniform Push { FractureObstaclePush push; };

vec3 closestOnTriangle(vec3 p, vec3 a, vec3 b, vec3 c)
{
    // Ericson, Real-Time Collision Detection 5.1.5.
    const vec3 ab = b - a, ac = c - a, ap = p - a;
    const float d1 = dot(ab, ap), d2 = dot(ac, ap);
    if (d1 <= 0.0 && d2 <= 0.0) return a;
    const vec3 bp = p - b;
    const float d3 = dot(ab, bp), d4 = dot(ac, bp);
    if (d3 >= 0.0 && d4 <= d3) return b;
    const float vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) return a + d1 / (d1 - d3) * ab;
    const vec3 cp = p - c;
    const float d5 = dot(ab, cp), d6 = dot(ac, cp);
    if (d6 >= 0.0 && d5 <= d6) return c;
    const float vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) return a + d2 / (d2 - d6) * ac;
    const float va = d3 * d6 - d5 * d4;
    if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) return b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b);
    const float denom = 1.0 / (va + vb + vc);
    return a + ab * (vb * denom) + ac * (vc * denom);
}

void main()
{
    const uint n = floeGlobalIndex();
    if (n >= params.nodes) return;
    const vec4 p4 = FLOE_RW_LOAD_VEC4(predicted, n); // the substep's displacement d = p - x
    if (p4.w == 0.0) return;
    const vec4 x4 = FLOE_RW_LOAD_VEC4(positions, n);
    const vec3 origin = FLOE_LOAD_VEC4(origins, n).xyz;
    const vec3 p = origin + x4.xyz + p4.xyz; // world
    const float size = push.origin.w;
    const ivec3 dims = ivec3(push.dims.xyz);
    const ivec3 cell = ivec3(floor((p - push.origin.xyz) / size));
    if (any(lessThan(cell, ivec3(0))) || any(greaterThanEqual(cell, dims))) return;
    const uint key = uint(cell.x + dims.x * (cell.y + dims.y * cell.z));
    // The nearest triangles of the cell; among those as near (a shared edge or corner) the one
    // the node is furthest behind: below a tank's floor next to its wall the wall's face is as
    // near, and the node is in front of it.
    float best = 1e30;
    const uint first = FLOE_LOAD_UINT(cells, key), end = FLOE_LOAD_UINT(cells, key + 1u);
    for (uint k = first; k < end; ++k) {
        const uint t = FLOE_LOAD_UINT(entries, k);
        const vec3 q = closestOnTriangle(p, FLOE_LOAD_VEC4(triangles, 3u * t).xyz, FLOE_LOAD_VEC4(triangles, 3u * t + 1u).xyz,
                                         FLOE_LOAD_VEC4(triangles, 3u * t + 2u).xyz);
        best = min(best, dot(p - q, p - q));
    }
    const float near = best * (1.0 + 1e-4) + 1e-14;
    float depth = 0.0;
    vec3 closest = p, normal = vec3(0.0);
    for (uint k = first; k < end; ++k) {
        const uint t = FLOE_LOAD_UINT(entries, k);
        const vec3 a = FLOE_LOAD_VEC4(triangles, 3u * t).xyz, b = FLOE_LOAD_VEC4(triangles, 3u * t + 1u).xyz,
                   c = FLOE_LOAD_VEC4(triangles, 3u * t + 2u).xyz;
        const vec3 q = closestOnTriangle(p, a, b, c);
        if (dot(p - q, p - q) > near) continue;
        const vec3 e = cross(b - a, c - a);
        if (!(dot(e, e) > 0.0)) continue;
        const vec3 m = normalize(e);
        const float behind = -dot(p - q, m);
        if (behind > depth) {
            depth = behind;
            closest = q;
            normal = m;
        }
    }
    if (!(depth > 0.0)) return; // in front of the nearest faces: outside
    // Back onto the face; the start too where it was behind the face's plane.
    vec3 d = p4.xyz + (closest - p);
    vec3 x = x4.xyz;
    const float behind = -dot(origin + x - closest, normal);
    if (behind > 0.0) {
        x += behind * normal;
        d -= behind * normal; // p stays where the push put it
    }
    const vec3 move = d - dot(d, normal) * normal; // tangential part of p - x
    const float slide = length(move);
    const float stop = params.domainMin.w * depth;
    d -= slide <= stop ? move : move * (stop / slide);
    FLOE_STORE_VEC4(predicted, n, vec4(d, p4.w));
    FLOE_STORE_VEC4(positions, n, vec4(x, x4.w));
    FLOE_STORE_UINT(flags, n, FLOE_RW_LOAD_UINT(flags, n) | FRACTURE_NODE_CONTACT);
    atomicOr(state.counts.y, 1u);
}
