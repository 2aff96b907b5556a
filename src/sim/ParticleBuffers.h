// The particle arrays every solver shares and the renderer draws from directly. After each
// step they hold the particles in cell-sorted order; ids[s] is the particle's index in the
// scene's sampling order (exports and saved states restore that order).
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include <glm/vec4.hpp>

#include "gpu/Buffer.h"
#include "io/SolidState.h"

namespace floe::graph {
class RenderGraph;
}

namespace floe::sim {

struct ParticleBuffers {
    uint32_t count = 0;
    gpu::Buffer positions;   // vec4: xyz m, w mass kg
    gpu::Buffer velocities;  // vec4: xyz m/s, w pressure Pa of the last step
    gpu::Buffer ids;         // uint: sampling-order index
    gpu::Buffer metricsA;    // vec4 per particle: kinetic energy J, compression, compression, escaped (0/1)
    gpu::Buffer metricsB;    // vec4 per particle: speed m/s, non-finite (0/1), wall contacts, density kg/m^3
    gpu::Buffer solverState; // vec4 per particle kept from step to step: x DFSPH kappa dt^2, y DFSPH kappa_v dt

    // Creates the arrays for `positions.size()` particles and uploads them with ids 0..n-1.
    // Throws floe::Error naming the device limit when they do not fit.
    static ParticleBuffers create(gpu::Context& context, graph::RenderGraph& graph, std::span<const glm::vec4> positions,
                                  std::span<const glm::vec4> velocities);
    // Most particles a device can hold in Floe's vec4 arrays (storage range and texel limits).
    static uint64_t maxParticles(const gpu::Context& context);
    // Most fluid particles: also their neighbour lists (sphNeighbourCapacity(dims) uvec4 entries each) must
    // fit one texel buffer.
    static uint64_t maxFluidParticles(const gpu::Context& context, uint32_t dims);
};

// Copies host data into a device buffer through a staging buffer, submits `graph` (with any
// passes already pending before the copy) and waits. For set-up and tests, not per frame.
void uploadNow(gpu::Context& context, graph::RenderGraph& graph, const gpu::Buffer& dst, const void* data, VkDeviceSize bytes);
// Copies a device buffer to the host after the pending passes of `graph`, submits and waits.
void downloadNow(gpu::Context& context, graph::RenderGraph& graph, const gpu::Buffer& src, void* data, VkDeviceSize bytes);

// The first `bytes` of a device buffer that a solid's saved state carries, under `name`.
struct CarriedBuffer {
    const char* name;
    const gpu::Buffer* buffer;
    size_t bytes;
};
// Downloads each buffer into a blob of `state` (submits and waits).
void saveCarried(gpu::Context& context, graph::RenderGraph& graph, const std::vector<CarriedBuffer>& buffers,
                 io::SolidState& state);
// Uploads each buffer from its blob; throws floe::Error naming `file` for a missing blob or one of
// another size.
void loadCarried(gpu::Context& context, graph::RenderGraph& graph, const std::vector<CarriedBuffer>& buffers,
                 const io::SolidState& state, const std::filesystem::path& file);

// A device-local buffer of `bytes` (at least 16), texel views in `format`.
inline gpu::Buffer deviceBuffer(gpu::Context& context, const std::string& name, VkDeviceSize bytes, VkFormat format)
{
    return gpu::Buffer(context, {name, std::max<VkDeviceSize>(bytes, 16), gpu::MemoryKind::DeviceLocal, format});
}

// A device-local buffer holding `data` (at least one element's room), texel views in `format`.
template <class T> gpu::Buffer uploaded(gpu::Context& context, graph::RenderGraph& graph, const char* name,
                                        const std::vector<T>& data, VkFormat format)
{
    gpu::Buffer b(context, {name, std::max<size_t>(data.size(), 1) * sizeof(T), gpu::MemoryKind::DeviceLocal, format});
    if (!data.empty()) uploadNow(context, graph, b, data.data(), data.size() * sizeof(T));
    return b;
}

} // namespace floe::sim
