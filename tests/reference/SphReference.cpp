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

double referencePcisphFactor(const SphReferenceParams& p)
{
    const int zReach = p.dims == 3 ? 2 : 0;
    double lattice = 0, squares = 0;
    glm::dvec3 sum(0);
    for (int i = -2; i <= 2; ++i)
        for (int j = -2; j <= 2; ++j)
            for (int k = -zReach; k <= zReach; ++k) {
                const glm::dvec3 x = p.h * glm::dvec3(i, j, k);
                lattice += referenceW(p, glm::length(x));
                if (glm::length(x) >= 2.0 * p.h || glm::length(x) <= 0.0) continue;
                const glm::dvec3 g = gradW(p, x);
                sum += g;
                squares += glm::dot(g, g);
            }
    const double volume = 1.0 / lattice;
    return 1.0 / (2.0 * volume * volume * (glm::dot(sum, sum) + squares));
}

namespace {

// The non-pressure accelerations' velocity v* = v + dt (g + viscosity) (+ XSPH) at positions x.
std::vector<glm::dvec3> predictVelocities(const SphReferenceParams& p, const std::vector<glm::dvec3>& x,
                                          const std::vector<glm::dvec3>& v, const std::vector<double>& m,
                                          const std::vector<double>& rho, const SphReferenceBoundary& b, const Neighbours& nb,
                                          const glm::dvec3& gravity)
{
    const size_t n = x.size();
    std::vector<glm::dvec3> vStar(n);
    const double reg = 0.01 * p.h * p.h;
    const double lap = p.dims == 2 ? 40.0 / (kPi * std::pow(2 * p.h, 5)) : 45.0 / (kPi * std::pow(2 * p.h, 6));
    for (size_t i = 0; i < n; ++i) {
        glm::dvec3 visc(0), smooth(0), wall(0);
        for (uint32_t j : nb.fluid[i]) {
            const glm::dvec3 xij = x[i] - x[j];
            const double r = glm::length(xij);
            if (r >= 2.0 * p.h) continue; // a fixed pair that moved apart (PBF)
            const glm::dvec3 vij = v[i] - v[j];
            const double volume = 2.0 * m[j] / (rho[i] + rho[j]);
            if (p.mueller)
                visc -= volume * vij * lap * (2 * p.h - r);
            else
                visc += volume * glm::dot(vij, xij) / (r * r + reg) * gradW(p, xij);
            smooth -= volume * vij * referenceW(p, r);
        }
        if (p.boundaryViscosity > 0)
            for (uint32_t k : nb.boundary[i]) {
                const glm::dvec3 xib = x[i] - b.x[k];
                const double r = glm::length(xib);
                const double volume = b.psi[k] / rho[i];
                if (p.mueller)
                    wall -= volume * v[i] * lap * (2 * p.h - r);
                else
                    wall += volume * glm::dot(v[i], xib) / (r * r + reg) * gradW(p, xib);
            }
        const double prefactor = p.mueller ? 1.0 : 2.0 * (p.dims + 2);
        vStar[i] = v[i] + p.dt * (gravity + prefactor * (p.viscosity * visc + p.boundaryViscosity * wall)) + p.xsph * smooth;
        if (p.dims == 2) vStar[i].z = 0;
    }
    return vStar;
}

// predictVelocities in p.viscousSubsteps substeps: each with nu / k from the velocities the last
// left, gravity and XSPH in the last one only (sim::Simulation's sph/nonpressure passes).
std::vector<glm::dvec3> substepVelocities(const SphReferenceParams& p, const std::vector<glm::dvec3>& x,
                                          const std::vector<glm::dvec3>& v, const std::vector<double>& m,
                                          const std::vector<double>& rho, const SphReferenceBoundary& b, const Neighbours& nb,
                                          const glm::dvec3& gravity)
{
    const int k = std::max(p.viscousSubsteps, 1);
    SphReferenceParams q = p;
    q.viscosity /= k;
    q.boundaryViscosity /= k;
    std::vector<glm::dvec3> out = v;
    for (int s = 0; s < k; ++s) {
        SphReferenceParams step = q;
        const bool last = s + 1 == k;
        if (!last) step.xsph = 0;
        out = predictVelocities(step, x, out, m, rho, b, nb, last ? gravity : glm::dvec3(0));
    }
    return out;
}

// Pressure accelerations of given pressures (digest-001 Alg. 7 with Akinci weights); the wall
// term mirrors the pressure (p_b = p_i, rho_b = rho0) or, for PCISPH, is Akinci's one-sided one.
std::vector<glm::dvec3> pressureAccelerations(const SphReferenceParams& p, const SphReferenceState& s,
                                              const std::vector<double>& rho, const SphReferenceBoundary& b, const Neighbours& nb,
                                              const std::vector<double>& pr, bool mirror)
{
    const size_t n = s.x.size();
    std::vector<glm::dvec3> a(n, glm::dvec3(0));
    for (size_t i = 0; i < n; ++i) {
        const double pi = pr[i] / (rho[i] * rho[i]);
        for (uint32_t j : nb.fluid[i]) a[i] -= s.m[j] * (pi + pr[j] / (rho[j] * rho[j])) * gradW(p, s.x[i] - s.x[j]);
        const double wall = mirror ? pi + pr[i] / (p.rho0 * p.rho0) : pi;
        for (uint32_t k : nb.boundary[i]) a[i] -= b.psi[k] * wall * gradW(p, s.x[i] - b.x[k]);
    }
    return a;
}

// The average of an iteration's per-particle errors as the GPU's sph/jacobi_update forms it.
struct ErrorSum {
    double sum = 0, counted = 0;
    void add(double error, bool counts)
    {
        sum += counts ? error : 0.0;
        counted += counts ? 1.0 : 0.0;
    }
    double mean() const { return sum / std::max(counted, 1.0); }
};

} // namespace

