#version 460
// Face contacts between fragments: each node's summed moves of one round (fracture/face_resolve)
// applied, p by the push and the start x by the part that undoes an overlap the substep started
// with (d = p - x changes by their difference), the sums cleared for the next round (the count
// stays for the substep), the node flagged as in contact (the step's stress is evaluated).
#include "fracture/fracture_common.glsl"
#include "common/fixed_point.glsl"

FLOE_RW_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_RW_VEC4(FRACTURE_BIND_PREDICTED, predicted);
FLOE_RW_UINT(FRACTURE_BIND_NODE_FLAGS, flags);
layout(std430, binding = FRACTURE_BIND_FACE_SUMS) buffer Sums { int sums[]; };
FRACTURE_STATE_BLOCK;

void main()
{
    const uint n = floeGlobalIndex();
    if (n >= params.nodes) return;
    const uint base = 8u * n;
    if (sums[base + 3u] == 0) return;
    const vec3 dp = fromFixedPoint(ivec3(sums[base], sums[base + 1u], sums[base + 2u]));
    const vec3 dx = fromFixedPoint(ivec3(sums[base + 4u], sums[base + 5u], sums[base + 6u]));
    if (dp == vec3(0.0) && dx == vec3(0.0)) return;
    for (uint c = 0u; c < 8u; ++c)
        if (c != 3u) sums[base + c] = 0;
    const vec4 x = FLOE_RW_LOAD_VEC4(positions, n), d = FLOE_RW_LOAD_VEC4(predicted, n);
    FLOE_STORE_VEC4(positions, n, vec4(x.xyz + dx, x.w));
    FLOE_STORE_VEC4(predicted, n, vec4(d.xyz + dp - dx, d.w));
    FLOE_STORE_UINT(flags, n, FLOE_RW_LOAD_UINT(flags, n) | FRACTURE_NODE_CONTACT);
    atomicOr(state.counts.y, 1u);
}
