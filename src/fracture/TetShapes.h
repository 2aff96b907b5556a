// Floe's tetrahedral mesh generator for the objects of digest-004 §5.3: a lattice of boxes, each
// split into six tets around its main diagonal (a conforming Freudenthal triangulation), kept
// where the tet's centroid lies inside the shape's signed distance function, then boundary
// nodes moved onto curved surfaces (sphere, cone, holes) as far as no tet falls below 40 % of
// its lattice volume or shape quality. Box faces lie on lattice planes, so flat shapes are exact.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <glm/mat3x3.hpp>
#include <glm/vec3.hpp>

#include "fracture/TetMesh.h"
#include "geometry/Mesh.h"

namespace floe::fracture {

enum class TetShape { Sphere, Cone, Cube, Cuboid, Fichera, CubeWithHoles };

std::optional<TetShape> tetShapeFromName(std::string_view name); // "sphere", "cone", "cube", ...
const char* tetShapeName(TetShape shape);
inline constexpr const char* kTetShapeNames = "sphere, cone, cube, cuboid, fichera, cube_with_holes";

struct TetShapeDesc {
    TetShape shape = TetShape::Cube;
    // Bounding box of the shape (m), centred at the origin: sphere and cube use x as the
    // diameter or edge, cone x as the base diameter and y as the height (tip up, +y), cuboid
    // and the others all three.
    glm::vec3 size{1.0f, 1.0f, 1.0f};
    int resolution = 8;         // lattice cells along the longest side, 2..64
    float tipRefinement = 1.3f; // cone: grading exponent of the lattice towards the tip (1: uniform), 1..3
};

// Positive tets, unused nodes dropped, checked by validated(). Throws floe::Error for sizes or
// resolutions out of range.
TetMesh makeTetShape(const TetShapeDesc& desc);

// A uniformly distributed rotation (Shoemake's random unit quaternion) from a seed: the seeded
// orientations of drop scenes and benches.
glm::mat3 seededRotation(uint32_t seed);

// The signed distance (m, negative inside) the generator clips with; for tests.
float tetShapeDistance(const TetShapeDesc& desc, const glm::vec3& p);

// The tets of a closed triangle mesh (an OBJ surface, where it stands): the same lattice over the
// mesh's bounding box, `resolution` cells along its longest side, clipped at the tets' centroids
// and with boundary nodes snapped onto the surface by the mesh's signed distance (the nearest
// triangle's distance, negative inside by the winding number). Positive tets, validated. Throws
// floe::Error for a mesh that is not closed, a resolution out of 2..64, or a mesh too thin for
// the lattice (no tet).
TetMesh makeTetSurface(const geometry::TriangleMesh& surface, int resolution);
// The signed distance of p to a closed mesh (m, negative inside); for tests.
float surfaceDistance(const geometry::TriangleMesh& surface, const glm::vec3& p);

} // namespace floe::fracture
