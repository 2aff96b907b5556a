// Uniform grid with cell size = kernel support, rebuilt on the GPU every step: cell keys, a
// stable radix sort of (key, index) and the cell-start table (shaders/grid/). After
// addBuild(), sortedIndex()[s] is the particle in sorted slot s and cellStart() has one entry
// per cell plus a sentinel; cell c holds sorted slots [cellStart[c], cellStart[c+1]).
#pragma once

#include <cstdint>

#include <glm/vec3.hpp>

#include "gpu/Buffer.h"
#include "gpu/Pipeline.h"
#include "sim/prim/RadixSort.h"

namespace floe::sim {

struct GridSpec {
    glm::vec3 origin{0, 0, 0}; // m, minimum corner of cell (0,0,0)
    float cellSize = 1.0f;     // m
    glm::uvec3 dims{1, 1, 1};  // cells per axis
    uint64_t cells() const { return uint64_t(dims.x) * dims.y * dims.z; }

    // The grid over [lo, hi] grown by one cell on every side (2D: one cell in z).
    static GridSpec cover(const glm::vec3& lo, const glm::vec3& hi, float cellSize, bool flat);
};

class SpatialGrid {
public:
    // Throws floe::Error when the grid has more cells than Floe's limit for this device.
    SpatialGrid(gpu::Context& context, const gpu::ShaderLibrary& shaders, const GridSpec& spec, uint32_t capacity,
                const std::string& name);

    void addBuild(graph::RenderGraph& graph, const gpu::Buffer& positions, uint32_t count);
    const GridSpec& spec() const { return spec_; }
    const gpu::Buffer& sortedIndex() const { return values_; }
    const gpu::Buffer& sortedKeys() const { return keys_; }
    const gpu::Buffer& cellStart() const { return cellStart_; }

private:
    GridSpec spec_;
    uint32_t capacity_;
    gpu::Pipeline cellKeys_;
    gpu::Pipeline cellStartPass_;
    gpu::Buffer keys_, values_, cellStart_;
    RadixSort sort_;
};

} // namespace floe::sim
