#include "sim/prim/RadixSort.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "graph/RenderGraph.h"
#include "shared/prim.h"
#include "sim/prim/Levels.h"

namespace floe::sim {

RadixSort::RadixSort(gpu::Context& context, const gpu::ShaderLibrary& shaders, uint32_t capacity)
    : count_(gpu::createComputePipeline(context, shaders, "prim/sort_count")),
      scatter_(gpu::createComputePipeline(context, shaders, "prim/sort_scatter")), capacity_(capacity),
      scan_(context, shaders, PRIM_SORT_RADIX * std::max(1u, blocksOf(capacity, PRIM_BLOCK_SIZE)))
{
    const uint64_t bytes = std::max<uint64_t>(capacity, 1) * 4;
    const uint64_t countBytes = uint64_t(PRIM_SORT_RADIX) * std::max(1u, blocksOf(capacity, PRIM_BLOCK_SIZE)) * 4;
    tmpKeys_ = gpu::Buffer(context, {"sort keys (ping-pong)", bytes, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32_UINT});
    tmpValues_ = gpu::Buffer(context, {"sort values (ping-pong)", bytes, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32_UINT});
    digitCounts_ = gpu::Buffer(context, {"sort digit counts", countBytes, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32_UINT});
    digitOffsets_ = gpu::Buffer(context, {"sort digit offsets", countBytes, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32_UINT});
}

void RadixSort::sort(graph::RenderGraph& graph, const gpu::Buffer& keys, const gpu::Buffer& values, uint32_t count,
                     uint32_t keyBits)
{
    if (count > capacity_) throw std::logic_error(fmt::format("RadixSort: {} pairs over the capacity {}", count, capacity_));
    if (keyBits == 0 || keyBits > 32) throw std::logic_error("RadixSort: keyBits must be 1..32");
    if (count <= 1) return;
    const uint32_t passes = 2 * ((keyBits + 2 * PRIM_SORT_BITS_PER_PASS - 1) / (2 * PRIM_SORT_BITS_PER_PASS));
    const uint32_t blocks = blocksOf(count, PRIM_BLOCK_SIZE);
    graph.beginGroup("prim/sort");
    for (uint32_t pass = 0; pass < passes; ++pass) {
        const bool even = pass % 2 == 0;
        const gpu::Buffer& keysIn = even ? keys : tmpKeys_;
        const gpu::Buffer& valuesIn = even ? values : tmpValues_;
        const gpu::Buffer& keysOut = even ? tmpKeys_ : keys;
        const gpu::Buffer& valuesOut = even ? tmpValues_ : values;
        const shared::SortParams params{count, blocks, pass * PRIM_SORT_BITS_PER_PASS, 0};
        graph.addCompute(count_)
            .read(PRIM_BIND_KEYS_IN, keysIn, VK_FORMAT_R32G32B32A32_UINT)
            .write(PRIM_BIND_DIGIT_COUNTS, digitCounts_)
            .push(params)
            .dispatchThreads(uint64_t(blocks) * PRIM_GROUP_SIZE);
        scan_.exclusive(graph, digitCounts_, digitOffsets_, PRIM_SORT_RADIX * blocks);
        graph.addCompute(scatter_)
            .read(PRIM_BIND_KEYS_IN, keysIn, VK_FORMAT_R32G32B32A32_UINT)
            .read(PRIM_BIND_VALUES_IN, valuesIn, VK_FORMAT_R32G32B32A32_UINT)
            .read(PRIM_BIND_DIGIT_OFFSETS, digitOffsets_, VK_FORMAT_R32_UINT)
            .write(PRIM_BIND_KEYS_OUT, keysOut)
            .write(PRIM_BIND_VALUES_OUT, valuesOut)
            .push(params)
            .dispatchThreads(uint64_t(blocks) * PRIM_GROUP_SIZE);
    }
    graph.endGroup();
}

} // namespace floe::sim
