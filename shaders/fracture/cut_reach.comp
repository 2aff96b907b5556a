#version 460
// radius_connected (digest-004 §3.1 item 15's correction): the tets a Radius cut may classify
// are those reached from the cut node's own tets through tets that lie within the radius and
// share a node, so a crack does not jump across air (a hole, a gap) to another part of the
// same fragment. A flood fill in rounds, monotone flags, so the result does not depend on the
// order of the threads:
//   stage 0 (one thread per tet): seed: the tets holding the cut node
//   stage 1 (one thread per tet, indirect): a tet within the radius with a node of a reached
//            tet is reached; reached tets mark their nodes; any change is recorded; the last
//            workgroup ends the round: no change -> zero the later rounds' arguments
#include "fracture/fracture_common.glsl"

FLOE_IN_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_IN_UVEC4(FRACTURE_BIND_TETS, tets);
FLOE_IN_UINT(FRACTURE_BIND_LABELS, labels);
layout(std430, binding = FRACTURE_BIND_TET_REACH) coherent buffer TetReach { uint tetReach[]; };
layout(std430, binding = FRACTURE_BIND_NODE_REACH) coherent buffer NodeReach { uint nodeReach[]; };
FRACTURE_STATE_BLOCK;
#include "fracture/last_group.glsl"
layout(push_constant) uniform Push { uint stage; };

void seed(uint t)
{
    if (t >= params.tets) return;
    const uvec4 idx = FLOE_LOAD_UVEC4(tets, t);
    const bool cutting = state.cutNormal.w != 0.0 && params.control.x == FRACTURE_METHOD_RADIUS_CONNECTED;
    if (t == 0u) {
        state.extra.w = 0u;
        state.reachArgs = uvec4(cutting ? (params.tets + FRACTURE_GROUP_SIZE - 1u) / FRACTURE_GROUP_SIZE : 0u, 1u, 1u, 0u);
    }
    if (!cutting) return;
    const bool seeded = any(equal(idx, uvec4(state.cutInfo.x)));
    tetReach[t] = seeded ? 1u : 0u;
    if (seeded)
        for (int i = 0; i < 4; ++i) nodeReach[idx[i]] = 1u;
}

void grow(uint t)
{
    if (t >= params.tets) return;
    const uvec4 idx = FLOE_LOAD_UVEC4(tets, t);
    if (tetReach[t] != 0u || FLOE_LOAD_UINT(labels, idx.x) != state.cutInfo.z) return;
    bool near = false, touches = false;
    for (int i = 0; i < 4; ++i) {
        near = near || distance(FLOE_LOAD_VEC4(positions, idx[i]).xyz, state.cutPoint.xyz) <= state.cutPoint.w;
        touches = touches || nodeReach[idx[i]] != 0u;
    }
    if (!near || !touches) return;
    tetReach[t] = 1u;
    for (int i = 0; i < 4; ++i) nodeReach[idx[i]] = 1u;
    atomicOr(state.extra.w, 1u);
}

void main()
{
    const uint t = floeGlobalIndex();
    if (stage == 0u) {
        seed(t);
        return;
    }
    grow(t);
    if (fractureLastGroup() && gl_LocalInvocationIndex == 0u) {
        if (atomicOr(state.extra.w, 0u) == 0u) state.reachArgs.x = 0u;
        state.extra.w = 0u;
    }
}
