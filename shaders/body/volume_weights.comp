#version 460
// Weights of the volume correction (digest-002 (7.14)): w = (1 - alpha) g + alpha / n with
// g = need_i / sum need_j, need = beta s_i d_i + (1 - beta) |c_i| (§2.7.9 with the interior
// joints; beta = 0: (7.14) as printed) (alpha = 1: global, every particle alike).
//   stage 0: writes w (to be smoothed by body/weights_smooth, §2.7.9's umbrella filter);
//   stage 1: reads the smoothed w; collided particles get weight 0 for positions only,
//            after the smoothing (§10 item 5: zeroing first would let the smoothing give them
//            weight again); writes (w_pos |n/3|^2, |n/3|^2) for the per-body sums of the
//            denominators (velocities are projected with equal weights: body/volume_apply).

#include "body/body_common.glsl"

FLOE_IN_VEC4(BODY_BIND_REST, rest);
FLOE_IN_UVEC4(BODY_BIND_BODY_RANGE, bodyRange);
FLOE_IN_VEC4(BODY_BIND_NORMALS, normals);
FLOE_IN_VEC4(BODY_BIND_DISPLACEMENT, displacement);
FLOE_IN_UINT(BODY_BIND_FLAGS, flags);
FLOE_IN_VEC4(BODY_BIND_SCAN, totals); // stage-0 terms scanned per body
FLOE_OUT_VEC4(BODY_BIND_OUT, terms);
FLOE_RW_VEC4(BODY_BIND_WEIGHTS, weights);
FLOE_IN_VEC4(BODY_BIND_POSITIONS, positions);
FLOE_IN_VEC4(BODY_BIND_JOINTS, joints);
FLOE_IN_VEC4(BODY_BIND_BODY_VOLUME, bodyVolume);
layout(push_constant) uniform Push { BodyPush push; };

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= params.particles) return;
    const uint body = uint(FLOE_LOAD_VEC4(rest, i).w);
    const uvec4 range = FLOE_LOAD_UVEC4(bodyRange, body);
    const vec4 total = FLOE_LOAD_VEC4(totals, range.x + range.y - 1u);
    const float n = float(range.y);
    if (push.stage == 0u) {
        const vec4 volume = FLOE_LOAD_VEC4(bodyVolume, body);
        const float alpha = volume.x == float(BODY_VOLUME_LOCAL) ? volume.y : 1.0;
        const vec4 joint = FLOE_LOAD_VEC4(joints, i);
        float strain = 0.0;
        if (joint.w > 0.0)
            strain = abs(length(FLOE_LOAD_VEC4(positions, i).xyz - FLOE_LOAD_VEC4(positions, uint(joint.x)).xyz) - joint.y);
        const float need = bodyVolumeNeed(volume.z, joint.z, strain, FLOE_LOAD_VEC4(displacement, i).w);
        const float g = total.y > 0.0 ? need / total.y : 1.0 / n;
        FLOE_STORE_VEC4(weights, i, vec4((1.0 - alpha) * g + alpha / n, 0.0, 0.0, 0.0));
        return;
    }
    const float w = FLOE_RW_LOAD_VEC4(weights, i).x;
    const vec3 gradient = FLOE_LOAD_VEC4(normals, i).xyz / 3.0;
    const float g2 = dot(gradient, gradient);
    const float wPos = (FLOE_LOAD_UINT(flags, i) & 1u) != 0u ? 0.0 : w;
    FLOE_STORE_VEC4(terms, i, vec4(wPos * g2, g2, 0.0, 0.0));
}
