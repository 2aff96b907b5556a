// Solid exports (io/MeshExport): the fragments' surfaces a cut leaves are closed and face
// outwards, the PLY reads back as written, and the VTK grid holds every point and tet.
#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "base/Error.h"
#include "fracture/TetMesh.h"
#include "fracture/TetShapes.h"
#include "io/MeshExport.h"

using namespace floe;

namespace {

std::filesystem::path scratch(const std::string& name)
{
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "floe-mesh-export-test";
    std::filesystem::create_directories(dir);
    return dir / name;
}

// A unit cube of tets cut at x = 0 the way fracture's cuts do it: the tets right of the plane
// get copies of their nodes on it, so the two halves share no node.
struct CutCube {
    fracture::TetMesh mesh;
    std::vector<uint32_t> side; // per tet: 0 left, 1 right
};
CutCube cutCube()
{
    fracture::TetShapeDesc d;
    d.shape = fracture::TetShape::Cube;
    d.resolution = 4;
    CutCube c;
    c.mesh = fracture::makeTetShape(d);
    std::map<uint32_t, uint32_t> copy;
    for (glm::uvec4& t : c.mesh.tets) {
        glm::vec3 centre(0.0f);
        for (int k = 0; k < 4; ++k) centre += 0.25f * c.mesh.nodes[t[k]];
        c.side.push_back(centre.x > 0.0f ? 1u : 0u);
        if (centre.x <= 0.0f) continue;
        for (int k = 0; k < 4; ++k) {
            if (std::abs(c.mesh.nodes[t[k]].x) > 1e-6f) continue;
            auto [it, added] = copy.try_emplace(t[k], uint32_t(c.mesh.nodes.size()));
            if (added) c.mesh.nodes.push_back(c.mesh.nodes[t[k]]);
            t[k] = it->second;
        }
    }
    return c;
}

double volumeUnder(const std::vector<glm::vec3>& x, const std::vector<glm::uvec3>& triangles, const std::vector<uint32_t>& groups,
                   uint32_t group)
{
    double v = 0;
    for (size_t t = 0; t < triangles.size(); ++t)
        if (groups[t] == group)
            v += fracture::signedVolume(glm::vec3(0.0f), x[triangles[t].x], x[triangles[t].y], x[triangles[t].z]);
    return v;
}

} // namespace

TEST(MeshExport, FragmentSurfacesAreClosedFaceOutwardsAndReadBack)
{
    const CutCube c = cutCube();
    io::MeshFrame f;
    f.positions = c.mesh.nodes;
    for (const glm::vec3& x : f.positions) f.velocities.push_back(2.0f * x);
    f.tets = c.mesh.tets;
    f.tetGroup = c.side;
    std::vector<uint32_t> tetOfFace;
    f.triangles = fracture::boundaryFaces(c.mesh, &tetOfFace);
    for (uint32_t t : tetOfFace) f.triangleGroup.push_back(c.side[t]);
    // The cube's 6 x 16 x 2 outer faces and the cut's 16 x 2 on each half.
    EXPECT_EQ(f.triangles.size(), 6u * 32u + 2u * 32u);

    const std::filesystem::path path = scratch("cut.ply");
    io::writeMesh(path, f, io::ExportFormat::Ply);
    const io::MeshFrame back = io::readMeshPly(path);
    ASSERT_EQ(back.triangles.size(), f.triangles.size());
    std::map<uint32_t, int> used;
    for (const glm::uvec3& t : f.triangles)
        for (int k = 0; k < 3; ++k) used[t[k]] = 1;
    EXPECT_EQ(back.positions.size(), used.size()) << "inner nodes are left out";
    EXPECT_LT(used.size(), c.mesh.nodes.size());
    for (size_t t = 0; t < f.triangles.size(); ++t) {
        EXPECT_EQ(back.triangleGroup[t], f.triangleGroup[t]);
        for (int k = 0; k < 3; ++k) {
            EXPECT_EQ(back.positions[back.triangles[t][k]], f.positions[f.triangles[t][k]]);
            EXPECT_EQ(back.velocities[back.triangles[t][k]], f.velocities[f.triangles[t][k]]);
        }
    }
    // Each half: closed (every edge used once each way) and enclosing its tets' volume, which
    // only outward faces give.
    for (uint32_t half : {0u, 1u}) {
        std::map<std::pair<uint32_t, uint32_t>, int> edges;
        for (size_t t = 0; t < back.triangles.size(); ++t)
            if (back.triangleGroup[t] == half)
                for (int k = 0; k < 3; ++k) ++edges[{back.triangles[t][k], back.triangles[t][(k + 1) % 3]}];
        for (const auto& [edge, uses] : edges) {
            const std::pair<uint32_t, uint32_t> reverse(edge.second, edge.first);
            EXPECT_EQ(edges.count(reverse) ? edges.at(reverse) : 0, uses) << "half " << half;
        }
        double tets = 0;
        for (size_t t = 0; t < c.mesh.tets.size(); ++t)
            if (c.side[t] == half) tets += fracture::signedVolume(c.mesh, t);
        EXPECT_NEAR(volumeUnder(back.positions, back.triangles, back.triangleGroup, half), tets, 1e-6) << "half " << half;
        EXPECT_NEAR(tets, 0.5, 1e-6);
    }
}

