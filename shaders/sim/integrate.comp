#version 460
// The foundation's minimal particle step: symplectic Euler under gravity inside a closed box
// with restitution and friction at the walls, plus the per-particle metrics the step reports.
// Solvers (SPH, soft bodies) replace the force part; the wall response stays.
#include "shared/particles.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"

layout(local_size_x = SIM_GROUP_SIZE) in;
layout(push_constant) uniform Push { ParticleParams params; };
FLOE_RW_VEC4(SIM_BIND_POSITIONS, positions);
FLOE_RW_VEC4(SIM_BIND_VELOCITIES, velocities);
FLOE_OUT_VEC4(SIM_BIND_METRICS, metrics);

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= params.count) return;
    vec4 p = FLOE_RW_LOAD_VEC4(positions, i);
    vec4 v = FLOE_RW_LOAD_VEC4(velocities, i);
    const float dt = params.gravity.w;
    const float radius = params.domainMin.w;

    v.xyz += params.gravity.xyz * dt; // symplectic Euler: velocity first, then position
    p.xyz += v.xyz * dt;

    const vec3 lo = params.domainMin.xyz + radius;
    const vec3 hi = params.domainMax.xyz - radius;
    for (uint axis = 0u; axis < params.dimensions; ++axis) {
        const bool below = p[axis] < lo[axis];
        const bool above = p[axis] > hi[axis];
        if (below || above) {
            p[axis] = below ? lo[axis] : hi[axis];
            const float inward = below ? 1.0 : -1.0;
            if (v[axis] * inward < 0.0) {
                v[axis] = -params.domainMax.w * v[axis];
                // Friction scales the tangential components of the contact.
                for (uint t = 0u; t < params.dimensions; ++t)
                    if (t != axis) v[t] *= 1.0 - params.friction;
            }
        }
    }
    if (params.dimensions == 2u) {
        p.z = 0.0;
        v.z = 0.0;
    }
    FLOE_STORE_VEC4(positions, i, p);
    FLOE_STORE_VEC4(velocities, i, v);

    const float speed = length(v.xyz);
    const bool finite = !any(isnan(p.xyz)) && !any(isinf(p.xyz)) && !any(isnan(v.xyz)) && !any(isinf(v.xyz));
    const vec3 margin = vec3(params.escapeMargin);
    const bool inside = finite && all(greaterThanEqual(p.xyz, params.domainMin.xyz - margin)) &&
                        all(lessThanEqual(p.xyz, params.domainMax.xyz + margin));
    FLOE_STORE_VEC4(metrics, i, vec4(finite ? 0.5 * p.w * dot(v.xyz, v.xyz) : 0.0, inside ? 0.0 : 1.0, finite ? speed : 0.0,
                                     finite ? 0.0 : 1.0));
}
