#version 460
// Contacts between bodies (digest-002 §2.4, §2.7.13 step 3, done on the GPU here): a vertex i
// within 2r (r: half the mean edge length) of a vertex j of another body is kept at least r
// outside j's tangent plane (normal n_j, outward): penetration depth r - (x_i - x_j) . n_j.
// Measuring along j's normal, not the line of centres, keeps the push outward even once i has
// slipped past j. Each side moves half the depth; the approaching normal velocity is removed
// (equal vertex masses assumed) with Coulomb friction on the tangential part, and both are
// flagged for the volume step. One Jacobi pass over the uniform grid (cells of at least 2r);
// results go to separate buffers.
#include "body/body_common.glsl"

FLOE_IN_VEC4(BODY_BIND_POSITIONS, positions);
FLOE_IN_VEC4(BODY_BIND_VELOCITIES, velocities);
FLOE_IN_VEC4(BODY_BIND_REST, rest);
FLOE_IN_UINT(BODY_BIND_SORTED, sorted);
FLOE_IN_UINT(BODY_BIND_CELL_START, cellStart);
FLOE_IN_VEC4(BODY_BIND_NORMALS, normals);
FLOE_RW_UINT(BODY_BIND_FLAGS, flags);
FLOE_OUT_VEC4(BODY_BIND_OUT, outPositions);
FLOE_OUT_VEC4(BODY_BIND_OUT_VELOCITIES, outVelocities);

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= params.particles) return;
    const vec4 xi = FLOE_LOAD_VEC4(positions, i);
    const vec3 vi = FLOE_LOAD_VEC4(velocities, i).xyz;
    const uint body = uint(FLOE_LOAD_VEC4(rest, i).w);
    const float r = params.contact.w;
    const float cell = params.gridOrigin.w;
    const ivec3 dims = ivec3(params.gridDims.xyz);
    const ivec3 c = clamp(ivec3(floor((xi.xyz - params.gridOrigin.xyz) / cell)), ivec3(0), dims - 1);
    vec3 push = vec3(0.0);
    vec3 dv = vec3(0.0);
    uint hits = 0u;
    for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                const ivec3 q = c + ivec3(dx, dy, dz);
                if (any(lessThan(q, ivec3(0))) || any(greaterThanEqual(q, dims))) continue;
                const uint key = uint(q.x) + uint(dims.x) * (uint(q.y) + uint(dims.y) * uint(q.z));
                const uint end = FLOE_LOAD_UINT(cellStart, key + 1u);
                for (uint s = FLOE_LOAD_UINT(cellStart, key); s < end; ++s) {
                    const uint j = FLOE_LOAD_UINT(sorted, s);
                    if (uint(FLOE_LOAD_VEC4(rest, j).w) == body) continue;
                    const vec3 d = xi.xyz - FLOE_LOAD_VEC4(positions, j).xyz;
                    if (dot(d, d) >= 4.0 * r * r) continue;
                    const vec3 nj = FLOE_LOAD_VEC4(normals, j).xyz;
                    if (dot(nj, nj) == 0.0) continue;
                    const vec3 n = normalize(nj);
                    const float depth = r - dot(d, n);
                    if (depth <= 0.0) continue;
                    push += 0.5 * depth * n;
                    const vec3 relative = vi - FLOE_LOAD_VEC4(velocities, j).xyz;
                    const float vn = dot(relative, n);
                    if (vn < 0.0) {
                        const float dvn = -0.5 * vn * (1.0 + params.contact.y);
                        const vec3 vt = relative - vn * n;
                        const float speed = length(vt);
                        const vec3 friction = speed > 0.0 ? -min(params.contact.x * dvn, 0.5 * speed) * vt / speed : vec3(0.0);
                        dv += dvn * n + friction;
                    }
                    ++hits;
                }
            }
    // Averaged over the contacts (Jacobi): summing would overshoot where several overlap.
    const float share = hits > 0u ? 1.0 / float(hits) : 0.0;
    FLOE_STORE_VEC4(outPositions, i, vec4(xi.xyz + share * push, xi.w));
    FLOE_STORE_VEC4(outVelocities, i, vec4(vi + share * dv, 0.0));
    if (hits > 0u) FLOE_STORE_UINT(flags, i, 1u);
}
