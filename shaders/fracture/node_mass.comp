#version 460
// One thread per node: its lumped volume and mass, a quarter of each incident tet's (so cuts
// conserve mass), the incident count, and the inverse mass in positions.w.
#include "fracture/fracture_common.glsl"

FLOE_IN_UINT(FRACTURE_BIND_NODE_START, nodeStart);
FLOE_IN_UINT(FRACTURE_BIND_CORNERS, corners);
FLOE_IN_VEC4(FRACTURE_BIND_TET_REST, rest);
FLOE_IN_VEC4(FRACTURE_BIND_TET_INFO, tetInfo);
FLOE_RW_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_RW_VEC4(FRACTURE_BIND_NODE_DATA, nodeData);

void main()
{
    const uint n = floeGlobalIndex();
    if (n >= params.nodes) return;
    const uint first = FLOE_LOAD_UINT(nodeStart, n), end = FLOE_LOAD_UINT(nodeStart, n + 1u);
    float volume = 0.0, mass = 0.0;
    for (uint s = first; s < end; ++s) {
        const uint t = FLOE_LOAD_UINT(corners, s) / 4u;
        const float v = 0.25 * FLOE_LOAD_VEC4(rest, 4u * t).w;
        volume += v;
        mass += v * FLOE_LOAD_VEC4(tetInfo, t).y;
    }
    const vec4 x = FLOE_RW_LOAD_VEC4(positions, n);
    FLOE_STORE_VEC4(positions, n, vec4(x.xyz, mass > 0.0 ? 1.0 / mass : 0.0)); // density 0: a fixed body
    FLOE_STORE_VEC4(nodeData, n, vec4(volume, mass, float(end - first), FLOE_RW_LOAD_VEC4(nodeData, n).w));
}
