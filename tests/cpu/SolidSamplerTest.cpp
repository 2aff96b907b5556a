// The coupling's boundary samples of solids (coupling/SolidSampler): the tet faces' samples of
// fracture bodies (centroids of the sub-triangles, Psi_b from the face's area) against the
// surface samples of deformable bodies (Psi_b from Akinci's sum over the body's own samples),
// which must agree where both describe the same flat wall.
#include <algorithm>
#include <bit>
#include <cmath>

#include <glm/geometric.hpp>
#include <glm/vector_relational.hpp>
#include <gtest/gtest.h>

#include "base/Error.h"
#include "body/SurfaceMesh.h"
#include "coupling/SolidSampler.h"
#include "fracture/TetMesh.h"
#include "fracture/TetShapes.h"
#include "shared/sph.h"

using namespace floe;
using namespace floe::coupling;

namespace {

SampleKernel cubic()
{
    SampleKernel k;
    k.kernelSet = SPH_KERNEL_CUBIC;
    k.dims = 3;
    k.h = 0.025f;
    k.restDensity = 1000.0f;
    return k;
}

// A flat square of side L in the plane z = 0 (two triangles, normal +z), sampled as a deformable
// body's surface: its inner samples form the square lattice of spacing L / n.
SolidSurface square(float L)
{
    SolidSurface s;
    s.vertices = {{0, 0, 0}, {L, 0, 0}, {L, L, 0}, {0, L, 0}};
    s.triangles = {{0, 1, 2}, {0, 2, 3}};
    return s;
}

} // namespace

// Far from its edges, a flat wall sampled as a deformable body's surface weighs, per area, what
// planeBoundaryMassPerArea says (the tet faces' samples take their Psi_b from it): Akinci's
// Psi_b = gamma rho0 / sum_k W over a square lattice gives the same mass per area at any lattice
// spacing up to the spacing asked for.
TEST(SolidSampler, PlaneMassPerAreaIsAkincisPsiOverTheLatticeArea)
{
    const SampleKernel k = cubic();
    for (const float ratio : {0.5f, 1.0f}) { // spacing / h
        SCOPED_TRACE(ratio);
        const float spacing = ratio * k.h, L = 40.0f * spacing;
        const SolidSamples s = sampleSolids({square(L)}, 4, spacing, k);
        // The sample nearest (0.25 L, 0.25 L): 10 spacings from the edges and 14 from the diagonal,
        // whose points do not lie on the lattice; the kernel reaches 2h, at most 4 spacings.
        size_t pick = 0;
        float best = 1e30f;
        for (size_t b = 0; b < s.corners.size(); ++b) {
            const glm::uvec4 c = s.corners[b];
            const glm::vec3 verts[4] = {{0, 0, 0}, {L, 0, 0}, {L, L, 0}, {0, L, 0}};
            const glm::vec4 w = s.weights[b];
            const glm::vec3 x = w.x * verts[c.x] + w.y * verts[c.y] + w.z * verts[c.z];
            const float d = glm::length(x - glm::vec3(0.25f * L, 0.25f * L, 0.0f));
            if (d < best) {
                best = d;
                pick = b;
            }
        }
        // The lattice inside each triangle takes its longest edge's segments: the diagonal's, so
        // the samples lie L / n apart with n = ceil(sqrt(2) L / spacing), each with (L / n)^2 of wall.
        const float n = std::ceil(std::sqrt(2.0f) * L / spacing - 1e-4f), cell = L / n;
        EXPECT_LT(best, cell);
        const double expected = planeBoundaryMassPerArea(spacing, k) * cell * cell;
        // Within 0.5 %: the lattice's sum of W per area is the integral of W over the plane to
        // 0.17 % at spacing h (the wall here lies on the lattice of h / sqrt(2)), closer below.
        EXPECT_NEAR(s.weights[pick].w, expected, 5e-3 * expected);
    }
    EXPECT_THROW(planeBoundaryMassPerArea(0.0f, k), Error);
}

