#version 460
// One thread per tet: its four faces as flat-shaded triangles for the mesh renderer (12
// vertices: positions and face normals; 4 triangles with a colour code). Faces inside a
// fragment are hidden by the depth test; crack faces show as fragments separate. Colour: the
// fragment label (cluster view) or, in the stress view, the tet's largest node load / tau of the
// last step (green 0 to red tau, digest-004 §3.6; the load, not a ductile body's damage-limited
// criterion).
#include "fracture/fracture_common.glsl"

FLOE_IN_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_IN_VEC4(FRACTURE_BIND_NODE_ORIGIN, origins); // a tet's nodes share their fragment's origin
FLOE_IN_UVEC4(FRACTURE_BIND_TETS, tets);
FLOE_IN_UINT(FRACTURE_BIND_LABELS, labels);
FLOE_IN_VEC4(FRACTURE_BIND_PEAK, peak);
FLOE_IN_VEC4(FRACTURE_BIND_REST_NODES, restNodes);
FLOE_IN_VEC4(FRACTURE_BIND_BODY_INFO, bodyInfo);
FLOE_OUT_VEC4(FRACTURE_BIND_SURFACE, surface);
FLOE_OUT_VEC4(FRACTURE_BIND_SURFACE_NORMALS, normals);
FLOE_OUT_UVEC4(FRACTURE_BIND_SURFACE_TRIS, triangles);

const ivec3 kFaces[4] = ivec3[4](ivec3(1, 2, 3), ivec3(0, 3, 2), ivec3(0, 1, 3), ivec3(0, 2, 1));

void main()
{
    const uint t = floeGlobalIndex();
    if (t >= params.tets) return;
    const uvec4 idx = FLOE_LOAD_UVEC4(tets, t);
    vec3 x[4];
    float load = 0.0;
    for (int i = 0; i < 4; ++i) {
        x[i] = FLOE_LOAD_VEC4(positions, idx[i]).xyz;
        load = max(load, FLOE_LOAD_VEC4(peak, idx[i]).w); // -1 before the first step
    }
    const vec3 origin = FLOE_LOAD_VEC4(origins, idx.x).xyz;
    uint colour;
    if (params.control.w == 1u) {
        const float tau = FLOE_LOAD_VEC4(bodyInfo, uint(FLOE_LOAD_VEC4(restNodes, idx.x).w)).x;
        colour = FRACTURE_COLOUR_STRESS + uint(clamp(load / tau, 0.0, 1.0) * 65535.0);
    } else {
        colour = FLOE_LOAD_UINT(labels, idx.x) % 0xFFFFu;
    }
    for (int f = 0; f < 4; ++f) {
        const ivec3 c = kFaces[f];
        const vec3 n = normalize(cross(x[c.y] - x[c.x], x[c.z] - x[c.x]));
        const uint base = 12u * t + 3u * uint(f);
        for (int k = 0; k < 3; ++k) {
            FLOE_STORE_VEC4(surface, base + uint(k), vec4(x[c[k]] + origin, 1.0));
            FLOE_STORE_VEC4(normals, base + uint(k), vec4(n, 0.0));
        }
        FLOE_STORE_UVEC4(triangles, 4u * t + uint(f), uvec4(base, base + 1u, base + 2u, colour));
    }
}
