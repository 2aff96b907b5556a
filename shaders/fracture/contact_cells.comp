#version 460
// One thread per node: its position folded into the contact grid, which wraps around (cell
// coordinates modulo the grid's dims, at least 3 per axis): a bounded grid of cells of 2 r_max
// serves a domain of any size, nodes far apart share buckets and the distance test in
// fracture/contacts separates them. The node goes to the centre of its folded cell, so that
// the grid's own cell assignment (grid/cell_keys) is exact.
#include "fracture/fracture_common.glsl"

FLOE_IN_VEC4(FRACTURE_BIND_PREDICTED, predicted); // displacements from POSITIONS
FLOE_IN_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_IN_VEC4(FRACTURE_BIND_NODE_ORIGIN, origins);
FLOE_OUT_VEC4(FRACTURE_BIND_CONTACT_START, folded);

void main()
{
    const uint n = floeGlobalIndex();
    if (n >= params.nodes) return;
    const vec3 world = (FLOE_LOAD_VEC4(positions, n).xyz + FLOE_LOAD_VEC4(predicted, n).xyz) + FLOE_LOAD_VEC4(origins, n).xyz;
    const vec3 c = floor((world - params.gridOrigin.xyz) / params.gridOrigin.w);
    const vec3 dims = vec3(params.gridDims.xyz);
    const bvec3 bad = bvec3(uvec3(isnan(c)) | uvec3(isinf(c))); // a diverged node: cell 0
    const vec3 wrapped = mod(mix(c, vec3(0.0), bad), dims);
    FLOE_STORE_VEC4(folded, n, vec4(params.gridOrigin.xyz + (wrapped + 0.5) * params.gridOrigin.w, 0.0));
}
