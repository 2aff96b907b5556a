#include "sim/sph/BoundarySampler.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include <glm/geometric.hpp>

#include "shared/sph.h"

namespace floe::sim {
namespace {

struct Dedup {
    float quantum;
    std::unordered_set<uint64_t> seen;
    std::vector<glm::vec3>& out;
    void add(const glm::vec3& p)
    {
        const auto q = [&](float x) { return static_cast<uint64_t>(static_cast<int64_t>(std::llround(x / quantum)) & 0x1fffff); };
        const uint64_t key = q(p.x) | (q(p.y) << 21) | (q(p.z) << 42);
        if (seen.insert(key).second) out.push_back(p);
    }
};

} // namespace

std::vector<glm::vec3> sampleBoundary(const geometry::TriangleMesh& mesh, const BoundarySampling& sampling)
{
    std::vector<glm::vec3> out;
    Dedup dedup{sampling.spacing * 0.25f, {}, out};
    const float s = sampling.spacing;
    const float away = sampling.fluidInside ? 1.0f : -1.0f; // layers grow away from the fluid
    if (sampling.flat) {
        for (const geometry::Segment& seg : geometry::sliceAtZ0(mesh)) {
            const float len = glm::length(seg.b - seg.a);
            const int n = std::max(1, static_cast<int>(std::ceil(len / s)));
            for (int layer = 0; layer < sampling.layers; ++layer) {
                const glm::vec2 offset = away * float(layer) * s * seg.normal;
                for (int i = 0; i <= n; ++i) {
                    const glm::vec2 p = seg.a + (float(i) / float(n)) * (seg.b - seg.a) + offset;
                    dedup.add(glm::vec3(p, 0.0f));
                }
            }
        }
        return out;
    }
    for (size_t t = 0; t < mesh.triangles.size(); ++t) {
        const glm::vec3 a = mesh.vertices[mesh.triangles[t].x];
        const glm::vec3 b = mesh.vertices[mesh.triangles[t].y];
        const glm::vec3 c = mesh.vertices[mesh.triangles[t].z];
        const glm::vec3 normal = geometry::triangleNormal(mesh, t);
        // A lattice along the two edges from a, `s` apart in each direction (the edge counts
        // differ for elongated triangles), clipped to the triangle.
        const int nb = std::max(1, static_cast<int>(std::ceil(glm::length(b - a) / s)));
        const int nc = std::max(1, static_cast<int>(std::ceil(glm::length(c - a) / s)));
        for (int layer = 0; layer < sampling.layers; ++layer) {
            const glm::vec3 offset = away * float(layer) * s * normal;
            for (int i = 0; i <= nb; ++i)
                for (int j = 0; j <= nc; ++j) {
                    const float u = float(i) / float(nb), v = float(j) / float(nc);
                    if (u + v > 1.0f + 1e-6f) break;
                    dedup.add(a + u * (b - a) + v * (c - a) + offset);
                }
            // The far edge b-c, which the lattice only touches at lattice points.
            const int n = std::max(1, static_cast<int>(std::ceil(glm::length(c - b) / s)));
            for (int i = 0; i <= n; ++i) dedup.add(b + (float(i) / float(n)) * (c - b) + offset);
        }
    }
    return out;
}

float boundaryVolumeScale(uint32_t kernelSet, uint32_t dims, float spacingRatio, int layers)
{
    // Units: spacing h = 1, rho0 = 1, fluid mass h^dims = 1.
    const float h = 1.0f;
    const float s = spacingRatio * h;
    const auto w = [&](float x, float y, float z) { return shared::kernelW(kernelSet, std::sqrt(x * x + y * y + z * z), h, dims); };
    const int reach = static_cast<int>(std::ceil(2.0f * h / s)) + 1;
    const int zReach = dims == 3 ? reach : 0;
    // Boundary volume of a sample in an infinite wall (y = 0 and `layers` - 1 layers behind it).
    double sum = 0;
    for (int i = -reach; i <= reach; ++i)
        for (int k = -zReach; k <= zReach; ++k)
            for (int l = 0; l < layers; ++l) sum += w(i * s, -l * s, k * s);
    const double volume = 1.0 / sum;
    // A fluid particle at (0, h, 0): its boundary part, its fluid part (lattice y >= h) and the
    // bulk lattice density.
    const int fluidReach = dims == 3 ? 3 : 0;
    double boundaryPart = 0, fluidPart = 0, bulk = 0;
    for (int i = -reach; i <= reach; ++i)
        for (int k = -zReach; k <= zReach; ++k)
            for (int l = 0; l < layers; ++l) boundaryPart += volume * w(i * s, h + l * s, k * s);
    for (int i = -3; i <= 3; ++i)
        for (int k = -fluidReach; k <= fluidReach; ++k)
            for (int j = -3; j <= 3; ++j) {
                bulk += w(i * h, j * h, k * h);
                if (j >= 1) fluidPart += w(i * h, (j - 1) * h, k * h);
            }
    return static_cast<float>((bulk - fluidPart) / boundaryPart);
}

} // namespace floe::sim
