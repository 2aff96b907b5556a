#version 460
// Per-region velocity damping (digest-002 §2.7.10, Müller et al. 2007 per region), stage A:
// per particle the region-independent terms, in the body's local frame (x local, v scaled
// alike): m v (3), m x cross v (3), m x x^T (6, symmetric: xx, xy, xz, yy, yz, zz).
#include "body/body_common.glsl"

FLOE_IN_VEC4(BODY_BIND_POSITIONS, positions);
FLOE_IN_VEC4(BODY_BIND_VELOCITIES, velocities);
FLOE_IN_VEC4(BODY_BIND_REST, rest);
FLOE_IN_VEC4(BODY_BIND_BODY_DATA, bodyData);
FLOE_IN_VEC4(BODY_BIND_DISPLACEMENT, displacement);
FLOE_OUT_VEC4(BODY_BIND_OUT, terms);

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= params.particles) return;
    const uint body = uint(FLOE_LOAD_VEC4(rest, i).w);
    const float scale = FLOE_LOAD_VEC4(bodyData, body).x;
    const vec4 p = FLOE_LOAD_VEC4(positions, i);
    // The predicted position shape matching worked on: x_pred = x - c (digest-002 §2.7.13).
    const vec3 x = (p.xyz - FLOE_LOAD_VEC4(displacement, i).xyz) * scale;
    const vec3 v = FLOE_LOAD_VEC4(velocities, i).xyz * scale;
    const float m = p.w;
    const vec3 L = m * cross(x, v);
    FLOE_STORE_VEC4(terms, 3u * i, vec4(m * v, L.x));
    FLOE_STORE_VEC4(terms, 3u * i + 1u, vec4(L.yz, m * x.x * x.x, m * x.x * x.y));
    FLOE_STORE_VEC4(terms, 3u * i + 2u, vec4(m * x.x * x.z, m * x.y * x.y, m * x.y * x.z, m * x.z * x.z));
}
