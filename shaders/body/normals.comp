#version 460
// Area-weighted vertex normal sums n_i = sum over incident triangles of A_t n_t (digest-002
// (7.11)), gathered per particle over its incident-triangle list: no atomics.
#include "body/body_common.glsl"

FLOE_IN_VEC4(BODY_BIND_POSITIONS, positions);
FLOE_IN_UINT(BODY_BIND_INCIDENT_START, incidentStart);
FLOE_IN_UINT(BODY_BIND_INCIDENT, incident);
FLOE_IN_UVEC4(BODY_BIND_TRIANGLES, triangles);
FLOE_OUT_VEC4(BODY_BIND_NORMALS, normals);

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= params.particles) return;
    const vec3 xi = FLOE_LOAD_VEC4(positions, i).xyz;
    vec3 sum = vec3(0.0);
    const uint end = FLOE_LOAD_UINT(incidentStart, i + 1u);
    for (uint k = FLOE_LOAD_UINT(incidentStart, i); k < end; ++k) {
        const uvec4 t = FLOE_LOAD_UVEC4(triangles, FLOE_LOAD_UINT(incident, k));
        // Edges from x_i keep the cross product accurate far from the origin.
        const vec3 a = FLOE_LOAD_VEC4(positions, t.x).xyz - xi;
        const vec3 b = FLOE_LOAD_VEC4(positions, t.y).xyz - xi;
        const vec3 c = FLOE_LOAD_VEC4(positions, t.z).xyz - xi;
        sum += 0.5 * cross(b - a, c - a);
    }
    FLOE_STORE_VEC4(normals, i, vec4(sum, 0.0));
}
