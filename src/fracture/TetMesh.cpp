#include "fracture/TetMesh.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <map>
#include <numeric>
#include <sstream>

#include <fmt/format.h>
#include <glm/glm.hpp>

#include "base/Error.h"

namespace floe::fracture {

double signedVolume(const glm::vec3& x0, const glm::vec3& x1, const glm::vec3& x2, const glm::vec3& x3)
{
    const glm::dvec3 a = glm::dvec3(x1) - glm::dvec3(x0);
    const glm::dvec3 b = glm::dvec3(x2) - glm::dvec3(x0);
    const glm::dvec3 c = glm::dvec3(x3) - glm::dvec3(x0);
    return glm::dot(a, glm::cross(b, c)) / 6.0;
}

double signedVolume(const TetMesh& mesh, size_t tet)
{
    const glm::uvec4 t = mesh.tets[tet];
    return signedVolume(mesh.nodes[t[0]], mesh.nodes[t[1]], mesh.nodes[t[2]], mesh.nodes[t[3]]);
}

namespace {

double rmsEdge(const TetMesh& mesh, const glm::uvec4& t)
{
    double sum = 0;
    for (int a = 0; a < 4; ++a)
        for (int b = a + 1; b < 4; ++b) {
            const glm::dvec3 e = glm::dvec3(mesh.nodes[t[b]]) - glm::dvec3(mesh.nodes[t[a]]);
            sum += glm::dot(e, e);
        }
    return std::sqrt(sum / 6.0);
}

std::string where(const TetMesh& mesh, size_t tet, const std::vector<size_t>* lines)
{
    if (lines && tet < lines->size()) return fmt::format("{}:{}: tet {}", mesh.name, (*lines)[tet], tet);
    return fmt::format("{}: tet {}", mesh.name, tet);
}

// Orients a file whose tets all have the other corner order, then validates; `lines` names the
// file line of each tet for messages.
TetMesh checked(TetMesh mesh, const std::vector<size_t>* lines, bool orient)
{
    if (mesh.tets.empty()) throw Error(fmt::format("{}: the mesh has no tetrahedra", mesh.name));
    if (mesh.nodes.empty()) throw Error(fmt::format("{}: the mesh has no nodes", mesh.name));
    for (size_t t = 0; t < mesh.tets.size(); ++t) {
        const glm::uvec4 tet = mesh.tets[t];
        for (int c = 0; c < 4; ++c) {
            if (tet[c] >= mesh.nodes.size())
                throw Error(fmt::format("{} refers to node {}, but the mesh has {} nodes", where(mesh, t, lines), tet[c],
                                        mesh.nodes.size()));
            for (int d = 0; d < c; ++d)
                if (tet[c] == tet[d]) throw Error(fmt::format("{} uses node {} twice (degenerate)", where(mesh, t, lines), tet[c]));
        }
    }
    for (const glm::vec3& x : mesh.nodes)
        if (!std::isfinite(x.x) || !std::isfinite(x.y) || !std::isfinite(x.z))
            throw Error(fmt::format("{}: a node has a non-finite coordinate", mesh.name));
    if (orient) {
        size_t negative = 0;
        for (size_t t = 0; t < mesh.tets.size(); ++t) negative += signedVolume(mesh, t) < 0.0 ? 1 : 0;
        if (negative == mesh.tets.size())
            for (glm::uvec4& t : mesh.tets) std::swap(t[1], t[2]);
    }
    size_t positive = 0;
    for (size_t t = 0; t < mesh.tets.size(); ++t) positive += signedVolume(mesh, t) > 0.0 ? 1 : 0;
    for (size_t t = 0; t < mesh.tets.size(); ++t) {
        const double volume = signedVolume(mesh, t);
        const double edge = rmsEdge(mesh, mesh.tets[t]);
        if (std::abs(volume) <= kMinTetQuality * edge * edge * edge)
            throw Error(fmt::format("{} is degenerate: volume {:.3g} m^3 for an rms edge of {:.3g} m (at least {:.0e} "
                                    "times the edge cubed expected)",
                                    where(mesh, t, lines), volume, edge, kMinTetQuality));
        if (volume < 0.0)
            throw Error(fmt::format("{} is inverted: signed volume {:.3g} m^3 while {} of {} tets are positive",
                                    where(mesh, t, lines), volume, positive, mesh.tets.size()));
    }
    // Drop unused nodes.
    std::vector<uint32_t> remap(mesh.nodes.size(), UINT32_MAX);
    for (const glm::uvec4& t : mesh.tets)
        for (int c = 0; c < 4; ++c) remap[t[c]] = 0;
    std::vector<glm::vec3> nodes;
    for (size_t n = 0; n < mesh.nodes.size(); ++n)
        if (remap[n] == 0) {
            remap[n] = uint32_t(nodes.size());
            nodes.push_back(mesh.nodes[n]);
        }
    for (glm::uvec4& t : mesh.tets)
        for (int c = 0; c < 4; ++c) t[c] = remap[t[c]];
    mesh.nodes = std::move(nodes);
    return mesh;
}

// Line reader that skips blank lines and '#' comments and remembers line numbers.
class Lines {
public:
    explicit Lines(const std::filesystem::path& path) : path_(path), in_(path)
    {
        if (!in_) throw Error(fmt::format("{}: cannot open the file", path.string()));
    }
    // Next non-empty line (comments stripped when `comments`); false at the end.
    bool next(std::string& line, bool comments = true)
    {
        while (std::getline(in_, line)) {
            ++number_;
            if (comments)
                if (const size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
            if (line.find_first_not_of(" \t\r") != std::string::npos) return true;
        }
        return false;
    }
    std::string need(const std::string& what, bool comments = true)
    {
        std::string line;
        if (!next(line, comments)) throw Error(fmt::format("{}: the file ends before {}", path_.string(), what));
        return line;
    }
    [[noreturn]] void fail(const std::string& message) const
    {
        throw Error(fmt::format("{}:{}: {}", path_.string(), number_, message));
    }
    size_t number() const { return number_; }

private:
    std::filesystem::path path_;
    std::ifstream in_;
    size_t number_ = 0;
};

template <class T> std::vector<T> numbers(Lines& lines, const std::string& line, size_t atLeast, const char* what)
{
    std::istringstream s(line);
    std::vector<T> out;
    T v;
    while (s >> v) out.push_back(v);
    if (!s.eof() || out.size() < atLeast)
        lines.fail(fmt::format("expected {} (at least {} numbers), got \"{}\"", what, atLeast, line));
    return out;
}

std::filesystem::path sibling(const std::filesystem::path& path, const char* extension)
{
    std::filesystem::path p = path;
    p.replace_extension(extension);
    return p;
}

} // namespace

TetMesh validated(TetMesh mesh)
{
    return checked(std::move(mesh), nullptr, false);
}

TetMesh loadTetGen(const std::filesystem::path& path)
{
    const std::filesystem::path nodePath = sibling(path, ".node"), elePath = sibling(path, ".ele");
    TetMesh mesh;
    mesh.name = elePath.string();
    std::map<long long, uint32_t> ids; // file index -> node
    {
        Lines lines(nodePath);
        const auto header = numbers<long long>(lines, lines.need("the header"), 2, "'<points> <dimension> ...'");
        if (header[1] != 3) lines.fail(fmt::format("dimension {}: only 3D meshes are tetrahedral", header[1]));
        if (header[0] <= 0) lines.fail("the file declares no points");
        for (long long i = 0; i < header[0]; ++i) {
            const auto v =
                numbers<double>(lines, lines.need(fmt::format("point {} of {}", i + 1, header[0])), 4, "'<index> <x> <y> <z>'");
            const long long id = std::llround(v[0]);
            if (!ids.emplace(id, uint32_t(mesh.nodes.size())).second) lines.fail(fmt::format("point index {} repeats", id));
            mesh.nodes.emplace_back(float(v[1]), float(v[2]), float(v[3]));
        }
    }
    std::vector<size_t> tetLines;
    Lines lines(elePath);
    const auto header = numbers<long long>(lines, lines.need("the header"), 2, "'<tetrahedra> <nodes per tet> ...'");
    if (header[1] != 4 && header[1] != 10) lines.fail(fmt::format("{} nodes per tetrahedron: expected 4 or 10", header[1]));
    if (header[0] <= 0) lines.fail("the file declares no tetrahedra");
    for (long long i = 0; i < header[0]; ++i) {
        const auto v = numbers<long long>(lines, lines.need(fmt::format("tetrahedron {} of {}", i + 1, header[0])),
                                          size_t(1 + header[1]), "'<index> <node> <node> <node> <node>'");
        glm::uvec4 t;
        for (int c = 0; c < 4; ++c) {
            const auto it = ids.find(v[1 + c]);
            if (it == ids.end()) lines.fail(fmt::format("node {} is not in {}", v[1 + c], nodePath.string()));
            t[c] = it->second;
        }
        mesh.tets.push_back(t);
        tetLines.push_back(lines.number());
    }
    return checked(std::move(mesh), &tetLines, true);
}

TetMesh loadGmsh(const std::filesystem::path& path)
{
    Lines lines(path);
    TetMesh mesh;
    mesh.name = path.string();
    std::vector<size_t> tetLines;
    std::map<long long, uint32_t> ids;
    double version = 0;
    std::vector<std::array<long long, 4>> raw;
    std::string line;
    while (lines.next(line, false)) {
        if (line.rfind("$MeshFormat", 0) == 0) {
            const auto v = numbers<double>(lines, lines.need("the format line", false), 3, "'<version> <file-type> <size>'");
            version = v[0];
            if (v[1] != 0) lines.fail("binary .msh files are not read: export ASCII (Gmsh: -format msh22 or msh41 -ascii)");
            if (version != 2.2 && std::floor(version) != 4) lines.fail(fmt::format("version {}: expected 2.2 or 4.1", version));
        } else if (line.rfind("$Nodes", 0) == 0) {
            if (version == 0) lines.fail("$Nodes before $MeshFormat");
            if (version < 4) {
                const long long count = numbers<long long>(lines, lines.need("the node count", false), 1, "the node count")[0];
                for (long long i = 0; i < count; ++i) {
                    const auto v = numbers<double>(lines, lines.need("a node", false), 4, "'<tag> <x> <y> <z>'");
                    ids[std::llround(v[0])] = uint32_t(mesh.nodes.size());
                    mesh.nodes.emplace_back(float(v[1]), float(v[2]), float(v[3]));
                }
            } else {
                const auto h =
                    numbers<long long>(lines, lines.need("the node header", false), 4, "'<blocks> <nodes> <min tag> <max tag>'");
                for (long long b = 0; b < h[0]; ++b) {
                    const auto bh =
                        numbers<long long>(lines, lines.need("a node block", false), 4, "'<dim> <entity> <parametric> <nodes>'");
                    if (bh[2] != 0) lines.fail("parametric node coordinates are not read: save without them");
                    std::vector<long long> tags;
                    for (long long i = 0; i < bh[3]; ++i)
                        tags.push_back(numbers<long long>(lines, lines.need("a node tag", false), 1, "a node tag")[0]);
                    for (long long i = 0; i < bh[3]; ++i) {
                        const auto v = numbers<double>(lines, lines.need("node coordinates", false), 3, "'<x> <y> <z>'");
                        ids[tags[i]] = uint32_t(mesh.nodes.size());
                        mesh.nodes.emplace_back(float(v[0]), float(v[1]), float(v[2]));
                    }
                }
            }
        } else if (line.rfind("$Elements", 0) == 0) {
            if (version == 0) lines.fail("$Elements before $MeshFormat");
            auto addTet = [&](const std::vector<long long>& v, size_t first) {
                raw.push_back({v[first], v[first + 1], v[first + 2], v[first + 3]});
                tetLines.push_back(lines.number());
            };
            if (version < 4) {
                const long long count = numbers<long long>(lines, lines.need("the element count", false), 1, "the count")[0];
                for (long long i = 0; i < count; ++i) {
                    const auto v = numbers<long long>(lines, lines.need("an element", false), 3, "'<tag> <type> <tags> ...'");
                    if (v[1] != 4 && v[1] != 11) continue;
                    const size_t first = size_t(3 + v[2]);
                    if (v.size() < first + 4) lines.fail("a tetrahedron needs 4 node tags");
                    addTet(v, first);
                }
            } else {
                const auto h = numbers<long long>(lines, lines.need("the element header", false), 4,
                                                  "'<blocks> <elements> <min tag> <max tag>'");
                for (long long b = 0; b < h[0]; ++b) {
                    const auto bh =
                        numbers<long long>(lines, lines.need("an element block", false), 4, "'<dim> <entity> <type> <elements>'");
                    for (long long i = 0; i < bh[3]; ++i) {
                        const auto v = numbers<long long>(lines, lines.need("an element", false), 2, "'<tag> <nodes> ...'");
                        if (bh[2] != 4 && bh[2] != 11) continue;
                        if (v.size() < 5) lines.fail("a tetrahedron needs 4 node tags");
                        addTet(v, 1);
                    }
                }
            }
        }
    }
    if (version == 0) throw Error(fmt::format("{}: no $MeshFormat section: not a Gmsh .msh file", path.string()));
    for (size_t t = 0; t < raw.size(); ++t) {
        glm::uvec4 tet;
        for (int c = 0; c < 4; ++c) {
            const auto it = ids.find(raw[t][c]);
            if (it == ids.end()) throw Error(fmt::format("{}:{}: node {} is not in $Nodes", path.string(), tetLines[t], raw[t][c]));
            tet[c] = it->second;
        }
        mesh.tets.push_back(tet);
    }
    if (mesh.tets.empty())
        throw Error(fmt::format("{}: no tetrahedra (element type 4 or 11): mesh the volume (Gmsh: -3)", path.string()));
    return checked(std::move(mesh), &tetLines, true);
}

TetMesh loadTetMesh(const std::filesystem::path& path)
{
    const std::string ext = path.extension().string();
    if (ext == ".node" || ext == ".ele") return loadTetGen(path);
    if (ext == ".msh") return loadGmsh(path);
    throw Error(
        fmt::format("{}: unknown tetrahedral mesh format '{}': expected .node/.ele (TetGen) or .msh (Gmsh)", path.string(), ext));
}

std::vector<glm::uvec3> boundaryFaces(const TetMesh& mesh, std::vector<uint32_t>* tetOfFace)
{
    // Faces of a positive tet (a, b, c, d) seen from outside, counter-clockwise.
    static constexpr int kFaces[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
    struct Face {
        int uses = 0;
        glm::uvec3 nodes;
        uint32_t tet = 0;
    };
    std::map<std::array<uint32_t, 3>, Face> faces;
    for (uint32_t t = 0; t < mesh.tets.size(); ++t)
        for (const auto& f : kFaces) {
            const glm::uvec3 face(mesh.tets[t][f[0]], mesh.tets[t][f[1]], mesh.tets[t][f[2]]);
            std::array<uint32_t, 3> key{face.x, face.y, face.z};
            std::sort(key.begin(), key.end());
            auto [it, inserted] = faces.try_emplace(key, Face{0, face, t});
            ++it->second.uses;
        }
    std::vector<glm::uvec3> out;
    if (tetOfFace) tetOfFace->clear();
    for (const auto& [key, face] : faces)
        if (face.uses == 1) {
            out.push_back(face.nodes);
            if (tetOfFace) tetOfFace->push_back(face.tet);
        }
    return out;
}

Incidence incidence(const TetMesh& mesh)
{
    Incidence inc;
    inc.start.assign(mesh.nodes.size() + 1, 0);
    for (const glm::uvec4& t : mesh.tets)
        for (int c = 0; c < 4; ++c) ++inc.start[t[c] + 1];
    std::partial_sum(inc.start.begin(), inc.start.end(), inc.start.begin());
    std::vector<uint32_t> fill(inc.start.begin(), inc.start.end() - 1);
    inc.corner.resize(4 * mesh.tets.size());
    inc.slot.resize(4 * mesh.tets.size());
    for (size_t t = 0; t < mesh.tets.size(); ++t)
        for (int c = 0; c < 4; ++c) {
            const uint32_t s = fill[mesh.tets[t][c]]++;
            inc.corner[s] = uint32_t(4 * t + c);
            inc.slot[4 * t + c] = s;
        }
    return inc;
}

uint32_t componentCount(const TetMesh& mesh)
{
    std::vector<uint32_t> parent(mesh.nodes.size());
    std::iota(parent.begin(), parent.end(), 0u);
    auto find = [&](uint32_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    };
    for (const glm::uvec4& t : mesh.tets)
        for (int c = 1; c < 4; ++c) parent[find(t[c])] = find(t[0]);
    uint32_t count = 0;
    std::vector<char> root(mesh.nodes.size(), 0);
    for (const glm::uvec4& t : mesh.tets) {
        const uint32_t r = find(t[0]);
        if (!root[r]) {
            root[r] = 1;
            ++count;
        }
    }
    return count;
}

} // namespace floe::fracture
