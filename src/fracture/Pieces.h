// Pre-fractured pieces for the Constraint method (digest-004 §3.4, Smith et al. 2001): the tets
// grouped into Voronoi cells around seeded sites (or one piece per tet), every node shared by
// several pieces copied once per piece, and the links that hold the copies together. A
// constraint is the set of links between two pieces; it breaks as a whole.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/vec2.hpp>

#include "fracture/TetMesh.h"

namespace floe::fracture {

struct PiecedMesh {
    TetMesh mesh;                   // no node is shared by tets of two pieces
    std::vector<uint32_t> origin;   // per node: the input node it copies
    std::vector<uint32_t> tetPiece; // piece of each tet, 0 .. pieces - 1
    uint32_t pieces = 0;
    std::vector<glm::uvec2> links;   // node pairs that were one node of the input
    std::vector<glm::uvec2> between; // per link: its two pieces, smaller first
};

// sites = 0: every tet is a piece (the thesis' tet mode); otherwise that many Voronoi sites at
// the centroids of tets drawn with `seed` in proportion to their volumes (at most one per tet),
// each tet in the cell of the site nearest to its centroid ("Voronoi mode"; the thesis built
// its cells from mesh nodes, §3.4).
// Pieces are numbered by their first tet.
PiecedMesh preFracture(const TetMesh& mesh, uint32_t sites, uint32_t seed);

} // namespace floe::fracture
