// What leaves the fluid simulation's GPU state: each step's reduced metrics, the ring of state
// snapshots (exports, saved states, the last good state of a diverged run), and whole states
// downloaded and uploaded (saved states, reloading shaders).
#include <cstring>

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

void Simulation::addReadback(graph::RenderGraph& graph, const gpu::Buffer& target, VkDeviceSize offset)
{
    graph.addCopy("sph/readback_metrics_a", reducedA_, target, 16, 0, offset);
    graph.addCopy("sph/readback_metrics_b", reducedB_, target, 16, 0, offset + 16);
    graph.addCopy("sph/readback_state", state_, target, sizeof(shared::SphState), 0, offset + 32);
}

StepMetrics Simulation::decode(const StepReadback& r) const
{
    StepMetrics m;
    m.dt = r.time.x;
    m.time = r.time.y;
    m.kineticEnergy = r.reducedA.x;
    m.densityErrorAvg = particles_.count ? r.reducedA.y / float(particles_.count) : 0.0f;
    m.densityErrorMax = r.reducedA.z;
    m.escaped = static_cast<uint32_t>(std::lround(r.reducedA.w));
    m.maxSpeed = r.reducedB.x;
    m.nonFinite = static_cast<uint32_t>(std::lround(r.reducedB.y));
    m.wallContacts = static_cast<uint32_t>(std::lround(r.reducedB.z));
    m.iterations = r.solver.x;
    m.solverError = r.error.x;
    m.divergenceIterations = r.solver.w;
    m.divergenceError = r.error.y;
    m.neighbourOverflows = r.counters.x;
    m.solidCorrections = r.counters.y;
    return m;
}

void Simulation::addSnapshot(graph::RenderGraph& graph, uint32_t slot)
{
    const uint64_t n = particles_.count;
    if (snapshots_.empty())
        for (uint32_t i = 0; i < kSnapshots; ++i) {
            Snapshot s;
            s.positions = deviceBuffer(context_, "snapshot positions", n * 16, kVec4);
            s.velocities = deviceBuffer(context_, "snapshot velocities", n * 16, kVec4);
            s.ids = deviceBuffer(context_, "snapshot ids", n * 4, VK_FORMAT_R32_UINT);
            s.solverState = deviceBuffer(context_, "snapshot solver state", n * 16, kVec4);
            s.metricsB = deviceBuffer(context_, "snapshot metrics", n * 16, kVec4);
            s.state = deviceBuffer(context_, "snapshot state", sizeof(shared::SphState), VK_FORMAT_R32_UINT);
            s.lastStep = deviceBuffer(context_, "snapshot last step", 16, kVec4);
            snapshots_.push_back(std::move(s));
        }
    const Snapshot& s = snapshots_.at(slot);
    graph.beginGroup("sph/snapshot");
    graph.addCopy("sph/snapshot_positions", particles_.positions, s.positions, n * 16);
    graph.addCopy("sph/snapshot_velocities", particles_.velocities, s.velocities, n * 16);
    graph.addCopy("sph/snapshot_ids", particles_.ids, s.ids, n * 4);
    graph.addCopy("sph/snapshot_solver_state", particles_.solverState, s.solverState, n * 16);
    graph.addCopy("sph/snapshot_metrics", particles_.metricsB, s.metricsB, n * 16);
    graph.addCopy("sph/snapshot_state", state_, s.state, sizeof(shared::SphState));
    graph.addCopy("sph/snapshot_last_step", reducedB_, s.lastStep, 16);
    graph.endGroup();
}

SimulationState Simulation::readState(graph::RenderGraph& graph, const gpu::Buffer& positions, const gpu::Buffer& velocities,
                                      const gpu::Buffer& ids, const gpu::Buffer& solverState, const gpu::Buffer& state,
                                      const gpu::Buffer& lastStep)
{
    SimulationState s;
    const uint32_t n = particles_.count;
    s.positions.resize(n);
    s.velocities.resize(n);
    s.ids.resize(n);
    s.solverState.resize(n);
    downloadNow(context_, graph, positions, s.positions.data(), n * 16ull);
    downloadNow(context_, graph, solverState, s.solverState.data(), n * 16ull);
    downloadNow(context_, graph, velocities, s.velocities.data(), n * 16ull);
    downloadNow(context_, graph, ids, s.ids.data(), n * 4ull);
    downloadNow(context_, graph, state, s.state.data(), sizeof(shared::SphState));
    downloadNow(context_, graph, lastStep, &s.lastStep, 16);
    return s;
}

SimulationState Simulation::readSnapshot(graph::RenderGraph& graph, uint32_t slot, std::vector<float>* densities)
{
    const Snapshot& snapshot = snapshots_.at(slot);
    SimulationState s = readState(graph, snapshot.positions, snapshot.velocities, snapshot.ids, snapshot.solverState,
                                  snapshot.state, snapshot.lastStep);
    if (densities) {
        const uint32_t n = particles_.count;
        std::vector<glm::vec4> metrics(n);
        downloadNow(context_, graph, snapshot.metricsB, metrics.data(), n * 16ull);
        densities->resize(n);
        for (uint32_t i = 0; i < n; ++i) (*densities)[i] = metrics[i].w;
    }
    return s;
}

std::vector<CarriedBuffer> Simulation::stepState() const
{
    const size_t n = particles_.count;
    std::vector<CarriedBuffer> b = {{"fluid positions", &particles_.positions, 16 * n},
                                    {"fluid velocities", &particles_.velocities, 16 * n},
                                    {"fluid ids", &particles_.ids, 4 * n},
                                    {"fluid solver state", &particles_.solverState, 16 * n},
                                    {"fluid step state", &state_, sizeof(shared::SphState)},
                                    {"fluid last step", &reducedB_, 16}};
    if (solidCount_ > 0) b.push_back({"fluid guard impulses", &solidGuardImpulses_, 16 * size_t(solidCount_)});
    return b;
}

SimulationState Simulation::download(graph::RenderGraph& graph)
{
    return readState(graph, particles_.positions, particles_.velocities, particles_.ids, particles_.solverState, state_, reducedB_);
}

void Simulation::upload(graph::RenderGraph& graph, const SimulationState& s)
{
    const uint32_t n = particles_.count;
    if (s.positions.size() != n || s.velocities.size() != n || s.ids.size() != n || s.solverState.size() != n)
        throw Error(fmt::format("the saved state holds {} particles, the scene {}", s.positions.size(), n));
    uploadNow(context_, graph, particles_.positions, s.positions.data(), n * 16ull);
    uploadNow(context_, graph, particles_.velocities, s.velocities.data(), n * 16ull);
    uploadNow(context_, graph, particles_.ids, s.ids.data(), n * 4ull);
    uploadNow(context_, graph, particles_.solverState, s.solverState.data(), n * 16ull);
    uploadNow(context_, graph, state_, s.state.data(), sizeof(shared::SphState));
    uploadNow(context_, graph, reducedB_, &s.lastStep, 16);
    // The control block of the restored state is re-uploaded on the next step if it differs.
    std::memcpy(&uploadedControl_, &s.state[1], sizeof(glm::vec4));
}

} // namespace floe::sim
