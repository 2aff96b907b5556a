// Two-way coupling of the SPH fluid with solids (Akinci et al. 2012, "Versatile rigid-fluid
// coupling for incompressible SPH", applied to surface shape matching's vertices and to the
// fracture bodies' tet nodes): the solids' surfaces are sampled once at rest
// (coupling::sampleSolids for the deformable bodies' triangles, coupling::sampleTetFaces for every
// tet face of the fracture bodies, on while the face bounds a fragment); each step, in one
// command buffer with one time step (addStep):
//   the fluid's step (the samples are moving boundary samples: density, G_b, and their velocity
//   in the solvers' source terms; sph/solid_impulses gathers the pressure impulse on each) ->
//   coupling/solid_impulses_apply and tet_impulses_apply (the impulses into the vertices' and
//   nodes' velocities, with the samples' weights) -> the solids' steps (shape matching, volume,
//   contacts; the elastic substeps, stress and cuts) -> coupling/vertex_miters, solid_samples and
//   tet_samples (the samples on the new surfaces, with velocities and normals) and sph/solid_reorder (sorted
//   into the fluid grid's bins), which the next step uses -> sph/solid_guard (a fluid particle
//   left behind a surface is put back on it).
// The fluid sees each solid as a wall that moves; the solid feels the fluid's pressure as the
// exact reaction to what the fluid took from it (equal and opposite, pair by pair). The fracture
// bodies' afterStep() (the incidence after cuts) is the caller's, after the step's submission.
#pragma once

#include <cstdint>
#include <memory>

#include "coupling/SolidSampler.h"
#include "gpu/Buffer.h"
#include "gpu/PipelineCache.h"

namespace floe::graph {
class RenderGraph;
}
namespace floe::sim {
class Simulation;
class Reduce;
} // namespace floe::sim
namespace floe::body {
class DeformableBodies;
}
namespace floe::fracture {
class FractureBodies;
}

namespace floe::coupling {

class FluidSolidCoupling {
public:
    // Samples the solids' surfaces at the fluid's boundary spacing and attaches them to the fluid
    // (sim::Simulation::attachSolids); either kind may be absent. Throws floe::Error where the
    // fluid cannot take solids. The Constraint method's pieces are sampled as their body (by
    // their nodes' first copies), the faces between pieces on once their pieces are apart.
    FluidSolidCoupling(gpu::Context& context, const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph, sim::Simulation& fluid,
                       body::DeformableBodies* bodies, fracture::FractureBodies* fracture = nullptr);
    ~FluidSolidCoupling();

    // One coupled step of the fluid and the solids (their own addStep is not called besides).
    void addStep(graph::RenderGraph& graph);
    // The solids' state was replaced (uploadState, loadState): place the samples anew.
    void invalidate() { placed_ = false; }
    bool placed() const { return placed_; } // the samples were placed (a step was recorded since invalidate)

    uint32_t sampleCount() const { return sampleCount_ + tetSampleCount_; }
    uint32_t tetSampleCount() const { return tetSampleCount_; } // of the fracture bodies (their faces', on or off)
    // vec4, w: the largest speed (m/s) of a sample the fluid saw at the end of the last step
    // (xyz: the components' maxima, unused); 0 before the first step.
    const gpu::Buffer& solidSpeed() const { return solidSpeed_; }
    // The deformable bodies' samples as sampled at rest (SolidSamples::corners and weights; tests).
    const gpu::Buffer& sampleCorners() const { return corners_; }
    const gpu::Buffer& sampleWeights() const { return weights_; }
    uint32_t deformableSampleCount() const { return sampleCount_; }

private:
    void addSamples(graph::RenderGraph& graph); // and their table in the fluid grid's bins
    void addImpulses(graph::RenderGraph& graph);

    sim::Simulation& fluid_;
    body::DeformableBodies* bodies_;
    fracture::FractureBodies* fracture_;
    bool placed_ = false; // the samples follow the solids' current state
    gpu::PipelineCache pipelines_;
    uint32_t sampleCount_ = 0, vertexCount_ = 0; // the deformable bodies' samples come first
    gpu::Buffer corners_, weights_, vertexStart_, vertexSamples_;
    gpu::Buffer miters_;          // vec4 per vertex, this step's (coupling/vertex_miters)
    uint32_t tetSampleCount_ = 0; // then the fracture bodies'
    float smallestFragment_ = 0;  // m^3: smaller fragments are not coupled (coupling/tet_samples)
    gpu::Buffer tetCorners_, tetWeights_, tetSampleStart_;
    std::unique_ptr<sim::Reduce> reduce_;
    gpu::Buffer solidSpeed_;
};

} // namespace floe::coupling
