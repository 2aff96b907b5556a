// Tetrahedral meshes for fracture: the generator's six objects, TetGen and Gmsh import with
// their errors, the boundary surface, the incidence CSR, the rest shape functions and the CPU
// reference's eigen-decomposition and stress split.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <numbers>
#include <random>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "FractureReference.h"
#include "base/Error.h"
#include "body/SurfaceMesh.h"
#include "fracture/Elasticity.h"
#include "fracture/Pieces.h"
#include "fracture/TetMesh.h"
#include "fracture/TetShapes.h"

using namespace floe;
using namespace floe::fracture;

namespace {

double meshVolume(const TetMesh& m)
{
    double v = 0;
    for (size_t t = 0; t < m.tets.size(); ++t) v += signedVolume(m, t);
    return v;
}

// Volume enclosed by the boundary faces (divergence theorem): equals the tets' volume only if
// the surface is closed and outward.
double surfaceVolume(const TetMesh& m)
{
    double v = 0;
    for (const glm::uvec3& f : boundaryFaces(m)) v += signedVolume(glm::vec3(0.0f), m.nodes[f.x], m.nodes[f.y], m.nodes[f.z]);
    return v;
}

std::filesystem::path tempDir()
{
    const auto dir = std::filesystem::temp_directory_path() /
                     fmt::format("floe_tet_{}", ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir);
    return dir;
}

void writeTetGen(const TetMesh& m, const std::filesystem::path& base, int firstIndex, bool flip)
{
    std::ofstream node(base.string() + ".node"), ele(base.string() + ".ele");
    node << "# written by a test\n" << m.nodes.size() << " 3 0 1\n";
    for (size_t i = 0; i < m.nodes.size(); ++i)
        node << i + firstIndex << " " << m.nodes[i].x << " " << m.nodes[i].y << " " << m.nodes[i].z << " 0\n";
    ele << m.tets.size() << " 4 0\n";
    for (size_t t = 0; t < m.tets.size(); ++t) {
        glm::uvec4 q = m.tets[t];
        if (flip) std::swap(q[2], q[3]);
        ele << t + firstIndex << " " << q[0] + firstIndex << " " << q[1] + firstIndex << " " << q[2] + firstIndex << " "
            << q[3] + firstIndex << "\n";
    }
}

std::string expectError(const std::function<void()>& f)
{
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    ADD_FAILURE() << "no floe::Error thrown";
    return {};
}

} // namespace

TEST(TetShapes, EveryObjectIsValidClosedConnectedAndHasItsVolume)
{
    const double pi = std::numbers::pi;
    struct Case {
        TetShape shape;
        glm::vec3 size;
        double volume, tolerance;
    };
    const double holes = (2 * std::pow(0.13, 2) + std::pow(0.11, 2)) * pi; // cube_with_holes, edge 1
    const Case cases[] = {
        {TetShape::Sphere, glm::vec3(1.0f), pi / 6.0, 0.04},
        {TetShape::Cone, glm::vec3(1.0f, 1.5f, 1.0f), pi * 0.25 * 1.5 / 3.0, 0.06},
        {TetShape::Cube, glm::vec3(0.8f), 0.512, 1e-5},
        {TetShape::Cuboid, glm::vec3(2.0f, 0.5f, 1.0f), 1.0, 1e-5},
        {TetShape::Fichera, glm::vec3(1.0f), 0.875, 1e-5},
        {TetShape::CubeWithHoles, glm::vec3(1.0f), 1.0 - holes, 0.05},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(tetShapeName(c.shape));
        TetShapeDesc d;
        d.shape = c.shape;
        d.size = c.size;
        d.resolution = 12;
        const TetMesh m = makeTetShape(d);
        EXPECT_GT(m.tets.size(), 100u);
        for (size_t t = 0; t < m.tets.size(); ++t) ASSERT_GT(signedVolume(m, t), 0.0) << "tet " << t;
        const double v = meshVolume(m);
        EXPECT_NEAR(v, c.volume, c.tolerance * c.volume);
        EXPECT_NEAR(surfaceVolume(m), v, 1e-5 * v);
        EXPECT_EQ(componentCount(m), 1u);
        // Every node within one lattice cell of the surface (most lie on it).
        // (the cone's graded lattice has cells up to tipRefinement times the uniform size)
        const float cell = std::max(c.size.x, std::max(c.size.y, c.size.z)) / float(d.resolution) * d.tipRefinement;
        for (const glm::vec3& x : m.nodes) EXPECT_LT(tetShapeDistance(d, x), cell);
    }
}

