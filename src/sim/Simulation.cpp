#include "sim/Simulation.h"

#include <cmath>

#include "graph/RenderGraph.h"

namespace floe::sim {

Simulation::Simulation(gpu::Context& context, const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph,
                       const WorldSettings& world, std::span<const glm::vec4> positions, std::span<const glm::vec4> velocities)
    : world_(world), particles_(ParticleBuffers::create(context, graph, positions, velocities)),
      integrate_(gpu::createComputePipeline(context, shaders, "sim/integrate")), reduce_(context, shaders, particles_.count),
      reduced_(context, {"step metrics", 16, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32G32B32A32_SFLOAT})
{
}

shared::ParticleParams Simulation::params(float dt) const
{
    shared::ParticleParams p{};
    p.gravity = glm::vec4(world_.gravity, dt);
    p.domainMin = glm::vec4(world_.domainMin, world_.particleRadius);
    p.domainMax = glm::vec4(world_.domainMax, world_.restitution);
    p.count = particles_.count;
    p.dimensions = world_.sim2D ? 2 : 3;
    p.friction = world_.friction;
    // Particles are kept r inside the walls; one radius beyond the wall means one escaped.
    p.escapeMargin = world_.particleRadius;
    return p;
}

void Simulation::addStep(graph::RenderGraph& graph, float dt)
{
    graph.addCompute(integrate_)
        .readWrite(SIM_BIND_POSITIONS, particles_.positions)
        .readWrite(SIM_BIND_VELOCITIES, particles_.velocities)
        .write(SIM_BIND_METRICS, particles_.metrics)
        .push(params(dt))
        .dispatchThreads(particles_.count);
}

void Simulation::addMetrics(graph::RenderGraph& graph, const gpu::Buffer& target, VkDeviceSize offset)
{
    reduce_.vec4(graph, particles_.metrics, reduced_, particles_.count,
                 {ReduceOp::Sum, ReduceOp::Sum, ReduceOp::Max, ReduceOp::Sum});
    graph.addCopy("sim/metrics_readback", reduced_, target, 16, 0, offset);
}

StepMetrics Simulation::decodeMetrics(const glm::vec4& reduced)
{
    StepMetrics m;
    m.kineticEnergy = reduced.x;
    m.escaped = static_cast<uint32_t>(std::lround(reduced.y));
    m.maxSpeed = reduced.z;
    m.nonFinite = static_cast<uint32_t>(std::lround(reduced.w));
    return m;
}

} // namespace floe::sim
