#version 460
// Shape matching, stage A input (digest-002 §2.7.2, §2.7.6): per particle the 12
// region-independent terms m x (3) and m x x0^T (9), in the body's local frame (its origin, at
// its first particle's position at the step's start, scaled to about [-1, 1]^3: §2.7.12), packed as
// three vec4: (mx, P00) (P01, P02, P10, P11) (P12, P20, P21, P22) with P = m x x0^T.
#include "body/body_common.glsl"

FLOE_IN_VEC4(BODY_BIND_POSITIONS, positions);
FLOE_IN_VEC4(BODY_BIND_REST, rest);
FLOE_IN_VEC4(BODY_BIND_BODY_DATA, bodyData);
FLOE_OUT_VEC4(BODY_BIND_OUT, terms);

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= params.particles) return;
    const vec4 r = FLOE_LOAD_VEC4(rest, i);
    const uint body = uint(r.w);
    const vec4 x = FLOE_LOAD_VEC4(positions, i);
    const vec3 xl = x.xyz * FLOE_LOAD_VEC4(bodyData, body).x; // positions are relative to the body's origin
    const vec3 mx = x.w * xl;
    const vec3 x0 = r.xyz;
    FLOE_STORE_VEC4(terms, 3u * i + 0u, vec4(mx, mx.x * x0.x));
    FLOE_STORE_VEC4(terms, 3u * i + 1u, vec4(mx.x * x0.y, mx.x * x0.z, mx.y * x0.x, mx.y * x0.y));
    FLOE_STORE_VEC4(terms, 3u * i + 2u, vec4(mx.y * x0.z, mx.z * x0.x, mx.z * x0.y, mx.z * x0.z));
}
