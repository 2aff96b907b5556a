#include "coupling/BoundaryCalibration.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <thread>
#include <unordered_map>

#include <glm/geometric.hpp>

#include "shared/sph.h"

namespace floe::coupling {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Offsets of the probes outside the surface, in units of h: the band where the fluid's first
// layer rests (its centres about 0.3 h outside a flat wall whose samples lie 0.75 h deep).
constexpr double kProbeOffsets[] = {0.25, 0.5};
// Richardson-Lucy updates of the weights; the fit's error stops falling after about 30.
constexpr int kIterations = 40;

double W(const SampleKernel& k, double r)
{
    return shared::kernelW(k.kernelSet, static_cast<float>(r), k.h, k.dims);
}

// G(s) = int_0^s W(t) t^2 dt, tabulated over the support (Simpson's rule on a fine grid), and
// its value at the support, which the kernel's normalization makes 1 / (4 pi) up to rounding:
// the table's own end value is used, so that F vanishes beyond the support exactly.
struct RadialIntegral {
    std::vector<double> table;
    double step = 0.0, support = 0.0;
    explicit RadialIntegral(const SampleKernel& k)
    {
        support = 2.0 * k.h;
        const int n = 4096;
        step = support / n;
        table.assign(n + 1, 0.0);
        const auto f = [&](double t) { return W(k, t) * t * t; };
        for (int i = 0; i < n; ++i) {
            const double a = i * step, b = a + step;
            table[i + 1] = table[i] + step / 6.0 * (f(a) + 4.0 * f(0.5 * (a + b)) + f(b));
        }
    }
    double operator()(double s) const
    {
        if (s >= support) return table.back();
        const double u = s / step;
        const size_t i = std::min(static_cast<size_t>(u), table.size() - 2); // u may round up to n
        const double t = u - double(i);
        return table[i] * (1.0 - t) + table[i + 1] * t;
    }
    double end() const { return table.back(); }
};

// The smooth part of F(x) . n for x = y - p: x . n G(|x|) / |x|^3 (G(s) / s^3 tends to W(0) / 3).
double smoothFlux(const RadialIntegral& G, const glm::dvec3& x, const glm::dvec3& n, double w0)
{
    const double r = glm::length(x);
    const double g = r > 1e-6 * G.support ? G(r) / (r * r * r) : w0 / 3.0;
    return glm::dot(x, n) * g;
}

// The solid angle of triangle (a, b, c) seen from the origin, positive where the origin lies on
// the side its counter-clockwise normal points away from (Van Oosterom and Strackee 1983):
// int_triangle x . n / |x|^3 dA.
double solidAngle(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c)
{
    const double la = glm::length(a), lb = glm::length(b), lc = glm::length(c);
    const double numerator = glm::dot(a, glm::cross(b, c));
    const double denominator = la * lb * lc + glm::dot(a, b) * lc + glm::dot(a, c) * lb + glm::dot(b, c) * la;
    return 2.0 * std::atan2(numerator, denominator);
}

// The flux of F = x (G(|x|) - G(support)) / |x|^3 through triangle (a, b, c) with unit normal n,
// seen from p: the part x G / |x|^3, smooth everywhere (also at p and across the support's edge),
// by the edge-midpoint rule (exact for quadratics) on pieces of at most h / 4 across, minus
// G(support) times the triangle's solid angle, exact, which carries the singularity at p.
double triangleFlux(const RadialIntegral& G, const glm::dvec3& p, const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c,
                    const glm::dvec3& n, double area, double h, double w0, int level)
{
    const glm::dvec3 g = (a + b + c) / 3.0;
    const double radius = std::max({glm::length(a - g), glm::length(b - g), glm::length(c - g)});
    const double gap = glm::length(g - p) - radius; // at most the distance from p to the triangle
    if (gap >= G.support) return 0.0;
    const glm::dvec3 ab = 0.5 * (a + b), bc = 0.5 * (b + c), ca = 0.5 * (c + a);
    // Pieces farther from p than h see both parts vary on the kernel's scale only: coarser, and
    // without the solid angle (the whole F by the rule, as it vanishes beyond the support).
    const bool far = gap > h;
    if (radius <= (far ? 0.5 : 0.25) * h || level >= 10) {
        const double rule = smoothFlux(G, ab - p, n, w0) + smoothFlux(G, bc - p, n, w0) + smoothFlux(G, ca - p, n, w0);
        if (far) {
            const auto whole = [&](const glm::dvec3& x) {
                const double r = glm::length(x);
                return glm::dot(x, n) * G.end() / (r * r * r);
            };
            return area / 3.0 * (rule - whole(ab - p) - whole(bc - p) - whole(ca - p));
        }
        return area / 3.0 * rule - G.end() * solidAngle(a - p, b - p, c - p);
    }
    const double quarter = 0.25 * area;
    return triangleFlux(G, p, a, ab, ca, n, quarter, h, w0, level + 1) +
           triangleFlux(G, p, ab, b, bc, n, quarter, h, w0, level + 1) +
           triangleFlux(G, p, ca, bc, c, n, quarter, h, w0, level + 1) +
           triangleFlux(G, p, ab, bc, ca, n, quarter, h, w0, level + 1);
}

uint64_t cellKey(const glm::ivec3& c)
{
    return (uint64_t(uint32_t(c.x) & 0x1FFFFF) << 42) | (uint64_t(uint32_t(c.y) & 0x1FFFFF) << 21) |
           uint64_t(uint32_t(c.z) & 0x1FFFFF);
}

// The triangles of all surfaces in a hash grid of cells of half the support, each in every cell its
// bounding box overlaps.
struct TriangleGrid {
    struct Entry {
        glm::dvec3 a, b, c, n;
        glm::dvec3 centre; // of the bounding sphere about the centroid
        double area, radius;
    };
    std::vector<Entry> triangles;
    std::unordered_map<uint64_t, std::vector<uint32_t>> cells;
    double cell = 0.0, support = 0.0;
    // Cells of half the support: a query walks the 4-5 cells per axis the support's ball overlaps.
    TriangleGrid(const std::vector<CalibrationSurface>& surfaces, double support_) : cell(0.5 * support_), support(support_)
    {
        for (const CalibrationSurface& s : surfaces)
            for (const glm::uvec3& t : s.triangles) {
                const glm::dvec3 a((*s.vertices)[t.x]), b((*s.vertices)[t.y]), c((*s.vertices)[t.z]);
                const glm::dvec3 cross = glm::cross(b - a, c - a);
                const double twice = glm::length(cross);
                if (!(twice > 0.0)) continue;
                const uint32_t id = static_cast<uint32_t>(triangles.size());
                const glm::dvec3 g = (a + b + c) / 3.0;
                triangles.push_back({a, b, c, cross / twice, g, 0.5 * twice,
                                     std::max({glm::length(a - g), glm::length(b - g), glm::length(c - g)})});
                const glm::ivec3 lo(glm::floor(glm::min(glm::min(a, b), c) / cell)),
                    hi(glm::floor(glm::max(glm::max(a, b), c) / cell));
                for (int z = lo.z; z <= hi.z; ++z)
                    for (int y = lo.y; y <= hi.y; ++y)
                        for (int x = lo.x; x <= hi.x; ++x) cells[cellKey({x, y, z})].push_back(id);
            }
    }
    // Calls f(entry) once for every triangle that may lie within the support of p.
    template <class F> void near(const glm::dvec3& p, std::vector<uint32_t>& stamp, uint32_t mark, F&& f) const
    {
        const glm::ivec3 lo(glm::floor((p - support) / cell)), hi(glm::floor((p + support) / cell));
        for (int z = lo.z; z <= hi.z; ++z)
            for (int y = lo.y; y <= hi.y; ++y)
                for (int x = lo.x; x <= hi.x; ++x) {
                    const auto it = cells.find(cellKey({x, y, z}));
                    if (it == cells.end()) continue;
                    for (uint32_t t : it->second) {
                        if (stamp[t] == mark) continue;
                        stamp[t] = mark;
                        const Entry& e = triangles[t];
                        if (glm::length(e.centre - p) - e.radius < support) f(e);
                    }
                }
    }
};

double missingAt(const glm::dvec3& p, const TriangleGrid& grid, const RadialIntegral& G, const SampleKernel& k,
                 std::vector<uint32_t>& stamp, uint32_t mark)
{
    double flux = 0.0;
    const double w0 = W(k, 0.0);
    grid.near(p, stamp, mark,
              [&](const TriangleGrid::Entry& e) { flux += triangleFlux(G, p, e.a, e.b, e.c, e.n, e.area, k.h, w0, 0); });
    return double(k.restDensity) * flux;
}

// Every edge of the surface in exactly two triangles.
bool closed(const CalibrationSurface& s)
{
    std::map<std::pair<uint32_t, uint32_t>, int> uses;
    for (const glm::uvec3& t : s.triangles)
        for (int e = 0; e < 3; ++e) ++uses[{std::min(t[e], t[(e + 1) % 3]), std::max(t[e], t[(e + 1) % 3])}];
    if (uses.empty()) return false;
    for (const auto& [edge, n] : uses)
        if (n != 2) return false;
    return true;
}

struct Probe {
    glm::dvec3 position;
    double delta; // offset outside the surface (m)
    double depth; // the samples' depth below this surface (m)
};

// Surface points (every vertex, points along every edge and a lattice inside every triangle, at
// most `spacing` apart) moved each offset outward: along a vertex's miter's direction, an edge's
// bisector (the sum of its two triangles' normals), a triangle's normal.
void addProbes(const CalibrationSurface& s, double spacing, double h, std::vector<Probe>& probes)
{
    const std::vector<glm::vec3>& x = *s.vertices;
    const std::vector<glm::vec3> miters = surfaceMiters(x, s.triangles, 1e-9);
    const auto segmentsOf = [&](double length) { return std::max(1, int(std::ceil(length / spacing - 1e-4))); };
    // Surface points about `spacing` apart however fine the mesh: a point closer than 0.75
    // spacing to one kept before it is left out (vertices first: a box's corners and edges).
    std::unordered_map<uint64_t, std::vector<glm::dvec3>> kept;
    const double minimum = 0.75 * spacing;
    const auto add = [&](const glm::dvec3& point, const glm::dvec3& outward) {
        const double length = glm::length(outward);
        if (!(length > 0.0)) return;
        const glm::ivec3 c(glm::floor(point / minimum));
        for (int dz = -1; dz <= 1; ++dz)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    const auto it = kept.find(cellKey(c + glm::ivec3(dx, dy, dz)));
                    if (it == kept.end()) continue;
                    for (const glm::dvec3& q : it->second)
                        if (glm::length(q - point) < minimum) return;
                }
        kept[cellKey(c)].push_back(point);
        for (const double offset : kProbeOffsets)
            probes.push_back({point + (offset * h / length) * outward, offset * h, double(s.depth)});
    };
    std::vector<glm::dvec3> normal(s.triangles.size(), glm::dvec3(0.0));
    std::map<std::pair<uint32_t, uint32_t>, glm::dvec3> edgeNormal;
    for (size_t f = 0; f < s.triangles.size(); ++f) {
        const glm::uvec3 t = s.triangles[f];
        const glm::dvec3 cross = glm::cross(glm::dvec3(x[t.y]) - glm::dvec3(x[t.x]), glm::dvec3(x[t.z]) - glm::dvec3(x[t.x]));
        const double length = glm::length(cross);
        if (length > 0.0) normal[f] = cross / length;
        for (int e = 0; e < 3; ++e) edgeNormal[{std::min(t[e], t[(e + 1) % 3]), std::max(t[e], t[(e + 1) % 3])}] += normal[f];
    }
    std::vector<bool> used(x.size(), false);
    for (const glm::uvec3& t : s.triangles) used[t.x] = used[t.y] = used[t.z] = true;
    for (size_t v = 0; v < x.size(); ++v)
        if (used[v]) add(glm::dvec3(x[v]), glm::dvec3(miters[v]));
    for (const auto& [edge, n] : edgeNormal) {
        const glm::dvec3 a(x[edge.first]), b(x[edge.second]);
        const int m = segmentsOf(glm::length(b - a));
        for (int k = 1; k < m; ++k) add(a + (b - a) * (double(k) / m), n);
    }
    for (size_t f = 0; f < s.triangles.size(); ++f) {
        const glm::uvec3 t = s.triangles[f];
        const glm::dvec3 a(x[t.x]), b(x[t.y]), c(x[t.z]);
        const int m = segmentsOf(std::max({glm::length(b - a), glm::length(c - b), glm::length(a - c)}));
        for (int i = 1; i < m; ++i)
            for (int j = 1; i + j < m; ++j) add((double(i) * a + double(j) * b + double(m - i - j) * c) / double(m), normal[f]);
    }
}

} // namespace

