#include "sim/ObstacleBuffers.h"

#include "sim/ParticleBuffers.h"

namespace floe::sim {

ObstacleBuffers::ObstacleBuffers(gpu::Context& context, graph::RenderGraph& graph, const geometry::ObstacleGrid& grid,
                                 const std::string& prefix)
    : triangles(grid.triangles())
{
    if (triangles == 0) return;
    origin = grid.origin;
    dims = grid.dims;
    constexpr VkFormat kVec4 = VK_FORMAT_R32G32B32A32_SFLOAT, kUint = VK_FORMAT_R32_UINT;
    corners = uploaded(context, graph, (prefix + " triangles").c_str(), grid.corners, kVec4);
    cells = uploaded(context, graph, (prefix + " cells").c_str(), grid.cellStart, kUint);
    entries = uploaded(context, graph, (prefix + " entries").c_str(), grid.entries, kUint);
    positions = uploaded(context, graph, (prefix + " vertices").c_str(), grid.points, kVec4);
    normals = uploaded(context, graph, (prefix + " normals").c_str(), grid.normals, kVec4);
    indices = uploaded(context, graph, (prefix + " indices").c_str(), grid.indices, VK_FORMAT_R32G32B32A32_UINT);
}

} // namespace floe::sim
