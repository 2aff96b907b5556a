// Contacts between deformable bodies and fracture bodies (dynamic rigid bodies are fracture
// bodies; src/coupling/SolidContacts.cpp, shaders/coupling/face_bins, vertex_faces,
// triangle_bins, node_triangles, vertex_pushes_apply, node_impulses_apply), both ways:
// - the fracture bodies' boundary faces, placed where their nodes' velocities carry them by the
//   end of the step, are binned into a grid; a deformable vertex whose move in the step crosses a
//   face from the front is put the contact radius in front of the crossing, else one that ends
//   its step within the radius of the nearest face (or up to it behind) the radius in front of
//   it, and the approaching part of its velocity relative to the face is taken out with the
//   impulse of a two-body contact (vertex against the face's point, restitution, Coulomb
//   friction);
// - the deformable triangles are binned into a grid of the same cells; each fracture node (where
//   its velocity carries it) within the radius of the nearest triangle, or up to it behind,
//   pushes that triangle's vertices back (the node's position is the fracture bodies' to keep:
//   moving it would strain its tets with nothing paying), with the same impulse, node against
//   the triangle's point.
// The opposite impulses go to the other side's points by their barycentric weights (fixed-point
// sums, so the result does not depend on the order of the atomics); the nodes' enter their
// velocities before the fracture bodies' step: momentum is exchanged equally and oppositely.
#ifndef FLOE_SHARED_SOLID_CONTACTS_H
#define FLOE_SHARED_SOLID_CONTACTS_H
#include "shared/types.h"

#define SOLID_CONTACT_GROUP_SIZE 128

#define SOLID_CONTACT_BIND_NODE_POSITIONS 0  // vec4 per node: xyz m relative to its origin, w inverse mass 1/kg
#define SOLID_CONTACT_BIND_NODE_ORIGINS 1    // vec4 per node: its fragment's origin (m, world)
#define SOLID_CONTACT_BIND_NODE_VELOCITIES 2 // vec4 per node: xyz m/s
#define SOLID_CONTACT_BIND_TETS 3            // uvec4 per tet: its four nodes
#define SOLID_CONTACT_BIND_FACE_NEIGHBOURS 4 // uvec4 per tet: the tet across face c at rest, or SOLID_CONTACT_NONE
#define SOLID_CONTACT_BIND_FACE_COUNTS 5     // uint per cell + 1: faces per cell (stage 0), then the scatter's cursors
#define SOLID_CONTACT_BIND_FACE_START 6      // uint per cell + 1: the exclusive scan of the counts
#define SOLID_CONTACT_BIND_FACE_ENTRIES 7    // uint per entry: face 4 tet + c, grouped by cell
#define SOLID_CONTACT_BIND_STATE 8 // uvec4: x face entries left out (over the capacity) since the start, y contacts since the start
#define SOLID_CONTACT_BIND_VERTICES 9           // vec4 per deformable vertex: xyz m relative to its body's origin, w mass kg
#define SOLID_CONTACT_BIND_VERTEX_VELOCITIES 10 // vec4 per vertex: xyz m/s
#define SOLID_CONTACT_BIND_VERTEX_FLAGS 11      // uint per vertex: 3 when a contact moved it (this round and this step)
#define SOLID_CONTACT_BIND_VERTEX_REST 12       // vec4 per vertex: w its body
#define SOLID_CONTACT_BIND_BODY_ORIGINS 13      // vec4 per deformable body: its origin (m, world)
#define SOLID_CONTACT_BIND_NODE_SUMS 14         // int x 4 per node: the impulse on it (N s, fixed point), 0
#define SOLID_CONTACT_BIND_CONTACT 15          // uint: set to 1 when a vertex pushed a node (the fracture bodies' external contact)
#define SOLID_CONTACT_BIND_TRIANGLES 16        // uvec4 per deformable triangle: its three vertices (outward: counter-clockwise)
#define SOLID_CONTACT_BIND_TRIANGLE_COUNTS 17  // uint per cell + 1: triangles per cell, then the scatter's cursors
#define SOLID_CONTACT_BIND_TRIANGLE_START 18   // uint per cell + 1: the exclusive scan of the counts
#define SOLID_CONTACT_BIND_TRIANGLE_ENTRIES 19 // uint per entry: triangle, grouped by cell
#define SOLID_CONTACT_BIND_VERTEX_SUMS 20      // int x 8 per vertex: move (xyz m), moves, impulse (xyz N s), 0; fixed point
#define SOLID_CONTACT_BIND_LABELS 21           // uint per node: its fragment label (fracture bodies' labels())
#define SOLID_CONTACT_BIND_VERTEX_PREVIOUS 22  // vec4 per vertex: xyz m at the step's start, to its body's origin
#define SOLID_CONTACT_NONE 0xFFFFFFFFu

FLOE_SHARED_BEGIN

struct SolidContactParams {
    vec4 gridOrigin; // xyz m: the face grid's minimum corner, w cell size m
    uvec4 gridDims;  // xyz cells per axis, w entries the grid holds
    vec4 contact;    // x friction coefficient, y restitution, z contact radius m, w the step dt s (faces move by v dt)
    uvec4 counts;    // x tets, y nodes, z deformable vertices, w stage (face_bins, triangle_bins: 0 count, 1 scatter)
    uvec4 triangles; // x deformable triangles, y entries the triangle grid holds, z 1: the fracture bodies are pieced (Constraint
                     // method), w 0
};
SHARED_SIZE(SolidContactParams, 80);

// The impulse of a frictional contact between a point of inverse mass wp and a point of a face
// of inverse mass wf (sum_k b_k^2 / m_k), relative velocity vRel = v_point - v_face, unit normal
// n out of the face: the normal part removes the approach (reflected by the restitution e), the
// tangential part opposes the sliding, at most mu times the normal part (Coulomb), at most what
// stops the sliding. Zero when the point moves away. Applied +J to the point, -J to the face.
SHARED_FN vec4 solidContactImpulse(vec3 vRel, vec3 n, float wp, float wf, float mu, float e)
{
    const float vn = dot(vRel, n);
    const float w = wp + wf;
    if (!(vn < 0.0f) || !(w > 0.0f)) return vec4(0.0f);
    const float jn = -(1.0f + e) * vn / w;
    vec3 j = jn * n;
    const vec3 vt = vRel - vn * n;
    const float slide = length(vt);
    if (slide > 1e-20f) j -= min(mu * jn, slide / w) * (vt / slide);
    return vec4(j, jn);
}

FLOE_SHARED_END

#endif
