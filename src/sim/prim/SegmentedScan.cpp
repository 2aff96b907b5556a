#include "sim/prim/SegmentedScan.h"

#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "graph/RenderGraph.h"
#include "shared/prim.h"
#include "sim/prim/Levels.h"

namespace floe::sim {
namespace {

uint32_t blockSize(uint32_t vec4PerRecord)
{
    return vec4PerRecord == 0 ? PRIM_GROUP_SIZE * 4u : PRIM_SEGSCAN_BLOCK_SIZE;
}

} // namespace

SegmentedScan::SegmentedScan(gpu::Context& context, const gpu::ShaderLibrary& shaders, uint32_t capacity)
    : context_(context), shaders_(shaders), capacity_(capacity)
{
    zeros_ = gpu::Buffer(context, {"segscan zeros", 64, gpu::MemoryKind::Upload, VK_FORMAT_R32G32B32A32_SFLOAT});
    const std::vector<float> zero(16, 0.0f);
    zeros_.write(zero.data(), 64);
    // Scratch for the largest level sizes (the vector variants' smaller blocks) and the largest
    // records (PRIM_SEGSCAN_MAX_VEC4 vec4).
    const std::vector<uint32_t> levels = levelCounts(capacity, PRIM_SEGSCAN_BLOCK_SIZE);
    for (size_t l = 0; l + 1 < levels.size(); ++l) {
        const uint64_t blocks = levels[l + 1];
        const uint64_t bytes = blocks * PRIM_SEGSCAN_MAX_VEC4 * 16;
        sums_.emplace_back(context, gpu::BufferDesc{fmt::format("segscan block sums {}", l), bytes, gpu::MemoryKind::DeviceLocal,
                                                    VK_FORMAT_R32G32B32A32_SFLOAT});
        scanned_.emplace_back(context, gpu::BufferDesc{fmt::format("segscan block scan {}", l), bytes, gpu::MemoryKind::DeviceLocal,
                                                       VK_FORMAT_R32G32B32A32_SFLOAT});
        heads_.emplace_back(context, gpu::BufferDesc{fmt::format("segscan block heads {}", l), blocks * 4,
                                                     gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32_UINT});
    }
}

SegmentedScan::Variant& SegmentedScan::variant(uint32_t vec4PerRecord)
{
    std::optional<Variant>& v = variants_.at(vec4PerRecord);
    if (!v) {
        if (vec4PerRecord == 0) {
            v = Variant{gpu::createComputePipeline(context_, shaders_, "prim/segscan_reduce_scalar"),
                        gpu::createComputePipeline(context_, shaders_, "prim/segscan_blocks_scalar")};
        } else {
            const gpu::SpecConstant spec[] = {{0, vec4PerRecord}};
            v = Variant{gpu::createComputePipeline(context_, shaders_, "prim/segscan_reduce", spec),
                        gpu::createComputePipeline(context_, shaders_, "prim/segscan_blocks", spec)};
        }
    }
    return *v;
}

void SegmentedScan::inclusive(graph::RenderGraph& graph, const gpu::Buffer& in, const gpu::Buffer& heads, const gpu::Buffer& out,
                              uint32_t count, uint32_t vec4PerRecord)
{
    if (vec4PerRecord > PRIM_SEGSCAN_MAX_VEC4)
        throw std::logic_error(fmt::format("SegmentedScan: records of {} vec4, at most {}", vec4PerRecord, PRIM_SEGSCAN_MAX_VEC4));
    if (count > capacity_) throw std::logic_error(fmt::format("SegmentedScan: {} records over the capacity {}", count, capacity_));
    if (in.handle() == out.handle()) throw std::logic_error("SegmentedScan: input and output must be distinct buffers");
    if (count == 0) return;
    const Variant& v = variant(vec4PerRecord);
    graph.beginGroup("prim/segmented_scan");
    addLevel(graph, v, in, heads, out, count, vec4PerRecord, 0);
    graph.endGroup();
}

void SegmentedScan::addLevel(graph::RenderGraph& graph, const Variant& v, const gpu::Buffer& in, const gpu::Buffer& heads,
                             const gpu::Buffer& out, uint32_t count, uint32_t vec4PerRecord, size_t level)
{
    const bool scalar = vec4PerRecord == 0;
    const VkFormat recordFormat = VK_FORMAT_R32G32B32A32_SFLOAT;
    const VkFormat headFormat = scalar ? VK_FORMAT_R32G32B32A32_UINT : VK_FORMAT_R32_UINT;
    const VkFormat carryFormat = scalar ? VK_FORMAT_R32_SFLOAT : VK_FORMAT_R32G32B32A32_SFLOAT;
    const uint32_t blocks = blocksOf(count, blockSize(vec4PerRecord));
    const shared::SegScanParams params{count, blocks, 0, 0};
    const gpu::Buffer* carries = &zeros_;
    if (blocks > 1) {
        graph.addCompute(v.reduce)
            .read(PRIM_BIND_INPUT, in, recordFormat)
            .read(PRIM_BIND_HEADS, heads, headFormat)
            .write(PRIM_BIND_BLOCK_SUMS, sums_[level])
            .write(PRIM_BIND_BLOCK_HEADS, heads_[level])
            .push(params)
            .dispatchThreads(uint64_t(blocks) * PRIM_GROUP_SIZE);
        addLevel(graph, v, sums_[level], heads_[level], scanned_[level], blocks, vec4PerRecord, level + 1);
        carries = &scanned_[level];
    }
    graph.addCompute(v.blocks)
        .read(PRIM_BIND_INPUT, in, recordFormat)
        .read(PRIM_BIND_HEADS, heads, headFormat)
        .read(PRIM_BIND_BLOCK_SUMS, *carries, carryFormat)
        .readWrite(PRIM_BIND_OUTPUT, out)
        .push(params)
        .dispatchThreads(uint64_t(blocks) * PRIM_GROUP_SIZE);
}

} // namespace floe::sim
