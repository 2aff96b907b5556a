#version 460
// One thread per tet: the elastic energy of its goal springs (fracture/tet_goals), the potential
// the XPBD solve works against: U = sum_i k_i |C_i|^2 / 2 with the corner stiffness
// k_i = (4 / M) k m_i (k = E L from FRACTURE_BIND_TET_INFO.z; k for every corner of a tet with a
// fixed one), at the positions at the end of the step. Stage 0 stores (U, 0, 0, 0) before the
// step's cuts; stage 1 stores (U before, U, 0, 0) after them, so that their difference is the
// energy the cuts released; stage 2 (no cuts this step) stores (U, U, 0, 0).
#include "fracture/fracture_common.glsl"
#include "fracture/tet_goal.glsl"

FLOE_IN_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_IN_VEC4(FRACTURE_BIND_REST_NODES, restNodes);
FLOE_IN_UVEC4(FRACTURE_BIND_TETS, tets);
FLOE_IN_VEC4(FRACTURE_BIND_TET_INFO, tetInfo);
FLOE_RW_VEC4(FRACTURE_BIND_TET_ENERGY, energy);
layout(push_constant) uniform Push { uint stage; };

void main()
{
    const uint t = floeGlobalIndex();
    if (t >= params.tets) return;
    const uvec4 idx = FLOE_LOAD_UVEC4(tets, t);
    vec4 p[4];
    vec3 u[4];
    for (int i = 0; i < 4; ++i) {
        p[i] = FLOE_LOAD_VEC4(positions, idx[i]); // a tet's nodes share their fragment's origin
        u[i] = FLOE_LOAD_VEC4(restNodes, idx[i]).xyz;
    }
    vec3 C[4];
    float m[4], mass;
    bool fixedCorner;
    const vec3 still[4] = vec3[4](vec3(0.0), vec3(0.0), vec3(0.0), vec3(0.0)); // between substeps: no displacement
    vec3 offset[4];
    tetGoalOffsets(p, still, u, C, offset, m, mass, fixedCorner);
    const float k = FLOE_LOAD_VEC4(tetInfo, t).z;
    float U = 0.0;
    for (int i = 0; i < 4; ++i) U += 0.5 * (fixedCorner ? k : 4.0 * k * m[i] / mass) * dot(C[i], C[i]);
    if (stage == 0u) FLOE_STORE_VEC4(energy, t, vec4(U, 0.0, 0.0, 0.0));
    else if (stage == 1u) FLOE_STORE_VEC4(energy, t, vec4(FLOE_RW_LOAD_VEC4(energy, t).x, U, 0.0, 0.0));
    else FLOE_STORE_VEC4(energy, t, vec4(U, U, 0.0, 0.0));
}