double flatWallFraction(double delta, double depth, double massPerArea, const SampleKernel& kernel)
{
    // A plane of surface density sigma at distance D: sigma 2 pi int_D^{2h} W(s) s ds. The missing
    // half-space at distance delta: rho0 int_delta^{2h} 2 pi int_z^{2h} W(s) s ds dz
    // = rho0 2 pi int_delta^{2h} W(s) s (s - delta) ds.
    const double support = 2.0 * kernel.h;
    const int n = 4096;
    const auto integral = [&](double from, auto&& f) {
        if (from >= support) return 0.0;
        const double step = (support - from) / n;
        double sum = 0.0;
        for (int i = 0; i < n; ++i) {
            const double a = from + i * step, b = a + step;
            sum += step / 6.0 * (f(a) + 4.0 * f(0.5 * (a + b)) + f(b));
        }
        return sum;
    };
    const double field = massPerArea * 2.0 * kPi * integral(delta + depth, [&](double s) { return W(kernel, s) * s; });
    const double missing =
        double(kernel.restDensity) * 2.0 * kPi * integral(delta, [&](double s) { return W(kernel, s) * s * (s - delta); });
    return missing > 0.0 ? field / missing : 0.0;
}

double missingDensity(const glm::vec3& p, const std::vector<CalibrationSurface>& surfaces, const SampleKernel& kernel)
{
    const RadialIntegral G(kernel);
    const TriangleGrid grid(surfaces, G.support);
    std::vector<uint32_t> stamp(grid.triangles.size(), 0);
    return missingAt(glm::dvec3(p), grid, G, kernel, stamp, 1);
}

