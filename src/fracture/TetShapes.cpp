#include "fracture/TetShapes.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <glm/glm.hpp>

#include "base/Error.h"

namespace floe::fracture {

namespace {

struct NamedShape {
    const char* name;
    TetShape shape;
};
constexpr NamedShape kShapes[] = {{"sphere", TetShape::Sphere},   {"cone", TetShape::Cone},
                                  {"cube", TetShape::Cube},       {"cuboid", TetShape::Cuboid},
                                  {"fichera", TetShape::Fichera}, {"cube_with_holes", TetShape::CubeWithHoles}};

float boxDistance(const glm::vec3& p, const glm::vec3& centre, const glm::vec3& half)
{
    const glm::vec3 q = glm::abs(p - centre) - half;
    return glm::length(glm::max(q, glm::vec3(0.0f))) + std::min(std::max(q.x, std::max(q.y, q.z)), 0.0f);
}

// The cube's through-holes (cube_with_holes): two along z at x = +-s/4, one along x above them.
struct Hole {
    int axis;         // 0: along x, 2: along z
    glm::vec2 centre; // in the two other axes, fractions of the edge
    float radius;     // fraction of the edge
};
constexpr Hole kHoles[] = {{2, {-0.25f, -0.1f}, 0.13f}, {2, {0.25f, -0.1f}, 0.13f}, {0, {0.3f, 0.0f}, 0.11f}};

bool curved(TetShape shape)
{
    return shape == TetShape::Sphere || shape == TetShape::Cone || shape == TetShape::CubeWithHoles;
}

glm::vec3 shapeSize(const TetShapeDesc& d)
{
    switch (d.shape) {
    case TetShape::Sphere:
    case TetShape::Cube:
    case TetShape::Fichera:
    case TetShape::CubeWithHoles: return glm::vec3(d.size.x);
    case TetShape::Cone: return glm::vec3(d.size.x, d.size.y, d.size.x);
    case TetShape::Cuboid: return d.size;
    }
    return d.size;
}

// Lattice coordinates along one axis: `cells` intervals over [-half, half]; the cone's are
// graded towards its axis (x, z) and its tip (y) with the exponent p.
std::vector<float> axisCoordinates(const TetShapeDesc& d, int axis, int cells, float half)
{
    std::vector<float> c(size_t(cells) + 1);
    for (int i = 0; i <= cells; ++i) {
        const float s = float(i) / float(cells); // 0..1
        float x = -half + 2.0f * half * s;
        if (d.shape == TetShape::Cone && d.tipRefinement != 1.0f) {
            const float p = d.tipRefinement;
            if (axis == 1) {
                x = -half + 2.0f * half * (1.0f - std::pow(1.0f - s, p));
            } else {
                const float u = 2.0f * s - 1.0f;
                x = half * std::copysign(std::pow(std::abs(u), p), u);
            }
        }
        c[size_t(i)] = x;
    }
    return c;
}

// The point of triangle abc nearest p (Ericson, Real-Time Collision Detection, 5.1.5: by the
// Voronoi regions of the corners, edges and face).
glm::vec3 closestOnTriangle(const glm::vec3& p, const glm::vec3& a, const glm::vec3& b, const glm::vec3& c)
{
    const glm::vec3 ab = b - a, ac = c - a, ap = p - a;
    const float d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
    if (d1 <= 0.0f && d2 <= 0.0f) return a;
    const glm::vec3 bp = p - b;
    const float d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
    if (d3 >= 0.0f && d4 <= d3) return b;
    const float vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) return a + (d1 / (d1 - d3)) * ab;
    const glm::vec3 cp = p - c;
    const float d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
    if (d6 >= 0.0f && d5 <= d6) return c;
    const float vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) return a + (d2 / (d2 - d6)) * ac;
    const float va = d3 * d6 - d5 * d4;
    if (va <= 0.0f && (d4 - d3) >= 0.0f && (d5 - d6) >= 0.0f) return b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b);
    const float denom = 1.0f / (va + vb + vc);
    return a + ab * (vb * denom) + ac * (vc * denom);
}