// A tet's four faces: n^2 samples each (n the segments of its longest edge at 1.5 spacing), at the
// centroids of the sub-triangles, inside the face (barycentric weights positive, summing to 1),
// grouped by tet. The face the two tets share (inside the body: a crack face once a cut opens it)
// keeps the whole face and weighs its area times the wall's mass per area; a boundary face's
// samples lie on its inset, smaller face (the miters; the cuboid's test below checks where).
TEST(SolidSampler, TetFacesCarryTheirAreasShareOfTheWallsMass)
{
    const SampleKernel k = cubic();
    const float spacing = 0.5f * k.h;
    TetSurface t;
    t.nodes = {{0, 0, 0}, {0.05f, 0, 0}, {0, 0.05f, 0}, {0, 0, 0.05f}, {0.05f, 0.05f, 0.05f}};
    t.tets = {{0, 1, 2, 3}, {1, 2, 3, 4}};
    t.tetDepth = {0.002f, 0.004f};
    const TetSamples s = sampleTetFaces(t, spacing, k);
    const double perArea = planeBoundaryMassPerArea(spacing, k);
    ASSERT_EQ(s.tetStart.size(), 3u);
    EXPECT_EQ(s.tetStart[0], 0u);
    EXPECT_EQ(s.tetStart[2], s.corners.size());
    for (uint32_t tet = 0; tet < 2; ++tet)
        for (uint32_t face = 0; face < 4; ++face) {
            const glm::vec3 a = t.nodes[t.tets[tet][kTetFaceCorners[face][0]]], b = t.nodes[t.tets[tet][kTetFaceCorners[face][1]]],
                            c = t.nodes[t.tets[tet][kTetFaceCorners[face][2]]];
            const float longest = std::max({glm::length(b - a), glm::length(c - b), glm::length(a - c)});
            const uint32_t n = static_cast<uint32_t>(std::ceil(longest / (1.5f * spacing) - 1e-4f));
            const double area = 0.5 * glm::length(glm::cross(glm::dvec3(b - a), glm::dvec3(c - a)));
            const bool shared = (tet == 0 && face == 0) || (tet == 1 && face == 3);
            uint32_t count = 0;
            double psi = 0.0;
            for (uint32_t k2 = s.tetStart[tet]; k2 < s.tetStart[tet + 1]; ++k2) {
                if (s.corners[k2].x != tet || s.corners[k2].y != face) continue;
                ++count;
                psi += s.weights[k2].w;
                const glm::vec4 w = s.weights[k2];
                EXPECT_GT(w.x, 0.0f);
                EXPECT_GT(w.y, 0.0f);
                EXPECT_GT(w.z, 0.0f);
                EXPECT_NEAR(w.x + w.y + w.z, 1.0f, 1e-6f);
                EXPECT_EQ(s.corners[k2].z, std::bit_cast<uint32_t>(t.tetDepth[tet]));
            }
            EXPECT_EQ(count, n * n) << "tet " << tet << " face " << face;
            if (shared) {
                EXPECT_NEAR(psi, perArea * area, 1e-5 * perArea * area) << "tet " << tet << " face " << face;
            } else {
                EXPECT_LT(psi, 0.99 * perArea * area) << "tet " << tet << " face " << face << ": not inset";
                EXPECT_GT(psi, 0.5 * perArea * area) << "tet " << tet << " face " << face;
            }
        }
    // Face c's corners turn so that its normal points away from corner c (positive orientation).
    for (uint32_t face = 0; face < 4; ++face) {
        const glm::uvec4 tet = t.tets[0];
        const glm::vec3 a = t.nodes[tet[kTetFaceCorners[face][0]]], b = t.nodes[tet[kTetFaceCorners[face][1]]],
                        c = t.nodes[tet[kTetFaceCorners[face][2]]];
        EXPECT_GT(glm::dot(glm::cross(b - a, c - a), a - t.nodes[tet[face]]), 0.0f) << "face " << face;
    }
    TetSurface bad = t;
    bad.tets[1].w = 9;
    EXPECT_THROW(sampleTetFaces(bad, spacing, k), Error);
    bad = t;
    bad.tetDepth.pop_back();
    EXPECT_THROW(sampleTetFaces(bad, spacing, k), Error);
    EXPECT_THROW(sampleTetFaces(t, -1.0f, k), Error);
}