CalibrationResult calibrateBoundaryMass(const std::vector<CalibrationSurface>& surfaces, const std::vector<glm::vec3>& positions,
                                        std::vector<float>& psi, const std::vector<bool>& fit, float spacing,
                                        const SampleKernel& kernel)
{
    CalibrationResult result;
    if (kernel.dims != 3 || positions.empty()) return result;
    std::vector<CalibrationSurface> closedSurfaces;
    for (const CalibrationSurface& s : surfaces)
        if (s.vertices && closed(s)) closedSurfaces.push_back(s);
    if (closedSurfaces.empty()) return result;

    const RadialIntegral G(kernel);
    const double support = G.support;
    const TriangleGrid triangles(closedSurfaces, support);
    std::vector<Probe> probes;
    for (const CalibrationSurface& s : closedSurfaces) addProbes(s, spacing, kernel.h, probes);

    // The samples in a hash grid of cells of the support.
    std::unordered_map<uint64_t, std::vector<uint32_t>> cells;
    const auto cellOf = [&](const glm::dvec3& p) { return glm::ivec3(glm::floor(p / support)); };
    for (uint32_t b = 0; b < positions.size(); ++b) cells[cellKey(cellOf(glm::dvec3(positions[b])))].push_back(b);

    // Per probe: its target and the samples within reach with their kernel values (CSR).
    const double massPerArea = planeBoundaryMassPerArea(spacing, kernel);
    std::map<std::pair<double, double>, double> fractions; // (delta, depth) -> the flat wall's fraction
    std::vector<double> target;
    std::vector<uint32_t> start{0}, sample;
    std::vector<float> weight; // 8 bytes a pair with its sample: about 100 pairs a probe
    // The missing densities, the costly part, on every core (each thread its own probes, so the
    // result does not depend on the thread count).
    std::vector<double> missingAtProbe(probes.size(), 0.0);
    {
        const size_t threads = std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 64);
        const size_t chunk = (probes.size() + threads - 1) / threads;
        std::vector<std::thread> pool;
        for (size_t t = 0; t < threads && t * chunk < probes.size(); ++t)
            pool.emplace_back([&, t] {
                std::vector<uint32_t> own(triangles.triangles.size(), 0);
                uint32_t ownMark = 0;
                for (size_t k = t * chunk; k < std::min(probes.size(), (t + 1) * chunk); ++k)
                    missingAtProbe[k] = missingAt(probes[k].position, triangles, G, kernel, own, ++ownMark);
            });
        for (std::thread& t : pool) t.join();
    }
    for (size_t probe = 0; probe < probes.size(); ++probe) {
        const Probe& p = probes[probe];
        const double missing = missingAtProbe[probe];
        if (!(missing > 0.0)) continue; // inside a solid (or beyond every solid's reach)
        const size_t first = sample.size();
        bool fitted = false;
        const glm::ivec3 c = cellOf(p.position);
        for (int dz = -1; dz <= 1; ++dz)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    const auto it = cells.find(cellKey(c + glm::ivec3(dx, dy, dz)));
                    if (it == cells.end()) continue;
                    for (uint32_t b : it->second) {
                        const double w = W(kernel, glm::length(p.position - glm::dvec3(positions[b])));
                        if (!(w > 0.0)) continue;
                        sample.push_back(b);
                        weight.push_back(static_cast<float>(w));
                        fitted = fitted || fit[b];
                    }
                }
        if (!fitted) {
            sample.resize(first);
            weight.resize(first);
            continue;
        }
        auto [it, inserted] = fractions.try_emplace({p.delta, p.depth}, 0.0);
        if (inserted) it->second = flatWallFraction(p.delta, p.depth, massPerArea, kernel);
        target.push_back(it->second * missing);
        start.push_back(static_cast<uint32_t>(sample.size()));
    }
    result.probes = static_cast<uint32_t>(target.size());

    std::vector<double> w(psi.begin(), psi.end()), field(target.size()), numerator(w.size()), denominator(w.size());
    const auto evaluate = [&] {
        double sum = 0.0;
        for (size_t k = 0; k < target.size(); ++k) {
            double f = 0.0;
            for (uint32_t e = start[k]; e < start[k + 1]; ++e) f += w[sample[e]] * double(weight[e]);
            field[k] = f;
            const double relative = (f - target[k]) / target[k];
            sum += relative * relative;
        }
        return target.empty() ? 0.0 : std::sqrt(sum / double(target.size()));
    };
    for (size_t b = 0; b < w.size(); ++b)
        if (fit[b]) result.massBefore += w[b];
    result.errorBefore = evaluate();
    for (int iteration = 0; iteration < kIterations; ++iteration) {
        std::fill(numerator.begin(), numerator.end(), 0.0);
        std::fill(denominator.begin(), denominator.end(), 0.0);
        for (size_t k = 0; k < target.size(); ++k)
            for (uint32_t e = start[k]; e < start[k + 1]; ++e) {
                numerator[sample[e]] += double(weight[e]) * target[k];
                denominator[sample[e]] += double(weight[e]) * field[k];
            }
        for (size_t b = 0; b < w.size(); ++b)
            if (fit[b] && denominator[b] > 0.0) w[b] *= numerator[b] / denominator[b];
        result.errorAfter = evaluate();
    }
    for (size_t b = 0; b < w.size(); ++b)
        if (fit[b]) {
            psi[b] = static_cast<float>(w[b]);
            result.massAfter += w[b];
        }
    return result;
}

} // namespace floe::coupling
