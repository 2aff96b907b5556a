// Closed triangle surfaces for deformable bodies (digest-002 §2.7): procedural shapes, and the
// checks a loaded OBJ must pass (closed, 2-manifold, consistently oriented, welded).
#pragma once

#include <glm/vec3.hpp>

#include "geometry/Mesh.h"

namespace floe::body {

// Welds vertices at identical positions (exporters split them per face), drops unused ones,
// and checks that the surface is closed and 2-manifold with consistent orientation. Throws
// floe::Error naming the mesh and the first offending edge or vertex.
geometry::TriangleMesh closedSurface(const geometry::TriangleMesh& mesh);

// Procedural closed surfaces, outward counter-clockwise triangles, centred at the origin.
geometry::TriangleMesh makeSphere(float radius, int subdivisions);   // icosphere: 10*4^k+2 vertices
geometry::TriangleMesh makeBox(const glm::vec3& size, int segments); // segments per edge of the longest side
geometry::TriangleMesh makeTorus(float majorRadius, float minorRadius, int major, int minor); // around y
geometry::TriangleMesh makeCapsule(float radius, float length, int segments, int rings);      // axis y, length of the cylinder

// Enclosed volume (m^3) of a closed, outward-oriented surface (signed tetrahedra from the origin).
double enclosedVolume(const geometry::TriangleMesh& mesh);

} // namespace floe::body