// The lattice of boxes along `axes` (each axis' node coordinates), six tets per box, kept where
// the centroid's signed distance is negative; with `snap`, boundary nodes moved onto the surface
// (curved shapes, meshes). `longest`: the shape's longest side (m), for tolerances.
TetMesh latticeTets(const std::string& name, const std::array<std::vector<float>, 3>& axes, float longest, bool snap,
                    const std::function<float(const glm::vec3&)>& distance)
{
    TetMesh mesh;
    mesh.name = name;
    const glm::ivec3 cells(int(axes[0].size()) - 1, int(axes[1].size()) - 1, int(axes[2].size()) - 1);
    const glm::ivec3 n = cells + 1;
    auto node = [&](int i, int j, int k) { return uint32_t((k * n.y + j) * n.x + i); };
    for (int k = 0; k < n.z; ++k)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) mesh.nodes.emplace_back(axes[0][size_t(i)], axes[1][size_t(j)], axes[2][size_t(k)]);
    // Six tets per box along the paths 000 -> 111 through every order of the axes.
    static constexpr int kOrders[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
    for (int k = 0; k < cells.z; ++k)
        for (int j = 0; j < cells.y; ++j)
            for (int i = 0; i < cells.x; ++i)
                for (int o = 0; o < 6; ++o) {
                    glm::ivec3 c(i, j, k);
                    glm::uvec4 t;
                    t[0] = node(c.x, c.y, c.z);
                    for (int s = 0; s < 3; ++s) {
                        c[kOrders[o][s]] += 1;
                        t[s + 1] = node(c.x, c.y, c.z);
                    }
                    if (o >= 3) std::swap(t[1], t[2]); // odd orders are negative
                    const glm::vec3 centroid = 0.25f * (mesh.nodes[t[0]] + mesh.nodes[t[1]] + mesh.nodes[t[2]] + mesh.nodes[t[3]]);
                    if (distance(centroid) < 0.0f) mesh.tets.push_back(t);
                }
    if (mesh.tets.empty())
        throw Error(fmt::format("{}: no tetrahedra at {} lattice cells along its longest side: raise the resolution", mesh.name,
                                std::max(cells.x, std::max(cells.y, cells.z))));

    if (snap) {
        // Move boundary nodes onto the surface along the distance gradient, never shrinking an
        // incident tet below 40 % of its lattice volume or shape quality (else a shorter step, else not at all).
        std::vector<std::vector<uint32_t>> tetsOf(mesh.nodes.size());
        for (size_t t = 0; t < mesh.tets.size(); ++t)
            for (int c = 0; c < 4; ++c) tetsOf[mesh.tets[t][c]].push_back(uint32_t(t));
        std::vector<char> boundary(mesh.nodes.size(), 0);
        for (const glm::uvec3& f : boundaryFaces(mesh)) boundary[f.x] = boundary[f.y] = boundary[f.z] = 1;
        // Quality floors against the lattice's own tets (volume over rms edge cubed), so that
        // snapping never makes slivers: they would be stiff, tiny and invert at once.
        auto quality = [&](size_t t) {
            double e2 = 0;
            for (int a = 0; a < 4; ++a)
                for (int b = a + 1; b < 4; ++b) {
                    const glm::dvec3 e = glm::dvec3(mesh.nodes[mesh.tets[t][b]]) - glm::dvec3(mesh.nodes[mesh.tets[t][a]]);
                    e2 += glm::dot(e, e);
                }
            return signedVolume(mesh, t) / std::pow(e2 / 6.0, 1.5);
        };
        std::vector<double> latticeVolume(mesh.tets.size()), latticeQuality(mesh.tets.size());
        for (size_t t = 0; t < mesh.tets.size(); ++t) {
            latticeVolume[t] = signedVolume(mesh, t);
            latticeQuality[t] = quality(t);
        }
        const float eps = 1e-4f * longest;
        for (int pass = 0; pass < 2; ++pass) // a second pass moves nodes the first one blocked
            for (uint32_t v = 0; v < mesh.nodes.size(); ++v) {
                if (!boundary[v]) continue;
                const glm::vec3 p = mesh.nodes[v];
                const float dist = distance(p);
                glm::vec3 g;
                for (int a = 0; a < 3; ++a) {
                    glm::vec3 e(0.0f);
                    e[a] = eps;
                    g[a] = distance(p + e) - distance(p - e);
                }
                if (glm::length(g) < 1e-12f || std::abs(dist) < 1e-6f * longest) continue;
                g = glm::normalize(g);
                float edge = 0.0f; // the longest incident edge: about the local lattice cell
                for (uint32_t t : tetsOf[v])
                    for (int c = 0; c < 4; ++c) edge = std::max(edge, glm::length(mesh.nodes[mesh.tets[t][c]] - p));
                if (std::abs(dist) > edge) continue;
                for (float step : {1.0f, 0.75f, 0.5f, 0.25f}) {
                    mesh.nodes[v] = p - step * dist * g;
                    bool ok = true;
                    for (size_t k = 0; k < tetsOf[v].size() && ok; ++k) {
                        const uint32_t t = tetsOf[v][k];
                        ok = signedVolume(mesh, t) > 0.4 * latticeVolume[t] && quality(t) > 0.4 * latticeQuality[t];
                    }
                    if (ok) break;
                    mesh.nodes[v] = p;
                }
            }
    }
    return validated(std::move(mesh));
}

} // namespace