// The faces of a cuboid of tets, each sample placed as coupling/tet_samples places it (its
// barycentric point moved its depth along the face's normal), lie on the surface of the cuboid
// shrunk by the depth on every side: the inset surface, with no sample beyond its edges (a face's
// samples moved only along its own normal would reach out to the cuboid's edges, a fin the fluid
// keeps its distance from: the body displaced more than its volume), and reaching its edges.
// Their Psi_b, the inset surface's area times the wall's mass per area before the fit
// (BoundaryCalibration's tests check the fit itself), stay positive and within 20 % of that.
TEST(SolidSampler, TetFaceSamplesLieOnTheInsetSurface)
{
    const SampleKernel k = cubic();
    const float spacing = k.h, depth = 0.01875f;
    fracture::TetShapeDesc desc;
    desc.shape = fracture::TetShape::Cuboid;
    desc.size = {0.2f, 0.08f, 0.2f};
    desc.resolution = 5;
    const fracture::TetMesh mesh = fracture::makeTetShape(desc);
    TetSurface t;
    t.nodes = mesh.nodes;
    t.tets = mesh.tets;
    t.tetDepth.assign(t.tets.size(), depth);
    const TetSamples s = sampleTetFaces(t, spacing, k);
    const glm::vec3 hi = 0.5f * desc.size - depth, lo = -hi;
    const std::vector<glm::uvec3> boundary = fracture::boundaryFaces(mesh);
    const auto onBoundary = [&](const glm::uvec3& f) {
        for (const glm::uvec3& b : boundary)
            if (std::is_permutation(&b.x, &b.x + 3, &f.x)) return true;
        return false;
    };
    double psi = 0.0;
    size_t outside = 0, checked = 0, onEdges = 0, weightless = 0;
    for (size_t i = 0; i < s.corners.size(); ++i) {
        const glm::uvec4 tet = t.tets[s.corners[i].x];
        const uint32_t c = s.corners[i].y;
        const glm::uvec3 f(tet[kTetFaceCorners[c][0]], tet[kTetFaceCorners[c][1]], tet[kTetFaceCorners[c][2]]);
        if (!onBoundary(f)) continue;
        const glm::vec4 w = s.weights[i];
        const glm::vec3 x = placeTetSample(t, s.corners[i], w);
        ++checked;
        psi += w.w;
        weightless += !(w.w > 0.0f);
        const float slack = 1e-5f;
        const bool inside = glm::all(glm::greaterThanEqual(x, lo - slack)) && glm::all(glm::lessThanEqual(x, hi + slack));
        const float nearestSide = std::min({x.x - lo.x, hi.x - x.x, x.y - lo.y, hi.y - x.y, x.z - lo.z, hi.z - x.z});
        if (!inside || std::fabs(nearestSide) > slack) {
            if (++outside <= 5)
                ADD_FAILURE() << "sample " << i << " at (" << x.x << ", " << x.y << ", " << x.z << ") off the inset box";
        }
        // On an edge of the inset box: on two of its sides.
        int sides = 0;
        for (int axis = 0; axis < 3; ++axis)
            sides += (std::fabs(x[axis] - lo[axis]) <= slack) + (std::fabs(hi[axis] - x[axis]) <= slack);
        if (sides >= 2) ++onEdges;
    }
    EXPECT_GT(checked, 500u);
    EXPECT_EQ(outside, 0u);
    // The lattices reach the inset box's edges (the creases): the outermost centroids of both
    // faces at an edge lie on it, with no gap between the faces' samples there.
    EXPECT_GT(onEdges, 100u);
    const glm::dvec3 e = glm::dvec3(hi - lo);
    const double insetArea = 2.0 * (e.x * e.y + e.y * e.z + e.z * e.x);
    const double perArea = planeBoundaryMassPerArea(spacing, k);
    EXPECT_EQ(weightless, 0u);
    EXPECT_NEAR(psi, perArea * insetArea, 0.2 * perArea * insetArea);
}

// A coarse ball of tets: most of its boundary faces are single sub-triangles (n = 1) whose three
// edges are creases. Their lattices were stretched toward all three at once, a division by zero:
// six non-finite weights, and the ball diverged at its first step in water.
TEST(SolidSampler, ACoarseBallOfTetsHasFiniteSamples)
{
    fracture::TetShapeDesc desc;
    desc.shape = fracture::TetShape::Sphere;
    desc.size = glm::vec3(0.14f);
    desc.resolution = 6;
    const fracture::TetMesh mesh = fracture::makeTetShape(desc);
    TetSurface t;
    t.nodes = mesh.nodes;
    t.tets = mesh.tets;
    t.tetDepth.assign(t.tets.size(), 0.01875f);
    const TetSamples s = sampleTetFaces(t, 0.0125f, cubic());
    ASSERT_GT(s.corners.size(), 1000u);
    size_t bad = 0;
    for (const glm::vec4& w : s.weights) bad += !(std::isfinite(w.x) && std::isfinite(w.y) && std::isfinite(w.z) && w.w >= 0.0f);
    EXPECT_EQ(bad, 0u);
}

