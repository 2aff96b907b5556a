#version 460
// Each body's volume at the end of the step and its error (V - V0) / V0, from the scanned
// stage-1 terms (V = (1/9) sum x . n), and its rigid-consistency error: the mean distance
// between the particles and their shape-matching goals, |g - x| = |c| / s, relative to the
// body's size; its potential energy -m g . x and its kinetic energy (J), summed by the same scan.
#include "body/body_common.glsl"

FLOE_IN_UVEC4(BODY_BIND_BODY_RANGE, bodyRange);
FLOE_IN_VEC4(BODY_BIND_BODY_DATA, bodyData);
FLOE_IN_VEC4(BODY_BIND_SCAN, totals);
FLOE_OUT_VEC4(BODY_BIND_METRICS, metrics);

void main()
{
    const uint b = floeGlobalIndex();
    if (b >= params.bodies) return;
    const uvec4 range = FLOE_LOAD_UVEC4(bodyRange, b);
    const vec4 total = FLOE_LOAD_VEC4(totals, range.x + range.y - 1u);
    const float volume = total.x / 9.0;
    const vec4 data = FLOE_LOAD_VEC4(bodyData, b);
    const float rest = data.y;
    const float rigid = total.y / (float(range.y) * max(params.control.x, 1e-6)) * data.x;
    FLOE_STORE_VEC4(metrics, b, vec4((volume - rest) / rest, total.w, rigid, total.z));
}
