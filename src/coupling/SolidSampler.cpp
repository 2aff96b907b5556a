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

// Per node, its miter at rest: the vector m with m . n_f = 1 for every boundary face f around it
// (faces no other tet shares), so that a node moved d along m lies d inside each of those faces'
// planes: the corner of the surface offset d inward. Least squares over the faces, weighted by
// area, (sum a_f n_f n_f^T + eps tr I) m = sum a_f n_f: exact where at most three planes meet
// (a box's edge: n1 + n2, its corner: n1 + n2 + n3), the area-weighted normal on a smooth
// surface, the normal on a flat one (eps keeps the directions no face constrains at 0). Capped at
// length 2 (a corner sharper than a cube's: a cone's tip, whose inset ends before the tip). Zero
// for nodes on no boundary face. `boundary` gets, per tet face 4 t + c, whether it is one.
std::vector<glm::vec3> restMiters(const TetSurface& solid, std::vector<bool>& boundary)
{
    const auto faceOf = [&](uint32_t t, uint32_t c) {
        return glm::uvec3(solid.tets[t][kTetFaceCorners[c][0]], solid.tets[t][kTetFaceCorners[c][1]],
                          solid.tets[t][kTetFaceCorners[c][2]]);
    };
    // fracture::boundaryFaces numbers a tet's faces as kTetFaceCorners does: face c of its tet.
    std::vector<uint32_t> tetOfFace;
    const std::vector<glm::uvec3> faces =
        fracture::boundaryFaces(fracture::TetMesh{solid.nodes, solid.tets, "tet samples"}, &tetOfFace);
    boundary.assign(4 * solid.tets.size(), false);
    for (size_t i = 0; i < faces.size(); ++i)
        for (uint32_t c = 0; c < 4; ++c)
            if (faceOf(tetOfFace[i], c) == faces[i]) boundary[4 * tetOfFace[i] + c] = true;
    std::vector<glm::dmat3> normalSum(solid.nodes.size(), glm::dmat3(0.0));
    std::vector<glm::dvec3> rhs(solid.nodes.size(), glm::dvec3(0.0));
    for (uint32_t t = 0; t < solid.tets.size(); ++t)
        for (uint32_t c = 0; c < 4; ++c) {
            if (!boundary[4 * t + c]) continue;
            const glm::uvec3 f = faceOf(t, c);
            const glm::dvec3 a(solid.nodes[f.x]), b(solid.nodes[f.y]), d(solid.nodes[f.z]);
            const glm::dvec3 cross = glm::cross(b - a, d - a);
            const double twiceArea = glm::length(cross);
            if (!(twiceArea > 0.0)) continue;
            const glm::dvec3 n = cross / twiceArea;
            for (int k = 0; k < 3; ++k) {
                normalSum[f[k]] += 0.5 * twiceArea * glm::outerProduct(n, n);
                rhs[f[k]] += 0.5 * twiceArea * n;
            }
        }
    std::vector<glm::vec3> miters(solid.nodes.size(), glm::vec3(0.0f));
    for (size_t k = 0; k < solid.nodes.size(); ++k) {
        const double trace = normalSum[k][0][0] + normalSum[k][1][1] + normalSum[k][2][2];
        if (!(trace > 0.0)) continue;
        glm::dvec3 m = glm::inverse(normalSum[k] + 1e-9 * trace * glm::dmat3(1.0)) * rhs[k];
        const double length = glm::length(m);
        if (length > 2.0) m *= 2.0 / length;
        miters[k] = glm::vec3(m);
    }
    return miters;
}

} // namespace

SolidSamples sampleSolids(const std::vector<SolidSurface>& solids, uint32_t vertexCount, float spacing, const SampleKernel& kernel)
{
    if (!(spacing > 0.0f)) throw Error(fmt::format("solid sample spacing {} m: expected a positive spacing", spacing));
    SolidSamples out;
    std::vector<glm::vec3> positions; // of the samples, for Psi
    const auto add = [&](const SolidSurface& solid, glm::uvec3 c, glm::vec3 w, const glm::vec3& x) {
        const glm::uvec3 local = c - glm::uvec3(solid.firstVertex);
        const glm::vec3 n = w.x * solid.normals[local.x] + w.y * solid.normals[local.y] + w.z * solid.normals[local.z];
        const float length = glm::length(n);
        out.corners.emplace_back(c, std::bit_cast<uint32_t>(solid.depth));
        out.weights.emplace_back(w, 0.0f);
        positions.push_back(length > 0.0f ? x - (solid.depth / length) * n : x);
    };
    std::vector<uint32_t> firstSample(solids.size() + 1, 0);
    for (uint32_t s = 0; s < solids.size(); ++s) {
        const SolidSurface& solid = solids[s];
        const uint32_t base = solid.firstVertex;
        const auto& x = solid.vertices;
        for (const glm::uvec3& t : solid.triangles)
            if (t.x >= x.size() || t.y >= x.size() || t.z >= x.size() || base + x.size() > vertexCount ||
                solid.normals.size() != x.size())
                throw Error(
                    fmt::format("solid {}: a triangle names a vertex beyond its {} vertices (or normals missing)", s, x.size()));
        firstSample[s] = static_cast<uint32_t>(out.corners.size());
        // Every vertex.
        for (uint32_t v = 0; v < x.size(); ++v) add(solid, glm::uvec3(base + v), {1, 0, 0}, x[v]);
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
            for (uint32_t k = 1; k < n; ++k) {
                const float t = float(k) / float(n);
                add(solid, {base + a, base + b, base + b}, {1.0f - t, t, 0.0f}, (1.0f - t) * x[a] + t * x[b]);
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
                    add(solid, {base + t.x, base + t.y, base + t.z}, w, w.x * a + w.y * b + w.z * c);
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
    TetSamples out;
    out.tetStart.reserve(solid.tets.size() + 1);
    for (uint32_t t = 0; t < solid.tets.size(); ++t) {
        out.tetStart.push_back(static_cast<uint32_t>(out.corners.size()));
        const glm::uvec4 tet = solid.tets[t];
        for (uint32_t c = 0; c < 4; ++c) {
            const glm::uvec3 face(tet[kTetFaceCorners[c][0]], tet[kTetFaceCorners[c][1]], tet[kTetFaceCorners[c][2]]);
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
            const float psi = static_cast<float>(massPerArea * insetArea / double(n * n));
            const auto add = [&](float u, float v) {
                out.corners.emplace_back(t, c, std::bit_cast<uint32_t>(solid.tetDepth[t]), 0u);
                const glm::dvec3 w = inset * glm::dvec3(u / float(n), v / float(n), 1.0f - (u + v) / float(n));
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
    return out;
}

} // namespace floe::coupling
