#version 460
// Contacts between bodies and between fragments (issue 6 item 2; the thesis left them to
// Bullet): one thread per node, nodes as spheres of radius r = radius factor x their body's
// mean edge on a uniform grid that wraps around (cells of at least 2 r_max, at most 64 per
// axis, rebuilt from the predicted positions every substep; fracture/contact_cells). A pair
// closer than r_i + r_j is pushed apart along the line of centres, each side by its share of
// the inverse masses, and the tangential part of their relative move in this substep is
// removed up to friction x depth (Coulomb, position-based, as at the walls).
// Pairs of one fragment are skipped (the tets hold them), and so are pairs of one body that lay
// closer than 2 (r_i + r_j) at rest (the copies a cut or the Constraint method's pieces made of
// one node, and near neighbours across a fresh crack): they start in or near contact, the
// impact that broke them compresses them further, and pushing them apart blew the pieces of a
// shattered body across the scene. One Jacobi pass, averaged over a node's contacts; results
// go to separate buffers. As at the walls, the part of the overlap that was there when the
// substep began moves the node's start too, so that v = (p - x) / dt gets no speed from
// resolving it (elastic tets; rigid pieces: below). Contact marks the step for the fracture
// evaluation, like the floor.
#include "fracture/fracture_common.glsl"

// The Constraint method's rigid pieces: an overlap that was there at the substep's start is
// taken out at most this fast (m/s), as rigid-body engines cap depenetration; only the part of
// the overlap that this substep's motion made is removed at once. Moving the start at the
// contact nodes alone, as for elastic tets, is wrong for a rigid piece: its shape match spreads
// the push over the piece, the start stays bent, and every substep of a lasting overlap then
// spun the piece up (a shattering body gained kinetic energy).
const float kDepenetration = 1.0;

FLOE_IN_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_IN_VEC4(FRACTURE_BIND_PREDICTED, predicted); // displacements d = p - x
FLOE_IN_VEC4(FRACTURE_BIND_NODE_ORIGIN, origins); // positions of two fragments compare with their origins' difference
FLOE_IN_VEC4(FRACTURE_BIND_REST_NODES, restNodes);
FLOE_IN_VEC4(FRACTURE_BIND_BODY_INFO, bodyInfo);
FLOE_IN_UINT(FRACTURE_BIND_LABELS, labels);
FLOE_IN_UINT(FRACTURE_BIND_SORTED, sorted);
FLOE_IN_UINT(FRACTURE_BIND_CELL_START, cellStart);
FLOE_OUT_VEC4(FRACTURE_BIND_CONTACT_OUT, outPredicted);
FLOE_OUT_VEC4(FRACTURE_BIND_CONTACT_START, outStart);
FLOE_RW_UINT(FRACTURE_BIND_NODE_FLAGS, flags);
FRACTURE_STATE_BLOCK;

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= params.nodes) return;
    const vec4 di = FLOE_LOAD_VEC4(predicted, i);
    const vec4 xi = FLOE_LOAD_VEC4(positions, i);
    if (di.w == 0.0) {
        FLOE_STORE_VEC4(outPredicted, i, di);
        FLOE_STORE_VEC4(outStart, i, xi);
        return;
    }
    const vec4 pi = vec4(xi.xyz + di.xyz, di.w);
    const vec4 ri = FLOE_LOAD_VEC4(restNodes, i);
    const float radiusI = params.methods.w * FLOE_LOAD_VEC4(bodyInfo, uint(ri.w)).w;
    const uint label = FLOE_LOAD_UINT(labels, i);
    const vec3 movedI = di.xyz;
    const float friction = params.domainMin.w;
    const float cell = params.gridOrigin.w;
    const ivec3 dims = ivec3(params.gridDims.xyz);
    const vec3 originI = FLOE_LOAD_VEC4(origins, i).xyz;
    const ivec3 c = ivec3(mod(floor((pi.xyz + originI - params.gridOrigin.xyz) / cell), vec3(dims))); // the grid wraps (contact_cells)
    vec3 move = vec3(0.0), startMove = vec3(0.0);
    const bool rigidPieces = params.control.x == FRACTURE_METHOD_CONSTRAINT;
    uint hits = 0u;
    for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                const ivec3 q = (c + ivec3(dx, dy, dz) + dims) % dims;
                const uint key = uint(q.x) + uint(dims.x) * (uint(q.y) + uint(dims.y) * uint(q.z));
                const uint end = FLOE_LOAD_UINT(cellStart, key + 1u);
                for (uint s = FLOE_LOAD_UINT(cellStart, key); s < end; ++s) {
                    const uint j = FLOE_LOAD_UINT(sorted, s);
                    if (j == i || FLOE_LOAD_UINT(labels, j) == label) continue;
                    const vec4 dj = FLOE_LOAD_VEC4(predicted, j);
                    const vec3 xj = FLOE_LOAD_VEC4(positions, j).xyz;
                    const vec4 rj = FLOE_LOAD_VEC4(restNodes, j);
                    const float reach = radiusI + params.methods.w * FLOE_LOAD_VEC4(bodyInfo, uint(rj.w)).w;
                    if (rj.w == ri.w && distance(rj.xyz, ri.xyz) < 2.0 * reach) continue; // neighbours at rest
                    const vec3 apart = originI - FLOE_LOAD_VEC4(origins, j).xyz; // how far the two fragments' origins lie apart
                    const vec3 d = ((xi.xyz - xj) + (di.xyz - dj.xyz)) + apart;
                    const float dist2 = dot(d, d);
                    if (dist2 >= reach * reach || dist2 < 1e-18) continue;
                    const float dist = sqrt(dist2);
                    const vec3 n = d / dist;
                    const float share = di.w / (di.w + dj.w);
                    const float depth = reach - dist;
                    const vec3 relative = movedI - dj.xyz;
                    const float before = clamp(reach - length((xi.xyz - xj) + apart), 0.0, depth); // overlap at the start
                    float push = depth;
                    if (rigidPieces) push = depth - before + min(before, kDepenetration * params.gravity.w);
                    else startMove += share * before * n;
                    const vec3 tangential = relative - dot(relative, n) * n;
                    const float slide = length(tangential);
                    const float stop = friction * push;
                    move += share * (push * n - (slide <= stop ? tangential : tangential * (stop / slide)));
                    ++hits;
                }
            }
    // Averaged over the contacts (Jacobi): summing would overshoot where several overlap.
    const float average = hits > 0u ? 1.0 / float(hits) : 0.0;
    // The new start x' = x + s and p' = p + m: the displacement p' - x' = d + m - s.
    FLOE_STORE_VEC4(outPredicted, i, vec4(di.xyz + average * (move - startMove), di.w));
    FLOE_STORE_VEC4(outStart, i, vec4(xi.xyz + average * startMove, xi.w));
    if (hits > 0u) {
        FLOE_STORE_UINT(flags, i, FLOE_RW_LOAD_UINT(flags, i) | FRACTURE_NODE_CONTACT);
        atomicOr(state.counts.y, 1u);
    }
}
