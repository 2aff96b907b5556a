#include "geometry/ObstacleGrid.h"

#include <algorithm>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

namespace floe::geometry {

ObstacleGrid buildObstacleGrid(const std::vector<TriangleMesh>& meshes, float margin)
{
    ObstacleGrid g;
    Bounds bounds;
    for (const TriangleMesh& mesh : meshes) {
        // Drawing: each corner its own vertex, whose normal sums the area-weighted normals of the
        // triangles at that vertex within 40 degrees of its own (a box's edges stay sharp, a
        // tessellated cylinder stays smooth).
        std::vector<glm::vec3> faceNormal(mesh.triangles.size());
        std::vector<std::vector<uint32_t>> around(mesh.vertices.size());
        for (size_t t = 0; t < mesh.triangles.size(); ++t) {
            const glm::uvec3 tri = mesh.triangles[t];
            const glm::vec3 a = mesh.vertices[tri.x], b = mesh.vertices[tri.y], c = mesh.vertices[tri.z];
            faceNormal[t] = 0.5f * glm::cross(b - a, c - a);
            for (int k = 0; k < 3; ++k) around[tri[k]].push_back(uint32_t(t));
            g.corners.insert(g.corners.end(), {glm::vec4(a, 0.0f), glm::vec4(b, 0.0f), glm::vec4(c, 0.0f)});
            bounds.add(a), bounds.add(b), bounds.add(c);
        }
        const float crease = 0.766f; // cos 40 degrees
        for (size_t t = 0; t < mesh.triangles.size(); ++t) {
            const glm::uvec3 tri = mesh.triangles[t];
            const float own = glm::length(faceNormal[t]);
            const uint32_t base = static_cast<uint32_t>(g.points.size());
            for (int k = 0; k < 3; ++k) {
                glm::vec3 n(0.0f);
                for (uint32_t u : around[tri[k]]) {
                    const float other = glm::length(faceNormal[u]);
                    if (own > 0.0f && other > 0.0f && glm::dot(faceNormal[t], faceNormal[u]) >= crease * own * other)
                        n += faceNormal[u];
                }
                g.points.emplace_back(mesh.vertices[tri[k]], 0.0f);
                g.normals.emplace_back(own > 0.0f && glm::length(n) > 0.0f ? n : faceNormal[t], 0.0f);
            }
            g.indices.push_back({base, base + 1u, base + 2u, 0xFFFFu});
        }
    }
    const uint32_t triangles = static_cast<uint32_t>(g.indices.size());
    if (triangles == 0) return g;
    bounds.lo -= glm::vec3(margin);
    bounds.hi += glm::vec3(margin);
    const glm::vec3 extent = bounds.hi - bounds.lo;
    const float cell = std::max({4.0f * margin, extent.x / 128.0f, extent.y / 128.0f, extent.z / 128.0f});
    const glm::uvec3 dims = glm::max(glm::uvec3(glm::ceil(extent / cell)), glm::uvec3(1));
    std::vector<std::vector<uint32_t>> lists(size_t(dims.x) * dims.y * dims.z);
    for (uint32_t t = 0; t < triangles; ++t) {
        const glm::vec3 a(g.corners[3 * t]), b(g.corners[3 * t + 1]), c(g.corners[3 * t + 2]);
        const glm::vec3 lo = glm::min(glm::min(a, b), c), hi = glm::max(glm::max(a, b), c);
        const glm::uvec3 first = glm::uvec3(glm::clamp((lo - margin - bounds.lo) / cell, glm::vec3(0), glm::vec3(dims - 1u)));
        const glm::uvec3 last = glm::uvec3(glm::clamp((hi + margin - bounds.lo) / cell, glm::vec3(0), glm::vec3(dims - 1u)));
        for (uint32_t z = first.z; z <= last.z; ++z)
            for (uint32_t y = first.y; y <= last.y; ++y)
                for (uint32_t x = first.x; x <= last.x; ++x) lists[x + dims.x * (y + size_t(dims.y) * z)].push_back(t);
    }
    for (const auto& l : lists) {
        g.cellStart.push_back(static_cast<uint32_t>(g.entries.size()));
        g.entries.insert(g.entries.end(), l.begin(), l.end());
    }
    g.cellStart.push_back(static_cast<uint32_t>(g.entries.size()));
    g.origin = glm::vec4(bounds.lo, cell);
    g.dims = glm::uvec4(dims, triangles);
    return g;
}

} // namespace floe::geometry
