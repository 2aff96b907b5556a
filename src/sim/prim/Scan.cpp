#include "sim/prim/Scan.h"

#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "base/Error.h"
#include "gpu/Context.h"
#include "graph/RenderGraph.h"
#include "shared/prim.h"
#include "sim/prim/Levels.h"

namespace floe::sim {

using shared::ScanParams;

Scan::Scan(gpu::Context& context, const gpu::ShaderLibrary& shaders, uint32_t capacity)
    : reduce_(gpu::createComputePipeline(context, shaders, "prim/scan_reduce")),
      blocks_(gpu::createComputePipeline(context, shaders, "prim/scan_blocks")), capacity_(capacity)
{
    // prim/scan_blocks writes its output through a storage buffer (lavapipe's fast store), whole
    // 16-byte texels.
    const uint64_t bytes = (uint64_t(capacity) * 4 + 15) / 16 * 16;
    if (bytes > context.limits().maxStorageBufferRange)
        throw Error(fmt::format("a scan of {} elements needs {} bytes in one storage buffer, over this device's "
                                "maxStorageBufferRange of {} bytes",
                                capacity, bytes, context.limits().maxStorageBufferRange));
    zeros_ = gpu::Buffer(context, {"scan zeros", 16, gpu::MemoryKind::Upload, VK_FORMAT_R32_UINT});
    const uint32_t zero[4] = {0, 0, 0, 0};
    zeros_.write(zero, sizeof(zero));
    const std::vector<uint32_t> levels = levelCounts(capacity, PRIM_SCAN_BLOCK_SIZE);
    for (size_t l = 0; l + 1 < levels.size(); ++l) {
        const uint32_t blocks = levels[l + 1];
        sums_.emplace_back(context, gpu::BufferDesc{fmt::format("scan block sums {}", l), blocks * 4ull,
                                                    gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32_UINT});
        offsets_.emplace_back(context, gpu::BufferDesc{fmt::format("scan block offsets {}", l), blocks * 4ull,
                                                       gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32_UINT});
    }
}

void Scan::exclusive(graph::RenderGraph& graph, const gpu::Buffer& in, const gpu::Buffer& out, uint32_t count)
{
    if (count > capacity_) throw std::logic_error(fmt::format("Scan: {} elements over the capacity {}", count, capacity_));
    if (in.handle() == out.handle()) throw std::logic_error("Scan: input and output must be distinct buffers");
    if (count == 0) return;
    graph.beginGroup("prim/scan");
    addLevel(graph, in, out, count, 0);
    graph.endGroup();
}

void Scan::addLevel(graph::RenderGraph& graph, const gpu::Buffer& in, const gpu::Buffer& out, uint32_t count, size_t level)
{
    const uint32_t blocks = blocksOf(count, PRIM_SCAN_BLOCK_SIZE);
    const ScanParams params{count, blocks, 0, 0};
    const gpu::Buffer* carries = &zeros_;
    if (blocks > 1) {
        graph.addCompute(reduce_)
            .read(PRIM_BIND_INPUT, in, VK_FORMAT_R32G32B32A32_UINT)
            .write(PRIM_BIND_BLOCK_SUMS, sums_[level])
            .push(params)
            .dispatchThreads(uint64_t(blocks) * PRIM_GROUP_SIZE);
        addLevel(graph, sums_[level], offsets_[level], blocks, level + 1);
        carries = &offsets_[level];
    }
    graph.addCompute(blocks_)
        .read(PRIM_BIND_INPUT, in, VK_FORMAT_R32G32B32A32_UINT)
        .read(PRIM_BIND_BLOCK_SUMS, *carries, VK_FORMAT_R32_UINT)
        .readWrite(PRIM_BIND_OUTPUT, out)
        .push(params)
        .dispatchThreads(uint64_t(blocks) * PRIM_GROUP_SIZE);
}

} // namespace floe::sim
