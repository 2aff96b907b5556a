#include "body/SurfaceMesh.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include <fmt/format.h>
#include <glm/geometric.hpp>
#include <glm/gtc/constants.hpp>

#include "base/Error.h"

namespace floe::body {
namespace {

using geometry::TriangleMesh;

// Adds vertex p, reusing an identical one.
struct Welder {
    std::map<std::tuple<float, float, float>, uint32_t> index;
    TriangleMesh mesh;
    uint32_t add(const glm::vec3& p)
    {
        const auto [it, inserted] = index.emplace(std::make_tuple(p.x, p.y, p.z), static_cast<uint32_t>(mesh.vertices.size()));
        if (inserted) mesh.vertices.push_back(p);
        return it->second;
    }
    void triangle(uint32_t a, uint32_t b, uint32_t c)
    {
        if (a != b && b != c && a != c) mesh.triangles.push_back({a, b, c});
    }
};

} // namespace

TriangleMesh closedSurface(const TriangleMesh& input)
{
    const std::string name = input.name.empty() ? "mesh" : input.name;
    Welder w;
    w.mesh.name = input.name;
    std::vector<uint32_t> map(input.vertices.size());
    for (size_t v = 0; v < input.vertices.size(); ++v) map[v] = w.add(input.vertices[v]);
    for (const glm::uvec3& t : input.triangles) {
        const uint32_t a = map[t.x], b = map[t.y], c = map[t.z];
        if (a == b || b == c || a == c)
            throw Error(fmt::format("{}: a triangle has two vertices at the same position (degenerate); a deformable body needs "
                                    "a clean closed surface",
                                    name));
        w.triangle(a, b, c);
    }
    TriangleMesh& mesh = w.mesh;
    if (mesh.triangles.size() < 4)
        throw Error(fmt::format("{}: {} triangles cannot enclose a volume", name, mesh.triangles.size()));
    // Every directed edge once, and its opposite once: closed, consistently oriented, each
    // edge between exactly two triangles.
    std::map<std::pair<uint32_t, uint32_t>, int> edges;
    for (const glm::uvec3& t : mesh.triangles)
        for (int e = 0; e < 3; ++e) ++edges[{t[e], t[(e + 1) % 3]}];
    for (const auto& [edge, count] : edges) {
        const glm::vec3 a = mesh.vertices[edge.first], b = mesh.vertices[edge.second];
        const std::string where =
            fmt::format("the edge ({:.4g}, {:.4g}, {:.4g})-({:.4g}, {:.4g}, {:.4g})", a.x, a.y, a.z, b.x, b.y, b.z);
        if (count > 1) {
            const auto twin = edges.find({edge.second, edge.first});
            throw Error(fmt::format("{}: {} is shared by {} triangles: the surface is not 2-manifold or not consistently oriented",
                                    name, where, count + (twin == edges.end() ? 0 : twin->second)));
        }
        if (!edges.count({edge.second, edge.first}))
            throw Error(fmt::format("{}: {} borders one triangle only: the surface is open (a deformable body needs a closed mesh)",
                                    name, where));
    }
    // Each vertex's triangles must form one fan (a vertex where two surfaces touch is not manifold).
    std::vector<std::vector<uint32_t>> around(mesh.vertices.size());
    for (uint32_t t = 0; t < mesh.triangles.size(); ++t)
        for (int e = 0; e < 3; ++e) around[mesh.triangles[t][e]].push_back(t);
    for (uint32_t v = 0; v < mesh.vertices.size(); ++v) {
        const std::vector<uint32_t>& fan = around[v];
        if (fan.empty()) continue;
        // Walk the fan: from a triangle (v, a, b) the next one contains the directed edge (v, b).
        std::map<uint32_t, uint32_t> next; // a -> b for each triangle (v, a, b)
        for (uint32_t t : fan) {
            const glm::uvec3 tri = mesh.triangles[t];
            const int k = tri.x == v ? 0 : tri.y == v ? 1 : 2;
            next[tri[(k + 1) % 3]] = tri[(k + 2) % 3];
        }
        uint32_t start = next.begin()->first, at = start;
        size_t steps = 0;
        do {
            at = next.at(at);
            ++steps;
        } while (at != start && steps <= fan.size());
        if (steps != fan.size()) {
            const glm::vec3 p = mesh.vertices[v];
            throw Error(
                fmt::format("{}: the vertex ({:.4g}, {:.4g}, {:.4g}) joins {} separate fans of triangles: the surface is not "
                            "2-manifold there",
                            name, p.x, p.y, p.z, fan.size() / std::max<size_t>(steps, 1)));
        }
    }
    // Drop vertices no triangle uses.
    std::vector<uint32_t> used(mesh.vertices.size(), UINT32_MAX);
    TriangleMesh out;
    out.name = mesh.name;
    for (glm::uvec3 t : mesh.triangles) {
        for (int e = 0; e < 3; ++e) {
            if (used[t[e]] == UINT32_MAX) {
                used[t[e]] = static_cast<uint32_t>(out.vertices.size());
                out.vertices.push_back(mesh.vertices[t[e]]);
            }
            t[e] = used[t[e]];
        }
        out.triangles.push_back(t);
    }
    if (enclosedVolume(out) <= 0.0)
        throw Error(fmt::format("{}: the enclosed volume is not positive: the triangles face inwards (flip their winding)", name));
    return out;
}

double enclosedVolume(const TriangleMesh& mesh)
{
    double v = 0.0;
    for (const glm::uvec3& t : mesh.triangles) {
        const glm::dvec3 a = mesh.vertices[t.x], b = mesh.vertices[t.y], c = mesh.vertices[t.z];
        v += glm::dot(a, glm::cross(b, c)) / 6.0;
    }
    return v;
}

TriangleMesh makeSphere(float radius, int subdivisions)
{
    const float g = (1.0f + std::sqrt(5.0f)) * 0.5f;
    std::vector<glm::vec3> v = {{-1, g, 0},  {1, g, 0},  {-1, -g, 0}, {1, -g, 0}, {0, -1, g},  {0, 1, g},
                                {0, -1, -g}, {0, 1, -g}, {g, 0, -1},  {g, 0, 1},  {-g, 0, -1}, {-g, 0, 1}};
    std::vector<glm::uvec3> f = {{0, 11, 5},  {0, 5, 1},  {0, 1, 7},  {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
                                 {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
                                 {3, 8, 9},   {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
    for (glm::vec3& p : v) p = glm::normalize(p);
    for (int s = 0; s < subdivisions; ++s) {
        std::map<std::pair<uint32_t, uint32_t>, uint32_t> mid;
        const auto midpoint = [&](uint32_t a, uint32_t b) {
            const auto key = std::minmax(a, b);
            const auto it = mid.find(key);
            if (it != mid.end()) return it->second;
            v.push_back(glm::normalize(v[a] + v[b]));
            return mid[key] = static_cast<uint32_t>(v.size() - 1);
        };
        std::vector<glm::uvec3> next;
        for (const glm::uvec3& t : f) {
            const uint32_t ab = midpoint(t.x, t.y), bc = midpoint(t.y, t.z), ca = midpoint(t.z, t.x);
            next.insert(next.end(), {{t.x, ab, ca}, {t.y, bc, ab}, {t.z, ca, bc}, {ab, bc, ca}});
        }
        f = std::move(next);
    }
    TriangleMesh m;
    m.name = fmt::format("sphere(r {}, {} subdivisions)", radius, subdivisions);
    for (const glm::vec3& p : v) m.vertices.push_back(p * radius);
    m.triangles = f;
    return m;
}

TriangleMesh makeBox(const glm::vec3& size, int segments)
{
    // Each face a grid; vertices on shared edges come from the same integer lattice, so they
    // weld exactly.
    const float longest = std::max({size.x, size.y, size.z});
    const glm::ivec3 n = glm::max(glm::ivec3(glm::round(glm::vec3(size) / longest * float(segments))), glm::ivec3(1));
    Welder w;
    const auto point = [&](const glm::ivec3& q) { return (glm::vec3(q) / glm::vec3(n) - 0.5f) * size; };
    for (int axis = 0; axis < 3; ++axis)
        for (int side = 0; side < 2; ++side) {
            const int u = (axis + 1) % 3, v = (axis + 2) % 3;
            for (int i = 0; i < n[u]; ++i)
                for (int j = 0; j < n[v]; ++j) {
                    glm::ivec3 q00(0), q10(0), q01(0), q11(0);
                    for (glm::ivec3* q : {&q00, &q10, &q01, &q11}) (*q)[axis] = side * n[axis];
                    q00[u] = i, q00[v] = j;
                    q10[u] = i + 1, q10[v] = j;
                    q01[u] = i, q01[v] = j + 1;
                    q11[u] = i + 1, q11[v] = j + 1;
                    const uint32_t a = w.add(point(q00)), b = w.add(point(q10)), c = w.add(point(q11)), d = w.add(point(q01));
                    // (u, v, axis) is right-handed: counter-clockwise in (u, v) faces +axis.
                    if (side == 1) {
                        w.triangle(a, b, c);
                        w.triangle(a, c, d);
                    } else {
                        w.triangle(a, c, b);
                        w.triangle(a, d, c);
                    }
                }
        }
    w.mesh.name = fmt::format("box({} x {} x {})", size.x, size.y, size.z);
    return w.mesh;
}

TriangleMesh makeTorus(float majorRadius, float minorRadius, int major, int minor)
{
    TriangleMesh m;
    m.name = fmt::format("torus(R {}, r {})", majorRadius, minorRadius);
    const float tau = glm::two_pi<float>();
    for (int i = 0; i < major; ++i)
        for (int j = 0; j < minor; ++j) {
            const float u = tau * float(i) / float(major), v = tau * float(j) / float(minor);
            const float ring = majorRadius + minorRadius * std::cos(v);
            m.vertices.push_back({ring * std::cos(u), minorRadius * std::sin(v), -ring * std::sin(u)});
        }
    const auto id = [&](int i, int j) { return uint32_t(((i + major) % major) * minor + (j + minor) % minor); };
    for (int i = 0; i < major; ++i)
        for (int j = 0; j < minor; ++j) {
            const uint32_t a = id(i, j), b = id(i + 1, j), c = id(i + 1, j + 1), d = id(i, j + 1);
            m.triangles.push_back({a, b, c});
            m.triangles.push_back({a, c, d});
        }
    if (enclosedVolume(m) < 0)
        for (glm::uvec3& t : m.triangles) std::swap(t.y, t.z);
    return m;
}

TriangleMesh makeCapsule(float radius, float length, int segments, int rings)
{
    // Latitude rings: `rings` on each hemisphere plus the cylinder's two rims, poles single.
    TriangleMesh m;
    m.name = fmt::format("capsule(r {}, length {})", radius, length);
    std::vector<std::pair<float, float>> lat; // (y, ring radius)
    for (int k = 1; k <= rings; ++k) {
        const float phi = glm::half_pi<float>() * float(k) / float(rings);
        lat.push_back({0.5f * length + radius * std::cos(phi), radius * std::sin(phi)});
    }
    for (int k = rings; k >= 1; --k) {
        const float phi = glm::half_pi<float>() * float(k) / float(rings);
        lat.push_back({-0.5f * length - radius * std::cos(phi), radius * std::sin(phi)});
    }
    m.vertices.push_back({0, 0.5f * length + radius, 0});
    for (const auto& [y, r] : lat)
        for (int s = 0; s < segments; ++s) {
            const float a = glm::two_pi<float>() * float(s) / float(segments);
            m.vertices.push_back({r * std::cos(a), y, -r * std::sin(a)});
        }
    m.vertices.push_back({0, -0.5f * length - radius, 0});
    const uint32_t bottom = static_cast<uint32_t>(m.vertices.size() - 1);
    const auto id = [&](size_t ring, int s) { return uint32_t(1 + ring * segments + size_t((s + segments) % segments)); };
    for (int s = 0; s < segments; ++s) m.triangles.push_back({0, id(0, s + 1), id(0, s)});
    for (size_t k = 0; k + 1 < lat.size(); ++k)
        for (int s = 0; s < segments; ++s) {
            m.triangles.push_back({id(k, s), id(k, s + 1), id(k + 1, s + 1)});
            m.triangles.push_back({id(k, s), id(k + 1, s + 1), id(k + 1, s)});
        }
    for (int s = 0; s < segments; ++s) m.triangles.push_back({bottom, id(lat.size() - 1, s), id(lat.size() - 1, s + 1)});
    if (enclosedVolume(m) < 0)
        for (glm::uvec3& t : m.triangles) std::swap(t.y, t.z);
    return m;
}

} // namespace floe::body
