#include "geometry/Mesh.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include <fmt/format.h>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include "base/Error.h"

namespace floe::geometry {

TriangleMesh loadObj(const std::filesystem::path& path)
{
    std::ifstream in(path);
    if (!in) throw Error(fmt::format("{}: cannot open the mesh file", path.string()));
    TriangleMesh mesh;
    mesh.name = path.filename().string();
    std::string line;
    int lineNo = 0;
    const auto fail = [&](const std::string& what) { throw Error(fmt::format("{}:{}: {}", path.string(), lineNo, what)); };
    while (std::getline(in, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::istringstream s(line);
        std::string tag;
        if (!(s >> tag) || tag[0] == '#') continue;
        if (tag == "v") {
            glm::vec3 p;
            if (!(s >> p.x >> p.y >> p.z)) fail("expected 'v x y z'");
            if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) fail("vertex coordinates must be finite");
            mesh.vertices.push_back(p);
        } else if (tag == "f") {
            std::vector<uint32_t> face;
            std::string corner;
            while (s >> corner) {
                // i, i/j, i//k or i/j/k; negative indices count from the end.
                long index = 0;
                try {
                    size_t used = 0;
                    index = std::stol(corner, &used);
                    if (used < corner.size() && corner[used] != '/') fail(fmt::format("bad face corner '{}'", corner));
                } catch (const std::logic_error&) {
                    fail(fmt::format("bad face corner '{}'", corner));
                }
                const long n = static_cast<long>(mesh.vertices.size());
                const long resolved = index < 0 ? n + index : index - 1;
                if (index == 0 || resolved < 0 || resolved >= n)
                    fail(fmt::format("face index {} out of range (1..{} so far)", index, mesh.vertices.size()));
                face.push_back(static_cast<uint32_t>(resolved));
            }
            if (face.size() < 3) fail("a face needs at least 3 vertices");
            for (size_t k = 1; k + 1 < face.size(); ++k) mesh.triangles.push_back({face[0], face[k], face[k + 1]});
        }
        // vt, vn, o, g, s, usemtl, mtllib, l, p: not needed for geometry.
    }
    if (mesh.triangles.empty()) throw Error(fmt::format("{}: the mesh has no faces", path.string()));
    return mesh;
}

glm::vec3 Transform::applyToDirection(const glm::vec3& d) const
{
    if (rotationAngle == 0.0f || glm::length(rotationAxis) == 0.0f) return d;
    const glm::quat q = glm::angleAxis(rotationAngle, glm::normalize(rotationAxis));
    return q * d;
}

glm::vec3 Transform::apply(const glm::vec3& p) const
{
    return applyToDirection(p * scale) + translation;
}

TriangleMesh transformed(const TriangleMesh& mesh, const Transform& t)
{
    TriangleMesh out = mesh;
    for (glm::vec3& v : out.vertices) v = t.apply(v);
    // A mirroring scale (odd number of negative factors) flips the winding.
    if (t.scale.x * t.scale.y * t.scale.z < 0.0f)
        for (glm::uvec3& tri : out.triangles) std::swap(tri.y, tri.z);
    return out;
}

glm::vec3 triangleNormal(const TriangleMesh& mesh, size_t triangle)
{
    const glm::uvec3 t = mesh.triangles[triangle];
    const glm::vec3 n = glm::cross(mesh.vertices[t.y] - mesh.vertices[t.x], mesh.vertices[t.z] - mesh.vertices[t.x]);
    const float len = glm::length(n);
    return len > 0.0f ? n / len : glm::vec3(0.0f);
}

std::vector<std::pair<glm::vec3, glm::vec3>> featureEdges(const TriangleMesh& mesh, float creaseDegrees)
{
    // Weld vertices at the same position (OBJ files often repeat corners per face).
    std::map<std::tuple<float, float, float>, uint32_t> ids;
    std::vector<uint32_t> id(mesh.vertices.size());
    for (size_t v = 0; v < mesh.vertices.size(); ++v) {
        const glm::vec3& p = mesh.vertices[v];
        id[v] = ids.try_emplace(std::make_tuple(p.x, p.y, p.z), uint32_t(ids.size())).first->second;
    }
    // Each undirected edge: a vertex of it (original index) and the normals of its triangles.
    struct Edge {
        uint32_t a = 0, b = 0;
        std::vector<glm::vec3> normals;
    };
    std::map<std::pair<uint32_t, uint32_t>, Edge> edges;
    for (size_t t = 0; t < mesh.triangles.size(); ++t) {
        const glm::vec3 n = triangleNormal(mesh, t);
        if (n == glm::vec3(0.0f)) continue; // degenerate
        const glm::uvec3 tri = mesh.triangles[t];
        for (int k = 0; k < 3; ++k) {
            const uint32_t a = tri[k], b = tri[(k + 1) % 3];
            const auto key = std::minmax(id[a], id[b]);
            Edge& e = edges[{key.first, key.second}];
            e.a = a;
            e.b = b;
            e.normals.push_back(n);
        }
    }
    const float crease = std::cos(creaseDegrees * 3.14159265f / 180.0f);
    std::vector<std::pair<glm::vec3, glm::vec3>> out;
    for (const auto& [key, e] : edges) {
        bool draw = e.normals.size() != 2;
        for (size_t i = 1; i < e.normals.size() && !draw; ++i) draw = glm::dot(e.normals[0], e.normals[i]) < crease;
        if (draw) out.emplace_back(mesh.vertices[e.a], mesh.vertices[e.b]);
    }
    return out;
}

std::vector<Segment> sliceAtZ0(const TriangleMesh& mesh)
{
    std::vector<Segment> segments;
    for (size_t t = 0; t < mesh.triangles.size(); ++t) {
        const glm::vec3 n = triangleNormal(mesh, t);
        const glm::vec2 n2(n.x, n.y);
        if (glm::length(n2) < 1e-6f) continue; // parallel to the slicing plane
        const glm::vec3 p[3] = {mesh.vertices[mesh.triangles[t].x], mesh.vertices[mesh.triangles[t].y],
                                mesh.vertices[mesh.triangles[t].z]};
        std::vector<glm::vec2> hits;
        for (int e = 0; e < 3; ++e) {
            const glm::vec3 a = p[e], b = p[(e + 1) % 3];
            // Half-open in z so that a vertex exactly on the plane is counted once per edge pair.
            if ((a.z < 0.0f) != (b.z < 0.0f)) {
                const float s = a.z / (a.z - b.z);
                hits.emplace_back(glm::vec2(a) + s * (glm::vec2(b) - glm::vec2(a)));
            }
        }
        if (hits.size() == 2 && glm::length(hits[1] - hits[0]) > 0.0f) segments.push_back({hits[0], hits[1], glm::normalize(n2)});
    }
    return segments;
}

void Bounds::add(const glm::vec3& p)
{
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
}

Bounds boundsOf(const TriangleMesh& mesh)
{
    Bounds b;
    for (const glm::vec3& v : mesh.vertices) b.add(v);
    return b;
}

bool isConvex(const TriangleMesh& mesh, float tolerance)
{
    for (size_t t = 0; t < mesh.triangles.size(); ++t) {
        const glm::vec3 n = triangleNormal(mesh, t);
        if (n == glm::vec3(0.0f)) continue;
        const float c = glm::dot(n, mesh.vertices[mesh.triangles[t].x]);
        for (const glm::vec3& v : mesh.vertices)
            if (glm::dot(n, v) - c > tolerance) return false;
    }
    return true;
}

bool isClosed(const TriangleMesh& mesh)
{
    // Weld vertices at the same position first: exporters often split them per face.
    std::map<std::tuple<float, float, float>, uint32_t> unique;
    std::vector<uint32_t> weld(mesh.vertices.size());
    for (size_t v = 0; v < mesh.vertices.size(); ++v) {
        const glm::vec3 p = mesh.vertices[v];
        weld[v] = unique.emplace(std::make_tuple(p.x, p.y, p.z), static_cast<uint32_t>(unique.size())).first->second;
    }
    std::map<std::pair<uint32_t, uint32_t>, int> edges; // directed edge -> count
    for (const glm::uvec3& t : mesh.triangles)
        for (int e = 0; e < 3; ++e) ++edges[{weld[t[e]], weld[t[(e + 1) % 3]]}];
    for (const auto& [edge, count] : edges) {
        if (count != 1) return false;
        auto twin = edges.find({edge.second, edge.first});
        if (twin == edges.end() || twin->second != 1) return false;
    }
    return true;
}

double windingNumber(const TriangleMesh& mesh, const glm::vec3& p)
{
    // Jacobson et al. 2013: the solid angle of every triangle seen from p (Van Oosterom and
    // Strackee's formula), summed over 4 pi: 1 inside a closed surface, 0 outside, and a smooth
    // value in between for surfaces with holes or non-manifold parts, where parity tests fail.
    double sum = 0.0;
    for (const glm::uvec3& t : mesh.triangles) {
        const glm::dvec3 a = glm::dvec3(mesh.vertices[t.x]) - glm::dvec3(p), b = glm::dvec3(mesh.vertices[t.y]) - glm::dvec3(p),
                         c = glm::dvec3(mesh.vertices[t.z]) - glm::dvec3(p);
        const double la = glm::length(a), lb = glm::length(b), lc = glm::length(c);
        const double numerator = glm::dot(a, glm::cross(b, c));
        const double denominator = la * lb * lc + glm::dot(a, b) * lc + glm::dot(b, c) * la + glm::dot(c, a) * lb;
        sum += 2.0 * std::atan2(numerator, denominator);
    }
    return sum / (4.0 * 3.14159265358979323846);
}

bool contains(const TriangleMesh& mesh, const glm::vec3& p)
{
    return windingNumber(mesh, p) > 0.5;
}

namespace {

// Moller and Trumbore: does the segment p..q pass through the triangle (a, b, c)?
bool segmentCrossesTriangle(const glm::dvec3& p, const glm::dvec3& q, const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c)
{
    const glm::dvec3 d = q - p, e1 = b - a, e2 = c - a, pv = glm::cross(d, e2);
    const double det = glm::dot(e1, pv);
    const double scale = glm::length(d) * glm::length(e1) * glm::length(e2);
    if (std::abs(det) <= 1e-12 * scale) return false; // parallel (coplanar contact is touching, not cutting)
    const glm::dvec3 tv = p - a;
    const double u = glm::dot(tv, pv) / det;
    if (u < 0.0 || u > 1.0) return false;
    const glm::dvec3 qv = glm::cross(tv, e1);
    const double v = glm::dot(d, qv) / det;
    if (v < 0.0 || u + v > 1.0) return false;
    const double t = glm::dot(e2, qv) / det;
    return t > 1e-9 && t < 1.0 - 1e-9; // an end on the triangle touches it (a body resting on a table)
}

// Does an edge of `edges` cross a triangle of `faces`?
bool edgesCross(const TriangleMesh& edges, const TriangleMesh& faces)
{
    Bounds box = boundsOf(faces);
    if (box.empty() || !box.overlaps(boundsOf(edges))) return false;
    // About two triangles per cell along the mean triangle size, at most 64 cells per axis.
    const glm::vec3 extent = glm::max(box.hi - box.lo, glm::vec3(1e-6f));
    const float cell = std::max({extent.x, extent.y, extent.z}) / std::clamp(std::cbrt(float(faces.triangles.size())), 1.0f, 64.0f);
    const glm::ivec3 dims = glm::clamp(glm::ivec3(glm::ceil(extent / cell)), glm::ivec3(1), glm::ivec3(64));
    const auto cellOf = [&](const glm::vec3& x) {
        return glm::clamp(glm::ivec3(glm::floor((x - box.lo) / cell)), glm::ivec3(0), dims - 1);
    };
    std::vector<std::vector<uint32_t>> grid(size_t(dims.x) * dims.y * dims.z);
    const auto key = [&](const glm::ivec3& c) {
        return size_t(c.x) + size_t(dims.x) * (size_t(c.y) + size_t(dims.y) * size_t(c.z));
    };
    for (uint32_t t = 0; t < faces.triangles.size(); ++t) {
        Bounds tb;
        for (int k = 0; k < 3; ++k) tb.add(faces.vertices[faces.triangles[t][k]]);
        const glm::ivec3 lo = cellOf(tb.lo), hi = cellOf(tb.hi);
        for (int z = lo.z; z <= hi.z; ++z)
            for (int y = lo.y; y <= hi.y; ++y)
                for (int x = lo.x; x <= hi.x; ++x) grid[key({x, y, z})].push_back(t);
    }
    for (const glm::uvec3& tri : edges.triangles)
        for (int k = 0; k < 3; ++k) {
            const glm::vec3 p = edges.vertices[tri[k]], q = edges.vertices[tri[(k + 1) % 3]];
            Bounds eb;
            eb.add(p);
            eb.add(q);
            if (!eb.overlaps(box)) continue;
            const glm::ivec3 lo = cellOf(eb.lo), hi = cellOf(eb.hi);
            for (int z = lo.z; z <= hi.z; ++z)
                for (int y = lo.y; y <= hi.y; ++y)
                    for (int x = lo.x; x <= hi.x; ++x)
                        for (uint32_t t : grid[key({x, y, z})]) {
                            const glm::uvec3& f = faces.triangles[t];
                            if (segmentCrossesTriangle(glm::dvec3(p), glm::dvec3(q), glm::dvec3(faces.vertices[f.x]),
                                                       glm::dvec3(faces.vertices[f.y]), glm::dvec3(faces.vertices[f.z])))
                                return true;
                        }
        }
    return false;
}

} // namespace

bool meshesIntersect(const TriangleMesh& a, const TriangleMesh& b)
{
    if (a.vertices.empty() || b.vertices.empty() || !boundsOf(a).overlaps(boundsOf(b))) return false;
    if (edgesCross(a, b) || edgesCross(b, a)) return true;
    // No surfaces cut: one may still hold the other whole.
    return (isClosed(b) && contains(b, a.vertices[0])) || (isClosed(a) && contains(a, b.vertices[0]));
}

} // namespace floe::geometry
