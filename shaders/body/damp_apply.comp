#version 460
// Damping, stage C: the averaged rigid velocity of the regions containing the particle (the
// members of its own omega-ring), a + w cross x, and v += k (v_rigid - v); then the position
// update x = x_start + dt v again (digest-002 §2.7.13: damping acts before it). The kinetic
// energy it took from the particle, m (|v|^2 - |v'|^2) / 2, goes to the energy account.
#include "body/body_common.glsl"

FLOE_RW_VEC4(BODY_BIND_POSITIONS, positions);
FLOE_RW_VEC4(BODY_BIND_VELOCITIES, velocities);
FLOE_IN_VEC4(BODY_BIND_PREVIOUS, previous);
FLOE_IN_VEC4(BODY_BIND_REST, rest);
FLOE_IN_VEC4(BODY_BIND_BODY_DATA, bodyData);
FLOE_IN_VEC4(BODY_BIND_DISPLACEMENT, displacement);
FLOE_IN_VEC4(BODY_BIND_SCAN, scanned);
FLOE_IN_VEC4(BODY_BIND_REGION_INFO, regionInfo);
FLOE_IN_UINT(BODY_BIND_REGION_START, regionStart);
FLOE_IN_UINT(BODY_BIND_INTERVALS, intervals);
FLOE_IN_UINT(BODY_BIND_HEADS, heads);
FLOE_OUT_FLOAT(BODY_BIND_DAMP_LOSS, dampLoss);

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= params.particles) return;
    vec4 sums[2];
    sums[0] = vec4(0.0);
    sums[1] = vec4(0.0);
    BODY_GATHER_REGION(scanned, i, 2u, sums);
    const vec4 a = sums[0], w = sums[1];
    const float count = FLOE_LOAD_VEC4(regionInfo, i).y;
    const uint body = uint(FLOE_LOAD_VEC4(rest, i).w);
    const float scale = FLOE_LOAD_VEC4(bodyData, body).x;
    const vec4 p = FLOE_RW_LOAD_VEC4(positions, i);
    // The predicted position shape matching worked on: x_pred = x - c (digest-002 §2.7.13).
    const vec3 x = (p.xyz - FLOE_LOAD_VEC4(displacement, i).xyz) * scale;
    const vec3 rigidVelocity = (a.xyz + cross(w.xyz, x)) / count / scale;
    const vec3 v = FLOE_RW_LOAD_VEC4(velocities, i).xyz;
    const vec3 damped = v + params.damping.x * (rigidVelocity - v);
    FLOE_STORE_VEC4(velocities, i, vec4(damped, 0.0));
    FLOE_STORE_FLOAT(dampLoss, i, 0.5 * p.w * (dot(v, v) - dot(damped, damped)));
    FLOE_STORE_VEC4(positions, i, vec4(FLOE_LOAD_VEC4(previous, i).xyz + params.gravity.w * damped, p.w));
}
