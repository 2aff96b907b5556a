#version 460
// The volume projections (digest-002 §2.7.8 with the fixes of §10 items 1 and 2): with
// V = (1/9) sum x . n and its exact gradient dV/dx_i = n_i / 3 (the thesis' n_i / 3 for the
// constraint 3V - 3V0 is 3x too small: used as printed it overshoots to -2C),
//   dx_i = -w_i (V - V0) (n_i/3) / sum_j w_j |n_j/3|^2       (weighted PBD (2.13))
//   dv_i = -w_i C_v (n_i/3) / sum_j w_j |n_j/3|^2,  C_v = sum v . n / 3 = dV/dt
//   dv_i = -C_v (n_i/3) / sum_j |n_j/3|^2 (equal weights; see below)
// Positions and velocities are corrected separately (§10 item 3): the position correction does
// not feed back into v; the velocity projection makes dV/dt zero.
// The thesis weighs the velocity projection with the local weights too. A projection weighted
// by anything but the masses is not orthogonal in the kinetic-energy metric and can add energy
// (v . dv > -|dv|^2 / 2 where the weights differ): a lying capsule held flat under the plate with
// the local correction gained up to 220 J (the global correction: 1.5 J) and swung 0.75 % off
// its volume. The vertices of a body have equal masses, so the velocities are projected with
// equal weights, which only removes the velocity that changes the volume; the local weights
// still decide where the positions are corrected (BodyTest.CrushedFlatCapsuleAndBox...Local...).
#include "body/body_common.glsl"

FLOE_RW_VEC4(BODY_BIND_POSITIONS, positions);
FLOE_RW_VEC4(BODY_BIND_VELOCITIES, velocities);
FLOE_IN_VEC4(BODY_BIND_REST, rest);
FLOE_IN_UVEC4(BODY_BIND_BODY_RANGE, bodyRange);
FLOE_IN_VEC4(BODY_BIND_BODY_DATA, bodyData);
FLOE_IN_VEC4(BODY_BIND_NORMALS, normals);
FLOE_IN_UINT(BODY_BIND_FLAGS, flags);
FLOE_IN_VEC4(BODY_BIND_SCAN, totals);     // stage-0 terms scanned per body
FLOE_IN_VEC4(BODY_BIND_SCAN_B, weightSums); // weight terms scanned per body
FLOE_IN_VEC4(BODY_BIND_WEIGHTS, weights);   // smoothed w
FLOE_IN_VEC4(BODY_BIND_BODY_VOLUME, bodyVolume);

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= params.particles) return;
    const uint body = uint(FLOE_LOAD_VEC4(rest, i).w);
    if (FLOE_LOAD_VEC4(bodyVolume, body).x == float(BODY_VOLUME_NONE)) return;
    const uvec4 range = FLOE_LOAD_UVEC4(bodyRange, body);
    const uint last = range.x + range.y - 1u;
    const vec4 total = FLOE_LOAD_VEC4(totals, last);
    const vec4 denominators = FLOE_LOAD_VEC4(weightSums, last);
    const float wPos = (FLOE_LOAD_UINT(flags, i) & 1u) != 0u ? 0.0 : FLOE_LOAD_VEC4(weights, i).x;
    const vec3 gradient = FLOE_LOAD_VEC4(normals, i).xyz / 3.0;
    const float volumeError = total.x / 9.0 - FLOE_LOAD_VEC4(bodyData, body).y;
    const float volumeRate = total.z / 3.0;
    if (denominators.x > 0.0) {
        const vec4 x = FLOE_RW_LOAD_VEC4(positions, i);
        FLOE_STORE_VEC4(positions, i, vec4(x.xyz - wPos * volumeError / denominators.x * gradient, x.w));
    }
    if (denominators.y > 0.0) {
        const vec3 v = FLOE_RW_LOAD_VEC4(velocities, i).xyz;
        FLOE_STORE_VEC4(velocities, i, vec4(v - volumeRate / denominators.y * gradient, 0.0));
    }
}
