#version 460
// One thread per node: the static triangle meshes (the scene's RigidBodies that do not move:
// tanks, tables, stairs), after the domain's walls in each iteration of a substep, in the same
// position-based way (fracture/collide). The node's move in the substep, from its start x to
// p = x + d (world coordinates: plus its fragment's origin), is tested against the triangles
// listed in p's grid cell (each triangle is listed in every cell within the grid's margin of
// it): the earliest face it crossed from the front takes p back onto that face's plane. A
// node that started the substep behind a face already (the tets pushed it there) is found by
// the nearest face it is behind, within the margin, and put back onto it with its start, so
// that v = (p - x) / dt gains no speed from the push (fracture/collide does the same at the
// walls). The tangential move is removed up to friction x depth (static), else shortened by it
// (kinetic). A collided node gets FRACTURE_NODE_CONTACT, and the step is one with contact
// (stress is evaluated on such steps, digest-004 §3.0).
//
// The crossing decides, not the nearest face: a glass cube landing on a stair's edge at 7.7 m/s
// had nodes just past the top face but nearer the riser pushed out sideways through the riser,
// and its kinetic energy tripled in the impact.
//
// Where the thesis is silent: it drops its objects on the ground only. Each push adds the face's
// normal to the node's OBSTACLE_NORMALS, from which fracture/bounce limits the fragment's
// rebound as at the walls (along the mean normal of the faces that pushed it). A node is a point
// here, as at the walls.
#include "fracture/fracture_common.glsl"
#include "common/triangle.glsl"

FLOE_RW_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_RW_VEC4(FRACTURE_BIND_PREDICTED, predicted);
FLOE_RW_UINT(FRACTURE_BIND_NODE_FLAGS, flags);
FLOE_IN_VEC4(FRACTURE_BIND_NODE_ORIGIN, origins);
FLOE_IN_VEC4(FRACTURE_BIND_OBSTACLE_TRIANGLES, triangles);
FLOE_IN_UINT(FRACTURE_BIND_OBSTACLE_CELLS, cells);
FLOE_IN_UINT(FRACTURE_BIND_OBSTACLE_ENTRIES, entries);
FLOE_RW_VEC4(FRACTURE_BIND_OBSTACLE_NORMALS, pushedBy);
FRACTURE_STATE_BLOCK;
layout(push_constant) uniform Push { FractureObstaclePush push; };

// The nearest point of triangle abc to p (common/triangle.glsl's weights).
vec3 closestOnTriangle(vec3 p, vec3 a, vec3 b, vec3 c)
{
    const vec3 w = nearestOnTriangle(p, a, b, c);
    return w.x * a + w.y * b + w.z * c;
}

