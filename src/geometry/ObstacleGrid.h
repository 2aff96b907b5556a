// Static triangle meshes as obstacles for moving solids (deformable bodies' vertices, fracture
// bodies' nodes): their triangles, a uniform grid of triangle lists in which each triangle is
// listed in every cell its box grown by `margin` touches (so a point finds every triangle within
// `margin` in its own cell), and what drawing them needs. Built once on the CPU.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/vec4.hpp>

#include "geometry/Mesh.h"

namespace floe::geometry {

struct ObstacleGrid {
    std::vector<glm::vec4> corners;         // 3 per triangle: a, b, c (m), counter-clockwise seen from outside
    std::vector<uint32_t> cellStart;        // per cell + 1: its first entry
    std::vector<uint32_t> entries;          // triangle indices, cell by cell (x fastest)
    glm::vec4 origin{0.0f};                 // xyz the grid's lowest corner (m), w the cell size (m)
    glm::uvec4 dims{0u};                    // xyz cells, w triangles
    std::vector<glm::vec4> points, normals; // drawing: the meshes' vertices, area-weighted normals
    std::vector<glm::uvec4> indices;        // drawing: triangles (w 0xFFFF)
    uint32_t triangles() const { return dims.w; }
};

// At most 128 cells along an axis, and cells at least 4 margins wide.
ObstacleGrid buildObstacleGrid(const std::vector<TriangleMesh>& meshes, float margin);

} // namespace floe::geometry
