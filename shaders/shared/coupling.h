// Two-way coupling of the fluid with solids (Akinci et al. 2012, "Versatile rigid-fluid coupling
// for incompressible SPH"; src/coupling/FluidSolidCoupling.cpp, shaders/coupling/*): the solids'
// surfaces are sampled once at rest into boundary samples, each a barycentric combination of one
// surface triangle's vertices; each step the samples follow the vertices into the fluid, and the
// fluid's impulses on them go back to the vertices with the same weights.
#ifndef FLOE_SHARED_COUPLING_H
#define FLOE_SHARED_COUPLING_H
#include "shared/types.h"

#define COUPLING_GROUP_SIZE 128

#define COUPLING_BIND_POSITIONS 0         // vec4 per solid vertex: xyz m (world), w mass kg
#define COUPLING_BIND_VELOCITIES 1        // vec4 per solid vertex: xyz m/s
#define COUPLING_BIND_SAMPLE_CORNERS 2    // uvec4 per sample: xyz the vertices it combines, w its depth (m, float bits)
#define COUPLING_BIND_SAMPLE_WEIGHTS 3    // vec4 per sample: xyz their barycentric weights, w Psi_b kg
#define COUPLING_BIND_SAMPLES 4           // vec4 per sample: xyz m, w Psi_b kg (sim::Simulation::solidSamples)
#define COUPLING_BIND_SAMPLE_VELOCITIES 5 // vec4 per sample: xyz m/s
#define COUPLING_BIND_IMPULSES 6          // vec4 per sample: xyz N s the fluid gave it this step
#define COUPLING_BIND_VERTEX_START 7      // uint per vertex + 1: its first entry in COUPLING_BIND_VERTEX_SAMPLES
#define COUPLING_BIND_VERTEX_SAMPLES 8    // uvec4 per entry: x sample, y weight (float bits)
#define COUPLING_BIND_MITERS 9            // vec4 per solid vertex: xyz its miter (coupling/vertex_miters), current
// vec4 per sample: the surface plane above it: xyz unit normal, w distance (m; negative for a
// deformable body's sample, sph/solid_guard)
#define COUPLING_BIND_SAMPLE_NORMALS 10
// Tetrahedral solids (fracture bodies; coupling/tet_samples, tet_impulses_apply): the samples lie
// on tet faces (COUPLING_BIND_SAMPLE_CORNERS: x tet, y face, z depth), switched on while the face
// bounds its fragment; POSITIONS are relative to NODE_ORIGINS, with w the inverse mass 1/kg.
#define COUPLING_BIND_NODE_ORIGINS 11     // vec4 per node: the origin (m, world) its position is relative to
#define COUPLING_BIND_TETS 12             // uvec4 per tet: its four nodes
#define COUPLING_BIND_FACE_NEIGHBOURS 13  // uvec4 per tet: the tet across face c at rest, or COUPLING_NONE
#define COUPLING_BIND_NODE_START 14       // uint per node + 1: its first incidence slot
#define COUPLING_BIND_INCIDENCE 15        // uint per incidence slot: the tet corner 4 tet + c, node-ordered
#define COUPLING_BIND_TET_SAMPLE_START 16 // uint per tet + 1: its first sample
#define COUPLING_BIND_CONTACT 17          // uint: set to 1 when the fluid pushed a node (the fracture bodies' external contact)
#define COUPLING_BIND_LABELS 18           // uint per node: its fragment's root node
#define COUPLING_BIND_FRAGMENT_MASS                                                                                                \
    19                            // 2 vec4 per node, at fragment roots: w of the first the fragment's mass kg (fracture/bounce)
#define COUPLING_BIND_TET_INFO 20 // vec4 per tet: body, density kg/m^3, ...
// The deformable bodies' surfaces (coupling/vertex_miters): the triangles around each vertex.
#define COUPLING_BIND_INCIDENT_START 21 // uint per solid vertex + 1: its first entry in INCIDENT
#define COUPLING_BIND_INCIDENT 22       // uint per entry: a triangle around the vertex
#define COUPLING_BIND_TRIANGLES 23      // uvec4 per triangle: xyz its vertices (outward counter-clockwise)
#define COUPLING_NONE 0xFFFFFFFFu
// A miter's longest length, and the regularization of a deformable body's miters (solved in float
// each step by coupling/vertex_miters; coupling::surfaceMiters on the CPU).
#define COUPLING_MITER_CAP 2.0
#define COUPLING_MITER_REGULARIZATION 1e-4

FLOE_SHARED_BEGIN

struct CouplingParams {
    uvec4 counts; // x samples, y solid vertices (nodes), z the first sample's index in the fluid's solid arrays, w tets
    vec4 limits; // x the smallest fragment volume the fluid sees (m^3: one fluid particle's), y 1: pieced tets (Constraint method),
                 // zw 0
};
SHARED_SIZE(CouplingParams, 32);

FLOE_SHARED_END

#endif
