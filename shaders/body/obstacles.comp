#version 460
// Contacts with static triangle meshes (the scene's RigidBodies, digest-002 §2.4's continuous
// point-triangle test): the triangles near the particle come from a static grid (built once on
// the CPU, each triangle in every cell its box grown by two contact radii touches).
// Continuous part: the particle's move in this step, the segment from its position at the
// step's start to now, is walked through the grid's cells (Amanatides and Woo's traversal);
// the earliest triangle it crosses from the front puts it r (the contact radius) in front of
// the crossing. Only the end point was tested before, so a particle faster than about r per
// step passed a thin wall: a ball at 10 m/s went through a wall 1 cm thick at the 5 ms step
// (BodyTest.AFastBodyDoesNotTunnelThroughAThinWall).
// Then the end point: the nearest triangle decides; a particle closer than r to its front
// side, or just behind it (within r), is put r in front of it. Either way its approaching
// normal velocity is removed (reflected by the restitution) with Coulomb friction and it is
// flagged for the volume step.
#include "body/body_common.glsl"

FLOE_RW_VEC4(BODY_BIND_POSITIONS, positions);
FLOE_RW_VEC4(BODY_BIND_VELOCITIES, velocities);
FLOE_RW_UINT(BODY_BIND_FLAGS, flags);
FLOE_IN_VEC4(BODY_BIND_OBSTACLE_TRIANGLES, triangles);
FLOE_IN_UINT(BODY_BIND_OBSTACLE_CELLS, cells);
FLOE_IN_UINT(BODY_BIND_OBSTACLE_ENTRIES, entries);
FLOE_IN_VEC4(BODY_BIND_PREVIOUS, previous);
FLOE_IN_VEC4(BODY_BIND_REST, rest);
FLOE_IN_VEC4(BODY_BIND_ORIGINS, origins);

// Cells one segment may cross: 64 cells of at least 8 contact radii are metres per step, far
// beyond any body's speed (a crossing past them is not looked for).
const int kMaxCells = 64;

vec3 triangleCorner(uint t, uint k)
{
    return FLOE_LOAD_VEC4(triangles, 3u * t + k).xyz;
}

// The earliest front-side crossing (Moller and Trumbore's segment-triangle test) of p0 + s d,
// s in [0, 1], with the triangles of cell `key`: updates `best` (s) and `normal`.
void crossCell(uint key, vec3 p0, vec3 d, inout float best, inout vec3 normal)
{
    const uint end = FLOE_LOAD_UINT(cells, key + 1u);
    for (uint k = FLOE_LOAD_UINT(cells, key); k < end; ++k) {
        const uint t = FLOE_LOAD_UINT(entries, k);
        const vec3 a = triangleCorner(t, 0u), e1 = triangleCorner(t, 1u) - a, e2 = triangleCorner(t, 2u) - a;
        const vec3 pv = cross(d, e2);
        const float det = dot(e1, pv); // -d . (e1 x e2): positive when the move goes against the normal
        if (!(det > 1e-20)) continue;
        const vec3 tv = p0 - a;
        const float u = dot(tv, pv) / det;
        if (u < 0.0 || u > 1.0) continue;
        const vec3 qv = cross(tv, e1);
        const float w = dot(d, qv) / det;
        if (w < 0.0 || u + w > 1.0) continue;
        const float s = dot(e2, qv) / det;
        if (s < 0.0 || s > 1.0 || s >= best) continue;
        best = s;
        normal = normalize(cross(e1, e2));
    }
}

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

