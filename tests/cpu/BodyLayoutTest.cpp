// Deformable bodies' CPU side (digest-002 §2.7.6-§2.7.7, §8 checks 4 and the region half of 2):
// closed surfaces (procedural, and the errors for bad meshes), paths covering every vertex
// exactly once along edges, regions as interval lists equal to the omega-rings.
#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include <glm/gtc/constants.hpp>
#include <gtest/gtest.h>

#include "base/Error.h"
#include "body/BodyLayout.h"
#include "body/SurfaceMesh.h"

namespace floe::test {
namespace {

using body::BodyLayout;

std::string errorOf(const geometry::TriangleMesh& mesh)
{
    try {
        (void)body::closedSurface(mesh);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

TEST(BodyMesh, ProceduralShapesAreClosedWithTheirVolumes)
{
    const double pi = glm::pi<double>();
    const struct {
        geometry::TriangleMesh mesh;
        double volume, tolerance;
    } cases[] = {
        {body::makeSphere(0.5f, 4), 4.0 / 3.0 * pi * 0.125, 0.01},
        {body::makeBox({1.0f, 0.5f, 0.25f}, 8), 0.125, 1e-6},
        {body::makeTorus(0.4f, 0.1f, 48, 24), 2.0 * pi * pi * 0.4 * 0.01, 0.02},
        {body::makeCapsule(0.2f, 0.6f, 32, 8), pi * 0.04 * 0.6 + 4.0 / 3.0 * pi * 0.008, 0.02},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.mesh.name);
        geometry::TriangleMesh closed;
        ASSERT_NO_THROW(closed = body::closedSurface(c.mesh));
        EXPECT_EQ(closed.vertices.size(), c.mesh.vertices.size()) << "procedural shapes have no duplicate vertices";
        EXPECT_NEAR(body::enclosedVolume(closed), c.volume, c.tolerance * c.volume);
        // Euler characteristic: 2 for spheres, boxes and capsules, 0 for the torus.
        std::set<std::pair<uint32_t, uint32_t>> edges;
        for (const glm::uvec3& t : closed.triangles)
            for (int e = 0; e < 3; ++e) edges.insert(std::minmax(t[e], t[(e + 1) % 3]));
        const long chi = long(closed.vertices.size()) - long(edges.size()) + long(closed.triangles.size());
        EXPECT_EQ(chi, c.mesh.name.rfind("torus", 0) == 0 ? 0 : 2);
    }
}

TEST(BodyMesh, BadSurfacesAreRefusedWithTheReason)
{
    geometry::TriangleMesh open = body::makeSphere(1.0f, 1);
    open.name = "open.obj";
    open.triangles.pop_back();
    EXPECT_NE(errorOf(open).find("open.obj"), std::string::npos);
    EXPECT_NE(errorOf(open).find("open"), std::string::npos) << errorOf(open);

    geometry::TriangleMesh inverted = body::makeBox({1, 1, 1}, 2);
    inverted.name = "inverted.obj";
    for (glm::uvec3& t : inverted.triangles) std::swap(t.y, t.z);
    EXPECT_NE(errorOf(inverted).find("inwards"), std::string::npos) << errorOf(inverted);

    // Two boxes sharing one corner vertex: closed, but not a manifold there.
    geometry::TriangleMesh a = body::makeBox({1, 1, 1}, 1), b = body::makeBox({1, 1, 1}, 1);
    geometry::TriangleMesh touching;
    touching.name = "touching.obj";
    for (const glm::vec3& p : a.vertices) touching.vertices.push_back(p);
    for (const glm::vec3& p : b.vertices) touching.vertices.push_back(p + glm::vec3(1, 1, 1));
    for (const glm::uvec3& t : a.triangles) touching.triangles.push_back(t);
    for (const glm::uvec3& t : b.triangles) touching.triangles.push_back(t + glm::uvec3(uint32_t(a.vertices.size())));
    EXPECT_NE(errorOf(touching).find("2-manifold"), std::string::npos) << errorOf(touching);

    geometry::TriangleMesh doubled = body::makeSphere(1.0f, 1);
    doubled.name = "doubled.obj";
    doubled.triangles.push_back(doubled.triangles.front());
    EXPECT_NE(errorOf(doubled).find("shared by"), std::string::npos) << errorOf(doubled);
}

void checkLayout(const BodyLayout& L, uint32_t maxPath)
{
    const size_t n = L.rest.size();
    // Paths: every vertex once, consecutive vertices share an edge, at most maxPath long.
    std::vector<uint32_t> seen(n, 0);
    for (uint32_t v : L.order) ++seen[v];
    for (size_t v = 0; v < n; ++v) ASSERT_EQ(seen[v], 1u) << "vertex " << v;
    size_t length = 0, paths = 0;
    for (size_t p = 0; p < n; ++p) {
        if (L.pathHead[p]) {
            length = 0;
            ++paths;
        } else {
            ASSERT_TRUE(std::binary_search(L.adj[p - 1].begin(), L.adj[p - 1].end(), uint32_t(p))) << "path break at " << p;
        }
        ASSERT_LE(++length, maxPath);
    }
    EXPECT_EQ(paths, L.paths);
    ASSERT_EQ(L.pathHead[0], 1u);
    // Regions: intervals inside one path each, their union the omega-ring.
    for (uint32_t p = 0; p < n; ++p) {
        std::vector<uint32_t> members;
        for (uint32_t k = L.regionStart[p]; k < L.regionStart[p + 1]; ++k) {
            const glm::uvec2 iv = L.intervals[k];
            ASSERT_LE(iv.x, iv.y);
            for (uint32_t q = iv.x; q <= iv.y; ++q) {
                if (q > iv.x) {
                    ASSERT_EQ(L.pathHead[q], 0u) << "interval crosses a path start";
                }
                members.push_back(q);
            }
        }
        ASSERT_EQ(members, body::ring(L.adj, p, L.omega)) << "region " << p;
        ASSERT_EQ(L.regionCount[p], members.size());
    }
}

TEST(BodyLayout, PathsCoverEveryVertexOnceAndRegionsEqualTheRings)
{
    for (int omega = 1; omega <= 5; ++omega) {
        SCOPED_TRACE(omega);
        checkLayout(body::layoutBody(body::makeSphere(1.0f, 3), omega), body::kMaxPathLength);
    }
    // Short paths force many path starts inside regions.
    checkLayout(body::layoutBody(body::makeTorus(0.5f, 0.2f, 40, 16), 2, 37), 37);
    checkLayout(body::layoutBody(body::makeBox({1, 2, 1}, 12), 3, 100), 100);
    checkLayout(body::layoutBody(body::makeCapsule(0.3f, 1.0f, 24, 6), 2), body::kMaxPathLength);
}

TEST(BodyLayout, PathsAreLongWhereTheMeshAllowsIt)
{
    // The heuristic should not shred a regular mesh into tiny paths (cost of the gathers).
    const BodyLayout L = body::layoutBody(body::makeSphere(1.0f, 4), 2);
    EXPECT_LT(L.paths, L.rest.size() / 8) << L.paths << " paths for " << L.rest.size() << " vertices";
    double intervals = double(L.intervals.size()) / double(L.rest.size());
    EXPECT_LT(intervals, 12.0) << "intervals per region";
}

// Interior joints (§2.7.9): on a sphere every inward ray crosses the middle, so each joint
// joins nearly opposite vertices (about a diameter), with the stiffness between 0.01 and 0.1.
TEST(BodyLayout, InteriorJointsCrossTheBody)
{
    const BodyLayout L = body::layoutBody(body::makeSphere(0.5f, 2), 2);
    for (size_t p = 0; p < L.rest.size(); ++p) {
        ASSERT_GE(L.jointPartner[p], 0) << "vertex " << p << " found no triangle inside";
        EXPECT_NEAR(L.jointLength[p], 1.0f, 0.05f) << "vertex " << p;
        EXPECT_GE(L.jointStiffness[p], 0.01f - 1e-6f);
        EXPECT_LE(L.jointStiffness[p], 0.1f + 1e-6f);
    }
    // A thin box: short joints across the thin side are the stiff ones.
    const BodyLayout box = body::layoutBody(body::makeBox({1.0f, 0.1f, 1.0f}, 10), 1);
    for (size_t p = 0; p < box.rest.size(); ++p) {
        if (box.jointPartner[p] >= 0 && box.jointLength[p] < 0.11f) {
            EXPECT_GT(box.jointStiffness[p], 0.09f);
        }
    }
}

TEST(BodyLayout, RejectsBadOmega)
{
    EXPECT_THROW((void)body::layoutBody(body::makeSphere(1.0f, 1), 0), Error);
    EXPECT_THROW((void)body::layoutBody(body::makeSphere(1.0f, 1), 9), Error);
}

} // namespace
} // namespace floe::test
