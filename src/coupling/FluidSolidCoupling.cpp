#include "coupling/FluidSolidCoupling.h"

#include <algorithm>

#include <glm/geometric.hpp>

#include "body/DeformableBodies.h"
#include "graph/RenderGraph.h"
#include "shared/coupling.h"
#include "shared/sph.h"
#include "sim/ParticleBuffers.h"
#include "sim/Simulation.h"

namespace floe::coupling {
namespace {

constexpr VkFormat kVec4 = VK_FORMAT_R32G32B32A32_SFLOAT;
constexpr VkFormat kUvec4 = VK_FORMAT_R32G32B32A32_UINT;
constexpr VkFormat kUint = VK_FORMAT_R32_UINT;

} // namespace

FluidSolidCoupling::FluidSolidCoupling(gpu::Context& context, const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph,
                                       sim::Simulation& fluid, body::DeformableBodies& bodies)
    : fluid_(fluid), bodies_(bodies), pipelines_(context, shaders), vertexCount_(bodies.particleCount())
{
    // One layer at the static boundary's spacing (Floe.boundarySpacing of the particle spacing).
    const sim::WorldSettings& world = fluid.world();
    const float h = 2.0f * world.particleRadius;
    const float spacing = fluid.settings().boundarySpacing * h; // m
    // The samples lie 1.5 r (r the particle radius, h/2) inside the surface, along the normal. A
    // fluid particle does not rest on a boundary: the first layer's centres settle about h from a
    // layer of samples (1.05 h above the static floor of the pool in tests/gpu/CouplingTest.cpp,
    // 1.2 h below a ball 8 h across), and the layer's own volume reaches about half a spacing
    // toward it, so a body whose samples lay on its surface displaced a shell of fluid about r
    // thick besides its own volume: a ball of half the fluid's density floated with 0.25 of its
    // volume submerged, 0.40 with the samples r deep, 0.48 at 1.33 r and 0.50 at 1.5 r, where
    // balls of 250 and 750 kg/m^3 and a flat box of 500 kg/m^3 also float within 5 % of
    // Archimedes (docs/coupling.md has the table). The depth is a calibration of this boundary
    // model, as Akinci's volume scale gamma is; it is kept within V/A of the surface (half the
    // thickness of a plate), so the samples of a thin body's two faces never cross.
    std::vector<SolidSurface> surfaces;
    for (uint32_t b = 0; b < bodies.bodyCount(); ++b) {
        const body::BodyLayout& layout = bodies.layouts()[b];
        double area = 0.0;
        for (const glm::uvec3& t : layout.triangles)
            area += 0.5 * glm::length(glm::cross(layout.rest[t.y] - layout.rest[t.x], layout.rest[t.z] - layout.rest[t.x]));
        const float depth = std::min(1.5f * world.particleRadius, float(area > 0.0 ? layout.restVolume / area : 0.0));
        surfaces.push_back({layout.rest, layout.restNormal, layout.triangles, bodies.firstParticle()[b], depth});
    }
    SampleKernel kernel;
    kernel.kernelSet = fluid.settings().muellerKernels() ? SPH_KERNEL_MUELLER : SPH_KERNEL_CUBIC;
    kernel.dims = world.sim2D ? 2 : 3;
    kernel.h = h;
    kernel.restDensity = world.restDensity;
    const SolidSamples samples = sampleSolids(surfaces, vertexCount_, spacing, kernel);
    sampleCount_ = static_cast<uint32_t>(samples.corners.size());
    corners_ = sim::uploaded(context, graph, "solid sample corners", samples.corners, kUvec4);
    weights_ = sim::uploaded(context, graph, "solid sample weights (barycentric, Psi)", samples.weights, kVec4);
    vertexStart_ = sim::uploaded(context, graph, "solid vertex sample starts", samples.vertexStart, kUint);
    vertexSamples_ = sim::uploaded(context, graph, "solid vertex samples (sample, weight)", samples.vertexSamples, kUvec4);
    fluid.attachSolids(graph, sampleCount_);
}

void FluidSolidCoupling::addStep(graph::RenderGraph& graph)
{
    if (!placed_) addSamples(graph);
    placed_ = true;
    fluid_.addStep(graph);
    addImpulses(graph);
    bodies_.addStep(graph);
    addSamples(graph);
    fluid_.addSolidGuard(graph);
}

void FluidSolidCoupling::addSamples(graph::RenderGraph& graph)
{
    const shared::CouplingParams params{glm::uvec4(sampleCount_, vertexCount_, 0, 0)};
    graph.addCompute(pipelines_.compute("coupling/solid_samples"))
        .read(COUPLING_BIND_POSITIONS, bodies_.positions())
        .read(COUPLING_BIND_VELOCITIES, bodies_.velocities())
        .read(COUPLING_BIND_NORMALS, bodies_.normals())
        .read(COUPLING_BIND_SAMPLE_CORNERS, corners_)
        .read(COUPLING_BIND_SAMPLE_WEIGHTS, weights_)
        .write(COUPLING_BIND_SAMPLES, fluid_.solidSamples())
        .write(COUPLING_BIND_SAMPLE_VELOCITIES, fluid_.solidVelocities())
        .write(COUPLING_BIND_SAMPLE_NORMALS, fluid_.solidNormals())
        .push(params)
        .dispatchThreads(sampleCount_);
    fluid_.addSolidTable(graph);
}

void FluidSolidCoupling::addImpulses(graph::RenderGraph& graph)
{
    const shared::CouplingParams params{glm::uvec4(sampleCount_, vertexCount_, 0, 0)};
    graph.addCompute(pipelines_.compute("coupling/solid_impulses_apply"))
        .read(COUPLING_BIND_POSITIONS, bodies_.positions())
        .readWrite(COUPLING_BIND_VELOCITIES, bodies_.velocities())
        .read(COUPLING_BIND_IMPULSES, fluid_.solidImpulses())
        .read(COUPLING_BIND_VERTEX_START, vertexStart_)
        .read(COUPLING_BIND_VERTEX_SAMPLES, vertexSamples_)
        .push(params)
        .dispatchThreads(vertexCount_);
}

} // namespace floe::coupling
