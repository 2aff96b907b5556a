#version 460
// One thread per node: the load w / A_n in tau units and the candidates' sort keys. w is the
// largest eigenvalue of the node's separation tensor (a force, N); dividing by the node's
// area A_n = V_n^(2/3) (V_n: a quarter of its tets' volumes) makes it a stress that does not
// change with the mesh resolution (the thesis rescaled tau by hand per object, digest-004 §3.0,
// §11 item 3); times the documented tau scale it is compared with the material's tau.
// Keys sort descending by load / tau of the node's body (unbreakable bodies get 0).
#include "fracture/fracture_common.glsl"

FLOE_IN_VEC4(FRACTURE_BIND_NODE_SEPARATION, separation);
FLOE_IN_VEC4(FRACTURE_BIND_REST_NODES, restNodes);
FLOE_IN_VEC4(FRACTURE_BIND_BODY_INFO, bodyInfo);
FLOE_RW_VEC4(FRACTURE_BIND_NODE_DATA, nodeData);
FLOE_OUT_UINT(FRACTURE_BIND_KEYS, keys);
FLOE_OUT_UINT(FRACTURE_BIND_VALUES, values);
FRACTURE_STATE_BLOCK;

void main()
{
    const uint n = floeGlobalIndex();
    if (n >= params.nodes) return;
    const vec4 data = FLOE_RW_LOAD_VEC4(nodeData, n);
    const float w = max(FLOE_LOAD_VEC4(separation, n).w, 0.0);
    const float load = data.x > 0.0 ? params.fracture.x * w / pow(data.x, 2.0 / 3.0) : 0.0;
    FLOE_STORE_VEC4(nodeData, n, vec4(data.xyz, load));
    const vec4 body = FLOE_LOAD_VEC4(bodyInfo, uint(FLOE_LOAD_VEC4(restNodes, n).w));
    const float ratio = body.y == 0.0 ? 0.0 : load / body.x;
    FLOE_STORE_UINT(keys, n, ~floatBitsToUint(ratio)); // ratio >= 0: descending uint order
    FLOE_STORE_UINT(values, n, n);
    atomicMax(state.extra.x, floatBitsToUint(ratio));
}
