// The particle arrays every solver shares and the renderer draws from directly. Solvers keep
// their private arrays themselves.
#pragma once

#include <cstdint>
#include <span>

#include <glm/vec4.hpp>

#include "gpu/Buffer.h"

namespace floe::graph {
class RenderGraph;
}

namespace floe::sim {

struct ParticleBuffers {
    uint32_t count = 0;
    gpu::Buffer positions;  // vec4: xyz m, w mass kg
    gpu::Buffer velocities; // vec4: xyz m/s, w unused
    gpu::Buffer metrics;    // vec4 per particle, see SIM_BIND_METRICS

    // Creates the arrays for `count` particles and uploads the initial state. Throws
    // floe::Error naming the device limit when the arrays do not fit.
    static ParticleBuffers create(gpu::Context& context, graph::RenderGraph& graph, std::span<const glm::vec4> positions,
                                  std::span<const glm::vec4> velocities);
    // Most particles a device can hold in Floe's vec4 arrays (storage range and texel limits).
    static uint64_t maxParticles(const gpu::Context& context);
};

// Copies host data into a device buffer through a staging buffer, submits `graph` (with any
// passes already pending before the copy) and waits. For set-up and tests, not per frame.
void uploadNow(gpu::Context& context, graph::RenderGraph& graph, const gpu::Buffer& dst, const void* data, VkDeviceSize bytes);
// Copies a device buffer to the host after the pending passes of `graph`, submits and waits.
void downloadNow(gpu::Context& context, graph::RenderGraph& graph, const gpu::Buffer& src, void* data, VkDeviceSize bytes);

} // namespace floe::sim
