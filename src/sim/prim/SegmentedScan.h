// Segmented inclusive scan (sum) on the GPU: floats, or records of 1..3 vec4 (up to 12 floats,
// what surface shape matching sums per particle). A non-zero head flag starts a segment; the
// first record always does. shaders/prim/segscan_*.comp.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
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

class SegmentedScan {
public:
    SegmentedScan(gpu::Context& context, const gpu::ShaderLibrary& shaders, uint32_t capacity);

    // `vec4PerRecord` = 0: records are floats; 1..3: records of that many vec4 (stored as
    // consecutive texels). `heads` holds one uint32 per record. out must differ from in.
    void inclusive(graph::RenderGraph& graph, const gpu::Buffer& in, const gpu::Buffer& heads, const gpu::Buffer& out,
                   uint32_t count, uint32_t vec4PerRecord);
    uint32_t capacity() const { return capacity_; }

private:
    struct Variant {
        gpu::Pipeline reduce, blocks;
    };
    Variant& variant(uint32_t vec4PerRecord);
    void addLevel(graph::RenderGraph& graph, const Variant& v, const gpu::Buffer& in, const gpu::Buffer& heads,
                  const gpu::Buffer& out, uint32_t count, uint32_t vec4PerRecord, size_t level);

    gpu::Context& context_;
    const gpu::ShaderLibrary& shaders_;
    uint32_t capacity_ = 0;
    std::array<std::optional<Variant>, 4> variants_;
    gpu::Buffer zeros_;
    std::vector<gpu::Buffer> sums_, heads_, scanned_; // per level
};

} // namespace floe::sim
