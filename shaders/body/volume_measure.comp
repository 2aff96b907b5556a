#version 460
// Each body's volume at the end of the step and its error (V - V0) / V0, from the scanned
// stage-1 terms (V = (1/9) sum x . n).
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
    const float volume = FLOE_LOAD_VEC4(totals, range.x + range.y - 1u).x / 9.0;
    const float rest = FLOE_LOAD_VEC4(bodyData, b).y;
    FLOE_STORE_VEC4(metrics, b, vec4((volume - rest) / rest, volume, 0.0, 0.0));
}
