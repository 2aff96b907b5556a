// Two-way coupling of the SPH fluid with deformable bodies (Akinci et al. 2012, "Versatile
// rigid-fluid coupling for incompressible SPH", applied to surface shape matching's vertices):
// the bodies' surfaces are sampled once at rest (coupling::sampleSolids); each step, in one
// command buffer with one time step (addStep):
//   the fluid's step (the samples are moving boundary samples: density, G_b, and their velocity
//   in the solvers' source terms; sph/solid_impulses gathers the pressure impulse on each) ->
//   coupling/solid_impulses_apply (the impulses into the vertices' velocities, with the samples'
//   weights) -> the bodies' step (shape matching, volume, contacts) ->
//   coupling/solid_samples (the samples on the new surfaces, with velocities and normals) and
//   sph/solid_reorder (sorted into the fluid grid's bins), which the next step uses ->
//   sph/solid_guard (a fluid particle left behind a surface is put back on it).
// The fluid sees each body as a wall that moves; the body feels the fluid's pressure as the exact
// reaction to what the fluid took from it (equal and opposite, pair by pair).
#pragma once

#include <cstdint>

#include "coupling/SolidSampler.h"
#include "gpu/Buffer.h"
#include "gpu/PipelineCache.h"

namespace floe::graph {
class RenderGraph;
}
namespace floe::sim {
class Simulation;
}
namespace floe::body {
class DeformableBodies;
}

namespace floe::coupling {

class FluidSolidCoupling {
public:
    // Samples the bodies' surfaces at the fluid's boundary spacing and attaches them to the fluid
    // (sim::Simulation::attachSolids). Throws floe::Error where the fluid cannot take solids.
    FluidSolidCoupling(gpu::Context& context, const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph, sim::Simulation& fluid,
                       body::DeformableBodies& bodies);

    // One coupled step of the fluid and the bodies (their own addStep is not called besides).
    void addStep(graph::RenderGraph& graph);
    // The bodies' state was replaced (uploadState, loadState): place the samples anew.
    void invalidate() { placed_ = false; }

    uint32_t sampleCount() const { return sampleCount_; }

private:
    void addSamples(graph::RenderGraph& graph); // and their table in the fluid grid's bins
    void addImpulses(graph::RenderGraph& graph);

    sim::Simulation& fluid_;
    body::DeformableBodies& bodies_;
    bool placed_ = false; // the samples follow the bodies' current state
    gpu::PipelineCache pipelines_;
    uint32_t sampleCount_ = 0, vertexCount_ = 0;
    gpu::Buffer corners_, weights_, vertexStart_, vertexSamples_;
};

} // namespace floe::coupling
