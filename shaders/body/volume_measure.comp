#version 460
// Each body's volume at the end of the step and its error (V - V0) / V0, from the scanned
// stage-1 terms (V = (1/9) sum x . n), and its rigid-consistency error: the mean distance
// between the particles and their shape-matching goals, |g - x| = |c| / s, relative to the
// body's size; its potential energy -m g . x and its kinetic energy (J), summed by the same scan;
// and its centre of mass, mass, the centre's velocity and the volume (m^3) after the bodies' block.
// Stage 1 (the energy account measured, body/sm_energy's records scanned per body): a fourth
// block, per body its elastic energy, the damping's loss and the particles a contact moved.
#include "body/body_common.glsl"

layout(push_constant) uniform Push { BodyPush push; };

FLOE_IN_UVEC4(BODY_BIND_BODY_RANGE, bodyRange);
FLOE_IN_VEC4(BODY_BIND_BODY_DATA, bodyData);
FLOE_IN_VEC4(BODY_BIND_SCAN, totals);
FLOE_IN_VEC4(BODY_BIND_ORIGINS, origins);
FLOE_IN_VEC4(BODY_BIND_SCAN_B, energy);
FLOE_OUT_VEC4(BODY_BIND_METRICS, metrics);

void main()
{
    const uint b = floeGlobalIndex();
    if (b >= params.bodies) return;
    const uvec4 range = FLOE_LOAD_UVEC4(bodyRange, b);
    const uint last = range.x + range.y - 1u; // the body's last record: its sums (three vec4 per record)
    const vec4 total = FLOE_LOAD_VEC4(totals, 3u * last);
    const vec4 weighted = FLOE_LOAD_VEC4(totals, 3u * last + 1u), momentum = FLOE_LOAD_VEC4(totals, 3u * last + 2u);
    const float volume = total.x / 9.0;
    const vec4 data = FLOE_LOAD_VEC4(bodyData, b);
    const float rest = data.y;
    const float rigid = total.y / (float(range.y) * max(params.control.x, 1e-6)) * data.x;
    FLOE_STORE_VEC4(metrics, b, vec4((volume - rest) / rest, total.w, rigid, total.z));
    // Its motion (bodies.csv), after the per-body block: centre of mass (world) and mass, velocity of the centre of mass.
    const float mass = max(weighted.w, 1e-30);
    FLOE_STORE_VEC4(metrics, params.bodies + 2u * b, vec4(FLOE_LOAD_VEC4(origins, b).xyz + weighted.xyz / mass, weighted.w));
    FLOE_STORE_VEC4(metrics, params.bodies + 2u * b + 1u, vec4(momentum.xyz / mass, volume));
    if (push.stage == 1u) FLOE_STORE_VEC4(metrics, 3u * params.bodies + b, FLOE_LOAD_VEC4(energy, last));
}
