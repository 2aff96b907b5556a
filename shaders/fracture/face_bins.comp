#version 460
// Face contacts between fragments (issue 17 item 5: node spheres alone let a node slip through a
// face larger than the spheres cover): the boundary faces of every fragment binned into the face
// grid. A tet's face is on a boundary when no tet shared it at rest, or when the tet that did no
// longer holds its three nodes (a cut duplicated one of them). Each boundary face goes into
// every cell the box of its tet, at the substep's start and at the predicted positions, touches. Stage 0 counts the entries per cell (counts zero before);
// their exclusive scan is the cell-start table; stage 1 puts each face into its cells' ranges by
// counting the counters back down (fracture/face_contacts breaks ties by face index, so the
// atomics' order in a cell changes nothing). Entries past the capacity are counted in
// FACE_STATE.x. One thread per tet face (4 tet + corner).
#include "fracture/fracture_common.glsl"
#include "fracture/face_common.glsl"

layout(push_constant) uniform Push
{
    uint stage;
    uint capacity; // entries the table holds
}
push;
FLOE_IN_UVEC4(FRACTURE_BIND_TETS, tets);
FLOE_IN_UVEC4(FRACTURE_BIND_FACE_NEIGHBOURS, neighbours);
FLOE_IN_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_IN_VEC4(FRACTURE_BIND_PREDICTED, predicted);
FLOE_IN_VEC4(FRACTURE_BIND_NODE_ORIGIN, origins);
FLOE_IN_UINT(FRACTURE_BIND_FACE_START, cellStart);
layout(std430, binding = FRACTURE_BIND_FACE_COUNTS) buffer Counts { uint counts[]; };
layout(std430, binding = FRACTURE_BIND_FACE_ENTRIES) buffer Entries { uint entries[]; };
layout(std430, binding = FRACTURE_BIND_FACE_STATE) buffer FaceState { uvec4 faceState; };

void main()
{
    const uint f = floeGlobalIndex();
    if (f >= 4u * params.tets) return;
    const uint t = f >> 2u, c = f & 3u;
    const uvec4 tet = FLOE_LOAD_UVEC4(tets, t);
    const uvec3 face = uvec3(tet[kFaceCorners[c].x], tet[kFaceCorners[c].y], tet[kFaceCorners[c].z]);
    const uint across = FLOE_LOAD_UVEC4(neighbours, t)[c];
    if (across != FRACTURE_NONE) {
        const uvec4 other = FLOE_LOAD_UVEC4(tets, across);
        bool sharedFace = true;
        for (int k = 0; k < 3; ++k) sharedFace = sharedFace && any(equal(other, uvec4(face[k])));
        if (sharedFace) return; // inside its fragment
    }
    // The box of the face's whole tet at the start and at p: a node crossing the face does so
    // inside the face's box, and one that got through lies inside the tet.
    vec3 lo = vec3(1e30), hi = vec3(-1e30);
    for (int k = 0; k < 4; ++k) {
        const vec3 x = FLOE_LOAD_VEC4(positions, tet[k]).xyz + FLOE_LOAD_VEC4(origins, tet[k]).xyz;
        const vec3 p = x + FLOE_LOAD_VEC4(predicted, tet[k]).xyz;
        lo = min(lo, min(x, p));
        hi = max(hi, max(x, p));
    }
    if (any(isnan(lo)) || any(isnan(hi)) || any(isinf(lo)) || any(isinf(hi))) return;
    FACE_CELLS_BEGIN(faceCell(lo), faceCell(hi), key)
    if (push.stage == 0u) {
        atomicAdd(counts[key], 1u);
    } else {
        const uint slot = FLOE_LOAD_UINT(cellStart, key) + atomicAdd(counts[key], 0xFFFFFFFFu) - 1u;
        if (slot < push.capacity)
            entries[slot] = f;
        else
            atomicAdd(faceState.x, 1u);
    }
    FACE_CELLS_END
}
