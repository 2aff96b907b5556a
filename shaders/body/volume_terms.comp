#version 460
// Per-particle terms of the volume constraint, summed per body by a segmented scan (heads at
// body starts). 3V = (1/3) sum x_i . n_i with n_i the area-weighted normal sum (digest-002
// (7.9)-(7.11)); positions are relative to the body's origin (sum n_i = 0 on a closed surface,
// so the sum is the world's, and float32 keeps its digits far from the world's origin).
//   stage 0 (correction): (x . n, need (bodyVolumeNeed: |c| and the interior joint), v . n, 0)
//   stage 1 (measurement): (x . n, |c|, kinetic energy m |v|^2 / 2, potential energy -m g . x (world)),
//                          (m x, m), (m v, 0): three vec4 per record
#include "body/body_common.glsl"

layout(push_constant) uniform Push { BodyPush push; };
FLOE_IN_VEC4(BODY_BIND_POSITIONS, positions);
FLOE_IN_VEC4(BODY_BIND_VELOCITIES, velocities);
FLOE_IN_VEC4(BODY_BIND_REST, rest);
FLOE_IN_VEC4(BODY_BIND_ORIGINS, origins);
FLOE_IN_VEC4(BODY_BIND_NORMALS, normals);
FLOE_IN_VEC4(BODY_BIND_DISPLACEMENT, displacement);
FLOE_IN_VEC4(BODY_BIND_JOINTS, joints);
FLOE_IN_VEC4(BODY_BIND_BODY_VOLUME, bodyVolume);
FLOE_OUT_VEC4(BODY_BIND_OUT, terms);

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= params.particles) return;
    const uint body = uint(FLOE_LOAD_VEC4(rest, i).w);
    const vec3 x = FLOE_LOAD_VEC4(positions, i).xyz;
    const vec3 n = FLOE_LOAD_VEC4(normals, i).xyz;
    if (push.stage == 1u) {
        const vec3 v = FLOE_LOAD_VEC4(velocities, i).xyz;
        const vec4 world = vec4(x + FLOE_LOAD_VEC4(origins, body).xyz, FLOE_LOAD_VEC4(positions, i).w); // w: mass
        const float kinetic = 0.5 * world.w * dot(v, v);
        const float potential = -world.w * dot(params.gravity.xyz, world.xyz);
        // Three vec4 per record: the body's motion for bodies.csv rides along (mass-weighted
        // position relative to the origin, and momentum).
        FLOE_STORE_VEC4(terms, 3u * i, vec4(dot(x, n), FLOE_LOAD_VEC4(displacement, i).w, kinetic, potential));
        FLOE_STORE_VEC4(terms, 3u * i + 1u, vec4(world.w * x, world.w));
        FLOE_STORE_VEC4(terms, 3u * i + 2u, vec4(world.w * v, 0.0));
        return;
    }
    const vec4 joint = FLOE_LOAD_VEC4(joints, i);
    float strain = 0.0;
    if (joint.w > 0.0) {
        const vec3 partner = FLOE_LOAD_VEC4(positions, uint(joint.x)).xyz;
        strain = abs(length(FLOE_LOAD_VEC4(positions, i).xyz - partner) - joint.y);
    }
    const float need = bodyVolumeNeed(FLOE_LOAD_VEC4(bodyVolume, body).z, joint.z, strain, FLOE_LOAD_VEC4(displacement, i).w);
    FLOE_STORE_VEC4(terms, i, vec4(dot(x, n), need, dot(FLOE_LOAD_VEC4(velocities, i).xyz, n), 0.0));
}
