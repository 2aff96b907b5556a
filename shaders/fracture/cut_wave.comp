#version 460
// Wave (digest-004 §3.2, Glondu et al. 2012 as the thesis implemented it; §10.6's level-
// synchronous breadth-first search). cut_select picked the node and the crack normal v; then:
//   stage 0 (one thread per tet): the tets holding the node offer themselves as the start
//            e_0, weak ones first, the smallest index winning (atomicMin): the thesis searched
//            the first weak tet sharing a node with the triggering tet (its trigger is a tet,
//            here a node: §3.0's candidates are nodes). About 1 in control2.w tets is weak,
//            by a hash of its index (the thesis flagged every 10th). The last workgroup then
//            starts the wave: the plane S through e_0's centroid b_0 with normal v; e_0 is
//            crossed (level 1, counted once: the thesis' code counted it twice, §3.2); the
//            wave grows only if its energies allow.
//   stage 2 (one thread per tet of the fragment, indirect): an uncrossed tet with nodes on both
//            sides of S that shares a node with a tet of an earlier level joins this level
//            (levels, not a thread order, decide: node levels are written with atomicMin).
//            Its energies join the sums: used += V_e G_c, available += V_e gamma eta_e with
//            eta_e the mean peak load / tau of its nodes (the thesis' element "stress"),
//            volume instead of the crack area as the thesis did (18)/(19); G_c / gamma is the
//            one parameter (params.methods.x, in tau units), in fixed point (1/64 of a mean
//            tet x tau) so that the sums do not depend on the order of the atomics. The last
//            workgroup ends the level: the next one, unless nothing joined or used > available
//            (the thesis' stop test, here after a whole level, not after each tet).
// Stages 1 and 3 were single-invocation passes of their own; the last workgroups do their work.
// cut_classify then detaches the crossed band (crossed +1, the rest of the fragment -1, the
// thesis' compareAndSplit call: three fragments from one wave) or, with control2.z = 1, splits
// the band by side (Glondu's own node labels).
#include "fracture/fracture_common.glsl"

FLOE_IN_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_IN_UVEC4(FRACTURE_BIND_TETS, tets);
FLOE_IN_UINT(FRACTURE_BIND_LABELS, labels);
FLOE_IN_VEC4(FRACTURE_BIND_TET_REST, rest);
FLOE_IN_VEC4(FRACTURE_BIND_NODE_DATA, nodeData);
FLOE_IN_VEC4(FRACTURE_BIND_BODY_INFO, bodyInfo);
FLOE_IN_VEC4(FRACTURE_BIND_REST_NODES, restNodes);
layout(std430, binding = FRACTURE_BIND_TET_REACH) coherent buffer TetReach { uint tetReach[]; };
layout(std430, binding = FRACTURE_BIND_NODE_REACH) coherent buffer NodeReach { uint nodeReach[]; };
FRACTURE_STATE_BLOCK;
#include "fracture/last_group.glsl"
layout(push_constant) uniform Push { uint stage; };

bool weak(uint t)
{
    uint h = t * 0x9E3779B1u;
    h ^= h >> 15;
    h *= 0x85EBCA77u;
    h ^= h >> 13;
    return h % max(params.control2.w, 1u) == 0u;
}

vec3 tetCentre(uvec4 idx)
{
    vec3 c = vec3(0.0);
    for (int i = 0; i < 4; ++i) c += 0.25 * FLOE_LOAD_VEC4(positions, idx[i]).xyz;
    return c;
}

// The tet's energies in 1/64 of a mean tet x tau: (used, available).
uvec2 energies(uint t, uvec4 idx)
{
    const vec4 body = FLOE_LOAD_VEC4(bodyInfo, uint(FLOE_LOAD_VEC4(restNodes, idx.x).w));
    const float volume = 64.0 * FLOE_LOAD_VEC4(rest, 4u * t).w / max(body.z, 1e-30);
    float eta = 0.0;
    for (int i = 0; i < 4; ++i) eta += 0.25 * FLOE_LOAD_VEC4(nodeData, idx[i]).w;
    eta = min(eta / body.x, 100.0);
    return uvec2(uint(volume * params.methods.x + 0.5), uint(volume * eta + 0.5));
}

void join(uint t, uvec4 idx, uint level)
{
    tetReach[t] = level;
    for (int i = 0; i < 4; ++i) atomicMin(nodeReach[idx[i]], level);
    const uvec2 e = energies(t, idx);
    atomicAdd(state.wave.y, e.x);
    atomicAdd(state.wave.z, e.y);
}

// Stage 0's end (the last workgroup's invocation 0): the wave's start tet crossed.
void startWave()
{
    const uint first = atomicOr(state.wave.x, 0u);
    if (first == FRACTURE_NONE) {
        state.reachArgs.x = 0u;
        return;
    }
    const uint start = first >= params.tets ? first - params.tets : first;
    const uvec4 idx = FLOE_LOAD_UVEC4(tets, start);
    state.cutPoint.xyz = tetCentre(idx);
    join(start, idx, 1u);
    state.wave.w = 1u;
    if (state.wave.y > state.wave.z) state.reachArgs.x = 0u; // the budget ends at the start tet
}

void offerStart(uint t)
{
    if (t >= params.tets) return;
    const uvec4 idx = FLOE_LOAD_UVEC4(tets, t);
    tetReach[t] = 0u;
    if (any(equal(idx, uvec4(state.cutInfo.x)))) atomicMin(state.wave.x, weak(t) ? t : t + params.tets);
}

void grow(uint t)
{
    if (t >= params.tets) return;
    const uvec4 idx = FLOE_LOAD_UVEC4(tets, t);
    const uint level = state.wave.w;
    if (tetReach[t] != 0u || FLOE_LOAD_UINT(labels, idx.x) != state.cutInfo.z) return;
    bool touches = false, front = false, back = false;
    for (int i = 0; i < 4; ++i) {
        touches = touches || nodeReach[idx[i]] <= level;
        const float d = dot(FLOE_LOAD_VEC4(positions, idx[i]).xyz - state.cutPoint.xyz, state.cutNormal.xyz);
        front = front || d >= 0.0;
        back = back || d < 0.0;
    }
    if (!touches || !front || !back) return;
    join(t, idx, level + 1u);
    atomicOr(state.extra.w, 1u);
}

void main()
{
    const uint t = floeGlobalIndex();
    if (stage == 0u) {
        offerStart(t);
        if (fractureLastGroup() && gl_LocalInvocationIndex == 0u) startWave();
        return;
    }
    grow(t);
    if (fractureLastGroup() && gl_LocalInvocationIndex == 0u) {
        const uvec2 energy = uvec2(atomicOr(state.wave.y, 0u), atomicOr(state.wave.z, 0u));
        if (atomicOr(state.extra.w, 0u) == 0u || energy.x > energy.y) state.reachArgs.x = 0u;
        state.extra.w = 0u;
        state.wave.w += 1u;
    }
}
