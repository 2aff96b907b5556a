// Triangle meshes: loaded from Wavefront OBJ, transformed as SPlisHSPlasH does (scale, then
// rotate about an axis, then translate), sliced at z = 0 for 2D scenes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vector_relational.hpp>

namespace floe::geometry {

struct TriangleMesh {
    std::vector<glm::vec3> vertices;   // m
    std::vector<glm::uvec3> triangles; // counter-clockwise seen from outside (outward normals)
    std::string name;                  // file name, for messages
};

// Throws floe::Error naming file:line for unreadable files, malformed lines, indices out of
// range and meshes without triangles.
TriangleMesh loadObj(const std::filesystem::path& path);

struct Transform {
    glm::vec3 translation{0, 0, 0}; // m
    glm::vec3 scale{1, 1, 1};
    glm::vec3 rotationAxis{0, 0, 1};
    float rotationAngle = 0.0f; // radians
    glm::vec3 apply(const glm::vec3& p) const;
    glm::vec3 applyToDirection(const glm::vec3& d) const; // rotation only (for axes)
};

TriangleMesh transformed(const TriangleMesh& mesh, const Transform& t);
glm::vec3 triangleNormal(const TriangleMesh& mesh, size_t triangle); // unit, outward; zero if degenerate

struct Segment {
    glm::vec2 a, b;
    glm::vec2 normal; // unit, the 2D projection of the triangle's outward normal
};
// The mesh's cross-section with the plane z = 0.
std::vector<Segment> sliceAtZ0(const TriangleMesh& mesh);

struct Bounds {
    glm::vec3 lo{1e30f}, hi{-1e30f};
    void add(const glm::vec3& p);
    bool empty() const { return lo.x > hi.x; }
    bool contains(const glm::vec3& p) const
    {
        return glm::all(glm::greaterThanEqual(p, lo)) && glm::all(glm::lessThanEqual(p, hi));
    }
    bool overlaps(const Bounds& b) const
    {
        return glm::all(glm::lessThanEqual(lo, b.hi)) && glm::all(glm::lessThanEqual(b.lo, hi));
    }
};
Bounds boundsOf(const TriangleMesh& mesh);

// True if every vertex lies on the inner side of every face plane (within `tolerance` m).
bool isConvex(const TriangleMesh& mesh, float tolerance);
// True if every edge is shared by exactly two triangles with opposite orientation.
bool isClosed(const TriangleMesh& mesh);
// The edges a drawing outlines the mesh with: open edges (one triangle) and creases, where the
// normals of the triangles that share the edge differ by more than `creaseDegrees` (a box's 12
// edges, not its faces' diagonals). Vertices at the same position count as one. Two points each.
std::vector<std::pair<glm::vec3, glm::vec3>> featureEdges(const TriangleMesh& mesh, float creaseDegrees);
// The generalised winding number of p (1 inside a closed outward surface, 0 outside; robust to
// holes and non-manifold parts) and the inside test it gives (> 0.5).
double windingNumber(const TriangleMesh& mesh, const glm::vec3& p);
bool contains(const TriangleMesh& mesh, const glm::vec3& p);
// True if an edge of either mesh passes through a triangle of the other (the surfaces cut each
// other), or if one mesh lies wholly inside the other, closed one (winding number). Edges are
// looked up through a grid of the other mesh's triangles; double-precision segment tests.
bool meshesIntersect(const TriangleMesh& a, const TriangleMesh& b);

} // namespace floe::geometry
