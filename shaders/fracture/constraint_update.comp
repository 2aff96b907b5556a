#version 460
// Constraint method, once per step (digest-004 §3.4 `solveConstraints`, §10.8), one thread
// per constraint (the links between two pieces). The state holds s = S / S0 with
// S0 = tau x (m_A + m_B) (the thesis' threshold, Listing 3) times the documented link scale
// (params.fracture.y), so that the scale can change while the scene runs.
//   stage 0: J = the sum of its links' net impulses of the step (then cleared); an enabled constraint breaks
//            if J >= S (its pieces count the break), else S -= wear x J (wear 1: the thesis'
//            cumulative weakening, which the thesis saw break bodies in mid-air and which
//            wears a resting body down under its own weight; 0: a pure threshold).
//   stage 1: an enabled constraint is weakened by 0.975 (params.methods.y) per constraint of
//            either of its pieces that broke this step (Listing 5), but not below the floor
//            x S0 (params.methods.z): the thesis limited this cascade by a threshold it does
//            not give (§3.4).
//            Its first thread also counts a step with breaks (stage 0's, all counted by now)
//            as a fracture event (a one-thread pass of its own before).
#include "fracture/fracture_common.glsl"

FLOE_IN_UVEC4(FRACTURE_BIND_CONSTRAINTS, constraints);
FLOE_RW_VEC4(FRACTURE_BIND_CONSTRAINT_STATE, constraintState);
FLOE_RW_VEC4(FRACTURE_BIND_LINK_IMPULSE, impulse);
layout(std430, binding = FRACTURE_BIND_PIECE_BREAKS) buffer Breaks { uint breaks[]; };
FRACTURE_STATE_BLOCK;
layout(push_constant) uniform Push { uint stage; };

void main()
{
    const uint c = floeGlobalIndex();
    if (stage == 1u && c == 0u && state.extra.y > 0u) state.counts.z += 1u;
    if (c >= params.control2.x) return;
    const uvec4 info = FLOE_LOAD_UVEC4(constraints, c);
    vec4 s = FLOE_RW_LOAD_VEC4(constraintState, c);
    if (stage == 0u) {
        float j = 0.0;
        for (uint l = info.z; l < info.z + info.w; ++l) {
            j += length(FLOE_RW_LOAD_VEC4(impulse, l).xyz);
            FLOE_STORE_VEC4(impulse, l, vec4(0.0));
        }
        s.z = j;
        if (s.w != 0.0) {
            const float ratio = j / (s.y * params.fracture.y);
            if (ratio >= s.x) {
                s.w = 0.0;
                atomicAdd(breaks[info.x], 1u);
                atomicAdd(breaks[info.y], 1u);
                atomicAdd(state.extra.y, 1u);
                atomicAdd(state.counts.w, 1u);
            } else {
                s.x -= params.constraint.x * ratio;
            }
        }
    } else {
        if (s.w == 0.0) return;
        const uint broken = breaks[info.x] + breaks[info.y];
        if (broken == 0u) return;
        s.x = max(s.x * pow(params.methods.y, float(broken)), min(s.x, params.methods.z));
    }
    FLOE_STORE_VEC4(constraintState, c, s);
}
