// Tetrahedral meshes for brittle fracture (digest-004 §2.2, §10.1): nodes and tets, the checks
// an imported mesh must pass, TetGen .node/.ele and Gmsh .msh import, the boundary surface and
// the node-to-tet incidence (CSR) that the per-node stress sums run over.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace floe::fracture {

struct TetMesh {
    std::vector<glm::vec3> nodes; // m
    std::vector<glm::uvec4> tets; // positive orientation: det(x1 - x0, x2 - x0, x3 - x0) > 0
    std::string name;             // file or shape name, for messages
};

// Signed volume det(x1 - x0, x2 - x0, x3 - x0) / 6 (m^3), in double precision.
double signedVolume(const glm::vec3& x0, const glm::vec3& x1, const glm::vec3& x2, const glm::vec3& x3);
double signedVolume(const TetMesh& mesh, size_t tet);

// Checks indices, repeated corners, inverted tets (negative volume) and degenerate ones (volume
// below kMinTetQuality times the cube of the tet's rms edge length; a regular tet has 0.118).
// Drops nodes no tet uses. Throws floe::Error naming the mesh, the tet and the reason.
inline constexpr double kMinTetQuality = 1e-4;
TetMesh validated(TetMesh mesh);

// TetGen: `path` is the .node or the .ele file (the other one is found next to it); 0- or
// 1-based indices, attributes and boundary markers ignored, 10-node tets use their corners.
// Gmsh: ASCII .msh version 2.2 or 4.1, 4-node (type 4) and 10-node (type 11) tets; other
// elements (surface triangles, points) are skipped. Both orient a file whose tets are all
// negative (the other corner convention) and refuse mixed orientations as inverted tets.
// Errors name file:line.
TetMesh loadTetGen(const std::filesystem::path& path);
TetMesh loadGmsh(const std::filesystem::path& path);
TetMesh loadTetMesh(const std::filesystem::path& path); // by extension: .node/.ele or .msh

// Faces used by exactly one tet, counter-clockwise seen from outside (outside of the positively
// oriented tet; after cuts duplicate nodes, the crack faces are boundary faces, so every
// fragment gets a closed surface); with `tetOfFace`, the tet each face bounds.
std::vector<glm::uvec3> boundaryFaces(const TetMesh& mesh, std::vector<uint32_t>* tetOfFace = nullptr);

// Node-to-tet incidence: the corners (4 tet + corner) of node n are
// corner[start[n] .. start[n+1]), in increasing tet order; slot[4 tet + c] is the inverse.
struct Incidence {
    std::vector<uint32_t> start, corner, slot;
};
Incidence incidence(const TetMesh& mesh);

// Number of connected components of the tets (sharing a node connects two tets).
uint32_t componentCount(const TetMesh& mesh);

} // namespace floe::fracture
