// Reductions on the GPU: sum, min or max of floats, or per component of vec4 records
// (shaders/prim/reduce.comp), over as many levels as needed. Deterministic for a given count.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <vector>

#include "gpu/Buffer.h"
#include "gpu/Pipeline.h"

namespace floe::graph {
class RenderGraph;
}
namespace floe::gpu {
class ShaderLibrary;
}

namespace floe::sim {

enum class ReduceOp : uint32_t { Sum = 0, Min = 1, Max = 2 };

class Reduce {
public:
    Reduce(gpu::Context& context, const gpu::ShaderLibrary& shaders, uint32_t capacity);

    // out[0] = op over in[0..count) of floats. For count == 0, out[0] = the identity
    // (0, +inf, -inf), written by a fill.
    void scalar(graph::RenderGraph& graph, const gpu::Buffer& in, const gpu::Buffer& out, uint32_t count, ReduceOp op);
    // out[0] = per-component ops over vec4 records in[0..count).
    void vec4(graph::RenderGraph& graph, const gpu::Buffer& in, const gpu::Buffer& out, uint32_t count,
              std::array<ReduceOp, 4> ops);
    uint32_t capacity() const { return capacity_; }

private:
    const gpu::Pipeline& pipeline(bool scalar, std::array<ReduceOp, 4> ops);
    void run(graph::RenderGraph& graph, bool scalar, const gpu::Buffer& in, const gpu::Buffer& out, uint32_t count,
             std::array<ReduceOp, 4> ops);

    gpu::Context& context_;
    const gpu::ShaderLibrary& shaders_;
    uint32_t capacity_;
    std::map<uint32_t, gpu::Pipeline> pipelines_; // key: scalar bit + 2 bits per op
    std::vector<gpu::Buffer> partials_;           // per level, vec4 per block (scalar uses floats)
};

} // namespace floe::sim
