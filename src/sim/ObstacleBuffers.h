// Static triangle meshes on the device (geometry::ObstacleGrid uploaded): what the deformable
// bodies' body/obstacles and the fracture bodies' fracture/obstacles read, and what pictures draw.
#pragma once

#include <cstdint>
#include <string>

#include <glm/vec4.hpp>

#include "geometry/ObstacleGrid.h"
#include "gpu/Buffer.h"

namespace floe::graph {
class RenderGraph;
}

namespace floe::sim {

struct ObstacleBuffers {
    uint32_t triangles = 0;
    glm::vec4 origin{0.0f};                  // the grid's lowest corner (m), w its cell size (m)
    glm::uvec4 dims{0u};                     // xyz cells, w triangles
    gpu::Buffer corners;                     // 3 vec4 per triangle
    gpu::Buffer cells;                       // uint per cell + 1: its first entry
    gpu::Buffer entries;                     // uint: triangles per cell
    gpu::Buffer positions, normals, indices; // drawing: vertices, normals, triangles (w 0xFFFF)

    ObstacleBuffers() = default;
    // Nothing uploaded for a grid without triangles. Buffer names start with `prefix`.
    ObstacleBuffers(gpu::Context& context, graph::RenderGraph& graph, const geometry::ObstacleGrid& grid,
                    const std::string& prefix);
};

} // namespace floe::sim
