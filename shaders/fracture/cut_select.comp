#version 460
// The next cut of this step's fracture event (digest-004 §3.1, §3.3), from the nodes sorted by
// load / tau (descending). Fracture is evaluated only on steps with contact (§3.0) unless
// control.z asks for every step. Writes the cut plane and the indirect dispatch arguments of
// the cut's passes (zero groups: no cut).
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
// One workgroup. Before selecting cut c it finishes cut c - 1 (the copies join the node count,
// what cut_finish did as a launch of its own); push `cut` = `cuts` only finishes the last cut.
// The search for the next crack node is shared by the workgroup: its invocations test
// consecutive entries of the load order and the smallest qualifying one wins, so the work per
// cut does not grow with the nodes a single invocation would walk (nor meet a driver's loop
// cap: lavapipe ends an invocation's loops after 65535 iterations, grid/cell_start).
#include "fracture/fracture_common.glsl"

FLOE_IN_UINT(FRACTURE_BIND_VALUES, order);
FLOE_IN_VEC4(FRACTURE_BIND_NODE_DATA, nodeData);
FLOE_IN_VEC4(FRACTURE_BIND_PEAK, separation); // the step's peak: crack normal, load
FLOE_IN_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_IN_VEC4(FRACTURE_BIND_REST_NODES, restNodes);
FLOE_IN_VEC4(FRACTURE_BIND_BODY_INFO, bodyInfo);
FLOE_IN_UINT(FRACTURE_BIND_NODE_FLAGS, flags);
FLOE_IN_UINT(FRACTURE_BIND_LABELS, labels);
FLOE_IN_UINT(FRACTURE_BIND_SPLIT, split);
FLOE_IN_UINT(FRACTURE_BIND_OFFSETS, offsets);
FRACTURE_STATE_BLOCK;
layout(push_constant) uniform Push { uint cut, cuts; };

shared uint searchFrom; // the first entry of the load order the crack-node search tests (NONE: no search)
shared uint searchHit;  // the first entry that ends the search: a crack node, or one under tau / fragility

void noCut()
{
    state.cutNormal.w = 0.0;
    state.tetArgs = uvec4(0u, 1u, 1u, 0u);
    state.nodeArgs = uvec4(0u, 1u, 1u, 0u);
    state.reachArgs = uvec4(0u, 1u, 1u, 0u);
}

// The cut plane through node n, and the arguments of the cut's passes.
void cutAt(uint n, vec3 normal, float radius)
{
    const uint method = params.control.x;
    state.cutPoint = vec4(FLOE_LOAD_VEC4(positions, n).xyz, radius);
    state.cutNormal = vec4(normal, 1.0);
    state.cutInfo = uvec4(n, uint(FLOE_LOAD_VEC4(restNodes, n).w), FLOE_LOAD_UINT(labels, n), method);
    state.tetArgs = uvec4((params.tets + FRACTURE_GROUP_SIZE - 1u) / FRACTURE_GROUP_SIZE, 1u, 1u, 0u);
    state.nodeArgs = uvec4((params.nodeCapacity + FRACTURE_GROUP_SIZE - 1u) / FRACTURE_GROUP_SIZE, 1u, 1u, 0u);
    state.wave = uvec4(FRACTURE_NONE, 0u, 0u, 0u);
    state.extra.w = 0u;
    if (method == FRACTURE_METHOD_WAVE) state.reachArgs = state.tetArgs;
}

// Cut c - 1's end (invocation 0): its copies join the node count (after cut_duplicate and
// cut_rewrite read the old count). Only a cut that split nodes counts as a cut (a plane through
// a surface node can leave the whole fragment on one side), and the step's first such cut as a
// fracture event.
void finishCut()
{
    if (state.cutNormal.w == 0.0) return;
    const uint last = params.nodeCapacity - 1u;
    const uint added = FLOE_LOAD_UINT(offsets, last) + FLOE_LOAD_UINT(split, last);
    state.counts2.z = added;
    state.counts.x = min(state.counts.x + added, params.nodeCapacity);
    if (added == 0u) {
        // A first secondary-split cut that split nothing is no crack: the next cut tries the next node.
        if (params.control.x == FRACTURE_METHOD_SECONDARY && state.extra.y == 0u) state.primary.w = 0.0;
        return;
    }
    state.counts.w += 1u;
    if (state.extra.y == 0u) state.counts.z += 1u;
    state.extra.y += 1u;
}

