#version 460
// One thread: the next cut of this step's fracture event (digest-004 §3.1, §3.3), from the
// nodes sorted by load / tau (descending). Fracture is evaluated only on steps with contact
// (§3.0) unless control.z asks for every step. Writes the cut plane and the indirect dispatch
// arguments of the cut's passes (zero groups: no cut).
//   Radius (Mueller 2001): cut c at the c-th node, if its load reaches tau; the plane through
//     the node orthogonal to its largest eigenvector; tets with a node within
//     radius = factor x mean edge x load/tau of it (the thesis used the eigenvalue itself as
//     a length, §11 item 3).
//   Secondary splits (the thesis' own): the first cut at the top node through its whole
//     fragment (if it splits nothing, the next node's); then the next crack node (in load
//     order) with load >= tau / fragility (20), normal v_init + v_new with v_new's sign turned
//     towards v_init (§3.3's sign ambiguity), also through the whole fragment. A node of the
//     list is visited once per event; the budget is 1 + maxIterations cuts, tries included.
//   Wave: cut c at the c-th node like Radius, the node's eigenvector as the crack normal; the
//     crack's start tet, point and extent are cut_wave's (its arguments are set here).
#include "fracture/fracture_common.glsl"

FLOE_IN_UINT(FRACTURE_BIND_VALUES, order);
FLOE_IN_VEC4(FRACTURE_BIND_NODE_DATA, nodeData);
FLOE_IN_VEC4(FRACTURE_BIND_PEAK, separation); // the step's peak: crack normal, load
FLOE_IN_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_IN_VEC4(FRACTURE_BIND_REST_NODES, restNodes);
FLOE_IN_VEC4(FRACTURE_BIND_BODY_INFO, bodyInfo);
FLOE_IN_UINT(FRACTURE_BIND_NODE_FLAGS, flags);
FLOE_IN_UINT(FRACTURE_BIND_LABELS, labels);
FRACTURE_STATE_BLOCK;
layout(push_constant) uniform Push { uint cut; };

void noCut()
{
    state.cutNormal.w = 0.0;
    state.tetArgs = uvec4(0u, 1u, 1u, 0u);
    state.nodeArgs = uvec4(0u, 1u, 1u, 0u);
    state.reachArgs = uvec4(0u, 1u, 1u, 0u);
}

void main()
{
    if (gl_GlobalInvocationID.x != 0u) return;
    if (cut == 0u) {
        state.primary = vec4(0.0);
        state.counts2.w = 0u;
    }
    const uint method = params.control.x;
    const bool evaluate = state.counts.y != 0u || params.control.z != 0u;
    if (!evaluate || method == FRACTURE_METHOD_NONE || params.nodes == 0u || (cut > 0u && state.cutInfo.x == FRACTURE_NONE &&
                                                                               state.primary.w == 0.0)) {
        noCut();
        state.cutInfo.x = FRACTURE_NONE;
        return;
    }
    uint node = FRACTURE_NONE;
    vec3 normal = vec3(0.0);
    float radius = -1.0;
    if (method == FRACTURE_METHOD_SECONDARY && state.primary.w != 0.0) {
        // Secondary cuts: the next crack node (in load order) over tau / fragility. The walk
        // stops at the first node under the threshold; on lavapipe, which ends an invocation's
        // loops after 65535 iterations (grid/cell_start), a body with more nodes over tau / 20
        // than that would stop early and make fewer secondary cuts.
        for (uint k = state.counts2.w; k < params.nodes; ++k) {
            const uint n = FLOE_LOAD_UINT(order, k);
            const float tau = FLOE_LOAD_VEC4(bodyInfo, uint(FLOE_LOAD_VEC4(restNodes, n).w)).x;
            const float load = FLOE_LOAD_VEC4(nodeData, n).w;
            if (load < tau / params.fracture.z) break; // sorted: no later node qualifies
            if ((FLOE_LOAD_UINT(flags, n) & FRACTURE_NODE_CRACK) == 0u) continue;
            state.counts2.w = k + 1u;
            node = n;
            break;
        }
        if (node == FRACTURE_NONE) {
            state.counts2.w = params.nodes;
            noCut();
            return;
        }
        vec3 v = FLOE_LOAD_VEC4(separation, node).xyz;
        if (dot(v, state.primary.xyz) < 0.0) v = -v;
        normal = normalize(state.primary.xyz + v);
    } else {
        // Radius: the cut-th node. Secondary splits' first cut: the next untried node (a cut
        // that split nothing, a plane through a surface node with the body on one side, is
        // not a crack: cut_finish clears primary.w and the next cut tries the next node).
        const uint k = method == FRACTURE_METHOD_SECONDARY ? state.counts2.w : cut;
        if (k >= params.nodes) {
            noCut();
            state.cutInfo.x = FRACTURE_NONE;
            return;
        }
        const uint n = FLOE_LOAD_UINT(order, k);
        const vec4 body = FLOE_LOAD_VEC4(bodyInfo, uint(FLOE_LOAD_VEC4(restNodes, n).w));
        const float load = FLOE_LOAD_VEC4(nodeData, n).w;
        if (load < body.x) {
            noCut();
            state.cutInfo.x = FRACTURE_NONE; // sorted: no later node reaches tau either
            return;
        }
        node = n;
        normal = FLOE_LOAD_VEC4(separation, n).xyz;
        if (method == FRACTURE_METHOD_SECONDARY) {
            state.primary = vec4(normal, 1.0);
            state.counts2.w = k + 1u;
        } else if (method != FRACTURE_METHOD_WAVE) {
            radius = params.fracture.w * body.w * load / body.x;
        }
    }
    state.cutPoint = vec4(FLOE_LOAD_VEC4(positions, node).xyz, radius);
    state.cutNormal = vec4(normal, 1.0);
    state.cutInfo = uvec4(node, uint(FLOE_LOAD_VEC4(restNodes, node).w), FLOE_LOAD_UINT(labels, node), method);
    state.tetArgs = uvec4((params.tets + FRACTURE_GROUP_SIZE - 1u) / FRACTURE_GROUP_SIZE, 1u, 1u, 0u);
    state.nodeArgs = uvec4((params.nodeCapacity + FRACTURE_GROUP_SIZE - 1u) / FRACTURE_GROUP_SIZE, 1u, 1u, 0u);
    state.wave = uvec4(FRACTURE_NONE, 0u, 0u, 0u);
    state.extra.w = 0u;
    if (method == FRACTURE_METHOD_WAVE) state.reachArgs = state.tetArgs;
}
