#include "sim/SpatialGrid.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include <fmt/format.h>

#include "base/Error.h"
#include "gpu/Context.h"
#include "graph/RenderGraph.h"
#include "shared/grid.h"

namespace floe::sim {

GridSpec GridSpec::cover(const glm::vec3& lo, const glm::vec3& hi, float cellSize, bool flat)
{
    GridSpec g;
    g.cellSize = cellSize;
    for (int k = 0; k < 3; ++k) {
        if (flat && k == 2) {
            g.origin.z = -0.5f * cellSize;
            g.dims.z = 1;
            continue;
        }
        g.origin[k] = lo[k] - cellSize;
        const double cells = std::ceil(double(hi[k] - lo[k]) / cellSize) + 2.0;
        g.dims[k] = static_cast<unsigned>(std::clamp(cells, 1.0, 4.0e9));
    }
    return g;
}

SpatialGrid::SpatialGrid(gpu::Context& context, const gpu::ShaderLibrary& shaders, const GridSpec& spec, uint32_t capacity,
                         const std::string& name)
    : spec_(spec), capacity_(capacity), cellKeys_(gpu::createComputePipeline(context, shaders, "grid/cell_keys")),
      cellStartPass_(gpu::createComputePipeline(context, shaders, "grid/cell_start")), sort_(context, shaders, capacity)
{
    // The cell-start table is read through a uniform texel view: its length is the limit.
    const uint64_t maxCells =
        std::min<uint64_t>(context.limits().maxTexelBufferElements, context.limits().maxStorageBufferRange / 4) - 1;
    if (spec.cells() > maxCells)
        throw Error(fmt::format("the {} grid needs {}x{}x{} = {} cells of {} m, over this device's {} (maxTexelBufferElements); "
                                "shrink the domain or enlarge particleRadius",
                                name, spec.dims.x, spec.dims.y, spec.dims.z, spec.cells(), spec.cellSize, maxCells));
    const uint64_t n = std::max<uint64_t>(capacity, 1);
    keys_ = gpu::Buffer(context, {name + " cell keys", n * 4, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32_UINT});
    values_ = gpu::Buffer(context, {name + " sorted index", n * 4, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32_UINT});
    cellStart_ =
        gpu::Buffer(context, {name + " cell start", (spec.cells() + 1) * 4, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32_UINT});
}

void SpatialGrid::addBuild(graph::RenderGraph& graph, const gpu::Buffer& positions, uint32_t count)
{
    if (count > capacity_) throw std::logic_error(fmt::format("SpatialGrid: {} particles over the capacity {}", count, capacity_));
    graph.beginGroup("grid/build");
    if (count == 0) {
        graph.addFill("grid/clear", cellStart_, 0);
        graph.endGroup();
        return;
    }
    const shared::GridParams params{glm::vec4(spec_.origin, spec_.cellSize), glm::uvec4(spec_.dims, count)};
    graph.addCompute(cellKeys_)
        .read(GRID_BIND_POSITIONS, positions, VK_FORMAT_R32G32B32A32_SFLOAT)
        .write(GRID_BIND_KEYS, keys_)
        .write(GRID_BIND_VALUES, values_)
        .push(params)
        .dispatchThreads(count);
    const uint32_t keyBits = std::max(1u, static_cast<uint32_t>(std::bit_width(spec_.cells())));
    sort_.sort(graph, keys_, values_, count, keyBits);
    graph.addCompute(cellStartPass_)
        .read(GRID_BIND_KEYS, keys_)
        .write(GRID_BIND_CELL_START, cellStart_)
        .push(params)
        .dispatchThreads((spec_.cells() + GRID_CELLS_PER_THREAD) / GRID_CELLS_PER_THREAD);
    graph.endGroup();
}

} // namespace floe::sim