// Removes the approaching normal velocity (reflected by the restitution) with Coulomb friction.
vec3 collide(vec3 v, vec3 normal)
{
    const float vn = dot(v, normal);
    if (vn < 0.0) {
        const float dvn = -vn * (1.0 + params.contact.y);
        v += dvn * normal;
        const vec3 vt = v - dot(v, normal) * normal;
        const float speed = length(vt);
        if (speed > 1e-20) v -= min(params.contact.x * dvn, speed) * vt / speed; // not 0 / 0 for a denormal speed
    }
    return v;
}

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= params.particles || params.obstacleOrigin.w <= 0.0) return;
    // In world coordinates (the static grid's); positions are relative to the body's origin, and
    // only a particle the meshes move is written back.
    const vec3 origin = FLOE_LOAD_VEC4(origins, uint(FLOE_LOAD_VEC4(rest, i).w)).xyz;
    vec4 x = FLOE_RW_LOAD_VEC4(positions, i);
    x.xyz += origin;
    const ivec3 dims = ivec3(params.obstacleDims.xyz);
    const float r = params.contact.w;
    const float size = params.obstacleOrigin.w;
    const vec3 lo = params.obstacleOrigin.xyz, hi = lo + vec3(dims) * size;
    bool moved = false;
    vec3 v = FLOE_RW_LOAD_VEC4(velocities, i).xyz;

    // The move of this step, clipped to the grid's box (slabs), walked cell by cell.
    const vec3 p0 = FLOE_LOAD_VEC4(previous, i).xyz + origin, d = x.xyz - p0;
    float enter = 0.0, leave = 1.0;
    for (int a = 0; a < 3; ++a) {
        if (abs(d[a]) < 1e-20) {
            if (p0[a] < lo[a] || p0[a] > hi[a]) leave = -1.0;
            continue;
        }
        const float t0 = (lo[a] - p0[a]) / d[a], t1 = (hi[a] - p0[a]) / d[a];
        enter = max(enter, min(t0, t1));
        leave = min(leave, max(t0, t1));
    }
    if (enter <= leave && dot(d, d) > 0.0) {
        const vec3 start = p0 + enter * d;
        ivec3 cell = clamp(ivec3(floor((start - lo) / size)), ivec3(0), dims - 1);
        const ivec3 last = clamp(ivec3(floor((p0 + leave * d - lo) / size)), ivec3(0), dims - 1);
        const ivec3 step = ivec3(sign(d));
        vec3 next = vec3(1e30), delta = vec3(1e30); // segment parameter at the next cell boundary per axis, and per cell
        for (int a = 0; a < 3; ++a) {
            if (step[a] == 0) continue;
            const float boundary = lo[a] + float(cell[a] + (step[a] > 0 ? 1 : 0)) * size;
            next[a] = (boundary - p0[a]) / d[a];
            delta[a] = size / abs(d[a]);
        }
        float best = 2.0;
        vec3 hitNormal = vec3(0.0);
        for (int n = 0; n < kMaxCells; ++n) {
            crossCell(uint(cell.x) + uint(dims.x) * (uint(cell.y) + uint(dims.y) * uint(cell.z)), p0, d, best, hitNormal);
            if (cell == last) break;
            const int a = next.x <= next.y && next.x <= next.z ? 0 : (next.y <= next.z ? 1 : 2);
            if (next[a] > best || next[a] > leave) break; // past the earliest crossing, or out of the grid
            cell[a] += step[a];
            if (cell[a] < 0 || cell[a] >= dims[a]) break;
            next[a] += delta[a];
        }
        if (best <= 1.0) {
            x.xyz = p0 + best * d + r * hitNormal;
            v = collide(v, hitNormal);
            moved = true;
        }
    }

    const ivec3 c = ivec3(floor((x.xyz - lo) / size));
    if (any(lessThan(c, ivec3(0))) || any(greaterThanEqual(c, dims))) {
        if (moved) {
            FLOE_STORE_VEC4(positions, i, vec4(x.xyz - origin, x.w));
            FLOE_STORE_VEC4(velocities, i, vec4(v, 0.0));
            FLOE_RW_STORE_UINT(flags, i, 3u); // this round and this step
        }
        return;
    }
    const uint key = uint(c.x) + uint(dims.x) * (uint(c.y) + uint(dims.y) * uint(c.z));
    float nearest = 1e30;
    vec3 point = vec3(0.0), normal = vec3(0.0);
    const uint end = FLOE_LOAD_UINT(cells, key + 1u);
    for (uint k = FLOE_LOAD_UINT(cells, key); k < end; ++k) {
        const uint t = FLOE_LOAD_UINT(entries, k);
        const vec3 a = FLOE_LOAD_VEC4(triangles, 3u * t).xyz, b = FLOE_LOAD_VEC4(triangles, 3u * t + 1u).xyz,
                   cc = FLOE_LOAD_VEC4(triangles, 3u * t + 2u).xyz;
        const vec3 q = closestOnTriangle(x.xyz, a, b, cc);
        const float dist = length(x.xyz - q);
        if (dist < nearest) {
            nearest = dist;
            point = q;
            normal = normalize(cross(b - a, cc - a));
        }
    }
    if (nearest <= r && dot(x.xyz - point, normal) < r) {
        x.xyz = point + r * normal;
        v = collide(v, normal);
        moved = true;
    }
    if (!moved) return;
    FLOE_STORE_VEC4(positions, i, vec4(x.xyz - origin, x.w));
    FLOE_STORE_VEC4(velocities, i, vec4(v, 0.0));
    FLOE_RW_STORE_UINT(flags, i, 3u); // this round and this step
}
