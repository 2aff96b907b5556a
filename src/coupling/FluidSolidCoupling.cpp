#include "coupling/FluidSolidCoupling.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>
#include <glm/geometric.hpp>

#include "base/Error.h"
#include "body/DeformableBodies.h"
#include "fracture/FractureBodies.h"
#include "fracture/TetMesh.h"
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
                                       sim::Simulation& fluid, body::DeformableBodies* bodies, fracture::FractureBodies* fracture)
    : fluid_(fluid), bodies_(bodies), fracture_(fracture), pipelines_(context, shaders),
      vertexCount_(bodies ? bodies->particleCount() : 0)
{
    // One layer at the static boundary's spacing (Floe.boundarySpacing of the particle spacing).
    const sim::WorldSettings& world = fluid.world();
    const float h = 2.0f * world.particleRadius;
    const float spacing = fluid.settings().boundarySpacing * h; // m
    SampleKernel kernel;
    kernel.kernelSet = fluid.settings().muellerKernels() ? SPH_KERNEL_MUELLER : SPH_KERNEL_CUBIC;
    kernel.dims = world.sim2D ? 2 : 3;
    kernel.h = h;
    kernel.restDensity = world.restDensity;
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
    const float calibratedDepth = 1.5f * world.particleRadius;
    if (bodies) {
        std::vector<SolidSurface> surfaces;
        for (uint32_t b = 0; b < bodies->bodyCount(); ++b) {
            const body::BodyLayout& layout = bodies->layouts()[b];
            double area = 0.0;
            for (const glm::uvec3& t : layout.triangles)
                area += 0.5 * glm::length(glm::cross(layout.rest[t.y] - layout.rest[t.x], layout.rest[t.z] - layout.rest[t.x]));
            const float depth = std::min(calibratedDepth, float(area > 0.0 ? layout.restVolume / area : 0.0));
            surfaces.push_back({layout.rest, layout.triangles, bodies->firstParticle()[b], depth});
        }
        const SolidSamples samples = sampleSolids(surfaces, vertexCount_, spacing, kernel);
        sampleCount_ = static_cast<uint32_t>(samples.corners.size());
        corners_ = sim::uploaded(context, graph, "solid sample corners", samples.corners, kUvec4);
        weights_ = sim::uploaded(context, graph, "solid sample weights (barycentric, Psi)", samples.weights, kVec4);
        vertexStart_ = sim::uploaded(context, graph, "solid vertex sample starts", samples.vertexStart, kUint);
        vertexSamples_ = sim::uploaded(context, graph, "solid vertex samples (sample, weight)", samples.vertexSamples, kUvec4);
        miters_ = gpu::Buffer(
            context, {"solid vertex miters", uint64_t(std::max(vertexCount_, 1u)) * 16, gpu::MemoryKind::DeviceLocal, kVec4});
    }
    if (fracture) {
        if (world.sim2D) throw Error("fracture bodies are three-dimensional; a 2D fluid cannot be coupled with them");
        // The tets as the GPU stores them (by colour), at their start positions.
        TetSurface surface;
        const uint32_t nodes = fracture->nodeCount(), tets = fracture->tetCount();
        const std::vector<glm::vec4> x = fracture->download(graph, fracture->positions(), nodes);
        const std::vector<glm::vec4> origin = fracture->download(graph, fracture->origins(), nodes);
        const std::vector<glm::vec4> rest = fracture->download(graph, fracture->restNodes(), nodes);
        surface.tets.resize(tets);
        sim::downloadNow(context, graph, fracture->tets(), surface.tets.data(), uint64_t(tets) * 16);
        // The Constraint method's pieces copy the nodes they share: the sampler reads each tet by
        // its nodes' first copies, so that a face between pieces is inside at rest (sampled whole,
        // on while its pieces are apart: coupling/tet_samples) and the miters are the body's.
        if (fracture->pieced()) {
            const std::vector<uint32_t>& first = fracture->canonicalNodes();
            if (first.size() != nodes)
                throw std::logic_error(fmt::format("fracture bodies: {} first copies for {} nodes", first.size(), nodes));
            for (glm::uvec4& t : surface.tets)
                for (int k = 0; k < 4; ++k) t[k] = first[t[k]];
        }
        for (uint32_t k = 0; k < nodes; ++k) surface.nodes.push_back(glm::vec3(x[k]) + glm::vec3(origin[k]));
        // Each body's depth: the calibrated one, within V/A of its surface.
        const uint32_t bodyCount = fracture->bodyCount();
        std::vector<double> volume(bodyCount, 0.0), area(bodyCount, 0.0);
        const auto bodyOf = [&](uint32_t t) { return std::min(uint32_t(rest[surface.tets[t].x].w), bodyCount - 1); };
        const fracture::TetMesh mesh{surface.nodes, surface.tets, "fracture bodies"};
        for (uint32_t t = 0; t < tets; ++t) volume[bodyOf(t)] += fracture::signedVolume(mesh, t);
        std::vector<uint32_t> tetOfFace;
        const std::vector<glm::uvec3> faces = fracture::boundaryFaces(mesh, &tetOfFace);
        for (size_t f = 0; f < faces.size(); ++f) {
            const glm::dvec3 a(mesh.nodes[faces[f].x]), b(mesh.nodes[faces[f].y]), c(mesh.nodes[faces[f].z]);
            area[bodyOf(tetOfFace[f])] += 0.5 * glm::length(glm::cross(b - a, c - a));
        }
        for (uint32_t t = 0; t < tets; ++t) {
            const uint32_t b = bodyOf(t);
            surface.tetDepth.push_back(std::min(calibratedDepth, float(area[b] > 0.0 ? volume[b] / area[b] : 0.0)));
        }
        smallestFragment_ = h * h * h; // one fluid particle's volume (coupling/tet_samples)
        const TetSamples samples = sampleTetFaces(surface, spacing, kernel);
        tetSampleCount_ = static_cast<uint32_t>(samples.corners.size());
        tetCorners_ = sim::uploaded(context, graph, "tet face sample corners (tet, face, depth)", samples.corners, kUvec4);
        tetWeights_ = sim::uploaded(context, graph, "tet face sample weights (barycentric, Psi)", samples.weights, kVec4);
        tetSampleStart_ = sim::uploaded(context, graph, "tet sample starts", samples.tetStart, kUint);
    }
    fluid.attachSolids(graph, sampleCount_ + tetSampleCount_, spacing);
    reduce_ = std::make_unique<sim::Reduce>(context, shaders, sampleCount_ + tetSampleCount_);
    solidSpeed_ = gpu::Buffer(context, {"solid samples' largest speed", 16, gpu::MemoryKind::DeviceLocal});
    graph.addFill("coupling/solid_speed_clear", solidSpeed_, 0);
}

