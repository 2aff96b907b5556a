// Stable sort of (key, value) uint32 pairs by key on the GPU: least-significant-digit radix
// sort, 4 bits per pass (shaders/prim/sort_count.comp, sort_scatter.comp) with the block
// offsets from one exclusive Scan per pass. Keys equal in the sorted bits keep their order.
#pragma once

#include <cstdint>

#include "gpu/Buffer.h"
#include "gpu/Pipeline.h"
#include "sim/prim/Scan.h"

namespace floe::sim {

class RadixSort {
public:
    RadixSort(gpu::Context& context, const gpu::ShaderLibrary& shaders, uint32_t capacity);

    // Sorts keys[0..count) and carries values along, in place (through internal ping-pong
    // buffers). Only the low `keyBits` bits are compared (rounded up to a multiple of 8, so an
    // even number of passes leaves the result in `keys`/`values`).
    void sort(graph::RenderGraph& graph, const gpu::Buffer& keys, const gpu::Buffer& values, uint32_t count, uint32_t keyBits = 32);
    uint32_t capacity() const { return capacity_; }

private:
    gpu::Pipeline count_;
    gpu::Pipeline scatter_;
    uint32_t capacity_;
    gpu::Buffer tmpKeys_, tmpValues_, digitCounts_, digitOffsets_;
    Scan scan_;
};

} // namespace floe::sim
