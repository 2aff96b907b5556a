#include "sim/SpatialGrid.h"

#include <algorithm>
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
      cellScatter_(gpu::createComputePipeline(context, shaders, "grid/cell_scatter")),
      cellRank_(gpu::createComputePipeline(context, shaders, "grid/cell_rank")),
      scan_(context, shaders, static_cast<uint32_t>(std::min<uint64_t>(spec.bins() + 1, UINT32_MAX)))
{
    // The cell-start table is read through a uniform texel view: its length is the limit.
    const uint64_t maxCells =
        std::min<uint64_t>(context.limits().maxTexelBufferElements, context.limits().maxStorageBufferRange / 4) - 1;
    if (spec.bins() > maxCells)
        throw Error(fmt::format("the {} grid needs {}x{}x{} = {} cells of {} m ({} bins), over this device's {} "
                                "(maxTexelBufferElements); shrink the domain or enlarge particleRadius",
                                name, spec.dims.x, spec.dims.y, spec.dims.z, spec.cells(), spec.cellSize, spec.bins(), maxCells));
    // The passes store their per-particle outputs through storage buffers (lavapipe's fast store).
    if (uint64_t(capacity) * 4 > context.limits().maxStorageBufferRange)
        throw Error(fmt::format("the {} grid sorts {} entries, over this device's {} (maxStorageBufferRange {} bytes of 4-byte "
                                "keys); use fewer particles",
                                name, capacity, context.limits().maxStorageBufferRange / 4,
                                context.limits().maxStorageBufferRange));
    const uint64_t n = std::max<uint64_t>(capacity, 1);
    const auto uints = [&](const std::string& what, uint64_t count) {
        return gpu::Buffer(context, {name + " " + what, count * 4, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32_UINT});
    };
    keys_ = uints("cell keys", n);
    values_ = uints("sorted index", n);
    scattered_ = uints("scattered index", n);
    sortedKeys_ = uints("sorted cell keys", n);
    cellStart_ = uints("cell start", spec.bins() + 1);
    counts_ = uints("cell counts", spec.bins() + 1);
}

void SpatialGrid::addBuild(graph::RenderGraph& graph, const gpu::Buffer& positions, uint32_t count, bool leaveOutWeightless)
{
    if (count > capacity_) throw std::logic_error(fmt::format("SpatialGrid: {} particles over the capacity {}", count, capacity_));
    graph.beginGroup("grid/build");
    if (count == 0) {
        graph.addFill("grid/clear", cellStart_, 0);
        graph.endGroup();
        return;
    }
    const shared::GridParams params{glm::vec4(spec_.origin, spec_.cellSize), glm::uvec4(spec_.binDims(), count),
                                    glm::uvec4(spec_.xBins, leaveOutWeightless ? 1u : 0u, 0, 0)};
    const uint32_t table = static_cast<uint32_t>(spec_.bins() + 1);
    // The counts end every build at zero again (the scatter counts them down), but a fill costs
    // next to nothing and keeps a build independent of the one before.
    graph.addFill("grid/clear", counts_, 0);
    graph.addCompute(cellKeys_)
        .read(GRID_BIND_POSITIONS, positions, VK_FORMAT_R32G32B32A32_SFLOAT)
        .write(GRID_BIND_KEYS, keys_)
        .readWrite(GRID_BIND_COUNTS, counts_)
        .push(params)
        .dispatchThreads(count);
    scan_.exclusive(graph, counts_, cellStart_, table);
    graph.addCompute(cellScatter_)
        .read(GRID_BIND_KEYS, keys_)
        .read(GRID_BIND_CELL_START, cellStart_)
        .readWrite(GRID_BIND_COUNTS, counts_)
        .write(GRID_BIND_SCATTERED, scattered_)
        .push(params)
        .dispatchThreads(count);
    graph.addCompute(cellRank_)
        .read(GRID_BIND_KEYS, keys_)
        .read(GRID_BIND_CELL_START, cellStart_)
        .read(GRID_BIND_SCATTERED, scattered_)
        .write(GRID_BIND_VALUES, values_)
        .write(GRID_BIND_SORTED_KEYS, sortedKeys_)
        .push(params)
        .dispatchThreads(count);
    graph.endGroup();
}

} // namespace floe::sim
