#version 460
// Each body's origin (digest-002 §2.7.12, §10 item 10: one origin per body), moved at the
// step's start to its first particle: the particles' positions are stored relative to it, so
// float32 keeps their digits however far the body is from the world's origin (issue 17 item 4).
// The move is taken exactly: o' = o + x_first rounds, d = o' - o is exact (Sterbenz), and
// body/integrate takes d off every particle, so o + x is unchanged but for x's own rounding.
// Writes o' at index b and d at index bodies + b.
#include "body/body_common.glsl"

FLOE_IN_VEC4(BODY_BIND_POSITIONS, positions);
FLOE_IN_UVEC4(BODY_BIND_BODY_RANGE, bodyRange);
FLOE_RW_VEC4(BODY_BIND_ORIGINS, origins);

void main()
{
    const uint b = floeGlobalIndex();
    if (b >= params.bodies) return;
    const vec3 origin = FLOE_RW_LOAD_VEC4(origins, b).xyz;
    const vec3 moved = origin + FLOE_LOAD_VEC4(positions, FLOE_LOAD_UVEC4(bodyRange, b).x).xyz;
    // A non-finite body (diverged) keeps its origin: the run reports it from its metrics.
    const vec3 next = any(isnan(moved)) || any(isinf(moved)) ? origin : moved;
    FLOE_RW_STORE_VEC4(origins, b, vec4(next, 0.0));
    FLOE_RW_STORE_VEC4(origins, params.bodies + b, vec4(next - origin, 0.0));
}