void referenceStep(const SphReferenceParams& p, SphReferenceState& s, const SphReferenceBoundary& b)
{
    using Solver = SphReferenceParams::Solver;
    const size_t n = s.x.size();
    const double dt = p.dt;
    s.pressure.resize(n, 0.0);
    s.kappa.resize(n, 0.0);
    s.kappaV.resize(n, 0.0);
    s.iterations = 0;
    s.error = 0;
    s.divergenceIterations = 0;
    s.divergenceError = 0;

    if (p.solver == Solver::Pbf) {
        // PBF predicts with gravity before neighbours are found (Macklin & Müller Alg. 1).
        for (size_t i = 0; i < n; ++i) {
            s.v[i] += dt * p.gravity;
            if (p.dims == 2) s.v[i].z = 0;
            s.x[i] += dt * s.v[i];
        }
    }
    Neighbours nb = findNeighbours(p, s, b);

    const auto densities = [&](const Neighbours& near) {
        std::vector<double> rho(n);
        for (size_t i = 0; i < n; ++i) {
            rho[i] = s.m[i] * referenceW(p, 0.0);
            for (uint32_t j : near.fluid[i]) rho[i] += s.m[j] * referenceW(p, glm::length(s.x[i] - s.x[j]));
            for (uint32_t k : near.boundary[i]) rho[i] += b.psi[k] * referenceW(p, glm::length(s.x[i] - b.x[k]));
        }
        return rho;
    };
    // (A p)_i = sum_j m_j (a_i - a_j).grad W_ij + sum_b Psi_b a_i.grad W_ib (IISPH, DFSPH).
    const auto densityChange = [&](const std::vector<glm::dvec3>& a, size_t i) {
        double ap = 0;
        for (uint32_t j : nb.fluid[i]) ap += s.m[j] * glm::dot(a[i] - a[j], gradW(p, s.x[i] - s.x[j]));
        for (uint32_t k : nb.boundary[i]) ap += b.psi[k] * glm::dot(a[i], gradW(p, s.x[i] - b.x[k]));
        return ap;
    };

    if (p.solver == Solver::Pbf) {
        // Position corrections (eqs. (1)-(12)) until the average constraint holds, over the fluid
        // neighbours found at the predicted positions (fixed for the step, as Macklin & Müller);
        // the boundary, static, is searched from where the particles are.
        const Neighbours fixed = nb;
        std::vector<double> rho(n);
        for (int it = 1; it <= p.maxIterations; ++it) {
            nb = findNeighbours(p, s, b);
            nb.fluid = fixed.fluid;
            std::vector<double> lambda(n, 0.0);
            ErrorSum error;
            for (size_t i = 0; i < n; ++i) {
                rho[i] = s.m[i] * referenceW(p, 0.0);
                glm::dvec3 gradI(0);
                double squares = 0;
                for (uint32_t j : nb.fluid[i]) {
                    const double r = glm::length(s.x[i] - s.x[j]);
                    if (r >= 2.0 * p.h) continue;
                    rho[i] += s.m[j] * referenceW(p, r);
                    const glm::dvec3 g = s.m[j] / p.rho0 * gradW(p, s.x[i] - s.x[j]);
                    squares += glm::dot(g, g);
                    gradI += g;
                }
                for (uint32_t k : nb.boundary[i]) {
                    rho[i] += b.psi[k] * referenceW(p, glm::length(s.x[i] - b.x[k]));
                    gradI += b.psi[k] / p.rho0 * gradW(p, s.x[i] - b.x[k]);
                }
                const double c = std::max(rho[i] / p.rho0 - 1.0, 0.0);
                lambda[i] = c > 0 ? -c / (squares + glm::dot(gradI, gradI) + 1e-6) : 0.0;
                error.add(c, p.referenceConvergence || c > 0);
            }
            s.error = error.mean();
            s.iterations = it;
            if ((it >= p.minIterations && s.error <= p.tolerance) || it >= p.maxIterations) break;
            std::vector<glm::dvec3> dx(n, glm::dvec3(0));
            for (size_t i = 0; i < n; ++i) {
                for (uint32_t j : nb.fluid[i])
                    if (glm::length(s.x[i] - s.x[j]) < 2.0 * p.h)
                        dx[i] += s.m[j] * (lambda[i] + lambda[j]) * gradW(p, s.x[i] - s.x[j]);
                if (lambda[i] != 0.0)
                    for (uint32_t k : nb.boundary[i]) dx[i] += b.psi[k] * lambda[i] * gradW(p, s.x[i] - b.x[k]);
                dx[i] /= p.rho0;
                if (p.dims == 2) dx[i].z = 0;
            }
            for (size_t i = 0; i < n; ++i) {
                s.x[i] += dx[i];
                s.v[i] += dx[i] / dt;
            }
        }
        // Viscosity at the final positions with the last iteration's densities, over the same pairs.
        nb = findNeighbours(p, s, b);
        nb.fluid = fixed.fluid;
        const std::vector<glm::dvec3> vFinal = substepVelocities(p, s.x, s.v, s.m, rho, b, nb, glm::dvec3(0));
        for (size_t i = 0; i < n; ++i) {
            // The walls see the move from x - dt v_pbf to x (sph/integrate's PBF mode).
            glm::dvec3 x = s.x[i] - dt * s.v[i];
            x += dt * s.v[i];
            glm::dvec3 v = vFinal[i];
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
            s.pressure[i] = 0.0;
            s.kappa[i] = 0.0;
        }
        s.density = rho;
        return;
    }

    // Density (itself included) and the equation of state; DFSPH's diagonal D_i.
    const std::vector<double> rho = densities(nb);
    std::vector<double> pressure(n, 0.0), diagonal(n, 0.0);
    for (size_t i = 0; i < n; ++i) {
        if (p.solver == Solver::Eos) {
            double value = p.eosKind == 1   ? p.stiffness * (std::pow(rho[i] / p.rho0, p.gamma) - 1.0)
                           : p.eosKind == 2 ? p.stiffness * (rho[i] - p.rho0)
                                            : p.stiffness * (rho[i] / p.rho0 - 1.0);
            pressure[i] = p.clampPressure ? std::max(value, 0.0) : value;
        }
        if (p.solver == Solver::Dfsph) {
            glm::dvec3 gf(0), gb(0);
            double squares = 0;
            for (uint32_t j : nb.fluid[i]) {
                const glm::dvec3 g = gradW(p, s.x[i] - s.x[j]);
                gf += s.m[j] * g;
                squares += s.m[j] * glm::dot(g, g);
            }
            for (uint32_t k : nb.boundary[i]) gb += b.psi[k] * gradW(p, s.x[i] - b.x[k]);
            const double mirror = 1.0 + rho[i] * rho[i] / (p.rho0 * p.rho0);
            diagonal[i] = -(glm::dot(gf + mirror * gb, gf + gb) + s.m[i] * squares) / (rho[i] * rho[i]);
        }
    }

    // Jacobi on (A p) = source with a_ii = D_i dt^k (DFSPH's two solves): kappa increments, or
    // relaxed as IISPH.
    const auto jacobi = [&](std::vector<double>& pr, const std::vector<double>& source, int power, int minIterations,
                            int maxIterations, double tolerance, bool divergence, int& iterations, double& finalError) {
        const double scale = power == 2 ? dt * dt : dt;
        for (int it = 1; it <= maxIterations; ++it) {
            const std::vector<glm::dvec3> a = pressureAccelerations(p, s, rho, b, nb, pr, true);
            ErrorSum error;
            for (size_t i = 0; i < n; ++i) {
                const double ap = densityChange(a, i) * scale;
                const double aii = diagonal[i] * scale;
                double residual = source[i] - ap;
                if (!(std::abs(aii) > 1e-30))
                    pr[i] = 0.0;
                else if (p.dfsphIncrements)
                    pr[i] += std::max(residual / aii, 0.0);
                else
                    pr[i] = std::max(pr[i] + p.omega * residual / aii, 0.0);
                const size_t count = nb.fluid[i].size() + nb.boundary[i].size();
                if (divergence && count < size_t(p.dims == 2 ? 7 : 20)) residual = 0.0;
                if (divergence) residual *= dt;
                error.add(std::max(-residual, 0.0) / p.rho0, p.referenceConvergence || pr[i] > 0.0);
            }
            finalError = error.mean();
            iterations = it;
            if ((it >= minIterations && finalError <= tolerance) || it >= maxIterations) break;
        }
    };

    std::vector<glm::dvec3> v = s.v;
    if (p.solver == Solver::Dfsph && p.divergenceSolver) {
        // Bender & Koschier 2017 Alg. 2 on the velocities at the start of the step.
        std::vector<double> source(n), pv(n);
        for (size_t i = 0; i < n; ++i) {
            double rate = 0;
            for (uint32_t j : nb.fluid[i]) rate += s.m[j] * glm::dot(v[i] - v[j], gradW(p, s.x[i] - s.x[j]));
            for (uint32_t k : nb.boundary[i]) rate += b.psi[k] * glm::dot(v[i], gradW(p, s.x[i] - b.x[k]));
            if (nb.fluid[i].size() + nb.boundary[i].size() < size_t(p.dims == 2 ? 7 : 20)) rate = 0.0;
            rate = std::max(rate, 0.0);
            source[i] = -rate;
            pv[i] = rate > 0 ? 0.5 * std::min(s.kappaV[i], 200.0 * p.h * p.h / p.rho0) / dt * rho[i] * rho[i] : 0.0;
        }
        jacobi(pv, source, 1, 1, p.divergenceMaxIterations, p.divergenceTolerance, true, s.divergenceIterations, s.divergenceError);
        const std::vector<glm::dvec3> a = pressureAccelerations(p, s, rho, b, nb, pv, true);
        for (size_t i = 0; i < n; ++i) {
            v[i] += dt * a[i];
            if (p.dims == 2) v[i].z = 0;
            s.kappaV[i] = pv[i] / (rho[i] * rho[i]) * dt;
        }
    }

    const std::vector<glm::dvec3> vStar = substepVelocities(p, s.x, v, s.m, rho, b, nb, p.gravity);

    if (p.solver == Solver::Iisph) {
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
            const std::vector<glm::dvec3> a = pressureAccelerations(p, s, rho, b, nb, pressure, true);
            ErrorSum error;
            for (size_t i = 0; i < n; ++i) {
                const double residual = source[i] - densityChange(a, i) * dt * dt;
                pressure[i] = std::abs(aii[i]) > 1e-30 ? std::max(pressure[i] + p.omega * residual / aii[i], 0.0) : 0.0;
                if (p.thesisMode)
                    error.add(-residual / p.rho0, true);
                else if (p.referenceConvergence)
                    error.add(pressure[i] > 0.0 ? -residual / p.rho0 : 0.0, true);
                else
                    error.add(std::max(-residual, 0.0) / p.rho0, pressure[i] > 0.0);
            }
            s.error = error.mean();
            s.iterations = it;
            if ((it >= minIterations && s.error <= p.tolerance) || it >= p.maxIterations) break;
        }
    } else if (p.solver == Solver::Dfsph) {
        // Bender & Koschier 2017 Alg. 3 on v*.
        std::vector<double> source(n);
        for (size_t i = 0; i < n; ++i) {
            double divergence = 0;
            for (uint32_t j : nb.fluid[i]) divergence += s.m[j] * glm::dot(vStar[i] - vStar[j], gradW(p, s.x[i] - s.x[j]));
            for (uint32_t k : nb.boundary[i]) divergence += b.psi[k] * glm::dot(vStar[i], gradW(p, s.x[i] - b.x[k]));
            const double rhoStar = rho[i] + dt * divergence;
            source[i] = p.rho0 - rhoStar;
            pressure[i] =
                rhoStar > p.rho0 ? 0.5 * std::min(s.kappa[i], 0.1 * p.h * p.h / p.rho0) / (dt * dt) * rho[i] * rho[i] : 0.0;
        }
        jacobi(pressure, source, 2, p.minIterations, p.maxIterations, p.tolerance, false, s.iterations, s.error);
    } else if (p.solver == Solver::Pcisph) {
        // Solenthaler & Pajarola 2009 Alg. 2 with a fixed scaling (referencePcisphFactor).
        const double factor = referencePcisphFactor(p);
        std::vector<glm::dvec3> predicted(n);
        for (size_t i = 0; i < n; ++i) predicted[i] = s.x[i] + dt * vStar[i];
        double best = 0;
        int sinceBest = 0;
        for (int it = 1; it <= p.maxIterations; ++it) {
            ErrorSum error;
            for (size_t i = 0; i < n; ++i) {
                // The neighbours of the step's positions (the paper's fixed neighbourhoods), at x*.
                double rhoStar = s.m[i] * referenceW(p, 0.0);
                for (uint32_t j : nb.fluid[i]) {
                    const double r = glm::length(predicted[i] - predicted[j]);
                    if (r < 2.0 * p.h) rhoStar += s.m[j] * referenceW(p, r);
                }
                for (size_t k = 0; k < b.x.size(); ++k) {
                    const double r = glm::length(predicted[i] - b.x[k]);
                    if (r < 2.0 * p.h) rhoStar += b.psi[k] * referenceW(p, r);
                }
                const double compression = rhoStar / p.rho0 - 1.0;
                pressure[i] = std::max(pressure[i] + rho[i] * rho[i] * factor / (p.rho0 * dt * dt) * compression, 0.0);
                if (p.referenceConvergence)
                    error.add(compression, true);
                else
                    error.add(std::max(compression, 0.0), pressure[i] > 0.0);
            }
            s.error = error.mean();
            s.iterations = it;
            // Stops at the tolerance, the cap, or a stalled fixed point: no better error for 5 iterations.
            if (it == 1 || s.error < best) {
                best = s.error;
                sinceBest = 0;
            } else {
                ++sinceBest;
            }
            if ((it >= p.minIterations && s.error <= p.tolerance) || it >= p.maxIterations ||
                (sinceBest >= 5 && it >= p.minIterations))
                break;
            const std::vector<glm::dvec3> a = pressureAccelerations(p, s, rho, b, nb, pressure, false);
            for (size_t i = 0; i < n; ++i) {
                predicted[i] = s.x[i] + dt * (vStar[i] + dt * a[i]);
                if (p.dims == 2) predicted[i].z = 0;
            }
        }
    }

    const std::vector<glm::dvec3> ap = p.solver == Solver::None
                                           ? std::vector<glm::dvec3>(n, glm::dvec3(0))
                                           : pressureAccelerations(p, s, rho, b, nb, pressure, p.solver != Solver::Pcisph);
    for (size_t i = 0; i < n; ++i) {
        glm::dvec3 vi = vStar[i] + dt * ap[i];
        if (p.dims == 2) vi.z = 0;
        glm::dvec3 x = s.x[i] + dt * vi;
        if (p.domainWalls) {
            const glm::dvec3 lo = p.domainMin + 0.5 * p.h, hi = p.domainMax - 0.5 * p.h;
            for (int axis = 0; axis < p.dims; ++axis) {
                const bool below = x[axis]<lo[axis], above = x[axis]> hi[axis];
                if (!below && !above) continue;
                x[axis] = below ? lo[axis] : hi[axis];
                if (vi[axis] * (below ? 1.0 : -1.0) < 0.0) {
                    vi[axis] = -p.restitution * vi[axis];
                    for (int t = 0; t < p.dims; ++t)
                        if (t != axis) vi[t] *= 1.0 - p.friction;
                }
            }
        }
        if (p.dims == 2) x.z = 0;
        s.x[i] = x;
        s.v[i] = vi;
        s.pressure[i] = p.solver == Solver::None ? 0.0 : pressure[i];
        s.kappa[i] = p.solver == Solver::None ? 0.0 : pressure[i] / (rho[i] * rho[i]) * dt * dt;
    }
    s.density = rho;
}

} // namespace floe::reference
