#include "coupling/SolidSampler.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <unordered_map>

#include <fmt/format.h>
#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>
#include <glm/matrix.hpp>

#include "base/Error.h"
#include "coupling/BoundaryCalibration.h"
#include "fracture/TetMesh.h"
#include "shared/sph.h"
#include "sim/sph/BoundarySampler.h"

namespace floe::coupling {
namespace {

// Segments of at most `spacing` along a length.
uint32_t segments(float length, float spacing)
{
    return std::max(1u, static_cast<uint32_t>(std::ceil(length / spacing - 1e-4f)));
}

// Face c of tet t: its nodes in kTetFaceCorners' order.
glm::uvec3 tetFace(const TetSurface& solid, uint32_t t, uint32_t c)
{
    const glm::uvec4 tet = solid.tets[t];
    return glm::uvec3(tet[kTetFaceCorners[c][0]], tet[kTetFaceCorners[c][1]], tet[kTetFaceCorners[c][2]]);
}

// Per node, its miter at rest over the tets' boundary faces (faces no other tet shares), as
// surfaceMiters with a regularization of 1e-9 (double precision, at rest). Zero for nodes on no
// boundary face. `boundary` gets, per tet face 4 t + c, whether it is one.
std::vector<glm::vec3> restMiters(const TetSurface& solid, std::vector<bool>& boundary)
{
    // fracture::boundaryFaces numbers a tet's faces as kTetFaceCorners does: face c of its tet.
    std::vector<uint32_t> tetOfFace;
    const std::vector<glm::uvec3> faces =
        fracture::boundaryFaces(fracture::TetMesh{solid.nodes, solid.tets, "tet samples"}, &tetOfFace);
    boundary.assign(4 * solid.tets.size(), false);
    for (size_t i = 0; i < faces.size(); ++i)
        for (uint32_t c = 0; c < 4; ++c)
            if (tetFace(solid, tetOfFace[i], c) == faces[i]) boundary[4 * tetOfFace[i] + c] = true;
    std::vector<glm::uvec3> triangles;
    for (uint32_t t = 0; t < solid.tets.size(); ++t)
        for (uint32_t c = 0; c < 4; ++c)
            if (boundary[4 * t + c]) triangles.push_back(tetFace(solid, t, c));
    return surfaceMiters(solid.nodes, triangles, 1e-9);
}

} // namespace

std::vector<glm::vec3> surfaceMiters(const std::vector<glm::vec3>& points, const std::vector<glm::uvec3>& triangles,
                                     double regularization)
{
    // Per triangle, its area and unit normal (zero area: left out).
    std::vector<std::pair<double, glm::dvec3>> faces(triangles.size(), {0.0, glm::dvec3(0.0)});
    std::vector<glm::dmat3> normalSum(points.size(), glm::dmat3(0.0));
    std::vector<glm::dvec3> rhs(points.size(), glm::dvec3(0.0));
    for (size_t i = 0; i < triangles.size(); ++i) {
        const glm::uvec3 f = triangles[i];
        if (f.x >= points.size() || f.y >= points.size() || f.z >= points.size())
            throw Error(fmt::format("miters: a triangle names point {} of {}", std::max({f.x, f.y, f.z}), points.size()));
        const glm::dvec3 a(points[f.x]), b(points[f.y]), d(points[f.z]);
        const glm::dvec3 cross = glm::cross(b - a, d - a);
        const double twiceArea = glm::length(cross);
        if (!(twiceArea > 0.0)) continue;
        faces[i] = {0.5 * twiceArea, cross / twiceArea};
        for (int k = 0; k < 3; ++k) {
            normalSum[f[k]] += faces[i].first * glm::outerProduct(faces[i].second, faces[i].second);
            rhs[f[k]] += faces[i].first * faces[i].second;
        }
    }
    // Solved for the miter's difference t from the unit area-weighted normal u,
    // (M + eps tr I) t = sum a_f n_f (1 - n_f . u), m = u + t (the same solution, since M m = sum a_f n_f):
    // on a flat or gently curved surface the right-hand side is of second order in the angles
    // between the triangles, so rounding in M cannot tilt the miter, and eps pulls toward u.
    std::vector<glm::dvec3> unit(points.size(), glm::dvec3(0.0)), deviation(points.size(), glm::dvec3(0.0));
    for (size_t k = 0; k < points.size(); ++k) {
        const double length = glm::length(rhs[k]);
        if (length > 0.0) unit[k] = rhs[k] / length;
    }
    for (size_t i = 0; i < triangles.size(); ++i)
        for (int k = 0; k < 3; ++k) {
            const uint32_t p = triangles[i][k];
            deviation[p] += faces[i].first * (1.0 - glm::dot(faces[i].second, unit[p])) * faces[i].second;
        }
    std::vector<glm::vec3> miters(points.size(), glm::vec3(0.0f));
    for (size_t k = 0; k < points.size(); ++k) {
        const double trace = normalSum[k][0][0] + normalSum[k][1][1] + normalSum[k][2][2];
        if (!(trace > 0.0) || !(glm::length(rhs[k]) > 0.0)) continue;
        glm::dvec3 m = unit[k] + glm::inverse(normalSum[k] + regularization * trace * glm::dmat3(1.0)) * deviation[k];
        const double length = glm::length(m);
        if (length > kMiterCap) m *= kMiterCap / length;
        miters[k] = glm::vec3(m);
    }
    return miters;
}

PlacedSample placeSolidSample(const glm::uvec4& corners, const glm::vec4& weights, const std::vector<glm::vec3>& points,
                              const std::vector<glm::vec3>& miters, uint32_t firstVertex)
{
    // The same arithmetic, in the same order, as coupling/solid_samples.
    glm::vec3 corner[3], x(0.0f), m(0.0f);
    for (int k = 0; k < 3; ++k) {
        corner[k] = points[corners[k] - firstVertex];
        if (weights[k] == 0.0f) continue;
        x += weights[k] * corner[k];
        m += weights[k] * miters[corners[k] - firstVertex];
    }
    const glm::vec3 offset = std::bit_cast<float>(corners.w) * m;
    PlacedSample out;
    out.position = x - offset;
    const float length = glm::length(m);
    glm::vec3 plane = length > 0.0f ? m / length : glm::vec3(0.0f);
    if (corners.x != corners.y && corners.y != corners.z && corners.x != corners.z) {
        const glm::vec3 face = glm::cross(corner[1] - corner[0], corner[2] - corner[0]);
        if (glm::dot(face, face) > 0.0f) plane = glm::normalize(face);
    }
    out.plane = glm::vec4(plane, -glm::dot(offset, plane));
    return out;
}

SolidSamples sampleSolids(const std::vector<SolidSurface>& solids, uint32_t vertexCount, float spacing, const SampleKernel& kernel)
{
    if (!(spacing > 0.0f)) throw Error(fmt::format("solid sample spacing {} m: expected a positive spacing", spacing));
    SolidSamples out;
    std::vector<glm::vec3> positions; // of the samples, for Psi
    std::vector<glm::vec3> miters;    // of the solid being sampled, at rest
    const auto add = [&](const SolidSurface& solid, glm::uvec3 c, glm::vec3 w) {
        out.corners.emplace_back(c, std::bit_cast<uint32_t>(solid.depth));
        out.weights.emplace_back(w, 0.0f);
        positions.push_back(
            placeSolidSample(out.corners.back(), out.weights.back(), solid.vertices, miters, solid.firstVertex).position);
    };
    std::vector<uint32_t> firstSample(solids.size() + 1, 0);
    for (uint32_t s = 0; s < solids.size(); ++s) {
        const SolidSurface& solid = solids[s];
        const uint32_t base = solid.firstVertex;
        const auto& x = solid.vertices;
        for (const glm::uvec3& t : solid.triangles)
            if (t.x >= x.size() || t.y >= x.size() || t.z >= x.size() || base + x.size() > vertexCount)
                throw Error(fmt::format("solid {}: a triangle names a vertex beyond its {} vertices", s, x.size()));
        miters = surfaceMiters(x, solid.triangles, kDeformableMiterRegularization);
        firstSample[s] = static_cast<uint32_t>(out.corners.size());
        // The plane the guard tests a vertex's or an edge's samples against
        // (coupling/solid_samples): where every triangle around it lies in one plane at rest, one
        // of those triangles, named by the sample's third corner (weight 0) in the triangle's
        // order; on a crease (a box's edge or corner) none, and the miter's direction is the plane's
        // normal (the bisector). An interpolated miter's direction would tilt the plane beside a
        // crease, and the guard would leave a particle inside a box's face near its edge.
        std::vector<glm::vec3> unitNormal(solid.triangles.size(), glm::vec3(0.0f));
        std::vector<std::vector<uint32_t>> around(x.size());
        std::map<std::pair<uint32_t, uint32_t>, uint32_t> directed; // edge a -> b: its triangle
        for (uint32_t f = 0; f < solid.triangles.size(); ++f) {
            const glm::uvec3 t = solid.triangles[f];
            const glm::vec3 cross = glm::cross(x[t.y] - x[t.x], x[t.z] - x[t.x]);
            if (glm::dot(cross, cross) > 0.0f) unitNormal[f] = glm::normalize(cross);
            for (int e = 0; e < 3; ++e) {
                around[t[e]].push_back(f);
                directed[{t[e], t[(e + 1) % 3]}] = f;
            }
        }
        const auto flat = [&](const std::vector<uint32_t>& faces) {
            for (uint32_t f : faces)
                if (!(glm::dot(unitNormal[f], unitNormal[faces[0]]) > kFlatCosine)) return false;
            return !faces.empty();
        };
        // The triangle f's corners from vertex a on, in its order.
        const auto from = [&](uint32_t f, uint32_t a) {
            const glm::uvec3 t = solid.triangles[f];
            return t.x == a ? t : t.y == a ? glm::uvec3(t.y, t.z, t.x) : glm::uvec3(t.z, t.x, t.y);
        };
        // Every vertex.
        for (uint32_t v = 0; v < x.size(); ++v)
            add(solid, flat(around[v]) ? base + from(around[v][0], v) : glm::uvec3(base + v), {1, 0, 0});
        // Every edge once, in a fixed order (sorted by its vertex pair).
        std::map<std::pair<uint32_t, uint32_t>, bool> edges;
        for (const glm::uvec3& t : solid.triangles)
            for (int e = 0; e < 3; ++e) {
                const uint32_t a = t[e], b = t[(e + 1) % 3];
                edges[{std::min(a, b), std::max(a, b)}] = true;
            }
        for (const auto& [edge, unused] : edges) {
            const auto [a, b] = edge;
            const uint32_t n = segments(glm::length(x[b] - x[a]), spacing);
            // The triangle that runs a -> b (a closed surface has one), and the one that runs b -> a.
            const auto ab = directed.find({a, b}), ba = directed.find({b, a});
            uint32_t third = b;
            if (ab != directed.end() && ba != directed.end() && flat({ab->second, ba->second})) third = from(ab->second, a).z;
            for (uint32_t k = 1; k < n; ++k) {
                const float t = float(k) / float(n);
                add(solid, {base + a, base + b, base + third}, {1.0f - t, t, 0.0f});
            }
        }
        // Inside every triangle: the lattice of its longest edge's segments, corners and edges left out.
        for (const glm::uvec3& t : solid.triangles) {
            const glm::vec3 &a = x[t.x], &b = x[t.y], &c = x[t.z];
            const float longest = std::max({glm::length(b - a), glm::length(c - b), glm::length(a - c)});
            const uint32_t n = segments(longest, spacing);
            for (uint32_t i = 1; i < n; ++i)
                for (uint32_t j = 1; i + j < n; ++j) {
                    const glm::vec3 w(float(i) / float(n), float(j) / float(n), float(n - i - j) / float(n));
                    add(solid, {base + t.x, base + t.y, base + t.z}, w);
                }
        }
    }
    firstSample[solids.size()] = static_cast<uint32_t>(out.corners.size());

    // Psi_b = gamma rho0 / sum_k W(x_b - x_k) over the solid's own samples (Akinci et al. 2012
    // eq. (4)-(5)), found through a hash grid of cells of the kernel support.
    // gamma: the volume scale of one layer at `spacing` (sim::boundaryVolumeScale).
    const float gamma = sim::boundaryVolumeScale(kernel.kernelSet, kernel.dims, spacing / kernel.h, 1);
    const float support = 2.0f * kernel.h;
    for (uint32_t s = 0; s < solids.size(); ++s) {
        std::unordered_map<uint64_t, std::vector<uint32_t>> cells;
        const auto key = [&](const glm::ivec3& c) {
            return (uint64_t(uint32_t(c.x) & 0x1FFFFF) << 42) | (uint64_t(uint32_t(c.y) & 0x1FFFFF) << 21) |
                   uint64_t(uint32_t(c.z) & 0x1FFFFF);
        };
        const auto cellOf = [&](const glm::vec3& p) { return glm::ivec3(glm::floor(p / support)); };
        for (uint32_t b = firstSample[s]; b < firstSample[s + 1]; ++b) cells[key(cellOf(positions[b]))].push_back(b);
        for (uint32_t b = firstSample[s]; b < firstSample[s + 1]; ++b) {
            const glm::ivec3 c = cellOf(positions[b]);
            double sum = 0.0;
            for (int dz = -1; dz <= 1; ++dz)
                for (int dy = -1; dy <= 1; ++dy)
                    for (int dx = -1; dx <= 1; ++dx) {
                        const auto it = cells.find(key(c + glm::ivec3(dx, dy, dz)));
                        if (it == cells.end()) continue;
                        for (uint32_t k : it->second)
                            sum +=
                                shared::kernelW(kernel.kernelSet, glm::length(positions[b] - positions[k]), kernel.h, kernel.dims);
                    }
            out.weights[b].w = static_cast<float>(gamma * kernel.restDensity / sum);
        }
    }

    // The weights fitted so that the fluid meets every part of the surface as it meets a flat
    // wall (coupling/BoundaryCalibration.h): more on a ball, less where a fine mesh crowds its
    // samples beyond the inset surface's edges.
    {
        std::vector<CalibrationSurface> surfaces;
        for (const SolidSurface& solid : solids) surfaces.push_back({&solid.vertices, solid.triangles, solid.depth});
        std::vector<float> psi(out.weights.size());
        for (size_t b = 0; b < psi.size(); ++b) psi[b] = out.weights[b].w;
        calibrateBoundaryMass(surfaces, positions, psi, std::vector<bool>(psi.size(), true), spacing, kernel);
        for (size_t b = 0; b < psi.size(); ++b) out.weights[b].w = psi[b];
    }

    // Each vertex's samples and weights (CSR), in sample order.
    out.vertexStart.assign(vertexCount + 1, 0);
    for (size_t b = 0; b < out.corners.size(); ++b)
        for (int k = 0; k < 3; ++k)
            if (out.weights[b][k] != 0.0f) ++out.vertexStart[out.corners[b][k] + 1];
    for (uint32_t v = 0; v < vertexCount; ++v) out.vertexStart[v + 1] += out.vertexStart[v];
    out.vertexSamples.resize(out.vertexStart[vertexCount]);
    std::vector<uint32_t> next(out.vertexStart.begin(), out.vertexStart.end() - 1);
    for (size_t b = 0; b < out.corners.size(); ++b)
        for (int k = 0; k < 3; ++k)
            if (out.weights[b][k] != 0.0f)
                out.vertexSamples[next[out.corners[b][k]]++] =
                    glm::uvec4(uint32_t(b), std::bit_cast<uint32_t>(out.weights[b][k]), 0, 0);
    return out;
}

double planeBoundaryMassPerArea(float spacing, const SampleKernel& kernel)
{
    if (!(spacing > 0.0f)) throw Error(fmt::format("solid sample spacing {} m: expected a positive spacing", spacing));
    const float gamma = sim::boundaryVolumeScale(kernel.kernelSet, kernel.dims, spacing / kernel.h, 1);
    const int reach = static_cast<int>(std::ceil(2.0f * kernel.h / spacing)) + 1;
    double sum = 0.0;
    for (int i = -reach; i <= reach; ++i)
        for (int j = -reach; j <= reach; ++j)
            sum += shared::kernelW(kernel.kernelSet, spacing * std::sqrt(float(i * i + j * j)), kernel.h, kernel.dims);
    return double(gamma) * kernel.restDensity / (double(spacing) * spacing * sum);
}

glm::vec3 placeTetSample(const TetSurface& solid, const glm::uvec4& corners, const glm::vec4& weights)
{
    const glm::uvec3 f = tetFace(solid, corners.x, corners.y);
    const glm::vec3 a = solid.nodes[f.x], b = solid.nodes[f.y], d = solid.nodes[f.z];
    const glm::vec3 cross = glm::cross(b - a, d - a);
    const glm::vec3 unit = glm::dot(cross, cross) > 0.0f ? glm::normalize(cross) : glm::vec3(0.0f);
    return weights.x * a + weights.y * b + weights.z * d - std::bit_cast<float>(corners.z) * unit;
}

TetSamples sampleTetFaces(const TetSurface& solid, float spacing, const SampleKernel& kernel)
{
    const double massPerArea = planeBoundaryMassPerArea(spacing, kernel);
    if (solid.tetDepth.size() != solid.tets.size())
        throw Error(fmt::format("tet samples: {} depths for {} tets", solid.tetDepth.size(), solid.tets.size()));
    for (uint32_t t = 0; t < solid.tets.size(); ++t)
        for (int k = 0; k < 4; ++k)
            if (solid.tets[t][k] >= solid.nodes.size())
                throw Error(fmt::format("tet samples: tet {} names node {} of {}", t, solid.tets[t][k], solid.nodes.size()));
    std::vector<bool> boundary;
    const std::vector<glm::vec3> miters = restMiters(solid, boundary);
    // The unit normals of the boundary faces at each edge (sorted node pair), to tell creases.
    std::map<std::pair<uint32_t, uint32_t>, std::vector<glm::dvec3>> edgeNormals;
    const auto faceNormal = [&](const glm::uvec3& f) {
        const glm::dvec3 cross = glm::cross(glm::dvec3(solid.nodes[f.y]) - glm::dvec3(solid.nodes[f.x]),
                                            glm::dvec3(solid.nodes[f.z]) - glm::dvec3(solid.nodes[f.x]));
        const double length = glm::length(cross);
        return length > 0.0 ? cross / length : glm::dvec3(0.0);
    };
    for (uint32_t t = 0; t < solid.tets.size(); ++t)
        for (uint32_t c = 0; c < 4; ++c) {
            if (!boundary[4 * t + c]) continue;
            const glm::uvec3 f = tetFace(solid, t, c);
            for (int e = 0; e < 3; ++e)
                edgeNormals[{std::min(f[e], f[(e + 1) % 3]), std::max(f[e], f[(e + 1) % 3])}].push_back(faceNormal(f));
        }
    TetSamples out;
    out.tetStart.reserve(solid.tets.size() + 1);
    for (uint32_t t = 0; t < solid.tets.size(); ++t) {
        out.tetStart.push_back(static_cast<uint32_t>(out.corners.size()));
        for (uint32_t c = 0; c < 4; ++c) {
            const glm::uvec3 face = tetFace(solid, t, c);
            const glm::dvec3 a(solid.nodes[face.x]), b(solid.nodes[face.y]), d(solid.nodes[face.z]);
            const float longest = float(std::max({glm::length(b - a), glm::length(d - b), glm::length(a - d)}));
            const uint32_t n = segments(longest, 1.5f * spacing);
            const glm::dvec3 cross = glm::cross(b - a, d - a);
            const double area = 0.5 * glm::length(cross);
            // The inset face: each corner moved `depth` along its miter, projected back into the
            // face's plane (the move along the normal is the depth the shader applies), as
            // barycentric coordinates of the face. A face inside the body at rest (a crack face
            // once a cut opens it) keeps the whole face: its miters are the crack's, unknown here.
            glm::dmat3 inset(1.0); // columns: the inset corners' barycentric coordinates
            double insetArea = area;
            if (boundary[4 * t + c] && area > 0.0) {
                const glm::dvec3 unit = cross / (2.0 * area);
                const glm::dvec3 corner[3] = {a, b, d};
                glm::dvec3 moved[3];
                for (int k = 0; k < 3; ++k) {
                    const glm::dvec3 m(miters[face[k]]);
                    moved[k] = corner[k] - double(solid.tetDepth[t]) * (m - glm::dot(m, unit) * unit);
                    // Barycentric coordinates in (a, b, d): the sub-areas against the whole.
                    const double wb = glm::dot(glm::cross(moved[k] - a, d - a), unit) / (2.0 * area);
                    const double wd = glm::dot(glm::cross(b - a, moved[k] - a), unit) / (2.0 * area);
                    inset[k] = glm::dvec3(1.0 - wb - wd, wb, wd);
                }
                insetArea = std::max(0.0, 0.5 * glm::dot(glm::cross(moved[1] - moved[0], moved[2] - moved[0]), unit));
            }
            // Along a crease (an edge where the boundary face across it does not lie in this
            // face's plane: a box's edge), the lattice is stretched so that its outermost
            // centroids, a third of a sub-triangle (barycentric 1/(3n)) from the edge, lie on the
            // inset face's edge, as a deformable body's edge samples do. Ending short of it, the
            // samples of the two faces at an edge left a gap the fluid rounded off: a plank of
            // tets of 500 kg/m^3 floated 4.8 % deep, the same plank as a deformable box 0.4 %.
            // Between faces of one plane the lattices meet as before. A face of one sub-triangle
            // (n = 1) keeps its centroid: stretched toward three creases at once (a coarse ball's
            // faces) it had no place to go (a division by zero: non-finite weights, and a tet ball
            // in water diverged at its first step), toward two it would sit on a corner.
            glm::dvec3 shift(0.0); // per corner: 1/(3n) where the edge opposite it is a crease
            if (boundary[4 * t + c] && area > 0.0 && n > 1) {
                const glm::dvec3 normal = cross / (2.0 * area);
                for (int k = 0; k < 3; ++k) {
                    const uint32_t p = face[(k + 1) % 3], q = face[(k + 2) % 3];
                    for (const glm::dvec3& other : edgeNormals[{std::min(p, q), std::max(p, q)}])
                        if (glm::dot(other, normal) < double(kFlatCosine)) shift[k] = 1.0 / (3.0 * double(n));
                }
            }
            const double stretch = 1.0 / (1.0 - (shift.x + shift.y + shift.z));
            const float psi = static_cast<float>(massPerArea * insetArea / double(n * n));
            const auto add = [&](float u, float v) {
                out.corners.emplace_back(t, c, std::bit_cast<uint32_t>(solid.tetDepth[t]), 0u);
                const glm::dvec3 lattice(u / double(n), v / double(n), 1.0 - (double(u) + double(v)) / double(n));
                const glm::dvec3 w = inset * (stretch * (lattice - shift));
                out.weights.emplace_back(glm::vec3(w), psi);
            };
            // The centroids of the n^2 sub-triangles: n (n + 1) / 2 pointing like the face, n (n - 1) / 2 the other way.
            for (uint32_t i = 0; i < n; ++i)
                for (uint32_t j = 0; i + j < n; ++j) {
                    add(float(i) + 1.0f / 3.0f, float(j) + 1.0f / 3.0f);
                    if (i + j + 2 <= n) add(float(i) + 2.0f / 3.0f, float(j) + 2.0f / 3.0f);
                }
        }
    }
    out.tetStart.push_back(static_cast<uint32_t>(out.corners.size()));
    // The boundary faces' samples (at rest, as coupling/tet_samples places them) fitted as a
    // deformable body's are (coupling/BoundaryCalibration.h): beside a box's edges and corners
    // their inset faces lie farther from the fluid than a flat wall's samples do. A crack face's
    // samples, switched on later, keep the weight of their area.
    {
        std::vector<CalibrationSurface> surfaces;
        std::map<float, size_t> surfaceOfDepth; // one surface per depth (a thin body's is less)
        std::vector<uint32_t> index;
        std::vector<glm::vec3> positions;
        std::vector<float> psi;
        for (uint32_t t = 0; t < solid.tets.size(); ++t)
            for (uint32_t c = 0; c < 4; ++c) {
                if (!boundary[4 * t + c]) continue;
                const auto [it, added] = surfaceOfDepth.try_emplace(solid.tetDepth[t], surfaces.size());
                if (added) surfaces.push_back({&solid.nodes, {}, solid.tetDepth[t]});
                surfaces[it->second].triangles.push_back(tetFace(solid, t, c));
            }
        for (size_t i = 0; i < out.corners.size(); ++i) {
            if (!boundary[4 * out.corners[i].x + out.corners[i].y]) continue;
            positions.push_back(placeTetSample(solid, out.corners[i], out.weights[i]));
            psi.push_back(out.weights[i].w);
            index.push_back(uint32_t(i));
        }
        calibrateBoundaryMass(surfaces, positions, psi, std::vector<bool>(psi.size(), true), spacing, kernel);
        for (size_t k = 0; k < index.size(); ++k) out.weights[index[k]].w = psi[k];
    }
    return out;
}

} // namespace floe::coupling
