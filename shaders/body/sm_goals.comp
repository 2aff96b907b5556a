#version 460
// Shape matching, stage C (digest-002 (7.5), (7.4)): the goal averages the transforms of all
// regions containing the particle, which for omega-rings are the members of its own ring:
// the same interval gather over the scanned transforms. Then c = s (g - x), v += c / dt and
// x = x_start + dt v. c is kept for the local volume weights (7.14).
#include "body/body_common.glsl"

FLOE_RW_VEC4(BODY_BIND_POSITIONS, positions);
FLOE_RW_VEC4(BODY_BIND_VELOCITIES, velocities);
FLOE_IN_VEC4(BODY_BIND_PREVIOUS, previous);
FLOE_IN_VEC4(BODY_BIND_REST, rest);
FLOE_IN_VEC4(BODY_BIND_BODY_DATA, bodyData);
FLOE_IN_VEC4(BODY_BIND_SCAN, scanned);
FLOE_IN_VEC4(BODY_BIND_REGION_INFO, regionInfo);
FLOE_IN_UINT(BODY_BIND_REGION_START, regionStart);
FLOE_IN_UINT(BODY_BIND_INTERVALS, intervals);
FLOE_IN_UINT(BODY_BIND_HEADS, heads);
FLOE_OUT_VEC4(BODY_BIND_DISPLACEMENT, displacement);

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= params.particles) return;
    vec4 sums[3];
    for (uint c = 0u; c < 3u; ++c) sums[c] = vec4(0.0);
#ifdef NAIVE
    BODY_SUM_MEMBERS(scanned, i, 3u, sums);
#else
    BODY_GATHER_REGION(scanned, i, 3u, sums);
#endif
    const vec4 row0 = sums[0], row1 = sums[1], row2 = sums[2];
    const float count = FLOE_LOAD_VEC4(regionInfo, i).y;
    const vec4 r = FLOE_LOAD_VEC4(rest, i);
    const uint body = uint(r.w);
    const vec4 x = FLOE_RW_LOAD_VEC4(positions, i);
    const float scale = FLOE_LOAD_VEC4(bodyData, body).x;
    const vec4 x0 = vec4(r.xyz, 1.0);
    const vec3 goalLocal = vec3(dot(row0, x0), dot(row1, x0), dot(row2, x0)) / count;
    const vec3 goal = goalLocal / scale; // relative to the body's origin, as the positions
    const float dt = params.gravity.w;
    const vec3 c = params.control.x * (goal - x.xyz);
    const vec3 v = FLOE_RW_LOAD_VEC4(velocities, i).xyz + c / dt;
    FLOE_STORE_VEC4(velocities, i, vec4(v, 0.0));
    FLOE_STORE_VEC4(displacement, i, vec4(c, length(c)));
    FLOE_STORE_VEC4(positions, i, vec4(FLOE_LOAD_VEC4(previous, i).xyz + dt * v, x.w));
}