TEST(MeshExport, VtkGridHoldsEveryPointAndTetBigEndian)
{
    const CutCube c = cutCube();
    io::MeshFrame f;
    f.positions = c.mesh.nodes;
    f.tets = c.mesh.tets;
    f.tetGroup = c.side;
    f.cellScalars = {{"damage", std::vector<float>(c.mesh.tets.size(), 0.25f)}};
    const std::filesystem::path path = scratch("cut.vtk");
    io::writeMesh(path, f, io::ExportFormat::Vtk);
    std::ifstream in(path, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto big = [&](size_t at) {
        const auto* b = reinterpret_cast<const unsigned char*>(text.data() + at);
        return uint32_t(b[0]) << 24 | uint32_t(b[1]) << 16 | uint32_t(b[2]) << 8 | uint32_t(b[3]);
    };
    const size_t points = text.find("POINTS " + std::to_string(f.positions.size()) + " float\n");
    ASSERT_NE(points, std::string::npos);
    const size_t first = text.find('\n', points) + 1;
    for (int k = 0; k < 3; ++k) EXPECT_EQ(std::bit_cast<float>(big(first + 4 * k)), f.positions[0][k]);
    const std::string cells = "CELLS " + std::to_string(f.tets.size()) + " " + std::to_string(5 * f.tets.size()) + "\n";
    const size_t at = text.find(cells);
    ASSERT_NE(at, std::string::npos);
    const size_t cell = at + cells.size();
    EXPECT_EQ(big(cell), 4u);
    for (int k = 0; k < 4; ++k) EXPECT_EQ(big(cell + 4 + 4 * k), f.tets[0][k]);
    const std::string types = "CELL_TYPES " + std::to_string(f.tets.size()) + "\n";
    ASSERT_NE(text.find(types), std::string::npos);
    EXPECT_EQ(big(text.find(types) + types.size()), 10u) << "VTK_TETRA";
    for (const char* section :
         {"POINT_DATA", "VECTORS velocity float", "SCALARS group int 1", "CELL_DATA", "SCALARS damage float 1"})
        EXPECT_NE(text.find(section), std::string::npos) << section;
}

TEST(MeshExport, BadPathsAndIndicesAreErrorsNamingTheFile)
{
    io::MeshFrame f;
    f.positions = {glm::vec3(0.0f), glm::vec3(1.0f, 0.0f, 0.0f), glm::vec3(0.0f, 1.0f, 0.0f)};
    f.triangles = {glm::uvec3(0, 1, 3)};
    for (const io::ExportFormat format : {io::ExportFormat::Ply, io::ExportFormat::Vtk}) {
        const std::filesystem::path bad = scratch("bad") / "missing" / "x.ply";
        try {
            io::writeMesh(bad, f, format);
            ADD_FAILURE() << "no error";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("x.ply"), std::string::npos) << e.what();
        }
        try {
            io::writeMesh(scratch("index.out"), f, format);
            ADD_FAILURE() << "no error";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("point 3 of 3"), std::string::npos) << e.what();
        }
    }
}