// Whether entry k of the load order ends the crack-node search: a crack node, or (sorted) a
// node under tau / fragility, after which no later node qualifies.
bool endsSearch(uint k)
{
    const uint n = FLOE_LOAD_UINT(order, k);
    const float tau = FLOE_LOAD_VEC4(bodyInfo, uint(FLOE_LOAD_VEC4(restNodes, n).w)).x;
    return FLOE_LOAD_VEC4(nodeData, n).w < tau / params.fracture.z || (FLOE_LOAD_UINT(flags, n) & FRACTURE_NODE_CRACK) != 0u;
}

// Invocation 0, before the search: true when the cut is decided (none, or a Radius, Wave or
// first secondary cut, all written); false when it waits for the crack-node search from
// searchFrom.
bool selectBeforeSearch()
{
    if (cut > 0u) finishCut();
    if (cut >= cuts) return true;
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
        return true;
    }
    if (method == FRACTURE_METHOD_SECONDARY && state.primary.w != 0.0) {
        searchFrom = state.counts2.w;
        return false;
    }
    // Radius: the cut-th node. Secondary splits' first cut: the next untried node (a cut
    // that split nothing, a plane through a surface node with the body on one side, is
    // not a crack: finishCut clears primary.w and the next cut tries the next node).
    const uint k = method == FRACTURE_METHOD_SECONDARY ? state.counts2.w : cut;
    if (k >= params.nodes) {
        noCut();
        state.cutInfo.x = FRACTURE_NONE;
        return true;
    }
    const uint n = FLOE_LOAD_UINT(order, k);
    const vec4 body = FLOE_LOAD_VEC4(bodyInfo, uint(FLOE_LOAD_VEC4(restNodes, n).w));
    const float load = FLOE_LOAD_VEC4(nodeData, n).w;
    if (load < body.x) {
        noCut();
        state.cutInfo.x = FRACTURE_NONE; // sorted: no later node reaches tau either
        return true;
    }
    const vec3 normal = FLOE_LOAD_VEC4(separation, n).xyz;
    float radius = -1.0;
    if (method == FRACTURE_METHOD_SECONDARY) {
        state.primary = vec4(normal, 1.0);
        state.counts2.w = k + 1u;
    } else if (method != FRACTURE_METHOD_WAVE) {
        radius = params.fracture.w * body.w * load / body.x;
    }
    cutAt(n, normal, radius);
    return true;
}

// Invocation 0, after the search: the secondary cut at the crack node the search found.
void selectSecondary(uint hit)
{
    const uint n = hit < params.nodes ? FLOE_LOAD_UINT(order, hit) : FRACTURE_NONE;
    if (n == FRACTURE_NONE || (FLOE_LOAD_UINT(flags, n) & FRACTURE_NODE_CRACK) == 0u ||
        FLOE_LOAD_VEC4(nodeData, n).w < FLOE_LOAD_VEC4(bodyInfo, uint(FLOE_LOAD_VEC4(restNodes, n).w)).x / params.fracture.z) {
        state.counts2.w = params.nodes;
        noCut();
        return;
    }
    state.counts2.w = hit + 1u;
    vec3 v = FLOE_LOAD_VEC4(separation, n).xyz;
    if (dot(v, state.primary.xyz) < 0.0) v = -v;
    cutAt(n, normalize(state.primary.xyz + v), -1.0);
}

void main()
{
    const uint lid = gl_LocalInvocationID.x;
    if (lid == 0u) {
        searchFrom = FRACTURE_NONE;
        searchHit = FRACTURE_NONE;
        if (selectBeforeSearch()) searchFrom = FRACTURE_NONE;
    }
    barrier();
    const uint from = searchFrom;
    if (from == FRACTURE_NONE) return; // uniform: every invocation read the same value
    for (uint base = from; base < params.nodes; base += gl_WorkGroupSize.x) {
        const uint k = base + lid;
        if (k < params.nodes && endsSearch(k)) atomicMin(searchHit, k);
        barrier();
        const bool found = searchHit != FRACTURE_NONE;
        barrier(); // everyone has read searchHit before the next round writes it
        if (found) break;
    }
    if (lid == 0u) selectSecondary(searchHit);
}