std::optional<TetShape> tetShapeFromName(std::string_view name)
{
    for (const NamedShape& s : kShapes)
        if (name == s.name) return s.shape;
    return std::nullopt;
}

const char* tetShapeName(TetShape shape)
{
    for (const NamedShape& s : kShapes)
        if (s.shape == shape) return s.name;
    return "?";
}

glm::mat3 seededRotation(uint32_t seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    const double u1 = u(rng), u2 = u(rng), u3 = u(rng), twoPi = 6.283185307179586;
    const double a = std::sqrt(1 - u1), b = std::sqrt(u1);
    const double x = a * std::sin(twoPi * u2), y = a * std::cos(twoPi * u2), z = b * std::sin(twoPi * u3),
                 w = b * std::cos(twoPi * u3);
    return glm::mat3(float(1 - 2 * (y * y + z * z)), float(2 * (x * y + w * z)), float(2 * (x * z - w * y)),
                     float(2 * (x * y - w * z)), float(1 - 2 * (x * x + z * z)), float(2 * (y * z + w * x)),
                     float(2 * (x * z + w * y)), float(2 * (y * z - w * x)), float(1 - 2 * (x * x + y * y)));
}

float tetShapeDistance(const TetShapeDesc& d, const glm::vec3& p)
{
    const glm::vec3 size = shapeSize(d);
    switch (d.shape) {
    case TetShape::Sphere: return glm::length(p) - 0.5f * size.x;
    case TetShape::Cube:
    case TetShape::Cuboid: return boxDistance(p, glm::vec3(0.0f), 0.5f * size);
    case TetShape::Fichera: {
        // The cube without its (+x, +y, +z) octant.
        const float h = 0.5f * size.x;
        return std::max(boxDistance(p, glm::vec3(0.0f), glm::vec3(h)), -boxDistance(p, glm::vec3(0.5f * h), glm::vec3(0.5f * h)));
    }
    case TetShape::CubeWithHoles: {
        const float s = size.x;
        float dist = boxDistance(p, glm::vec3(0.0f), glm::vec3(0.5f * s));
        for (const Hole& h : kHoles) {
            const glm::vec2 q = h.axis == 2 ? glm::vec2(p.x, p.y) : glm::vec2(p.y, p.z);
            dist = std::max(dist, h.radius * s - glm::length(q - h.centre * s));
        }
        return dist;
    }
    case TetShape::Cone: {
        // Base at y = -H/2, tip at y = +H/2: the larger of the base plane's and the mantle's
        // signed distances (exact inside, a lower bound outside near the rim).
        const float radius = 0.5f * size.x, height = size.y;
        const glm::vec2 q(glm::length(glm::vec2(p.x, p.z)), p.y - 0.5f * height);
        const glm::vec2 n = glm::normalize(glm::vec2(height, radius));
        return std::max(-(p.y + 0.5f * height), glm::dot(q, n));
    }
    }
    return 1.0f;
}

