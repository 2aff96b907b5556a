#version 460
// Contacts with static triangle meshes (the scene's RigidBodies, digest-002 §2.4's
// point-triangle test without its continuous part): the triangles near the particle come from
// a static grid (built once on the CPU); the nearest one decides. A particle closer than the
// contact radius r to its front side, or just behind it (within r: it crossed this step), is
// put r in front of it; its approaching normal velocity is removed with Coulomb friction and
// it is flagged for the volume step.
#include "body/body_common.glsl"

FLOE_RW_VEC4(BODY_BIND_POSITIONS, positions);
FLOE_RW_VEC4(BODY_BIND_VELOCITIES, velocities);
FLOE_RW_UINT(BODY_BIND_FLAGS, flags);
FLOE_IN_VEC4(BODY_BIND_OBSTACLE_TRIANGLES, triangles);
FLOE_IN_UINT(BODY_BIND_OBSTACLE_CELLS, cells);
FLOE_IN_UINT(BODY_BIND_OBSTACLE_ENTRIES, entries);

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
    const uint i = floeGlobalIndex();
    if (i >= params.particles || params.obstacleOrigin.w <= 0.0) return;
    vec4 x = FLOE_RW_LOAD_VEC4(positions, i);
    const ivec3 dims = ivec3(params.obstacleDims.xyz);
    const ivec3 c = ivec3(floor((x.xyz - params.obstacleOrigin.xyz) / params.obstacleOrigin.w));
    if (any(lessThan(c, ivec3(0))) || any(greaterThanEqual(c, dims))) return;
    const uint key = uint(c.x) + uint(dims.x) * (uint(c.y) + uint(dims.y) * uint(c.z));
    const float r = params.contact.w;
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
    if (nearest > r) return;
    const float side = dot(x.xyz - point, normal);
    if (side >= r) return;
    x.xyz = point + r * normal;
    vec3 v = FLOE_RW_LOAD_VEC4(velocities, i).xyz;
    const float vn = dot(v, normal);
    if (vn < 0.0) {
        const float dvn = -vn * (1.0 + params.contact.y);
        v += dvn * normal;
        const vec3 vt = v - dot(v, normal) * normal;
        const float speed = length(vt);
        if (speed > 0.0) v -= min(params.contact.x * dvn, speed) * vt / speed;
    }
    FLOE_STORE_VEC4(positions, i, x);
    FLOE_STORE_VEC4(velocities, i, vec4(v, 0.0));
    FLOE_STORE_UINT(flags, i, 1u);
}
