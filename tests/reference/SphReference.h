// A plain double-precision CPU implementation of one SPH step of each pressure solver, with
// brute-force neighbour search: the reference the GPU step is compared with (tests only).
// It follows the same equations as shaders/sph/ (digest-001 §2, Akinci boundaries; DFSPH: Bender
// & Koschier 2017; PCISPH: Solenthaler & Pajarola 2009; PBF: Macklin & Müller 2013), written
// independently.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

namespace floe::reference {

struct SphReferenceParams {
    int dims = 3;
    double h = 0.04; // spacing 2r; support 2h
    double rho0 = 1000;
    glm::dvec3 gravity{0, -9.81, 0};
    double viscosity = 0; // nu
    double boundaryViscosity = 0;
    double xsph = 0;
    int viscousSubsteps = 1; // the viscosity in k substeps of dt / k, gravity and XSPH in the last (sim::Simulation)
    bool mueller = false;    // Müller 2003 kernel set
    enum class Solver { None, Eos, Iisph, Dfsph, Pcisph, Pbf } solver = Solver::Iisph;
    int eosKind = 0; // SPH_EOS_*
    double stiffness = 1e5, gamma = 7;
    bool clampPressure = true;
    double omega = 0.5, tolerance = 0.001;
    int minIterations = 2, maxIterations = 100;
    bool thesisMode = false, thesisDiagonal = false;
    bool referenceConvergence = false; // SPlisHSPlasH's error average (over all particles)
    bool divergenceSolver = true;      // DFSPH
    bool dfsphIncrements = true;       // DFSPH: kappa increments (sph/jacobi_update); false: relaxed as IISPH
    double divergenceTolerance = 0.001;
    int divergenceMaxIterations = 100;
    double dt = 0.001;
    glm::dvec3 domainMin{-1e9}, domainMax{1e9};
    bool domainWalls = false;
    double restitution = 0, friction = 0;
};

struct SphReferenceState {
    std::vector<glm::dvec3> x, v;
    std::vector<double> m;
    std::vector<double> pressure;      // last step's (IISPH warm start)
    std::vector<double> kappa, kappaV; // DFSPH warm starts: kappa dt^2 and kappa_v dt of the last step
    std::vector<double> density;       // of the last step
    int iterations = 0;                // pressure solver iterations of the last step
    double error = 0;                  // its error
    int divergenceIterations = 0;      // DFSPH
    double divergenceError = 0;
};

struct SphReferenceBoundary {
    std::vector<glm::dvec3> x;
    std::vector<double> psi; // rho0 * V_b (Akinci)
};

double referenceW(const SphReferenceParams& p, double r);
double referenceDW(const SphReferenceParams& p, double r); // dW/dr of the gradient kernel
SphReferenceBoundary referenceBoundary(const SphReferenceParams& p, const std::vector<glm::dvec3>& samples, double gamma);
// PCISPH's delta without dt and rho0 (m^2) on a full cubic lattice of spacing h whose particles
// have the volume h^d / (sum of W over the lattice).
double referencePcisphFactor(const SphReferenceParams& p);
void referenceStep(const SphReferenceParams& p, SphReferenceState& s, const SphReferenceBoundary& b);

} // namespace floe::reference
