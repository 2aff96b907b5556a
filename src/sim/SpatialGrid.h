// Uniform grid with cell size = kernel support, rebuilt on the GPU every step by a counting
// sort (shaders/grid/): cell keys and counts per cell, their exclusive scan (the cell-start
// table), a scatter into each cell's range, and each particle's rank within its cell by input
// index. The result is the stable sort by key, as a stable radix sort gives it, in 6 dispatches
// where a 4-bit radix sort of 15-bit keys took 13 plus a table pass: on lavapipe a dispatch costs
// about 45 us whatever its size, and the grid build of a 10.6k-particle dam break took 1.2 ms
// of a 6.3 ms WCSPH step. After addBuild(), sortedIndex()[s] is the particle in sorted slot s
// and cellStart() has one entry per bin plus a sentinel; bin c holds sorted slots
// [cellStart[c], cellStart[c+1]). A bin is a cell, or with GridSpec::xBins > 1 an xBins-th of a
// cell along x (keys x-fastest over bins).
#pragma once

#include <cstdint>

#include <glm/vec3.hpp>

#include "gpu/Buffer.h"
#include "gpu/Pipeline.h"
#include "sim/prim/Scan.h"

namespace floe::sim {

struct GridSpec {
    glm::vec3 origin{0, 0, 0}; // m, minimum corner of cell (0,0,0)
    float cellSize = 1.0f;     // m
    glm::uvec3 dims{1, 1, 1};  // cells per axis
    uint32_t xBins = 1;        // bins per cell along x: what the keys and the cell-start table resolve
    uint64_t cells() const { return uint64_t(dims.x) * dims.y * dims.z; }
    uint64_t bins() const { return cells() * xBins; }
    glm::uvec3 binDims() const { return {dims.x * xBins, dims.y, dims.z}; }

    // The grid over [lo, hi] grown by one cell on every side (2D: one cell in z).
    static GridSpec cover(const glm::vec3& lo, const glm::vec3& hi, float cellSize, bool flat);
};

class SpatialGrid {
public:
    // Throws floe::Error when the grid has more cells than Floe's limit for this device.
    SpatialGrid(gpu::Context& context, const gpu::ShaderLibrary& shaders, const GridSpec& spec, uint32_t capacity,
                const std::string& name);

    // With `leaveOutWeightless`, positions whose w is 0 are sorted after every cell's range (the
    // coupled solids' samples that are off): no walk over the cells meets them.
    void addBuild(graph::RenderGraph& graph, const gpu::Buffer& positions, uint32_t count, bool leaveOutWeightless = false);
    const GridSpec& spec() const { return spec_; }
    const gpu::Buffer& sortedIndex() const { return values_; }
    const gpu::Buffer& sortedKeys() const { return sortedKeys_; }
    const gpu::Buffer& cellStart() const { return cellStart_; }

private:
    GridSpec spec_;
    uint32_t capacity_;
    gpu::Pipeline cellKeys_, cellScatter_, cellRank_;
    gpu::Buffer keys_, values_, cellStart_, counts_, scattered_, sortedKeys_;
    Scan scan_;
};

} // namespace floe::sim
