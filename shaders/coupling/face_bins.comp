#version 460
// The fracture bodies' boundary faces into the grid of the contacts with deformable bodies
// (shared/solid_contacts.h), each face in every cell its box, grown by the contact radius,
// touches: stage 0 counts the faces per cell, stage 1 (after the counts' exclusive scan and
// their reset) writes them. Entries past the grid's room are counted, not written. Faces are
// placed where their nodes' velocities carry them by the end of the step (the deformable
// vertices they meet are at its end).
#include "shared/solid_contacts.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"

layout(local_size_x = SOLID_CONTACT_GROUP_SIZE) in;
layout(push_constant) uniform Push { SolidContactParams params; };
FLOE_IN_VEC4(SOLID_CONTACT_BIND_NODE_POSITIONS, nodePositions);
FLOE_IN_VEC4(SOLID_CONTACT_BIND_NODE_ORIGINS, nodeOrigins);
FLOE_IN_VEC4(SOLID_CONTACT_BIND_NODE_VELOCITIES, nodeVelocities);
FLOE_IN_UVEC4(SOLID_CONTACT_BIND_TETS, tets);
FLOE_IN_UVEC4(SOLID_CONTACT_BIND_FACE_NEIGHBOURS, faceNeighbours);
FLOE_IN_UINT(SOLID_CONTACT_BIND_LABELS, labels); // per node: its fragment (the Constraint method's pieces)
FLOE_IN_UINT(SOLID_CONTACT_BIND_FACE_START, faceStart);
layout(std430, binding = SOLID_CONTACT_BIND_FACE_COUNTS) buffer Counts { uint counts[]; };
layout(std430, binding = SOLID_CONTACT_BIND_FACE_ENTRIES) buffer Entries { uint entries[]; };
layout(std430, binding = SOLID_CONTACT_BIND_STATE) buffer State { uvec4 state; };
#include "coupling/solid_contacts_common.glsl"

// A face bounds its fragment while no tet shared it at rest, or the tet that did no longer holds
// its three nodes (a cut duplicated one), as fracture/face_bins and coupling/tet_samples tell, or,
// between two pieces of the Constraint method, belongs to another fragment.
bool boundaryFace(uint t, uint c, uvec3 face)
{
    const uint across = FLOE_LOAD_UVEC4(faceNeighbours, t)[c];
    if (across == SOLID_CONTACT_NONE) return true;
    const uvec4 other = FLOE_LOAD_UVEC4(tets, across);
    bool held = true;
    for (int k = 0; k < 3; ++k) held = held && any(equal(other, uvec4(face[k])));
    // The Constraint method's pieces (params.triangles.z 1) copy their shared nodes: a face between
    // two pieces is inside while they are one fragment.
    if (params.triangles.z != 0u) held = held || FLOE_LOAD_UINT(labels, face.x) == FLOE_LOAD_UINT(labels, other.x);
    return !held;
}

void main()
{
    const uint f = floeGlobalIndex();
    if (f >= 4u * params.counts.x) return;
    const uint t = f / 4u, c = f % 4u;
    const uvec3 face = faceNodes(FLOE_LOAD_UVEC4(tets, t), c);
    if (!boundaryFace(t, c, face)) return;
    const vec3 a = nodeAhead(face.x), b = nodeAhead(face.y), d = nodeAhead(face.z);
    const float r = params.contact.z, size = params.gridOrigin.w;
    const ivec3 dims = ivec3(params.gridDims.xyz);
    const vec3 lo = min(min(a, b), d) - r, hi = max(max(a, b), d) + r;
    // Non-finite corners (a diverged body) bin nowhere; the blow-up reports itself elsewhere.
    if (any(isnan(lo)) || any(isnan(hi)) || any(isinf(lo)) || any(isinf(hi))) return;
    const ivec3 c0 = max(ivec3(floor((lo - params.gridOrigin.xyz) / size)), ivec3(0));
    const ivec3 c1 = min(ivec3(floor((hi - params.gridOrigin.xyz) / size)), dims - 1);
    for (int z = c0.z; z <= c1.z; ++z)
        for (int y = c0.y; y <= c1.y; ++y)
            for (int x = c0.x; x <= c1.x; ++x) {
                const uint key = uint(x) + uint(dims.x) * (uint(y) + uint(dims.y) * uint(z));
                if (params.counts.w == 0u) {
                    atomicAdd(counts[key], 1u);
                } else {
                    const uint slot = FLOE_LOAD_UINT(faceStart, key) + atomicAdd(counts[key], 1u);
                    if (slot < params.gridDims.w)
                        entries[slot] = f;
                    else
                        atomicAdd(state.x, 1u);
                }
            }
}
