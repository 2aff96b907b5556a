#version 460
// Constraint method (digest-004 §3.4, §10.8; Smith et al. 2001): the links that hold the
// pre-fractured pieces together, one thread per node. A link joins two copies of one node of
// the input mesh (zero rest length, (21) with d_i = 0); each enabled link pulls its two ends
// together by their shares of the inverse masses (PBD, stiff), averaged over the node's links
// (Jacobi); piece_match then makes the pieces rigid again. The thesis used Bullet's locked
// 6-DOF constraints between rigid pieces and Bullet's applied impulse as F-hat (§3.4); here a
// link's impulse is the one it applies (below), summed as a vector over the step's substeps by
// the link's node a: the step's net impulse, as one Bullet step would apply it (summing
// magnitudes counted the pieces' ringing within a step as load and broke vibrating bodies apart).
#include "fracture/fracture_common.glsl"

FLOE_IN_VEC4(FRACTURE_BIND_PREDICTED, predicted); // displacements d = p - x
FLOE_IN_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_OUT_VEC4(FRACTURE_BIND_CONTACT_OUT, outPredicted);
FLOE_IN_UVEC4(FRACTURE_BIND_LINKS, links);
FLOE_IN_UINT(FRACTURE_BIND_NODE_LINK_START, linkStart);
FLOE_IN_UINT(FRACTURE_BIND_NODE_LINKS, nodeLinks);
FLOE_IN_VEC4(FRACTURE_BIND_CONSTRAINT_STATE, constraints);
FLOE_RW_VEC4(FRACTURE_BIND_LINK_IMPULSE, impulse);

// The links of node n that act (enabled, not both ends fixed): its corrections are averaged over them.
uint activeLinks(uint n, float wn)
{
    uint count = 0u;
    const uint end = FLOE_LOAD_UINT(linkStart, n + 1u);
    for (uint k = FLOE_LOAD_UINT(linkStart, n); k < end; ++k) {
        const uvec4 link = FLOE_LOAD_UVEC4(links, FLOE_LOAD_UINT(nodeLinks, k));
        if (FLOE_LOAD_VEC4(constraints, link.z).w == 0.0) continue;
        if (wn + FLOE_LOAD_VEC4(predicted, link.x == n ? link.y : link.x).w > 0.0) ++count;
    }
    return count;
}

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= params.nodes) return;
    const vec4 pi = FLOE_LOAD_VEC4(predicted, i);
    const uint count = activeLinks(i, pi.w);
    vec3 move = vec3(0.0);
    const uint end = FLOE_LOAD_UINT(linkStart, i + 1u);
    for (uint k = FLOE_LOAD_UINT(linkStart, i); k < end; ++k) {
        const uint l = FLOE_LOAD_UINT(nodeLinks, k);
        const uvec4 link = FLOE_LOAD_UVEC4(links, l);
        if (FLOE_LOAD_VEC4(constraints, link.z).w == 0.0) continue;
        const uint j = link.x == i ? link.y : link.x;
        const vec4 pj = FLOE_LOAD_VEC4(predicted, j);
        const float w = pi.w + pj.w;
        if (w == 0.0) continue;
        const vec3 gap = (FLOE_LOAD_VEC4(positions, j).xyz - FLOE_LOAD_VEC4(positions, i).xyz) + (pj.xyz - pi.xyz);
        move += (pi.w / w) * gap;
        if (link.x == i) {
            // The impulse this link applies: each end moves by its share of the gap over its
            // active links, m_i (w_i / w) gap / count_i / dt = gap / (w count_i dt); the mean of
            // both ends. (The whole gap / (w dt), the impulse that would close it at once,
            // counted a gap that the averaged solve leaves open in every substep once per
            // substep: long chains of pieces, slow to converge, seemed loaded many times over.)
            const float ends = 0.5 * (1.0 / float(count) + 1.0 / float(activeLinks(j, pj.w)));
            FLOE_STORE_VEC4(impulse, l, FLOE_RW_LOAD_VEC4(impulse, l) + vec4(ends * gap / (w * params.gravity.w), 0.0));
        }
    }
    FLOE_STORE_VEC4(outPredicted, i, vec4(pi.xyz + (count > 0u ? move / float(count) : vec3(0.0)), pi.w));
}
