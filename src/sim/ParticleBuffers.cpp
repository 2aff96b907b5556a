#include "sim/ParticleBuffers.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "base/Error.h"
#include "gpu/Context.h"
#include "graph/RenderGraph.h"
#include "shared/sph.h"

namespace floe::sim {

uint64_t ParticleBuffers::maxParticles(const gpu::Context& context)
{
    const auto& limits = context.limits();
    return std::min<uint64_t>(limits.maxStorageBufferRange / 16, limits.maxTexelBufferElements);
}

uint64_t ParticleBuffers::maxFluidParticles(const gpu::Context& context, uint32_t dims)
{
    return std::min<uint64_t>(maxParticles(context), context.limits().maxTexelBufferElements / shared::sphNeighbourCapacity(dims));
}

ParticleBuffers ParticleBuffers::create(gpu::Context& context, graph::RenderGraph& graph, std::span<const glm::vec4> positions,
                                        std::span<const glm::vec4> velocities)
{
    const uint64_t count = positions.size();
    const uint64_t limit = maxParticles(context);
    if (count > limit)
        throw Error(fmt::format("{} particles do not fit on {}: at most {} (maxStorageBufferRange {} bytes / 16, "
                                "maxTexelBufferElements {}); use a larger particleRadius or another device",
                                count, context.deviceName(), limit, context.limits().maxStorageBufferRange,
                                context.limits().maxTexelBufferElements));
    ParticleBuffers p;
    p.count = static_cast<uint32_t>(count);
    const VkDeviceSize bytes = std::max<VkDeviceSize>(16, count * 16);
    p.positions = gpu::Buffer(context, {"positions", bytes, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32G32B32A32_SFLOAT});
    p.velocities = gpu::Buffer(context, {"velocities", bytes, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32G32B32A32_SFLOAT});
    p.ids = gpu::Buffer(context,
                        {"particle ids", std::max<VkDeviceSize>(4, count * 4), gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32_UINT});
    p.metricsA = gpu::Buffer(context, {"particle metrics A", bytes, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32G32B32A32_SFLOAT});
    p.metricsB = gpu::Buffer(context, {"particle metrics B", bytes, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32G32B32A32_SFLOAT});
    p.solverState =
        gpu::Buffer(context, {"particle solver state", bytes, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32G32B32A32_SFLOAT});
    std::vector<uint32_t> ids(count);
    for (uint32_t i = 0; i < count; ++i) ids[i] = i;
    uploadNow(context, graph, p.positions, positions.data(), count * 16);
    uploadNow(context, graph, p.velocities, velocities.data(), count * 16);
    uploadNow(context, graph, p.ids, ids.data(), count * 4);
    // Metrics (densities among them) are defined before the first step too.
    graph.addFill("metrics clear", p.metricsA, 0);
    graph.addFill("metrics clear", p.metricsB, 0);
    graph.addFill("solver state clear", p.solverState, 0);
    context.submitAndWait([&](VkCommandBuffer cmd) { graph.execute(cmd); });
    return p;
}

void uploadNow(gpu::Context& context, graph::RenderGraph& graph, const gpu::Buffer& dst, const void* data, VkDeviceSize bytes)
{
    if (bytes == 0) return;
    gpu::Buffer staging(context, {"staging upload", bytes, gpu::MemoryKind::Upload});
    staging.write(data, bytes);
    graph.addCopy("upload " + dst.name(), staging, dst, bytes);
    context.submitAndWait([&](VkCommandBuffer cmd) { graph.execute(cmd); });
}

void downloadNow(gpu::Context& context, graph::RenderGraph& graph, const gpu::Buffer& src, void* data, VkDeviceSize bytes)
{
    if (bytes == 0) return;
    gpu::Buffer staging(context, {"staging download", bytes, gpu::MemoryKind::Readback});
    graph.addCopy("download " + src.name(), src, staging, bytes);
    graph.addHostRead(staging);
    context.submitAndWait([&](VkCommandBuffer cmd) { graph.execute(cmd); });
    staging.read(data, bytes);
}

void saveCarried(gpu::Context& context, graph::RenderGraph& graph, const std::vector<CarriedBuffer>& buffers, io::SolidState& state)
{
    for (const CarriedBuffer& c : buffers) {
        std::vector<char> bytes(c.bytes);
        if (c.bytes) downloadNow(context, graph, *c.buffer, bytes.data(), c.bytes);
        state.blobs.emplace_back(c.name, std::move(bytes));
    }
}

void loadCarried(gpu::Context& context, graph::RenderGraph& graph, const std::vector<CarriedBuffer>& buffers,
                 const io::SolidState& state, const std::filesystem::path& file)
{
    for (const CarriedBuffer& c : buffers) {
        const std::vector<char> bytes = state.get<char>(c.name, c.bytes, file);
        if (c.bytes) uploadNow(context, graph, *c.buffer, bytes.data(), c.bytes);
    }
}

} // namespace floe::sim