// A deformable box's surface samples (every vertex, the edges' points, the triangles' lattices),
// each placed as coupling/solid_samples places it (placeSolidSample: moved the depth along the
// interpolated miter), lie on the surface of the box shrunk by the depth on every side: on its
// faces, along its edges and at its corners alike. Moved along the interpolated unit normal
// instead, a corner's sample lay only depth / sqrt(3) inside each face (the box displaced more
// than its volume). On a sphere the miters are about the unit normals.
TEST(SolidSampler, DeformableSamplesLieOnTheInsetSurface)
{
    const SampleKernel k = cubic();
    const float spacing = 0.5f * k.h, depth = 0.01875f;
    const glm::vec3 size(0.2f, 0.08f, 0.2f);
    const geometry::TriangleMesh box = body::makeBox(size, 8);
    SolidSurface s{box.vertices, box.triangles, 0, depth};
    const SolidSamples samples = sampleSolids({s}, static_cast<uint32_t>(box.vertices.size()), spacing, k);
    const std::vector<glm::vec3> miters = surfaceMiters(box.vertices, box.triangles, kDeformableMiterRegularization);
    const glm::vec3 hi = 0.5f * size - depth, lo = -hi;
    size_t off = 0;
    for (size_t b = 0; b < samples.corners.size(); ++b) {
        const glm::uvec4 c = samples.corners[b];
        const PlacedSample p = placeSolidSample(c, samples.weights[b], box.vertices, miters);
        const glm::vec3 q = p.position;
        // On the inset box's surface: on one of its sides, within 1e-3 of the depth (the
        // regularization shortens a corner's miter by up to about 5 eps, 3e-4 of the depth here).
        const float slack = 1e-3f * depth;
        const float nearestSide = std::min({q.x - lo.x, hi.x - q.x, q.y - lo.y, hi.y - q.y, q.z - lo.z, hi.z - q.z});
        if (std::fabs(nearestSide) > slack) {
            if (++off <= 5)
                ADD_FAILURE() << "sample " << b << " at (" << q.x << ", " << q.y << ", " << q.z << ") off the inset box";
        }
        // The guard's plane passes through the surface point above the sample.
        const glm::vec4 w = samples.weights[b];
        const glm::vec3 surface = w.x * box.vertices[c.x] + w.y * box.vertices[c.y] + w.z * box.vertices[c.z];
        EXPECT_NEAR(glm::dot(surface - q, glm::vec3(p.plane)), -p.plane.w, 1e-6f);
    }
    EXPECT_GT(samples.corners.size(), 1000u);
    EXPECT_EQ(off, 0u);
    // A box's corner: n1 + n2 + n3; an edge's vertex: n1 + n2; a face's: its normal.
    for (size_t v = 0; v < box.vertices.size(); ++v) {
        const glm::vec3 x = box.vertices[v];
        glm::vec3 expected(0.0f);
        for (int a = 0; a < 3; ++a)
            if (std::fabs(std::fabs(x[a]) - 0.5f * size[a]) < 1e-6f) expected[a] = x[a] > 0.0f ? 1.0f : -1.0f;
        EXPECT_LT(glm::length(miters[v] - expected), 1e-3f) << "vertex " << v;
    }
    // An icosphere: unit-length miters along the radius, within the facets' angles.
    const geometry::TriangleMesh ball = body::makeSphere(0.1f, 3);
    const std::vector<glm::vec3> round = surfaceMiters(ball.vertices, ball.triangles, kDeformableMiterRegularization);
    for (size_t v = 0; v < ball.vertices.size(); ++v) {
        EXPECT_NEAR(glm::length(round[v]), 1.0f, 0.01f) << "vertex " << v;
        EXPECT_GT(glm::dot(glm::normalize(round[v]), glm::normalize(ball.vertices[v])), 0.999f) << "vertex " << v;
    }
    EXPECT_THROW(surfaceMiters(box.vertices, {{0, 1, 99999}}, 1e-4), Error);
}