// A closed OBJ surface (FractureBodies shape mesh with an .obj; dynamic blocks of any shape) is
// filled with the generator's lattice: a box exactly, a sphere and a torus (not convex, with a
// hole) within a few % of the volume they enclose, one connected body, every node within a
// lattice cell of the surface; open meshes and bad resolutions are refused.
TEST(TetShapes, ClosedSurfacesAreFilledWithTheirVolume)
{
    geometry::TriangleMesh box = geometry::loadObj(std::filesystem::path(FLOE_SOURCE_DIR) / "assets/meshes/UnitBox.obj");
    box = geometry::transformed(box, geometry::Transform{{0.3f, 0.2f, 0.1f}, {0.5f, 0.2f, 0.3f}, {0, 0, 1}, 0.0f});
    struct Case {
        const char* name;
        geometry::TriangleMesh surface;
        double tolerance;
    };
    const Case cases[] = {
        {"box", box, 1e-5}, {"sphere", body::makeSphere(0.5f, 3), 0.04}, {"torus", body::makeTorus(0.4f, 0.15f, 32, 16), 0.06}};
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        // 16 cells across the torus's 1.1 m: its tube, 0.3 m across, spans four (12: 6.2 % short).
        const int resolution = c.name == std::string("torus") ? 16 : 12;
        const TetMesh m = makeTetSurface(c.surface, resolution);
        for (size_t t = 0; t < m.tets.size(); ++t) ASSERT_GT(signedVolume(m, t), 0.0) << "tet " << t;
        const double v = meshVolume(m), enclosed = body::enclosedVolume(c.surface);
        EXPECT_NEAR(v, enclosed, c.tolerance * enclosed);
        EXPECT_EQ(componentCount(m), 1u);
        const geometry::Bounds b = geometry::boundsOf(c.surface);
        const float cell = std::max(b.hi.x - b.lo.x, std::max(b.hi.y - b.lo.y, b.hi.z - b.lo.z)) / float(resolution);
        for (const glm::vec3& x : m.nodes) EXPECT_LT(surfaceDistance(c.surface, x), cell);
    }
    // The signed distance: negative inside, positive outside, the distance to the nearest face.
    const geometry::TriangleMesh sphere = body::makeSphere(0.5f, 3);
    EXPECT_LT(surfaceDistance(sphere, glm::vec3(0.0f)), -0.45f);
    EXPECT_NEAR(surfaceDistance(box, glm::vec3(0.3f, 0.2f, 0.4f)), 0.15f, 1e-5f);
    geometry::TriangleMesh open = box;
    open.triangles.pop_back();
    EXPECT_NE(expectError([&] { makeTetSurface(open, 8); }).find("not a closed surface"), std::string::npos);
    EXPECT_NE(expectError([&] { makeTetSurface(box, 1); }).find("resolution 1"), std::string::npos);
}

