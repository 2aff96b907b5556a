#version 460
// Fragments as connected components of the tets (digest-004 §3.5, §10.7): every node's label
// converges to the smallest node index of its component by min-label hooking and pointer
// jumping, both order-independent (atomicMin), so the result is deterministic.
//   stage 0 (one thread per node): label = own index; fragments = 0; changed = 1
//   stage 1 (one thread per tet, indirect): m = the smallest label (and label's label) of its
//            nodes; atomicMin of every node's label and its label's label with m; changed
//   stage 2 (one thread per node, indirect): pointer jumping label = label[label]; the last
//            workgroup ends the round: no change in it -> converged (extra.z = 1): zero the
//            arguments of the later rounds (stage 3, a one-thread pass of its own before)
//   stage 4 (one thread per node): count the roots (label == index) as fragments
//   stage 5 (one thread per link, Constraint method): an enabled link hooks its two nodes like
//            a tet (a fragment is a group of pieces joined by intact constraints, §3.4)
#include "fracture/fracture_common.glsl"

FLOE_IN_UVEC4(FRACTURE_BIND_TETS, tets);
FLOE_IN_UVEC4(FRACTURE_BIND_LINKS, links);
FLOE_IN_VEC4(FRACTURE_BIND_CONSTRAINT_STATE, constraints);
layout(std430, binding = FRACTURE_BIND_LABELS) coherent buffer Labels { uint labels[]; };
FRACTURE_STATE_BLOCK;
#include "fracture/last_group.glsl"
layout(push_constant) uniform Push { uint stage; };

void main()
{
    const uint i = floeGlobalIndex();
    if (stage == 0u) {
        if (i >= params.nodeCapacity) return;
        labels[i] = i;
        if (i == 0u) {
            state.counts2.x = 0u;
            state.counts2.y = 1u;
            state.extra.z = params.nodes == 0u ? 1u : 0u; // no rounds run without nodes
            state.tetArgs = uvec4((params.tets + FRACTURE_GROUP_SIZE - 1u) / FRACTURE_GROUP_SIZE, 1u, 1u, 0u);
            state.nodeArgs = uvec4((params.nodes + FRACTURE_GROUP_SIZE - 1u) / FRACTURE_GROUP_SIZE, 1u, 1u, 0u);
        }
    } else if (stage == 1u || stage == 5u) {
        uvec4 idx;
        int corners = 4;
        if (stage == 1u) {
            if (i >= params.tets) return;
            idx = FLOE_LOAD_UVEC4(tets, i);
        } else {
            if (i >= params.control2.y || state.extra.z != 0u) return;
            idx = FLOE_LOAD_UVEC4(links, i);
            if (FLOE_LOAD_VEC4(constraints, idx.z).w == 0.0) return;
            corners = 2;
        }
        uint m = FRACTURE_NONE;
        for (int k = 0; k < corners; ++k) m = min(m, min(labels[idx[k]], labels[labels[idx[k]]]));
        bool changed = false;
        for (int k = 0; k < corners; ++k) {
            changed = atomicMin(labels[labels[idx[k]]], m) > m || changed;
            changed = atomicMin(labels[idx[k]], m) > m || changed;
        }
        if (changed) atomicOr(state.counts2.y, 1u);
    } else if (stage == 2u) {
        if (i < params.nodes) labels[i] = labels[labels[i]];
        if (fractureLastGroup() && gl_LocalInvocationIndex == 0u) {
            if (state.counts2.y == 0u) {
                state.tetArgs.x = 0u;
                state.nodeArgs.x = 0u;
                state.extra.z = 1u;
            }
            state.counts2.y = 0u;
        }
    } else {
        if (i >= params.nodes) return;
        if (labels[i] == i) atomicAdd(state.counts2.x, 1u);
    }
}
