// The boundary samples of solid surfaces for the two-way coupling with the fluid (Akinci et al.
// 2012 §3: a solid is a set of boundary particles on its surface, each weighing
// Psi_b = gamma rho0 V_b with V_b = 1 / sum_k W(x_b - x_k) over the solid's own samples). Floe's
// solids deform, so a sample is a barycentric combination of one surface triangle's corners,
// fixed at rest: every vertex, points along every edge and a lattice inside every triangle, at
// most `spacing` apart, one layer, moved `depth` inside along the interpolated miter (below), so
// that the samples lie on the surface offset inward by `depth`, edges and corners included. Pure
// CPU; the GPU passes move the samples with the vertices (coupling/vertex_miters, solid_samples).
#pragma once

#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "shared/coupling.h"

namespace floe::coupling {

struct SolidSurface {
    std::vector<glm::vec3> vertices;   // m, at rest
    std::vector<glm::uvec3> triangles; // indices into vertices, counter-clockwise seen from outside
    uint32_t firstVertex = 0;          // the global index of vertices[0] in the solids' vertex array
    float depth = 0.0f;                // m: the samples lie this far inside the surface
};

// A point's miter over the triangles around it: the vector m with m . n_f = 1 for every triangle
// f at the point (n_f its unit outward normal), so that the point moved d along -m lies d inside
// each of those triangles' planes: the corner of the surface offset d inward. Least squares
// weighted by area, M m = sum a_f n_f with M = sum a_f n_f n_f^T, solved for the difference t = m - u
// from the unit area-weighted normal u: (M + eps tr I) t = sum a_f n_f (1 - n_f . u). Exact where
// at most three planes meet (a box's edge: n1 + n2, its corner: n1 + n2 + n3), about the unit
// normal on a smooth surface, the normal on a flat one, where the right-hand side vanishes (eps,
// the regularization, keeps the directions no triangle constrains at u). Capped at length
// kMiterCap (a corner sharper than a cube's, as a cone's tip, whose inset ends before the tip).
// Zero for points on no triangle of area > 0. Throws floe::Error for a triangle naming a point
// out of range.
inline constexpr double kMiterCap = COUPLING_MITER_CAP;
std::vector<glm::vec3> surfaceMiters(const std::vector<glm::vec3>& points, const std::vector<glm::uvec3>& triangles,
                                     double regularization);
// The regularization of a deformable body's miters, which coupling/vertex_miters solves in float
// every step (it leaves a box corner's miter a few 1e-4 short of n1 + n2 + n3).
inline constexpr double kDeformableMiterRegularization = COUPLING_MITER_REGULARIZATION;

// Triangles whose unit normals' dot product exceeds this lie in one plane (sampleSolids).
inline constexpr float kFlatCosine = 0.99999f;

// A deformable body's sample (SolidSamples::corners and weights) placed as coupling/solid_samples
// places it, from its corners' positions and miters (`points` and `miters` indexed by a corner
// minus `firstVertex`): at x - depth m (x and m the weighted sums), with the plane the guard tests
// (sph/solid_guard): through the surface point x, its normal that of the triangle of the three
// corners where they are three vertices (the sample's own triangle, or a triangle in the plane of
// the flat surface around a vertex or an edge), else m's direction; distance -(depth m) . normal
// (negative: a deformable body's sample).
struct PlacedSample {
    glm::vec3 position;
    glm::vec4 plane;
};
PlacedSample placeSolidSample(const glm::uvec4& corners, const glm::vec4& weights, const std::vector<glm::vec3>& points,
                              const std::vector<glm::vec3>& miters, uint32_t firstVertex = 0);

struct SampleKernel {
    uint32_t kernelSet = 0; // SPH_KERNEL_* (shared/sph.h)
    uint32_t dims = 3;
    float h = 0.05f;          // the fluid's particle spacing (m); kernel support 2h
    float restDensity = 1000; // kg/m^3
};

struct SolidSamples {
    // per sample: xyz global vertex indices (a vertex's or an edge's sample names a third vertex
    // with weight 0 where the surface around it is flat: the plane's triangle), w its depth (m, float bits)
    std::vector<glm::uvec4> corners;
    std::vector<glm::vec4> weights;        // per sample: xyz barycentric weights (sum 1), w Psi_b (kg)
    std::vector<uint32_t> vertexStart;     // per global vertex + 1: first entry in vertexSamples
    std::vector<glm::uvec4> vertexSamples; // per entry: x sample, y weight (float bits)
};

// Throws floe::Error for a spacing that is not positive or a triangle index out of range.
SolidSamples sampleSolids(const std::vector<SolidSurface>& solids, uint32_t vertexCount, float spacing, const SampleKernel& kernel);

// Tetrahedral solids (fracture bodies), whose surface grows where cuts open crack faces: every
// face of every tet is sampled at rest, and a pass on the GPU switches a face's samples on while
// the face is on its fragment's boundary (Psi_b 0 inside). Each face carries the centroids of its
// n^2 sub-triangles (n the segments of its longest edge, of at most 1.5 `spacing`: about as many
// samples per area as the square lattice at `spacing`), so the samples of a face never depend on
// its neighbours', and Psi_b is the sample's share of the face's area A_b times the boundary's
// mass per area: Psi_b = A_b gamma rho0 / (s^2 sum_k W) for the square lattice of spacing s in a
// plane, Akinci's eq. (4)-(5) for that lattice. (Akinci sum over the body's own samples instead,
// which a crack face, switched on later amid the inactive faces of the interior, cannot.)
// A face on the body's boundary at rest is sampled on its inset face: its corners moved the tet's
// depth along their miters (m . n_f = 1 for every boundary face f at the node), as barycentric
// weights of the face (the shader's move along the face's normal does the rest), so the samples
// lie on the surface offset inward and end short of the body's edges; A_b is the inset face's
// area. Crack faces keep the whole face.
struct TetSurface {
    std::vector<glm::vec3> nodes; // m, world, at the start
    std::vector<glm::uvec4> tets; // positive orientation: face c (opposite corner c) faces out
    std::vector<float> tetDepth;  // per tet: the depth (m) of its faces' samples below the face
};

struct TetSamples {
    std::vector<glm::uvec4> corners; // per sample: x tet, y face (its opposite corner), z depth (m, float bits), w 0
    std::vector<glm::vec4> weights;  // per sample: xyz barycentric over the face's corners (kTetFaceCorners), w Psi_b (kg)
    std::vector<uint32_t> tetStart;  // per tet + 1: its first sample (samples are grouped by tet)
};

// Face c of a tet: its corners, ordered so that their normal points away from corner c for a
// positively oriented tet (as fracture/face_common.glsl and coupling/tet_samples.comp number them).
inline constexpr int kTetFaceCorners[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};

// A tet face's sample placed as coupling/tet_samples places it, from the nodes' positions: the
// barycentric point of its face moved its depth (corners.z) along the face's unit normal.
glm::vec3 placeTetSample(const TetSurface& solid, const glm::uvec4& corners, const glm::vec4& weights);

// Throws floe::Error for a spacing that is not positive or a tet naming a node out of range.
TetSamples sampleTetFaces(const TetSurface& solid, float spacing, const SampleKernel& kernel);
// The boundary's mass per area of a plane sampled by the square lattice of `spacing` (kg/m^2):
// gamma rho0 / (spacing^2 sum_k W), with the sum over that lattice in the plane through a sample.
double planeBoundaryMassPerArea(float spacing, const SampleKernel& kernel);

} // namespace floe::coupling