TEST(TetShapes, ConeIsFinerAtItsTipAndResolutionScalesTheCount)
{
    TetShapeDesc d;
    d.shape = TetShape::Cone;
    d.size = glm::vec3(1.0f, 1.5f, 1.0f);
    d.resolution = 10;
    // Mean tet size (cube root of the volume) in the top fifth of the cone.
    auto tipSize = [](const TetMesh& m) {
        double sum = 0;
        int n = 0;
        for (size_t t = 0; t < m.tets.size(); ++t) {
            const glm::vec3 c =
                0.25f * (m.nodes[m.tets[t][0]] + m.nodes[m.tets[t][1]] + m.nodes[m.tets[t][2]] + m.nodes[m.tets[t][3]]);
            if (c.y > 0.45f) sum += std::cbrt(signedVolume(m, t)), ++n;
        }
        EXPECT_GT(n, 0);
        return sum / std::max(n, 1);
    };
    const TetMesh graded = makeTetShape(d);
    d.tipRefinement = 1.0f;
    const TetMesh uniform = makeTetShape(d);
    EXPECT_LT(tipSize(graded), 0.8 * tipSize(uniform));
    d.resolution = 20;
    EXPECT_GT(makeTetShape(d).tets.size(), 6 * uniform.tets.size());
}

TEST(TetShapes, RefusesBadParameters)
{
    TetShapeDesc d;
    d.resolution = 1;
    EXPECT_NE(expectError([&] { makeTetShape(d); }).find("resolution 1"), std::string::npos);
    d.resolution = 8;
    d.size = glm::vec3(1.0f, -1.0f, 1.0f);
    EXPECT_NE(expectError([&] { makeTetShape(d); }).find("size"), std::string::npos);
    d.size = glm::vec3(1.0f);
    d.shape = TetShape::Cone;
    d.tipRefinement = 5.0f;
    EXPECT_NE(expectError([&] { makeTetShape(d); }).find("tipRefinement"), std::string::npos);
    EXPECT_FALSE(tetShapeFromName("teapot"));
    EXPECT_EQ(*tetShapeFromName("cube_with_holes"), TetShape::CubeWithHoles);
}

TEST(TetMeshImport, TetGenRoundTripsInBothIndexBasesAndOrientations)
{
    TetShapeDesc d;
    d.shape = TetShape::Sphere;
    d.resolution = 6;
    const TetMesh m = makeTetShape(d);
    const auto dir = tempDir();
    for (int first : {0, 1})
        for (bool flip : {false, true}) {
            SCOPED_TRACE(fmt::format("first index {}, flipped {}", first, flip));
            writeTetGen(m, dir / "mesh", first, flip);
            const TetMesh loaded = loadTetMesh(dir / "mesh.ele");
            ASSERT_EQ(loaded.tets.size(), m.tets.size());
            EXPECT_NEAR(meshVolume(loaded), meshVolume(m), 1e-5 * meshVolume(m));
            for (size_t t = 0; t < loaded.tets.size(); ++t) EXPECT_GT(signedVolume(loaded, t), 0.0);
        }
}

TEST(TetMeshImport, TetGenErrorsNameTheFileLineAndReason)
{
    TetShapeDesc d;
    d.resolution = 3;
    TetMesh m = makeTetShape(d);
    const auto dir = tempDir();
    // One inverted tet among positive ones.
    TetMesh inverted = m;
    std::swap(inverted.tets[5][0], inverted.tets[5][1]);
    writeTetGen(inverted, dir / "inv", 1, false);
    std::string e = expectError([&] { loadTetGen(dir / "inv.node"); });
    EXPECT_NE(e.find("inv.ele:7: tet 5 is inverted"), std::string::npos) << e;
    // A flat tet: its fourth corner moved into the plane of the other three.
    TetMesh flat = m;
    const glm::uvec4 t = flat.tets[0];
    flat.nodes.push_back((flat.nodes[t[0]] + flat.nodes[t[1]] + flat.nodes[t[2]]) / 3.0f);
    flat.tets[0][3] = uint32_t(flat.nodes.size() - 1);
    writeTetGen(flat, dir / "flat", 0, false);
    e = expectError([&] { loadTetGen(dir / "flat.ele"); });
    EXPECT_NE(e.find("tet 0 is degenerate"), std::string::npos) << e;
    // A reference to a missing node, a malformed line, a 2D file, a missing file.
    std::ofstream(dir / "missing.node") << "1 3 0 0\n0 0 0 0\n";
    std::ofstream(dir / "missing.ele") << "1 4 0\n0 0 1 2 3\n";
    e = expectError([&] { loadTetGen(dir / "missing.ele"); });
    EXPECT_NE(e.find("missing.ele:2: node 1 is not in"), std::string::npos) << e;
    std::ofstream(dir / "junk.node") << "4 3 0 0\n0 0 0 0\n1 1 x 0\n";
    e = expectError([&] { loadTetGen(dir / "junk.ele"); });
    EXPECT_NE(e.find("junk.node:3: expected"), std::string::npos) << e;
    std::ofstream(dir / "flat2d.node") << "3 2 0 0\n";
    e = expectError([&] { loadTetGen(dir / "flat2d.node"); });
    EXPECT_NE(e.find("dimension 2"), std::string::npos) << e;
    e = expectError([&] { loadTetMesh(dir / "nothing.ele"); });
    EXPECT_NE(e.find("cannot open"), std::string::npos) << e;
    e = expectError([&] { loadTetMesh(dir / "mesh.obj"); });
    EXPECT_NE(e.find("unknown tetrahedral mesh format"), std::string::npos) << e;
}

