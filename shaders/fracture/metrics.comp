#version 460
// One thread per node: the step's metric terms for a reduction on the GPU (so a run reads back
// a few vec4 per step instead of every node's position, velocity and data): (kinetic energy
// m |v|^2 / 2 in J, 1 if the node is outside the box [lo, hi] (escaped), 1 if its position or
// velocity is not finite, potential energy -m g . x in J with x in world coordinates). A non-finite node counts as not escaped and its energy as 0, so
// that one broken node shows as such instead of turning the sums into NaN.
#include "fracture/fracture_common.glsl"

FLOE_IN_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_IN_VEC4(FRACTURE_BIND_VELOCITIES, velocities);
FLOE_IN_VEC4(FRACTURE_BIND_NODE_DATA, nodeData);
FLOE_IN_VEC4(FRACTURE_BIND_NODE_ORIGIN, origins);
FLOE_OUT_VEC4(FRACTURE_BIND_METRICS, terms);
layout(push_constant) uniform Push { vec4 lo, hi; }; // the box outside which a node has escaped (xyz, m)

void main()
{
    const uint n = floeGlobalIndex();
    if (n >= params.nodes) return;
    const vec3 x = FLOE_LOAD_VEC4(positions, n).xyz + FLOE_LOAD_VEC4(origins, n).xyz, v = FLOE_LOAD_VEC4(velocities, n).xyz;
    const bool finite = !any(isnan(x)) && !any(isinf(x)) && !any(isnan(v)) && !any(isinf(v));
    const bool escaped = finite && (any(lessThan(x, lo.xyz)) || any(greaterThan(x, hi.xyz)));
    const float mass = FLOE_LOAD_VEC4(nodeData, n).y;
    const float kinetic = finite ? 0.5 * mass * dot(v, v) : 0.0;
    const float potential = finite ? -mass * dot(params.gravity.xyz, x) : 0.0;
    FLOE_STORE_VEC4(terms, n, vec4(kinetic, escaped ? 1.0 : 0.0, finite ? 0.0 : 1.0, potential));
}