FluidSolidCoupling::~FluidSolidCoupling() = default;

void FluidSolidCoupling::addStep(graph::RenderGraph& graph)
{
    if (!placed_) addSamples(graph);
    placed_ = true;
    fluid_.addStep(graph);
    addImpulses(graph);
    if (bodies_) bodies_->addStep(graph);
    if (fracture_) fracture_->addStep(graph);
    addSamples(graph);
    // The fastest sample the fluid sees (w: its speed), for the world's CFL step (app/RunWorld).
    reduce_->vec4(graph, fluid_.solidVelocities(), solidSpeed_, sampleCount_ + tetSampleCount_,
                  {sim::ReduceOp::Max, sim::ReduceOp::Max, sim::ReduceOp::Max, sim::ReduceOp::Max});
    fluid_.addSolidGuard(graph);
}

void FluidSolidCoupling::addSamples(graph::RenderGraph& graph)
{
    if (sampleCount_ > 0) {
        const shared::CouplingParams params{glm::uvec4(sampleCount_, vertexCount_, 0, 0), glm::vec4(0.0f)};
        graph.addCompute(pipelines_.compute("coupling/vertex_miters"))
            .read(COUPLING_BIND_POSITIONS, bodies_->positions())
            .read(COUPLING_BIND_INCIDENT_START, bodies_->incidentStart())
            .read(COUPLING_BIND_INCIDENT, bodies_->incident())
            .read(COUPLING_BIND_TRIANGLES, bodies_->triangles())
            .write(COUPLING_BIND_MITERS, miters_)
            .push(params)
            .dispatchThreads(vertexCount_);
        graph.addCompute(pipelines_.compute("coupling/solid_samples"))
            .read(COUPLING_BIND_POSITIONS, bodies_->positions())
            .read(COUPLING_BIND_VELOCITIES, bodies_->velocities())
            .read(COUPLING_BIND_MITERS, miters_)
            .read(COUPLING_BIND_SAMPLE_CORNERS, corners_)
            .read(COUPLING_BIND_SAMPLE_WEIGHTS, weights_)
            .write(COUPLING_BIND_SAMPLES, fluid_.solidSamples())
            .write(COUPLING_BIND_SAMPLE_VELOCITIES, fluid_.solidVelocities())
            .write(COUPLING_BIND_SAMPLE_NORMALS, fluid_.solidNormals())
            .push(params)
            .dispatchThreads(sampleCount_);
    }
    if (tetSampleCount_ > 0) {
        const shared::CouplingParams params{
            glm::uvec4(tetSampleCount_, fracture_->nodeCount(), sampleCount_, fracture_->tetCount()),
            glm::vec4(smallestFragment_, fracture_->pieced() ? 1.0f : 0.0f, 0.0f, 0.0f)};
        graph.addCompute(pipelines_.compute("coupling/tet_samples"))
            .read(COUPLING_BIND_POSITIONS, fracture_->positions())
            .read(COUPLING_BIND_VELOCITIES, fracture_->velocities())
            .read(COUPLING_BIND_NODE_ORIGINS, fracture_->origins())
            .read(COUPLING_BIND_TETS, fracture_->tets())
            .read(COUPLING_BIND_FACE_NEIGHBOURS, fracture_->faceNeighbours())
            .read(COUPLING_BIND_SAMPLE_CORNERS, tetCorners_)
            .read(COUPLING_BIND_SAMPLE_WEIGHTS, tetWeights_)
            .read(COUPLING_BIND_LABELS, fracture_->labels())
            .read(COUPLING_BIND_FRAGMENT_MASS, fracture_->fragmentBounce())
            .read(COUPLING_BIND_TET_INFO, fracture_->tetInfo())
            .write(COUPLING_BIND_SAMPLES, fluid_.solidSamples())
            .write(COUPLING_BIND_SAMPLE_VELOCITIES, fluid_.solidVelocities())
            .write(COUPLING_BIND_SAMPLE_NORMALS, fluid_.solidNormals())
            .push(params)
            .dispatchThreads(tetSampleCount_);
    }
    fluid_.addSolidTable(graph);
}

