// A tet's co-rotational goal constraints (fracture/tet_goals, whose header has the method):
// C_i = p_i - g_i with the goals g_i = c + R r_i, the corners' masses m_i (equal where a corner
// is fixed), and mass = sum m_i. Shared by the solve and the elastic energy (fracture/energy),
// so that the energy is the potential the solve works against.
#ifndef FLOE_FRACTURE_TET_GOAL_GLSL
#define FLOE_FRACTURE_TET_GOAL_GLSL

// p_i = x_i + d_i: the corners' positions x (w: inverse mass) and displacements d (0 outside a
// substep), taken apart as (x_i - x_0) + (d_i - d_0) so that small displacements keep their digits.
void tetGoalOffsets(const vec4 p[4], const vec3 disp[4], const vec3 u[4], out vec3 C[4], out vec3 offset[4], out float m[4],
                    out float mass, out bool fixedCorner)
{
    fixedCorner = p[0].w <= 0.0 || p[1].w <= 0.0 || p[2].w <= 0.0 || p[3].w <= 0.0;
    // Offsets from corner 0, so that float rounding of coordinates metres from the origin does
    // not enter the centroids: rounded there, sum m_i C_i lost its zero and a spinning body 5 m
    // up gained 0.6 % of its momentum per step.
    mass = 0.0;
    vec3 d[4], c = vec3(0.0), c0 = vec3(0.0);
    for (int i = 0; i < 4; ++i) {
        m[i] = fixedCorner ? 1.0 : 1.0 / p[i].w;
        mass += m[i];
        d[i] = (p[i].xyz - p[0].xyz) + (disp[i] - disp[0]);
        c += m[i] * d[i];
        c0 += m[i] * (u[i] - u[0]);
    }
    c /= mass;
    c0 /= mass;
    vec3 r[4];
    mat3 A = mat3(0.0);
    for (int i = 0; i < 4; ++i) {
        r[i] = (u[i] - u[0]) - c0;
        d[i] -= c; // p_i - c
        A += m[i] * outerProduct(d[i], r[i]);
    }
    const mat3 R = polarRotation(A);
    for (int i = 0; i < 4; ++i) {
        C[i] = d[i] - R * r[i];
        offset[i] = d[i]; // p_i - c
    }
}

#endif
