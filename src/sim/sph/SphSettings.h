// User-facing settings of the SPH fluid (physical units; the scene file, --set and the UI share
// the tables below). Keys in Configuration and its per-method objects ("DFSPH", "IISPH", "WCSPH",
// "PCISPH", "PBF") are SPlisHSPlasH's; Floe's own are in "Floe".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/Settings.h"

namespace floe::sim {

// The pressure solvers, in SPlisHSPlasH's simulationMethod numbering where it has one.
enum class PressureSolver { None, Eos, Iisph, Dfsph, Pcisph, Pbf };

// How an iterative solver measures its error against maxError.
enum class Convergence {
    Compressed, // Floe: the predicted compression averaged over the particles under pressure
    Reference,  // SPlisHSPlasH: summed over the particles, divided by all fluid particles
};

// What one iterative solve of a step may do (the effective values of the settings below).
struct IterationLimits {
    int minIterations = 2;
    int maxIterations = 100;
    float tolerance = 0.001f; // relative (maxError / 100)
};

struct SphSettings {
    // Configuration (SPlisHSPlasH keys)
    int simulationMethod = 4;          // SPlisHSPlasH: 0 WCSPH, 1 PCISPH, 2 PBF, 3 IISPH, 4 DFSPH (its default)
    int kernel = 0;                    // SPlisHSPlasH: 0 cubic spline, 2 poly6 / 3 spiky (Müller set), 4 precomputed cubic
    float stiffness = 1.0e6f;          // Pa for the linear and Tait EOS, m^2/s^2 for p = k (rho - rho0)
    float exponent = 7.0f;             // Tait exponent gamma
    int maxIterations = 100;           // every iterative solver, unless its own object says otherwise
    float maxError = 0.1f;             // % of rho0, every iterative solver unless its own object says otherwise
    int cflMethod = 0;                 // 0 fixed time step, 1 CFL condition
    float cflFactor = 1.0f;            // dt = cflFactor * 0.4 * h / (|v|max + c), c: an EOS's speed of sound
    float cflMinTimeStepSize = 1e-5f;  // s
    float cflMaxTimeStepSize = 0.005f; // s

    // Per-method settings (SPlisHSPlasH's Configuration.<method> objects). Negative: the common
    // value above (maxIterations, maxError, Floe.minIterations).
    int iisphMinIterations = -1, iisphMaxIterations = -1;
    float iisphMaxError = -1.0f; // %
    int dfsphMinIterations = -1, dfsphMaxIterations = -1;
    float dfsphMaxError = -1.0f;                           // %
    int dfsphMaxIterationsV = 100;                         // divergence-free solver
    float dfsphMaxErrorV = 0.1f;                           // % of rho0 per time step (SPlisHSPlasH's maxErrorV)
    bool divergenceSolver = true;                          // DFSPH's divergence-free solver (SPlisHSPlasH: enableDivergenceSolver)
    int pcisphMinIterations = 3, pcisphMaxIterations = -1; // SPlisHSPlasH's PCISPH runs at least 3
    float pcisphMaxError = -1.0f;                          // %
    int pbfMinIterations = -1, pbfMaxIterations = -1;
    float pbfMaxError = -1.0f; // %
    int pbfVelocityUpdate = 0; // SPlisHSPlasH's velocityUpdateMethod: 0 first order (the only one Floe has)

    // Floe
    std::string solver;                        // "eos", "iisph", "dfsph", "pcisph", "pbf" or "none"; empty: from simulationMethod
    std::string kernelSet;                     // "cubic" or "mueller2003"; empty: from kernel
    std::string eos = "linear";                // "linear" p = k (rho/rho0 - 1), "tait", "density" p = k (rho - rho0)
    bool clampPressure = true;                 // negative pressures to 0 (digest-001 (4.1))
    float viscosity = 0.001f;                  // m^2/s, kinematic (Materials[].viscosity sets it too)
    float boundaryViscosity = -1.0f;           // m^2/s at walls; negative: same as viscosity
    float xsph = 0.0f;                         // XSPH velocity smoothing epsilon (0: off)
    float omega = 0.5f;                        // relaxation of the Jacobi solvers (IISPH, DFSPH "relaxed")
    std::string dfsphIteration = "increments"; // "increments" (Bender & Koschier, SPlisHSPlasH) or "relaxed" (as IISPH)
    int minIterations = 2;                     // every iterative solver unless its own object says otherwise
    std::string iisphMode = "reference";       // "reference" (warm start, clamped error) or "thesis" (digest-001 §2.7 as written)
    std::string diagonal = "exact";            // IISPH a_ii: "exact" (Ihmsen) or "thesis" ((5.13)-(5.14))
    std::string convergence = "compressed";    // "compressed" (Floe) or "reference" (SPlisHSPlasH's average)
    float boundarySpacing = 0.5f;              // boundary sample spacing as a fraction of the fluid spacing 2r
    int boundaryLayers = 2;                    // Akinci: 1; digest-001 uses 3; 2 keep fast particles in

    static const SettingsTable& configurationTable();
    static const SettingsTable& floeTable();
    // The per-method objects of Configuration: sections "DFSPH", "IISPH", "WCSPH", "PCISPH", "PBF".
    static const std::vector<const SettingsTable*>& methodTables();
    static const SettingsTable* methodTable(const std::string& section);

    PressureSolver pressureSolver() const;
    IterationLimits limits(PressureSolver solver) const;
    IterationLimits divergenceLimits() const; // DFSPH's divergence-free solver
    Convergence convergenceTest() const { return convergence == "reference" ? Convergence::Reference : Convergence::Compressed; }
    bool muellerKernels() const;
    uint32_t eosKind() const; // SPH_EOS_*
    float tolerance() const { return limits(pressureSolver()).tolerance; }
    // The equation of state's acoustic step bound 0.4 h / c (s) at spacing h (m), rest density rho0.
    float acousticTimeStep(float spacing, float rho0) const;
    // Substeps of the explicit viscosity in a step of dt seconds (sim::Simulation): 1 within its
    // stability bound SPH_VISCOUS_STEP h^2 / nu (the larger of the fluid's and the walls' nu),
    // else enough to stay within it, up to kMaxViscousSubsteps; 0 past that (the step is too
    // large for substeps to be worth it: the run warns and takes it whole).
    uint32_t viscousSubsteps(float dt, float spacing) const;
    static constexpr uint32_t kMaxViscousSubsteps = 32;
    float wallViscosity() const { return boundaryViscosity < 0.0f ? viscosity : boundaryViscosity; }
    // Substitutions made for SPlisHSPlasH values Floe does not implement, for the warnings.
    std::vector<std::string> substitutions() const;
};

PressureSolver parsePressureSolver(const std::string& name); // throws floe::Error
const char* pressureSolverName(PressureSolver solver);
const char* pressureSolverTitle(PressureSolver solver); // "DFSPH", "equation of state (WCSPH)", ...
bool isIterative(PressureSolver solver);
// All solvers in the order the UI and the bench list them.
const std::vector<PressureSolver>& allPressureSolvers();

} // namespace floe::sim