void FluidSolidCoupling::addImpulses(graph::RenderGraph& graph)
{
    if (sampleCount_ > 0) {
        const shared::CouplingParams params{glm::uvec4(sampleCount_, vertexCount_, 0, 0), glm::vec4(0.0f)};
        graph.addCompute(pipelines_.compute("coupling/solid_impulses_apply"))
            .read(COUPLING_BIND_POSITIONS, bodies_->positions())
            .readWrite(COUPLING_BIND_VELOCITIES, bodies_->velocities())
            .read(COUPLING_BIND_IMPULSES, fluid_.solidImpulses())
            .read(COUPLING_BIND_VERTEX_START, vertexStart_)
            .read(COUPLING_BIND_VERTEX_SAMPLES, vertexSamples_)
            .push(params)
            .dispatchThreads(vertexCount_);
    }
    if (tetSampleCount_ > 0) {
        const shared::CouplingParams params{
            glm::uvec4(tetSampleCount_, fracture_->nodeCount(), sampleCount_, fracture_->tetCount()), glm::vec4(0.0f)};
        graph.addFill("coupling/tet_contact_clear", fracture_->externalContact(), 0);
        graph.addCompute(pipelines_.compute("coupling/tet_impulses_apply"))
            .read(COUPLING_BIND_POSITIONS, fracture_->positions())
            .readWrite(COUPLING_BIND_VELOCITIES, fracture_->velocities())
            .read(COUPLING_BIND_IMPULSES, fluid_.solidImpulses())
            .read(COUPLING_BIND_NODE_START, fracture_->nodeStart())
            .read(COUPLING_BIND_INCIDENCE, fracture_->incidenceCorners())
            .read(COUPLING_BIND_TET_SAMPLE_START, tetSampleStart_)
            .read(COUPLING_BIND_SAMPLE_CORNERS, tetCorners_)
            .read(COUPLING_BIND_SAMPLE_WEIGHTS, tetWeights_)
            .readWrite(COUPLING_BIND_CONTACT, fracture_->externalContact())
            .push(params)
            .dispatchThreads(fracture_->nodeCount());
    }
}

} // namespace floe::coupling
