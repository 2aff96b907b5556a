// The coupling's boundary samples of solids (coupling/SolidSampler): the tet faces' samples of
// fracture bodies (centroids of the sub-triangles, Psi_b from the face's area) against the
// surface samples of deformable bodies (Psi_b from Akinci's sum over the body's own samples),
// which must agree where both describe the same flat wall.
#include <algorithm>
#include <bit>
#include <cmath>

#include <glm/geometric.hpp>
#include <gtest/gtest.h>

#include "base/Error.h"
#include "coupling/SolidSampler.h"
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
    s.normals.assign(4, glm::vec3(0, 0, 1));
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
// each face's Psi_b summing to its area times the wall's mass per area, grouped by tet.
TEST(SolidSampler, TetFacesCarryTheirAreasShareOfTheWallsMass)
{
    const SampleKernel k = cubic();
    const float spacing = 0.5f * k.h;
    TetSurface t;
    t.nodes = {{0, 0, 0}, {0.05f, 0, 0}, {0, 0.05f, 0}, {0, 0, 0.05f}, {0.05f, 0.05f, 0.05f}};
    t.tets = {{0, 1, 2, 3}, {1, 2, 3, 4}};
    t.tetDepth = {0.01f, 0.02f};
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
            EXPECT_NEAR(psi, perArea * area, 1e-5 * perArea * area) << "tet " << tet << " face " << face;
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
