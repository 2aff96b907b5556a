#include "sim/sph/BoundarySampler.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "shared/sph.h"

namespace floe::sim {
namespace {

// Merges samples that fall in the same cell of a `quantum` grid, keeping the first: an open-
// addressing set of the cells' keys (std::unordered_set's node per insert and its rehashes took
// two thirds of the 50 ms that sampling SPlisHSPlasH's 3D tank, 192k samples, took at start-up).
struct Dedup {
    float quantum;
    std::vector<glm::vec3>& out;
    std::vector<uint64_t> slots = std::vector<uint64_t>(1024, 0); // key + 1; 0 is empty
    size_t used = 0;
    static size_t slotOf(uint64_t key, size_t mask)
    {
        key ^= key >> 31; // a 64-bit mix (splitmix64's finaliser): the keys are packed coordinates
        key *= 0x7fb5d329728ea185ull;
        key ^= key >> 27;
        key *= 0x81dadef4bc2dd44dull;
        key ^= key >> 33;
        return size_t(key) & mask;
    }
    bool insert(uint64_t key)
    {
        if (2 * (used + 1) > slots.size()) { // at most half full
            std::vector<uint64_t> old(slots.size() * 2, 0);
            old.swap(slots);
            for (uint64_t k : old)
                if (k != 0) {
                    size_t at = slotOf(k - 1, slots.size() - 1);
                    while (slots[at] != 0) at = (at + 1) & (slots.size() - 1);
                    slots[at] = k;
                }
        }
        for (size_t at = slotOf(key, slots.size() - 1);; at = (at + 1) & (slots.size() - 1)) {
            if (slots[at] == key + 1) return false;
            if (slots[at] == 0) {
                slots[at] = key + 1;
                ++used;
                return true;
            }
        }
    }
    void add(const glm::vec3& p)
    {
        const auto q = [&](float x) { return static_cast<uint64_t>(static_cast<int64_t>(std::llround(x / quantum)) & 0x1fffff); };
        if (insert(q(p.x) | (q(p.y) << 21) | (q(p.z) << 42))) out.push_back(p);
    }
};

} // namespace

double boundarySampleBound(const geometry::TriangleMesh& mesh, const BoundarySampling& sampling)
{
    const double s = sampling.spacing;
    double count = 0.0;
    if (sampling.flat) {
        for (const geometry::Segment& seg : geometry::sliceAtZ0(mesh))
            count += std::max(1.0, std::ceil(double(glm::length(seg.b - seg.a)) / s)) + 1.0;
    } else {
        for (size_t t = 0; t < mesh.triangles.size(); ++t) {
            const glm::dvec3 a = mesh.vertices[mesh.triangles[t].x], b = mesh.vertices[mesh.triangles[t].y],
                             c = mesh.vertices[mesh.triangles[t].z];
            const double ab = glm::length(b - a), bc = glm::length(c - b), ca = glm::length(a - c);
            const double longest = std::max({ab, bc, ca});
            // The two edges at the corner the lattice starts from, and the far edge.
            const double e1 = std::max(1.0, std::ceil((ab + bc + ca - longest) / s)); // generous: their sum
            count += (e1 + 1.0) * (e1 + 1.0) + std::ceil(longest / s) + 1.0;
        }
    }
    return count * double(std::max(sampling.layers, 1));
}

std::vector<glm::vec3> sampleBoundary(const geometry::TriangleMesh& mesh, const BoundarySampling& sampling)
{
    std::vector<glm::vec3> out;
    Dedup dedup{sampling.spacing * 0.25f, out};
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
        // Start the lattice at the corner opposite the longest edge: for the right triangles of
        // boxes the lattice runs along the legs and the two triangles of a face share it.
        glm::vec3 v[3] = {mesh.vertices[mesh.triangles[t].x], mesh.vertices[mesh.triangles[t].y],
                          mesh.vertices[mesh.triangles[t].z]};
        int corner = 0;
        float longest = -1.0f;
        for (int e = 0; e < 3; ++e) {
            const float len = glm::length(v[(e + 2) % 3] - v[(e + 1) % 3]); // the edge opposite v[e]
            if (len > longest) {
                longest = len;
                corner = e;
            }
        }
        const glm::vec3 a = v[corner], b = v[(corner + 1) % 3], c = v[(corner + 2) % 3];
        const glm::vec3 normal = geometry::triangleNormal(mesh, t);
        // A lattice along the two edges from a, `s` apart in each direction (the edge counts
        // differ for elongated triangles), clipped to the triangle.
        const int nb = std::max(1, static_cast<int>(std::ceil(glm::length(b - a) / s)));
        const int nc = std::max(1, static_cast<int>(std::ceil(glm::length(c - a) / s)));
        for (int layer = 0; layer < sampling.layers; ++layer) {
            const glm::vec3 offset = away * float(layer) * s * normal;
            for (int i = 0; i <= nb; ++i)
                for (int j = 0; j <= nc; ++j) {
                    const float u = float(i) / float(nb), w = float(j) / float(nc);
                    if (u + w > 1.0f + 1e-6f) break;
                    dedup.add(a + u * (b - a) + w * (c - a) + offset);
                }
            // The far edge b-c: the lattice reaches it only for right angles at a.
            const float cosine = glm::dot(glm::normalize(b - a), glm::normalize(c - a));
            if (std::abs(cosine) > 1e-3f) {
                const int n = std::max(1, static_cast<int>(std::ceil(glm::length(c - b) / s)));
                for (int i = 0; i <= n; ++i) dedup.add(b + (float(i) / float(n)) * (c - b) + offset);
            }
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
    // Particles weigh 1/bulk (latticeDensity), so the bulk has density 1 and the wall must add
    // what the missing lattice layers would.
    return static_cast<float>((bulk - fluidPart) / (bulk * boundaryPart));
}

float latticeDensity(uint32_t kernelSet, uint32_t dims)
{
    double sum = 0;
    const int zReach = dims == 3 ? 2 : 0;
    for (int i = -2; i <= 2; ++i)
        for (int j = -2; j <= 2; ++j)
            for (int k = -zReach; k <= zReach; ++k)
                sum += shared::kernelW(kernelSet, std::sqrt(float(i * i + j * j + k * k)), 1.0f, dims);
    return static_cast<float>(sum);
}

float pcisphFactor(uint32_t kernelSet, uint32_t dims, float h)
{
    const double volume = std::pow(double(h), double(dims)) / latticeDensity(kernelSet, dims);
    const int zReach = dims == 3 ? 2 : 0;
    glm::dvec3 sum(0.0);
    double squares = 0.0;
    for (int i = -2; i <= 2; ++i)
        for (int j = -2; j <= 2; ++j)
            for (int k = -zReach; k <= zReach; ++k) {
                const glm::dvec3 x = double(h) * glm::dvec3(i, j, k);
                const double r = glm::length(x);
                if (r <= 0.0 || r >= 2.0 * h) continue;
                const glm::dvec3 g = double(shared::kernelDW(kernelSet, float(r), h, dims)) / r * x;
                sum += g;
                squares += glm::dot(g, g);
            }
    return static_cast<float>(1.0 / (2.0 * volume * volume * (glm::dot(sum, sum) + squares)));
}

} // namespace floe::sim