TEST(TetMeshImport, GmshVersions22And41)
{
    TetShapeDesc d;
    d.shape = TetShape::Fichera;
    d.resolution = 4;
    const TetMesh m = makeTetShape(d);
    const auto dir = tempDir();
    {
        std::ofstream f(dir / "v2.msh");
        f << "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n" << m.nodes.size() << "\n";
        for (size_t i = 0; i < m.nodes.size(); ++i)
            f << i + 10 << " " << m.nodes[i].x << " " << m.nodes[i].y << " " << m.nodes[i].z << "\n";
        f << "$EndNodes\n$Elements\n" << m.tets.size() + 1 << "\n1 2 2 0 1 10 11 12\n"; // a surface triangle, skipped
        for (size_t t = 0; t < m.tets.size(); ++t)
            f << t + 2 << " 4 2 0 1 " << m.tets[t][0] + 10 << " " << m.tets[t][1] + 10 << " " << m.tets[t][2] + 10 << " "
              << m.tets[t][3] + 10 << "\n";
        f << "$EndElements\n";
    }
    {
        std::ofstream f(dir / "v4.msh");
        f << "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 " << m.nodes.size() << " 1 " << m.nodes.size() << "\n3 1 0 "
          << m.nodes.size() << "\n";
        for (size_t i = 0; i < m.nodes.size(); ++i) f << i + 1 << "\n";
        for (const glm::vec3& x : m.nodes) f << x.x << " " << x.y << " " << x.z << "\n";
        f << "$EndNodes\n$Elements\n1 " << m.tets.size() << " 1 " << m.tets.size() << "\n3 1 4 " << m.tets.size() << "\n";
        for (size_t t = 0; t < m.tets.size(); ++t)
            f << t + 1 << " " << m.tets[t][0] + 1 << " " << m.tets[t][1] + 1 << " " << m.tets[t][2] + 1 << " " << m.tets[t][3] + 1
              << "\n";
        f << "$EndElements\n";
    }
    for (const char* name : {"v2.msh", "v4.msh"}) {
        SCOPED_TRACE(name);
        const TetMesh loaded = loadTetMesh(dir / name);
        EXPECT_EQ(loaded.tets.size(), m.tets.size());
        EXPECT_NEAR(meshVolume(loaded), 0.875, 1e-5);
    }
    std::ofstream(dir / "binary.msh") << "$MeshFormat\n4.1 1 8\n$EndMeshFormat\n";
    std::string e = expectError([&] { loadGmsh(dir / "binary.msh"); });
    EXPECT_NE(e.find("binary.msh:2: binary .msh files are not read"), std::string::npos) << e;
    std::ofstream(dir / "surface.msh") << "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n3\n1 0 0 0\n2 1 0 0\n3 0 1 0\n"
                                          "$EndNodes\n$Elements\n1\n1 2 0 1 2 3\n$EndElements\n";
    e = expectError([&] { loadGmsh(dir / "surface.msh"); });
    EXPECT_NE(e.find("no tetrahedra"), std::string::npos) << e;
    std::ofstream(dir / "nothing.msh") << "hello\n";
    e = expectError([&] { loadGmsh(dir / "nothing.msh"); });
    EXPECT_NE(e.find("not a Gmsh .msh file"), std::string::npos) << e;
}