void main()
{
    const uint n = floeGlobalIndex();
    if (n >= params.nodes) return;
    const vec4 p4 = FLOE_RW_LOAD_VEC4(predicted, n); // the substep's displacement d = p - x
    if (p4.w == 0.0) return;
    const vec4 x4 = FLOE_RW_LOAD_VEC4(positions, n);
    const vec3 origin = FLOE_LOAD_VEC4(origins, n).xyz;
    const vec3 start = origin + x4.xyz, p = start + p4.xyz; // world
    const float size = push.origin.w;
    const ivec3 dims = ivec3(push.dims.xyz);
    const ivec3 cell = ivec3(floor((p - push.origin.xyz) / size));
    if (any(lessThan(cell, ivec3(0))) || any(greaterThanEqual(cell, dims))) return;
    const uint key = uint(cell.x + dims.x * (cell.y + dims.y * cell.z));
    const uint first = FLOE_LOAD_UINT(cells, key), end = FLOE_LOAD_UINT(cells, key + 1u);

    // The earliest front-side crossing (Moller and Trumbore) of start + s (p - start), s in [0, 1].
    const vec3 move = p - start;
    float earliest = 2.0;
    vec3 normal = vec3(0.0), onPlane = p;
    for (uint k = first; k < end; ++k) {
        const uint t = FLOE_LOAD_UINT(entries, k);
        const vec3 a = FLOE_LOAD_VEC4(triangles, 3u * t).xyz, e1 = FLOE_LOAD_VEC4(triangles, 3u * t + 1u).xyz - a,
                   e2 = FLOE_LOAD_VEC4(triangles, 3u * t + 2u).xyz - a;
        const vec3 pv = cross(move, e2);
        const float det = dot(e1, pv); // -move . (e1 x e2): positive when the move goes against the normal
        if (!(det > 1e-30)) continue;
        const vec3 tv = start - a;
        const float u = dot(tv, pv) / det;
        if (u < 0.0 || u > 1.0) continue;
        const vec3 qv = cross(tv, e1);
        const float w = dot(move, qv) / det;
        if (w < 0.0 || u + w > 1.0) continue;
        const float s = dot(e2, qv) / det;
        if (s < 0.0 || s > 1.0 || s >= earliest) continue;
        earliest = s;
        normal = normalize(cross(e1, e2));
        onPlane = p - dot(p - a, normal) * normal;
    }
    vec3 x = x4.xyz;
    vec3 d = p4.xyz;
    float depth = 0.0;
    if (earliest <= 1.0) {
        depth = dot(onPlane - p, normal);
        d += onPlane - p;
    } else {
        // Inside already (the tets pushed it there): the nearest point q of the cell's faces, and
        // whether the node is behind the surface there by the pseudo-normal of q's feature: the sum
        // of the normals of the faces as near as q (two at an edge, the fan at a corner;
        // Baerentzen and Aanaes 2005, with equal weights at corners). A single face's normal
        // misjudged nodes beside a convex edge: below a table's top but beside its side face, they
        // were taken for inside and thrown onto the edge (a glass drop gained 6 times its energy).
        float best = 1e30;
        vec3 closest = p;
        for (uint k = first; k < end; ++k) {
            const uint t = FLOE_LOAD_UINT(entries, k);
            const vec3 q = closestOnTriangle(p, FLOE_LOAD_VEC4(triangles, 3u * t).xyz, FLOE_LOAD_VEC4(triangles, 3u * t + 1u).xyz,
                                             FLOE_LOAD_VEC4(triangles, 3u * t + 2u).xyz);
            const float d2 = dot(p - q, p - q);
            if (d2 < best) {
                best = d2;
                closest = q;
            }
        }
        const float near = best * (1.0 + 1e-4) + 1e-14;
        vec3 pseudo = vec3(0.0);
        for (uint k = first; k < end; ++k) {
            const uint t = FLOE_LOAD_UINT(entries, k);
            const vec3 a = FLOE_LOAD_VEC4(triangles, 3u * t).xyz, b = FLOE_LOAD_VEC4(triangles, 3u * t + 1u).xyz,
                       c = FLOE_LOAD_VEC4(triangles, 3u * t + 2u).xyz;
            const vec3 q = closestOnTriangle(p, a, b, c);
            const vec3 e = cross(b - a, c - a);
            if (dot(p - q, p - q) > near || !(dot(e, e) > 0.0)) continue;
            pseudo += normalize(e);
        }
        if (!(dot(p - closest, pseudo) < 0.0) || !(best > 0.0)) return; // outside (or on the surface)
        // Out to q along q - p; the start too, where it lies behind q's plane across that direction.
        depth = sqrt(best);
        normal = (closest - p) / depth;
        d += closest - p;
        const float behind = -dot(start - closest, normal);
        if (behind > 0.0) {
            x += behind * normal;
            d -= behind * normal; // p stays where the push put it
        }
    }
    d -= frictionRemoved(d - dot(d, normal) * normal, params.domainMin.w * depth); // the tangential part of p - x
    FLOE_STORE_VEC4(predicted, n, vec4(d, p4.w));
    FLOE_STORE_VEC4(positions, n, vec4(x, x4.w));
    FLOE_STORE_UINT(flags, n, FLOE_RW_LOAD_UINT(flags, n) | FRACTURE_NODE_CONTACT);
    FLOE_STORE_VEC4(pushedBy, n, FLOE_RW_LOAD_VEC4(pushedBy, n) + vec4(normal, 1.0)); // fracture/bounce's restitution
    atomicOr(state.counts.y, 1u);
    atomicMax(state.rounds.x, floatBitsToUint(max(depth, 0.0))); // fracture/round_check
}
