#include "io/MeshExport.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include <fmt/format.h>

#include "base/Error.h"

namespace floe::io {
namespace {

template <class T> void putLittle(std::ostream& out, T value) // x86 and every Vulkan host Floe runs on
{
    static_assert(std::endian::native == std::endian::little);
    out.write(reinterpret_cast<const char*>(&value), sizeof(T));
}

} // namespace

void writeMesh(const std::filesystem::path& path, const MeshFrame& f, ExportFormat format)
{
    std::ofstream out(path, std::ios::binary);
    if (!out) throw Error(fmt::format("cannot write {}", path.string()), ExitCode::Failure);
    const size_t n = f.positions.size();
    auto velocity = [&](size_t i) { return i < f.velocities.size() ? f.velocities[i] : glm::vec3(0.0f); };
    auto pointGroup = [&](size_t i) { return i < f.pointGroup.size() ? f.pointGroup[i] : 0u; };
    if (format == ExportFormat::Ply) {
        std::vector<glm::uvec3> triangles = f.triangles;
        // Only the points the surface uses (a tet mesh's inner nodes are left out), renumbered.
        constexpr uint32_t kUnused = std::numeric_limits<uint32_t>::max();
        std::vector<uint32_t> index(n, kUnused);
        std::vector<uint32_t> used;
        for (glm::uvec3& t : triangles)
            for (int k = 0; k < 3; ++k) {
                if (t[k] >= n) throw Error(fmt::format("{}: a triangle names point {} of {}", path.string(), t[k], n));
                if (index[t[k]] == kUnused) {
                    index[t[k]] = uint32_t(used.size());
                    used.push_back(t[k]);
                }
                t[k] = index[t[k]];
            }
        out << "ply\nformat binary_little_endian 1.0\n"
            << fmt::format("comment Floe {}, step {}, time {} s\n", f.what, f.step, f.time) << "element vertex " << used.size()
            << "\n";
        for (const char* p : {"x", "y", "z", "vx", "vy", "vz"}) out << "property float " << p << "\n";
        out << "element face " << triangles.size() << "\nproperty list uchar int vertex_indices\nproperty int group\nend_header\n";
        for (uint32_t p : used) {
            for (int k = 0; k < 3; ++k) putLittle(out, f.positions[p][k]);
            const glm::vec3 v = velocity(p);
            for (int k = 0; k < 3; ++k) putLittle(out, v[k]);
        }
        for (size_t t = 0; t < triangles.size(); ++t) {
            putLittle(out, uint8_t(3));
            for (int k = 0; k < 3; ++k) putLittle(out, int32_t(triangles[t][k]));
            putLittle(out, int32_t(t < f.triangleGroup.size() ? f.triangleGroup[t] : 0u));
        }
    } else {
        const bool tets = !f.tets.empty();
        const size_t cells = tets ? f.tets.size() : f.triangles.size();
        const int corners = tets ? 4 : 3;
        out << "# vtk DataFile Version 3.0\n"
            << fmt::format("Floe {}, step {}, time {} s\n", f.what, f.step, f.time) << "BINARY\nDATASET UNSTRUCTURED_GRID\n";
        out << "POINTS " << n << " float\n";
        for (const glm::vec3& p : f.positions)
            for (int k = 0; k < 3; ++k) putBigEndian(out, p[k]);
        out << "\nCELLS " << cells << " " << cells * (corners + 1) << "\n";
        for (size_t c = 0; c < cells; ++c) {
            putBigEndian(out, int32_t(corners));
            for (int k = 0; k < corners; ++k) {
                const uint32_t p = tets ? f.tets[c][k] : f.triangles[c][k];
                if (p >= n) throw Error(fmt::format("{}: cell {} names point {} of {}", path.string(), c, p, n));
                putBigEndian(out, int32_t(p));
            }
        }
        out << "\nCELL_TYPES " << cells << "\n";
        for (size_t c = 0; c < cells; ++c) putBigEndian(out, int32_t(tets ? 10 : 5)); // VTK_TETRA, VTK_TRIANGLE
        out << "\nPOINT_DATA " << n << "\nVECTORS velocity float\n";
        for (size_t i = 0; i < n; ++i) {
            const glm::vec3 v = velocity(i);
            for (int k = 0; k < 3; ++k) putBigEndian(out, v[k]);
        }
        out << "\nSCALARS group int 1\nLOOKUP_TABLE default\n";
        for (size_t i = 0; i < n; ++i) putBigEndian(out, int32_t(pointGroup(i)));
        out << "\nCELL_DATA " << cells << "\nSCALARS group int 1\nLOOKUP_TABLE default\n";
        const std::vector<uint32_t>& groups = tets ? f.tetGroup : f.triangleGroup;
        for (size_t c = 0; c < cells; ++c) putBigEndian(out, int32_t(c < groups.size() ? groups[c] : 0u));
        for (const auto& [name, values] : f.cellScalars) {
            out << "\nSCALARS " << name << " float 1\nLOOKUP_TABLE default\n";
            for (size_t c = 0; c < cells; ++c) putBigEndian(out, c < values.size() ? values[c] : 0.0f);
        }
        out << "\n";
    }
    if (!out) throw Error(fmt::format("cannot write {}", path.string()), ExitCode::Failure);
}

MeshFrame readMeshPly(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(fmt::format("{}: cannot open", path.string()));
    std::string line;
    size_t vertices = 0, faces = 0;
    int vertexProperties = 0;
    std::string element;
    while (std::getline(in, line) && line != "end_header") {
        std::istringstream s(line);
        std::string word;
        s >> word;
        if (word == "element") {
            size_t count = 0;
            s >> element >> count;
            (element == "vertex" ? vertices : faces) = count;
        } else if (word == "property" && element == "vertex") {
            ++vertexProperties;
        }
    }
    if (vertexProperties != 6)
        throw Error(fmt::format("{}: not a Floe mesh PLY ({} vertex properties)", path.string(), vertexProperties));
    MeshFrame f;
    for (size_t i = 0; i < vertices; ++i) {
        float r[6];
        in.read(reinterpret_cast<char*>(r), sizeof(r));
        f.positions.emplace_back(r[0], r[1], r[2]);
        f.velocities.emplace_back(r[3], r[4], r[5]);
    }
    for (size_t t = 0; t < faces; ++t) {
        uint8_t count = 0;
        int32_t idx[3], group = 0;
        in.read(reinterpret_cast<char*>(&count), 1);
        if (count != 3) throw Error(fmt::format("{}: face {} has {} corners", path.string(), t, int(count)));
        in.read(reinterpret_cast<char*>(idx), sizeof(idx));
        in.read(reinterpret_cast<char*>(&group), sizeof(group));
        f.triangles.emplace_back(uint32_t(idx[0]), uint32_t(idx[1]), uint32_t(idx[2]));
        f.triangleGroup.push_back(uint32_t(group));
    }
    if (!in) throw Error(fmt::format("{}: truncated", path.string()));
    return f;
}

} // namespace floe::io
