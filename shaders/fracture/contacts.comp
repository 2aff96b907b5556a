#version 460
// Contacts between bodies and between fragments (issue 6 item 2; the thesis left them to
// Bullet): one thread per node, nodes as spheres of radius r = radius factor x their body's
// mean edge on a uniform grid that wraps around (cells of at least 2 r_max, at most 64 per
// axis, built from the predicted positions in each substep's first round; fracture/contact_cells). A pair
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
//
// Detection once per substep (digest-002 §2.4: detect once, with a proximity tolerance, and
// catch what was missed in the next step). The first of a substep's rounds (push.detect = 1)
// walks the grid, built from that round's positions, and keeps each node's candidates: the
// nodes of other fragments within (1 + FRACTURE_CONTACT_MARGIN) times the pair's reach, up to
// FRACTURE_CONTACT_CANDIDATES of them (fewer where the table would pass the device's texel
// limit: FractureBodies sizes it). Later rounds test only those, or walk the same grid again
// where a node had more (counted in FractureState.ductile.w, never cut off). A pair that closes from
// beyond the margin within one substep's rounds is found in the next substep; the rounds move
// nodes by the contacts' and tets' corrections only, a fraction of a contact radius. Before,
// every round rebuilt the grid and walked it: 3 grid builds and 3 walks per substep, 69 % of a
// shattered fracture_cube_600's step on lavapipe (docs/fracture.md, *Energy*).
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
FLOE_RW_UINT(FRACTURE_BIND_CONTACT_CANDIDATES, candidates); // per node (push.stride entries): count, then nodes
FRACTURE_STATE_BLOCK;

layout(push_constant) uniform Push
{
    uint detect; // 1: walk the grid and keep the candidates (a substep's first round); 0: test the kept ones
    uint stride; // entries per node: the count, then up to stride - 1 candidates (at most FRACTURE_CONTACT_CANDIDATES)
}
push;

// Node i's state for the pair tests.
uint gI, gLabel;
vec4 gDi, gXi, gRi;
vec3 gOriginI;
float gRadiusI;
bool gRigidPieces;
vec3 gMove, gStartMove;
uint gHits;

// Tests the pair (i, j); true if j is a candidate worth keeping (another fragment, not a
// neighbour at rest, within the margin).
bool touch(uint j)
{
    if (j == gI || FLOE_LOAD_UINT(labels, j) == gLabel) return false;
    const vec4 dj = FLOE_LOAD_VEC4(predicted, j);
    const vec3 xj = FLOE_LOAD_VEC4(positions, j).xyz;
    const vec4 rj = FLOE_LOAD_VEC4(restNodes, j);
    const float reach = gRadiusI + params.methods.w * FLOE_LOAD_VEC4(bodyInfo, uint(rj.w)).w;
    if (rj.w == gRi.w && distance(rj.xyz, gRi.xyz) < 2.0 * reach) return false; // neighbours at rest
    const vec3 apart = gOriginI - FLOE_LOAD_VEC4(origins, j).xyz; // how far the two fragments' origins lie apart
    const vec3 d = ((gXi.xyz - xj) + (gDi.xyz - dj.xyz)) + apart;
    const float dist2 = dot(d, d);
    const float kept = (1.0 + FRACTURE_CONTACT_MARGIN) * reach;
    if (dist2 >= reach * reach || dist2 < 1e-18) return dist2 < kept * kept;
    const float dist = sqrt(dist2);
    const vec3 n = d / dist;
    const float share = gDi.w / (gDi.w + dj.w);
    const float depth = reach - dist;
    const vec3 relative = gDi.xyz - dj.xyz;
    const float before = clamp(reach - length((gXi.xyz - xj) + apart), 0.0, depth); // overlap at the start
    float pushed = depth;
    if (gRigidPieces) pushed = depth - before + min(before, kDepenetration * params.gravity.w);
    else gStartMove += share * before * n;
    const vec3 tangential = relative - dot(relative, n) * n;
    gMove += share * (pushed * n - frictionRemoved(tangential, params.domainMin.w * pushed)); // friction x depth
    ++gHits;
    return true;
}

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= params.nodes) return;
    gI = i;
    gDi = FLOE_LOAD_VEC4(predicted, i);
    gXi = FLOE_LOAD_VEC4(positions, i);
    const uint base = i * push.stride;
    const uint room = push.stride - 1u;
    if (gDi.w == 0.0) {
        FLOE_STORE_VEC4(outPredicted, i, gDi);
        FLOE_STORE_VEC4(outStart, i, gXi);
        if (push.detect != 0u) FLOE_STORE_UINT(candidates, base, 0u);
        return;
    }
    gRi = FLOE_LOAD_VEC4(restNodes, i);
    gRadiusI = params.methods.w * FLOE_LOAD_VEC4(bodyInfo, uint(gRi.w)).w;
    gLabel = FLOE_LOAD_UINT(labels, i);
    gOriginI = FLOE_LOAD_VEC4(origins, i).xyz;
    gRigidPieces = params.control.x == FRACTURE_METHOD_CONSTRAINT;
    gMove = vec3(0.0);
    gStartMove = vec3(0.0);
    gHits = 0u;
    const uint kept = push.detect != 0u ? 0u : FLOE_RW_LOAD_UINT(candidates, base);
    if (push.detect == 0u && kept <= room) {
        for (uint k = 0u; k < kept; ++k) touch(FLOE_RW_LOAD_UINT(candidates, base + 1u + k));
    } else {
        const float cell = params.gridOrigin.w;
        const ivec3 dims = ivec3(params.gridDims.xyz);
        const vec3 pi = gXi.xyz + gDi.xyz;
        const ivec3 c = ivec3(mod(floor((pi + gOriginI - params.gridOrigin.xyz) / cell), vec3(dims))); // the grid wraps (contact_cells)
        uint found = 0u;
        for (int dz = -1; dz <= 1; ++dz)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    const ivec3 q = (c + ivec3(dx, dy, dz) + dims) % dims;
                    const uint key = uint(q.x) + uint(dims.x) * (uint(q.y) + uint(dims.y) * uint(q.z));
                    const uint end = FLOE_LOAD_UINT(cellStart, key + 1u);
                    for (uint s = FLOE_LOAD_UINT(cellStart, key); s < end; ++s) {
                        const uint j = FLOE_LOAD_UINT(sorted, s);
                        if (touch(j) && push.detect != 0u) {
                            if (found < room) FLOE_STORE_UINT(candidates, base + 1u + found, j);
                            ++found;
                        }
                    }
                }
        if (push.detect != 0u) {
            FLOE_STORE_UINT(candidates, base, found);
            if (found > room) atomicAdd(state.ductile.w, 1u);
        }
    }
    // Averaged over the contacts (Jacobi): summing would overshoot where several overlap.
    const float average = gHits > 0u ? 1.0 / float(gHits) : 0.0;
    // The new start x' = x + s and p' = p + m: the displacement p' - x' = d + m - s.
    FLOE_STORE_VEC4(outPredicted, i, vec4(gDi.xyz + average * (gMove - gStartMove), gDi.w));
    FLOE_STORE_VEC4(outStart, i, vec4(gXi.xyz + average * gStartMove, gXi.w));
    if (gHits > 0u) {
        FLOE_STORE_UINT(flags, i, FLOE_RW_LOAD_UINT(flags, i) | FRACTURE_NODE_CONTACT);
        atomicOr(state.counts.y, 1u);
    }
}
