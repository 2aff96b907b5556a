#include "sim/prim/Reduce.h"

#include <bit>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "graph/RenderGraph.h"
#include "shared/prim.h"
#include "sim/prim/Levels.h"

namespace floe::sim {
namespace {

float identity(ReduceOp op)
{
    switch (op) {
    case ReduceOp::Sum: return 0.0f;
    case ReduceOp::Min: return std::numeric_limits<float>::infinity();
    case ReduceOp::Max: return -std::numeric_limits<float>::infinity();
    }
    return 0.0f;
}

} // namespace

Reduce::Reduce(gpu::Context& context, const gpu::ShaderLibrary& shaders, uint32_t capacity)
    : context_(context), shaders_(shaders), capacity_(capacity)
{
    const std::vector<uint32_t> levels = levelCounts(capacity, PRIM_BLOCK_SIZE);
    for (size_t l = 0; l + 1 < levels.size(); ++l)
        partials_.emplace_back(context, gpu::BufferDesc{fmt::format("reduce partials {}", l), uint64_t(levels[l + 1]) * 16,
                                                        gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32G32B32A32_SFLOAT});
}

const gpu::Pipeline& Reduce::pipeline(bool scalar, std::array<ReduceOp, 4> ops)
{
    uint32_t key = scalar ? 1u : 0u;
    for (int c = 0; c < 4; ++c) key |= uint32_t(ops[c]) << (1 + 2 * c);
    auto it = pipelines_.find(key);
    if (it != pipelines_.end()) return it->second;
    const gpu::SpecConstant spec[] = {{0, uint32_t(ops[0])}, {1, uint32_t(ops[1])}, {2, uint32_t(ops[2])}, {3, uint32_t(ops[3])}};
    return pipelines_
        .emplace(key, gpu::createComputePipeline(context_, shaders_, scalar ? "prim/reduce_scalar" : "prim/reduce", spec))
        .first->second;
}

void Reduce::scalar(graph::RenderGraph& graph, const gpu::Buffer& in, const gpu::Buffer& out, uint32_t count, ReduceOp op)
{
    run(graph, true, in, out, count, {op, op, op, op});
}

void Reduce::vec4(graph::RenderGraph& graph, const gpu::Buffer& in, const gpu::Buffer& out, uint32_t count,
                  std::array<ReduceOp, 4> ops)
{
    run(graph, false, in, out, count, ops);
}

void Reduce::run(graph::RenderGraph& graph, bool scalar, const gpu::Buffer& in, const gpu::Buffer& out, uint32_t count,
                 std::array<ReduceOp, 4> ops)
{
    if (count > capacity_) throw std::logic_error(fmt::format("Reduce: {} elements over the capacity {}", count, capacity_));
    const gpu::Pipeline& p = pipeline(scalar, ops);
    shared::ReduceParams params{};
    params.identity = {identity(ops[0]), identity(ops[1]), identity(ops[2]), identity(ops[3])};
    graph.beginGroup("prim/reduce");
    if (count == 0) {
        // One block over no elements writes the identity.
        params.count = 0;
        params.blockCount = 1;
        graph.addCompute(p)
            .read(PRIM_BIND_INPUT, in, VK_FORMAT_R32G32B32A32_SFLOAT)
            .write(PRIM_BIND_OUTPUT, out)
            .push(params)
            .dispatch(1);
    }
    const gpu::Buffer* src = &in;
    size_t level = 0;
    while (count > 0) {
        const uint32_t blocks = blocksOf(count, PRIM_BLOCK_SIZE);
        const gpu::Buffer& dst = blocks == 1 ? out : partials_[level];
        params.count = count;
        params.blockCount = blocks;
        graph.addCompute(p)
            .read(PRIM_BIND_INPUT, *src, VK_FORMAT_R32G32B32A32_SFLOAT)
            .write(PRIM_BIND_OUTPUT, dst)
            .push(params)
            .dispatchThreads(uint64_t(blocks) * PRIM_GROUP_SIZE);
        if (blocks == 1) break;
        src = &dst;
        count = blocks;
        ++level;
    }
    graph.endGroup();
}

} // namespace floe::sim
