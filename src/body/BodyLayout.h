// The CPU precomputation of surface shape matching (digest-002 §2.7.6-§2.7.7, §2.7.12): vertex
// paths, the particles in path order, omega-ring regions as interval lists (CSR) over that
// order, each region's rest data, and incident triangles for vertex normals. Everything the
// GPU passes need, for one body; DeformableBodies concatenates bodies.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "geometry/Mesh.h"

namespace floe::body {

inline constexpr uint32_t kMaxPathLength = 512; // float32 prefix sums stay accurate (§2.7.12)
inline constexpr double kMaxJointWork = 4.0e8;  // vertices x triangles of the brute-force joint ray cast

// Paths covering every vertex exactly once, consecutive vertices sharing an edge, at most
// `maxLength` vertices each (§2.7.7: avoid holes, stay near the start's plane z = const).
std::vector<std::vector<uint32_t>> generatePaths(const std::vector<std::vector<uint32_t>>& neighbours,
                                                 const std::vector<glm::vec3>& rest, uint32_t maxLength = kMaxPathLength);

// Vertex adjacency of a triangle mesh, each list sorted.
std::vector<std::vector<uint32_t>> vertexNeighbours(const geometry::TriangleMesh& mesh);

// All vertices within `omega` edges of `v` (v included), sorted.
std::vector<uint32_t> ring(const std::vector<std::vector<uint32_t>>& neighbours, uint32_t v, int omega);

struct BodyLayout {
    // Particles in path order (index p); order[p] is the mesh vertex.
    std::vector<uint32_t> order;
    std::vector<glm::vec3> rest;            // m, rest positions in path order
    std::vector<uint32_t> pathHead;         // 1 where a path starts
    std::vector<glm::uvec3> triangles;      // in path-order indices
    std::vector<std::vector<uint32_t>> adj; // neighbours in path-order indices
    // Regions: region p is particle p's omega-ring; its members are the union of the inclusive
    // intervals intervals[regionStart[p] .. regionStart[p+1]), none crossing a path start.
    std::vector<uint32_t> regionStart;
    std::vector<glm::uvec2> intervals;
    std::vector<uint32_t> regionCount;       // members
    std::vector<glm::vec3> regionRestCentre; // t0, mass-weighted (uniform masses: the mean), relative to rest[0]
    std::vector<float> extraDistance;        // l of the extra normal point (§2.7.4, see §10 item 4)
    std::vector<glm::vec3> restNormal;       // unit area-weighted vertex normals at rest
    // Triangles around each particle (CSR) for the per-step vertex normal sums.
    std::vector<uint32_t> incidentStart, incident;
    // Interior "measurement" joints (§2.7.9): from each vertex a ray into the body along its
    // inward rest normal; the nearest vertex of the first triangle hit is the partner. Stiffness
    // falls linearly from 0.1 (shortest joint) to 0.01 (longest). Partner -1: no joint (no hit,
    // or the mesh was too large for the brute-force ray cast, see kMaxJointWork).
    std::vector<int32_t> jointPartner;
    std::vector<float> jointLength, jointStiffness;
    double restVolume = 0; // m^3
    float scale = 1;       // local frame: (x - x_first) * scale lies in about [-1, 1]^3 (§2.7.12)
    uint32_t paths = 0;
    int omega = 0;
};

// Throws floe::Error for meshes closedSurface() refuses and for omega outside 1..8.
BodyLayout layoutBody(const geometry::TriangleMesh& mesh, int omega, uint32_t maxPathLength = kMaxPathLength);

} // namespace floe::body