TEST(TetMesh, IncidenceListsEveryCornerOnceInNodeOrder)
{
    TetShapeDesc d;
    d.shape = TetShape::CubeWithHoles;
    d.resolution = 8;
    const TetMesh m = makeTetShape(d);
    const Incidence inc = incidence(m);
    ASSERT_EQ(inc.start.size(), m.nodes.size() + 1);
    ASSERT_EQ(inc.start.back(), 4 * m.tets.size());
    std::vector<int> seen(4 * m.tets.size(), 0);
    for (uint32_t n = 0; n < m.nodes.size(); ++n) {
        EXPECT_LT(inc.start[n], inc.start[n + 1]) << "node " << n << " has no tet";
        for (uint32_t s = inc.start[n]; s < inc.start[n + 1]; ++s) {
            const uint32_t corner = inc.corner[s];
            EXPECT_EQ(m.tets[corner / 4][corner % 4], n);
            EXPECT_EQ(inc.slot[corner], s);
            ++seen[corner];
        }
    }
    for (int s : seen) EXPECT_EQ(s, 1);
}

TEST(TetMesh, RestShapeFunctionsReproduceTheRestPositions)
{
    TetShapeDesc d;
    d.shape = TetShape::Sphere;
    d.resolution = 6;
    const TetMesh m = makeTetShape(d);
    const std::vector<TetRest> rest = restData(m);
    for (size_t t = 0; t < m.tets.size(); ++t) {
        glm::dvec3 sum(0.0);
        glm::dmat3 F(0.0); // sum_i u_i b_i^T = I
        for (int i = 0; i < 4; ++i) {
            sum += glm::dvec3(rest[t].b[i]);
            F += glm::outerProduct(glm::dvec3(m.nodes[m.tets[t][i]]), glm::dvec3(rest[t].b[i]));
        }
        const double h = 1.0 / glm::length(glm::dvec3(rest[t].b[0]));
        EXPECT_LT(glm::length(sum) * h, 1e-4);
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) EXPECT_NEAR(F[c][r], r == c ? 1.0 : 0.0, 1e-4);
        EXPECT_NEAR(rest[t].volume, signedVolume(m, t), 1e-6 * std::abs(signedVolume(m, t)));
    }
    EXPECT_TRUE(materialPreset("iron"));
    EXPECT_FLOAT_EQ(materialPreset("iron")->tau, 24.82f);
    EXPECT_FALSE(materialPreset("lead"));
}

TEST(FractureReference, EigenDecompositionAndTensileCompressiveSplit)
{
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int k = 0; k < 50; ++k) {
        glm::dmat3 A;
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c <= r; ++c) A[c][r] = A[r][c] = u(rng);
        glm::dvec3 w;
        glm::dmat3 V;
        reference::symmetricEigen(A, w, V);
        const glm::dmat3 back = V * glm::dmat3(w.x, 0, 0, 0, w.y, 0, 0, 0, w.z) * glm::transpose(V);
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) ASSERT_NEAR(back[c][r], A[c][r], 1e-12);
        // A deformed tet: sigma+ + sigma- = sigma, sigma+ >= 0 >= sigma-.
        glm::dvec3 rest[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, x[4], v[4];
        for (int i = 0; i < 4; ++i) {
            x[i] = rest[i] + 0.2 * glm::dvec3(u(rng), u(rng), u(rng));
            v[i] = glm::dvec3(u(rng), u(rng), u(rng));
        }
        const auto s = reference::tetStress(rest, x, v, glm::dvec4(0.4, 0.6, 1.0, 1.4));
        glm::dvec3 wp, wm;
        glm::dmat3 Vp, Vm;
        reference::symmetricEigen(s.tensile, wp, Vp);
        reference::symmetricEigen(s.compressive, wm, Vm);
        for (int i = 0; i < 3; ++i) {
            EXPECT_GE(wp[i], -1e-12);
            EXPECT_LE(wm[i], 1e-12);
            for (int j = 0; j < 3; ++j) EXPECT_NEAR(s.tensile[i][j] + s.compressive[i][j], s.stress[i][j], 1e-12);
        }
    }
}

