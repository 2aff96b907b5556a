#include "SphReference.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

namespace floe::reference {
namespace {

constexpr double kPi = 3.14159265358979323846;

struct Neighbours {
    std::vector<std::vector<uint32_t>> fluid, boundary;
};

Neighbours findNeighbours(const SphReferenceParams& p, const SphReferenceState& s, const SphReferenceBoundary& b)
{
    const double support = 2.0 * p.h;
    Neighbours n;
    n.fluid.resize(s.x.size());
    n.boundary.resize(s.x.size());
    for (size_t i = 0; i < s.x.size(); ++i) {
        for (size_t j = 0; j < s.x.size(); ++j)
            if (j != i && glm::length(s.x[i] - s.x[j]) < support) n.fluid[i].push_back(uint32_t(j));
        for (size_t k = 0; k < b.x.size(); ++k)
            if (glm::length(s.x[i] - b.x[k]) < support) n.boundary[i].push_back(uint32_t(k));
    }
    return n;
}

glm::dvec3 gradW(const SphReferenceParams& p, const glm::dvec3& xij)
{
    const double r = glm::length(xij);
    return r > 0 ? referenceDW(p, r) / r * xij : glm::dvec3(0);
}

} // namespace

double referenceW(const SphReferenceParams& p, double r)
{
    const double H = 2.0 * p.h;
    if (p.mueller) {
        if (r >= H) return 0;
        const double c = p.dims == 2 ? 4.0 / (kPi * std::pow(H, 8)) : 315.0 / (64.0 * kPi * std::pow(H, 9));
        return c * std::pow(H * H - r * r, 3);
    }
    const double sigma = p.dims == 2 ? 5.0 / (14.0 * kPi * p.h * p.h) : 1.0 / (4.0 * kPi * p.h * p.h * p.h);
    const double q = r / p.h;
    return sigma * (std::pow(std::max(2.0 - q, 0.0), 3) - 4.0 * std::pow(std::max(1.0 - q, 0.0), 3));
}

double referenceDW(const SphReferenceParams& p, double r)
{
    const double H = 2.0 * p.h;
    if (p.mueller) {
        if (r >= H) return 0;
        const double c = p.dims == 2 ? -30.0 / (kPi * std::pow(H, 5)) : -45.0 / (kPi * std::pow(H, 6));
        return c * (H - r) * (H - r);
    }
    const double sigma = p.dims == 2 ? 5.0 / (14.0 * kPi * p.h * p.h) : 1.0 / (4.0 * kPi * p.h * p.h * p.h);
    const double q = r / p.h;
    return sigma / p.h * (-3.0 * std::pow(std::max(2.0 - q, 0.0), 2) + 12.0 * std::pow(std::max(1.0 - q, 0.0), 2));
}

SphReferenceBoundary referenceBoundary(const SphReferenceParams& p, const std::vector<glm::dvec3>& samples, double gamma)
{
    SphReferenceBoundary b;
    b.x = samples;
    for (const glm::dvec3& xb : samples) {
        double sum = 0;
        for (const glm::dvec3& xk : samples) sum += referenceW(p, glm::length(xb - xk));
        b.psi.push_back(gamma * p.rho0 / sum);
    }
    return b;
}

void referenceStep(const SphReferenceParams& p, SphReferenceState& s, const SphReferenceBoundary& b)
{
    const size_t n = s.x.size();
    const Neighbours nb = findNeighbours(p, s, b);
    const double support = 2.0 * p.h, dt = p.dt;
    s.pressure.resize(n, 0.0);

    // Density (itself included) and the equation of state.
    std::vector<double> rho(n), pressure(n, 0.0);
    for (size_t i = 0; i < n; ++i) {
        rho[i] = s.m[i] * referenceW(p, 0.0);
        for (uint32_t j : nb.fluid[i]) rho[i] += s.m[j] * referenceW(p, glm::length(s.x[i] - s.x[j]));
        for (uint32_t k : nb.boundary[i]) rho[i] += b.psi[k] * referenceW(p, glm::length(s.x[i] - b.x[k]));
        if (p.solver == SphReferenceParams::Solver::Eos) {
            double value = p.eosKind == 1   ? p.stiffness * (std::pow(rho[i] / p.rho0, p.gamma) - 1.0)
                           : p.eosKind == 2 ? p.stiffness * (rho[i] - p.rho0)
                                            : p.stiffness * (rho[i] / p.rho0 - 1.0);
            pressure[i] = p.clampPressure ? std::max(value, 0.0) : value;
        }
    }

    // Non-pressure accelerations and v*.
    std::vector<glm::dvec3> vStar(n);
    const double reg = 0.01 * p.h * p.h;
    for (size_t i = 0; i < n; ++i) {
        glm::dvec3 visc(0), smooth(0), wall(0);
        for (uint32_t j : nb.fluid[i]) {
            const glm::dvec3 xij = s.x[i] - s.x[j];
            const double r = glm::length(xij);
            const glm::dvec3 vij = s.v[i] - s.v[j];
            const double volume = 2.0 * s.m[j] / (rho[i] + rho[j]);
            if (p.mueller)
                visc -= volume * vij * (p.dims == 2 ? 40.0 / (kPi * std::pow(2 * p.h, 5)) : 45.0 / (kPi * std::pow(2 * p.h, 6))) *
                        (2 * p.h - r);
            else
                visc += volume * glm::dot(vij, xij) / (r * r + reg) * gradW(p, xij);
            smooth -= volume * vij * referenceW(p, r);
        }
        if (p.boundaryViscosity > 0)
            for (uint32_t k : nb.boundary[i]) {
                const glm::dvec3 xib = s.x[i] - b.x[k];
                const double r = glm::length(xib);
                const double volume = b.psi[k] / rho[i];
                if (p.mueller)
                    wall -= volume * s.v[i] *
                            (p.dims == 2 ? 40.0 / (kPi * std::pow(2 * p.h, 5)) : 45.0 / (kPi * std::pow(2 * p.h, 6))) *
                            (2 * p.h - r);
                else
                    wall += volume * glm::dot(s.v[i], xib) / (r * r + reg) * gradW(p, xib);
            }
        const double prefactor = p.mueller ? 1.0 : 2.0 * (p.dims + 2);
        vStar[i] = s.v[i] + dt * (p.gravity + prefactor * (p.viscosity * visc + p.boundaryViscosity * wall)) + p.xsph * smooth;
        if (p.dims == 2) vStar[i].z = 0;
    }

    // Pressure acceleration of given pressures (digest-001 Alg. 7 with Akinci weights).
    const auto pressureAccel = [&](const std::vector<double>& pr) {
        std::vector<glm::dvec3> a(n, glm::dvec3(0));
        for (size_t i = 0; i < n; ++i) {
            const double pi = pr[i] / (rho[i] * rho[i]);
            for (uint32_t j : nb.fluid[i]) a[i] -= s.m[j] * (pi + pr[j] / (rho[j] * rho[j])) * gradW(p, s.x[i] - s.x[j]);
            const double mirrored = pi + pr[i] / (p.rho0 * p.rho0);
            for (uint32_t k : nb.boundary[i]) a[i] -= b.psi[k] * mirrored * gradW(p, s.x[i] - b.x[k]);
        }
        return a;
    };

    s.iterations = 0;
    s.error = 0;
    if (p.solver == SphReferenceParams::Solver::Iisph) {
        std::vector<double> aii(n), source(n);
        for (size_t i = 0; i < n; ++i) {
            glm::dvec3 gf(0), gb(0);
            double squares = 0, bsquares = 0, divergence = 0;
            for (uint32_t j : nb.fluid[i]) {
                const glm::dvec3 g = gradW(p, s.x[i] - s.x[j]);
                gf += s.m[j] * g;
                squares += s.m[j] * glm::dot(g, g);
                divergence += s.m[j] * glm::dot(vStar[i] - vStar[j], g);
            }
            for (uint32_t k : nb.boundary[i]) {
                const glm::dvec3 g = gradW(p, s.x[i] - b.x[k]);
                gb += b.psi[k] * g;
                bsquares += b.psi[k] * b.psi[k] * glm::dot(g, g);
                divergence += b.psi[k] * glm::dot(vStar[i], g);
            }
            const double r2 = rho[i] * rho[i];
            if (p.thesisDiagonal) {
                aii[i] = -dt * dt / r2 * (glm::dot(gf, gf) + s.m[i] * squares + glm::dot(gb, gb) + bsquares);
            } else {
                const glm::dvec3 dii = -dt * dt * (gf + (1.0 + r2 / (p.rho0 * p.rho0)) * gb) / r2;
                aii[i] = glm::dot(dii, gf + gb) - dt * dt * s.m[i] / r2 * squares;
            }
            source[i] = p.rho0 - (rho[i] + dt * divergence);
            pressure[i] = p.thesisMode ? 0.0 : 0.5 * s.pressure[i];
        }
        const int minIterations = p.thesisMode ? 1 : p.minIterations;
        for (int it = 1; it <= p.maxIterations; ++it) {
            const std::vector<glm::dvec3> a = pressureAccel(pressure);
            double errorSum = 0, counted = 0;
            for (size_t i = 0; i < n; ++i) {
                double ap = 0;
                for (uint32_t j : nb.fluid[i]) ap += s.m[j] * glm::dot(a[i] - a[j], gradW(p, s.x[i] - s.x[j]));
                for (uint32_t k : nb.boundary[i]) ap += b.psi[k] * glm::dot(a[i], gradW(p, s.x[i] - b.x[k]));
                ap *= dt * dt;
                const double residual = source[i] - ap;
                pressure[i] = std::abs(aii[i]) > 1e-30 ? std::max(pressure[i] + p.omega * residual / aii[i], 0.0) : 0.0;
                const double weight = p.thesisMode || pressure[i] > 0.0 ? 1.0 : 0.0;
                errorSum += p.thesisMode ? -residual / p.rho0 : weight * std::max(-residual, 0.0) / p.rho0;
                counted += weight;
            }
            s.error = errorSum / std::max(counted, 1.0);
            s.iterations = it;
            if ((it >= minIterations && s.error <= p.tolerance) || it >= p.maxIterations) break;
        }
    }

    const std::vector<glm::dvec3> ap =
        p.solver == SphReferenceParams::Solver::None ? std::vector<glm::dvec3>(n, glm::dvec3(0)) : pressureAccel(pressure);
    for (size_t i = 0; i < n; ++i) {
        glm::dvec3 v = vStar[i] + dt * ap[i];
        if (p.dims == 2) v.z = 0;
        glm::dvec3 x = s.x[i] + dt * v;
        if (p.domainWalls) {
            const glm::dvec3 lo = p.domainMin + 0.5 * p.h, hi = p.domainMax - 0.5 * p.h;
            for (int axis = 0; axis < p.dims; ++axis) {
                const bool below = x[axis]<lo[axis], above = x[axis]> hi[axis];
                if (!below && !above) continue;
                x[axis] = below ? lo[axis] : hi[axis];
                if (v[axis] * (below ? 1.0 : -1.0) < 0.0) {
                    v[axis] = -p.restitution * v[axis];
                    for (int t = 0; t < p.dims; ++t)
                        if (t != axis) v[t] *= 1.0 - p.friction;
                }
            }
        }
        if (p.dims == 2) x.z = 0;
        s.x[i] = x;
        s.v[i] = v;
        s.pressure[i] = p.solver == SphReferenceParams::Solver::None ? 0.0 : pressure[i];
    }
    s.density = rho;
    (void)support;
}

} // namespace floe::reference
