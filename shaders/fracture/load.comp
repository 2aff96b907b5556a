#version 460
// One thread per node: the load w / A_n in tau units and the candidates' sort keys. w is the
// largest eigenvalue of the node's separation tensor (a force, N); dividing by the node's
// area A_n = V_n^(2/3) (V_n: a quarter of its tets' volumes) makes it a stress that does not
// change with the mesh resolution (the thesis rescaled tau by hand per object, digest-004 §3.0,
// §11 item 3); times the documented tau scale it is compared with the material's tau.
// Runs after every substep and keeps each node's peak of the step (an impact's stress peaks and
// rings down within a few substeps; the end of the step alone would miss it) with the crack
// normal at the peak (PEAK: the stress view's load). The fracture criterion (NODE_DATA.w, the
// sort keys) is that peak, except at a node of a ductile body (its tets' TET_INFO.w = yield > 0),
// where it is min(peak, D tau) with D the largest damage of the node's tets (fracture/stress):
// a ductile node cracks only once the plastic strain of a tet at it reaches the failure strain.
// Keys sort descending by criterion / tau of the node's body (unbreakable bodies get 0); the
// step's largest peak / tau (not the criterion) goes to the metrics.
#include "fracture/fracture_common.glsl"

FLOE_IN_VEC4(FRACTURE_BIND_NODE_SEPARATION, separation);
FLOE_IN_VEC4(FRACTURE_BIND_REST_NODES, restNodes);
FLOE_IN_VEC4(FRACTURE_BIND_BODY_INFO, bodyInfo);
FLOE_IN_UINT(FRACTURE_BIND_NODE_START, nodeStart);
FLOE_IN_UINT(FRACTURE_BIND_CORNERS, corners);
FLOE_IN_VEC4(FRACTURE_BIND_TET_INFO, tetInfo);
FLOE_IN_VEC4(FRACTURE_BIND_TET_DAMAGE, damage);
FLOE_RW_VEC4(FRACTURE_BIND_NODE_DATA, nodeData);
FLOE_RW_VEC4(FRACTURE_BIND_PEAK, peak);
FLOE_OUT_UINT(FRACTURE_BIND_KEYS, keys);
FLOE_OUT_UINT(FRACTURE_BIND_VALUES, values);
FRACTURE_STATE_BLOCK;

void main()
{
    const uint n = floeGlobalIndex();
    if (n >= params.nodes) return;
    const vec4 data = FLOE_RW_LOAD_VEC4(nodeData, n);
    const vec4 s = FLOE_LOAD_VEC4(separation, n);
    const float load = data.x > 0.0 ? params.fracture.x * max(s.w, 0.0) / pow(data.x, 2.0 / 3.0) : 0.0;
    vec4 top = FLOE_RW_LOAD_VEC4(peak, n);
    if (load > top.w || top.w < 0.0) { // top.w < 0: the step's first evaluation
        top = vec4(s.xyz, load);
        FLOE_STORE_VEC4(peak, n, top);
    }
    const vec4 body = FLOE_LOAD_VEC4(bodyInfo, uint(FLOE_LOAD_VEC4(restNodes, n).w));
    float criterion = top.w;
    const uint first = FLOE_LOAD_UINT(nodeStart, n), end = FLOE_LOAD_UINT(nodeStart, n + 1u);
    // A body is of one material: its first tet tells whether the node is ductile.
    if (end > first && FLOE_LOAD_VEC4(tetInfo, FLOE_LOAD_UINT(corners, first) / 4u).w > 0.0) {
        float D = 0.0;
        for (uint k = first; k < end; ++k) D = max(D, FLOE_LOAD_VEC4(damage, FLOE_LOAD_UINT(corners, k) / 4u).x);
        criterion = min(criterion, D * body.x);
        atomicMax(state.ductile.x, floatBitsToUint(D));
    }
    FLOE_STORE_VEC4(nodeData, n, vec4(data.xyz, criterion));
    const float ratio = body.y == 0.0 ? 0.0 : criterion / body.x;
    FLOE_STORE_UINT(keys, n, ~floatBitsToUint(ratio)); // ratio >= 0: descending uint order
    FLOE_STORE_UINT(values, n, n);
    atomicMax(state.extra.x, floatBitsToUint(body.y == 0.0 ? 0.0 : top.w / body.x));
}