TEST(Pieces, VoronoiPiecesShareNoNodeAndLinksRestoreTheMesh)
{
    // digest-004 §3.4: pre-fractured pieces (Voronoi cells of tets, or single tets); every node
    // shared by pieces is copied per piece and the copies are linked pairwise.
    TetShapeDesc d;
    d.shape = TetShape::Cuboid;
    d.size = glm::vec3(2.0f, 1.0f, 1.0f);
    d.resolution = 8;
    const TetMesh mesh = makeTetShape(d);
    for (uint32_t sites : {0u, 1u, 20u}) {
        const PiecedMesh p = preFracture(mesh, sites, 7);
        SCOPED_TRACE(fmt::format("sites {}", sites));
        EXPECT_EQ(p.pieces, sites == 0 ? mesh.tets.size() : sites);
        ASSERT_EQ(p.mesh.tets.size(), mesh.tets.size());
        ASSERT_EQ(p.origin.size(), p.mesh.nodes.size());
        EXPECT_EQ(validated(p.mesh).nodes.size(), p.mesh.nodes.size()) << "every copy is used by a tet";
        // No node is shared by two pieces; each tet keeps its corners' positions.
        std::vector<uint32_t> pieceOf(p.mesh.nodes.size(), ~0u);
        for (size_t t = 0; t < p.mesh.tets.size(); ++t)
            for (int i = 0; i < 4; ++i) {
                const uint32_t n = p.mesh.tets[t][i];
                ASSERT_TRUE(pieceOf[n] == ~0u || pieceOf[n] == p.tetPiece[t]) << "node " << n << " in two pieces";
                pieceOf[n] = p.tetPiece[t];
                EXPECT_EQ(p.origin[n], mesh.tets[t][i]);
                EXPECT_EQ(p.mesh.nodes[n], mesh.nodes[mesh.tets[t][i]]);
            }
        // Links join copies of one node in two different pieces; merging them gives the input.
        std::vector<uint32_t> parent(p.mesh.nodes.size());
        for (size_t n = 0; n < parent.size(); ++n) parent[n] = uint32_t(n);
        std::function<uint32_t(uint32_t)> find = [&](uint32_t x) { return parent[x] == x ? x : parent[x] = find(parent[x]); };
        for (size_t l = 0; l < p.links.size(); ++l) {
            const glm::uvec2 k = p.links[l];
            EXPECT_EQ(p.origin[k.x], p.origin[k.y]);
            EXPECT_LT(p.between[l].x, p.between[l].y);
            EXPECT_EQ(glm::uvec2(pieceOf[k.x], pieceOf[k.y]), p.between[l]);
            parent[find(k.x)] = find(k.y);
        }
        uint32_t merged = 0;
        for (uint32_t n = 0; n < parent.size(); ++n) merged += find(n) == n ? 1 : 0;
        EXPECT_EQ(merged, mesh.nodes.size());
        if (sites == 1) {
            EXPECT_TRUE(p.links.empty());
        }
    }
    // The sites are seeded: the same seed gives the same pieces.
    EXPECT_EQ(preFracture(mesh, 20, 7).tetPiece, preFracture(mesh, 20, 7).tetPiece);
    EXPECT_NE(preFracture(mesh, 20, 7).tetPiece, preFracture(mesh, 20, 8).tetPiece);
}
