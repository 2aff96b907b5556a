// The solids coupled to the fluid (sim::Simulation::attachSolids; coupling/FluidSolidCoupling
// drives them): their buffers, their table in the fluid grid's bins, the guard, and the guard's
// pending impulses for saved states. The fluid step's own solid terms are in Simulation.cpp.
#include <bit>

#include <fmt/format.h>

#include "base/Error.h"
#include "gpu/Context.h"
#include "graph/RenderGraph.h"
#include "shared/sph.h"
#include "sim/Simulation.h"

namespace floe::sim {
namespace {

constexpr VkFormat kVec4 = VK_FORMAT_R32G32B32A32_SFLOAT;

} // namespace

void Simulation::allocateSolidBuffers(uint64_t particles, uint64_t samples)
{
    const uint64_t n = particles, s = samples;
    boundaryRates_ = deviceBuffer(context_, "solid boundary rates (S_i)", n * 4, VK_FORMAT_R32_SFLOAT);
    wallCoefficients_ = deviceBuffer(context_, "wall pressure coefficients (c_i)", n * 4, VK_FORMAT_R32_SFLOAT);
    solids_ = deviceBuffer(context_, "solid samples (position, Psi)", s * 16, kVec4);
    solidVelocities_ = deviceBuffer(context_, "solid sample velocities", s * 16, kVec4);
    solidNormals_ = deviceBuffer(context_, "solid sample surface planes", s * 16, kVec4);
    sortedSolidNormals_ = deviceBuffer(context_, "sorted solid sample surface planes", s * 16, kVec4);
    sortedSolids_ = deviceBuffer(context_, "sorted solid samples", s * 16, kVec4);
    sortedSolidVelocities_ = deviceBuffer(context_, "sorted solid sample velocities", s * 16, kVec4);
    solidImpulses_ = deviceBuffer(context_, "solid sample impulses", s * 16, kVec4);
    solidGuardImpulses_ = deviceBuffer(context_, "solid guard impulses (fixed point)", s * 16, VK_FORMAT_R32_SINT);
}

void Simulation::attachSolids(graph::RenderGraph& graph, uint32_t count, float spacing)
{
    if (solidCount_ > 0) throw Error("Simulation::attachSolids: solids are attached already");
    if (count == 0) return;
    checkSolidSolver(settings_);
    if (count > ParticleBuffers::maxParticles(context_))
        throw Error(fmt::format("{} solid boundary samples do not fit on {} (at most {})", count, context_.deviceName(),
                                ParticleBuffers::maxParticles(context_)));
    solidCount_ = count;
    solidSpacing_ = spacing;
    allocateSolidBuffers(particles_.count, count);
    graph.addFill("sph/solid_guard_clear", solidGuardImpulses_, 0);
    solidGrid_ = std::make_unique<SpatialGrid>(context_, pipelines_.shaders(), grid_.spec(), count, "solid sample");
}

void Simulation::checkSolidSolver(const SphSettings& settings) const
{
    const PressureSolver solver = settings.pressureSolver();
    if (solver == PressureSolver::Pcisph || solver == PressureSolver::Pbf)
        throw Error(fmt::format("the {} solver cannot be coupled with solids: coupled, floating bodies sat about a third "
                                "too deep (docs/coupling.md); coupled scenes run with DFSPH, IISPH or an equation of state "
                                "(WCSPH)",
                                pressureSolverTitle(solver)));
}

void Simulation::addSolidTable(graph::RenderGraph& graph)
{
    if (solidCount_ == 0) return;
    // The solids' samples, sorted into the fluid grid's bins as the static samples are; those at
    // Psi_b 0 (a fracture body's faces inside its fragments) after every bin, where no walk goes.
    solidGrid_->addBuild(graph, solids_, solidCount_, true);
    shared::SphParams p = stepParams();
    p.flags.y = solidCount_; // the solid passes' sample count
    graph.addCompute(pipelines_.compute("sph/solid_reorder", spec()))
        .read(SPH_BIND_IN0, solids_)
        .read(SPH_BIND_IN1, solidVelocities_)
        .read(SPH_BIND_SOLID_NORMALS, solidNormals_)
        .read(SPH_BIND_IN2, solidGrid_->sortedIndex())
        .write(SPH_BIND_OUT0, sortedSolids_)
        .write(SPH_BIND_OUT1, sortedSolidVelocities_)
        .write(SPH_BIND_OUT2, sortedSolidNormals_)
        .push(p)
        .dispatchThreads(solidCount_);
}

void Simulation::addSolidGuard(graph::RenderGraph& graph)
{
    if (solidCount_ == 0) return;
    std::vector<gpu::SpecConstant> constants = spec();
    constants.push_back({3, std::bit_cast<uint32_t>(solidSpacing_)}); // the guard's reach along a surface
    graph.addCompute(pipelines_.compute("sph/solid_guard", constants))
        .readWrite(SPH_BIND_STATE, state_)
        .readWrite(SPH_BIND_POSITIONS, particles_.positions)
        .readWrite(SPH_BIND_VELOCITIES, particles_.velocities)
        .read(SPH_BIND_SOLIDS, sortedSolids_)
        .read(SPH_BIND_SOLID_START, solidGrid_->cellStart())
        .read(SPH_BIND_SOLID_VELOCITIES, sortedSolidVelocities_)
        .read(SPH_BIND_SOLID_NORMALS, sortedSolidNormals_)
        .read(SPH_BIND_IN0, solidGrid_->sortedIndex())
        .readWrite(SPH_BIND_SOLID_GUARD_IMPULSES, solidGuardImpulses_)
        .push(stepParams())
        .dispatchThreads(particles_.count);
}

std::vector<int32_t> Simulation::downloadSolidGuard(graph::RenderGraph& graph)
{
    std::vector<int32_t> sums(4 * size_t(solidCount_));
    if (!sums.empty()) downloadNow(context_, graph, solidGuardImpulses_, sums.data(), sums.size() * 4);
    return sums;
}

void Simulation::uploadSolidGuard(graph::RenderGraph& graph, const std::vector<int32_t>& sums)
{
    if (sums.size() != 4 * size_t(solidCount_))
        throw Error(
            fmt::format("the saved guard impulses are for {} solid samples, the scene has {}", sums.size() / 4, solidCount_));
    if (!sums.empty()) uploadNow(context_, graph, solidGuardImpulses_, sums.data(), sums.size() * 4);
}

} // namespace floe::sim