TetMesh makeTetShape(const TetShapeDesc& d)
{
    if (d.resolution < 2 || d.resolution > 64)
        throw Error(
            fmt::format("{}: resolution {} is out of range: expected 2..64 lattice cells", tetShapeName(d.shape), d.resolution));
    if (!(d.size.x > 0.0f && d.size.y > 0.0f && d.size.z > 0.0f) || glm::any(glm::isinf(d.size)))
        throw Error(fmt::format("{}: size must be positive and finite", tetShapeName(d.shape)));
    if (!(d.tipRefinement >= 1.0f && d.tipRefinement <= 3.0f))
        throw Error(fmt::format("{}: tipRefinement {} is out of range: expected 1..3", tetShapeName(d.shape), d.tipRefinement));
    const glm::vec3 size = shapeSize(d);
    const float longest = std::max(size.x, std::max(size.y, size.z));
    glm::ivec3 cells;
    for (int a = 0; a < 3; ++a) {
        cells[a] = std::max(2, int(std::lround(float(d.resolution) * size[a] / longest)));
        if (d.shape == TetShape::Fichera) cells[a] += cells[a] % 2; // the notch on a lattice plane
    }
    std::array<std::vector<float>, 3> axes;
    for (int a = 0; a < 3; ++a) axes[size_t(a)] = axisCoordinates(d, a, cells[a], 0.5f * size[a]);

    return latticeTets(tetShapeName(d.shape), axes, longest, curved(d.shape),
                       [&](const glm::vec3& p) { return tetShapeDistance(d, p); });
}

float surfaceDistance(const geometry::TriangleMesh& surface, const glm::vec3& p)
{
    float nearest = 1e30f;
    for (const glm::uvec3& t : surface.triangles) {
        const glm::vec3 q = closestOnTriangle(p, surface.vertices[t.x], surface.vertices[t.y], surface.vertices[t.z]);
        nearest = std::min(nearest, glm::length(p - q));
    }
    // Inside: winding number 1 (-1 for a mesh whose faces turn inward).
    return std::abs(geometry::windingNumber(surface, p)) > 0.5 ? -nearest : nearest;
}

TetMesh makeTetSurface(const geometry::TriangleMesh& surface, int resolution)
{
    const std::string name = surface.name.empty() ? std::string("surface") : surface.name;
    if (resolution < 2 || resolution > 64)
        throw Error(fmt::format("{}: resolution {} is out of range: expected 2..64 lattice cells", name, resolution));
    if (surface.triangles.empty() || !geometry::isClosed(surface))
        throw Error(fmt::format("{}: not a closed surface (every edge must join two faces): it bounds no volume to fill with "
                                "tetrahedra",
                                name));
    const geometry::Bounds b = geometry::boundsOf(surface);
    const glm::vec3 size = b.hi - b.lo;
    const float longest = std::max(size.x, std::max(size.y, size.z));
    if (!(longest > 0.0f) || !std::isfinite(longest)) throw Error(fmt::format("{}: the surface has no extent", name));
    std::array<std::vector<float>, 3> axes;
    for (int a = 0; a < 3; ++a) {
        const int cells = std::max(2, int(std::lround(float(resolution) * size[a] / longest)));
        for (int i = 0; i <= cells; ++i) axes[size_t(a)].push_back(b.lo[a] + size[a] * float(i) / float(cells));
    }
    return latticeTets(name, axes, longest, true, [&](const glm::vec3& p) { return surfaceDistance(surface, p); });
}

} // namespace floe::fracture
