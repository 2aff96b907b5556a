// Exclusive scan (prefix sum) of uint32 on the GPU, any length, as reduce-then-scan over as
// many levels as needed (shaders/prim/scan_reduce.comp, scan_blocks.comp).
#pragma once

#include <cstdint>
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

class Scan {
public:
    // Scratch is allocated for inputs of up to `capacity` elements.
    Scan(gpu::Context& context, const gpu::ShaderLibrary& shaders, uint32_t capacity);

    // out[i] = in[0] + ... + in[i-1] for i < count (uint32, wrapping). `in` and `out` must be
    // distinct buffers of at least `count` elements; elements of `out` past `count` are kept.
    void exclusive(graph::RenderGraph& graph, const gpu::Buffer& in, const gpu::Buffer& out, uint32_t count);
    uint32_t capacity() const { return capacity_; }

private:
    void addLevel(graph::RenderGraph& graph, const gpu::Buffer& in, const gpu::Buffer& out, uint32_t count, size_t level);

    gpu::Pipeline reduce_;
    gpu::Pipeline blocks_;
    uint32_t capacity_ = 0;
    gpu::Buffer zeros_;
    std::vector<gpu::Buffer> sums_;    // per level: the block sums
    std::vector<gpu::Buffer> offsets_; // per level: their exclusive scan
};

} // namespace floe::sim
