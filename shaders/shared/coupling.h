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
#define COUPLING_BIND_NORMALS 9           // vec4 per solid vertex: area-weighted normal sum (m^2), current
#define COUPLING_BIND_SAMPLE_NORMALS 10   // vec4 per sample: the surface plane above it: xyz unit normal, w distance (m)

FLOE_SHARED_BEGIN

struct CouplingParams {
    uvec4 counts; // x samples, y solid vertices
};
SHARED_SIZE(CouplingParams, 16);

FLOE_SHARED_END

#endif
