// User-facing settings of the SPH fluid (physical units; the scene file, --set and the UI share
// the tables below). Keys in Configuration are SPlisHSPlasH's; Floe's own are in "Floe".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/Settings.h"

namespace floe::sim {

enum class PressureSolver { None, Eos, Iisph };

struct SphSettings {
    // Configuration (SPlisHSPlasH keys)
    int simulationMethod = 3;          // SPlisHSPlasH: 0 WCSPH (equation of state), 3 IISPH
    int kernel = 0;                    // SPlisHSPlasH: 0 cubic spline, 2 poly6 / 3 spiky (Müller set), 4 precomputed cubic
    float stiffness = 1.0e6f;          // Pa for the linear and Tait EOS, m^2/s^2 for p = k (rho - rho0)
    float exponent = 7.0f;             // Tait exponent gamma
    int maxIterations = 100;           // IISPH
    float maxError = 0.1f;             // IISPH tolerance, percent of rho0 (average compression)
    int cflMethod = 0;                 // 0 fixed time step, 1 CFL condition
    float cflFactor = 1.0f;            // dt = cflFactor * 0.4 * h / (|v|max + c), c: an EOS's speed of sound
    float cflMinTimeStepSize = 1e-5f;  // s
    float cflMaxTimeStepSize = 0.005f; // s

    // Floe
    std::string solver;                  // "eos", "iisph" or "none"; empty: from simulationMethod
    std::string kernelSet;               // "cubic" or "mueller2003"; empty: from kernel
    std::string eos = "linear";          // "linear" p = k (rho/rho0 - 1), "tait", "density" p = k (rho - rho0)
    bool clampPressure = true;           // negative pressures to 0 (digest-001 (4.1))
    float viscosity = 0.001f;            // m^2/s, kinematic (Materials[].viscosity sets it too)
    float boundaryViscosity = -1.0f;     // m^2/s at walls; negative: same as viscosity
    float xsph = 0.0f;                   // XSPH velocity smoothing epsilon (0: off)
    float omega = 0.5f;                  // IISPH relaxation
    int minIterations = 2;               // IISPH
    std::string iisphMode = "reference"; // "reference" (warm start, clamped error) or "thesis" (digest-001 §2.7 as written)
    std::string diagonal = "exact";      // IISPH a_ii: "exact" (Ihmsen) or "thesis" ((5.13)-(5.14))
    float boundarySpacing = 0.5f;        // boundary sample spacing as a fraction of the fluid spacing 2r
    int boundaryLayers = 2;              // Akinci: 1; digest-001 uses 3; 2 keep fast particles in

    static const SettingsTable& configurationTable();
    static const SettingsTable& floeTable();

    PressureSolver pressureSolver() const;
    bool muellerKernels() const;
    uint32_t eosKind() const; // SPH_EOS_*
    float tolerance() const { return maxError / 100.0f; }
    // The equation of state's acoustic step bound 0.4 h / c (s) at spacing h (m), rest density rho0.
    float acousticTimeStep(float spacing, float rho0) const;
    float wallViscosity() const { return boundaryViscosity < 0.0f ? viscosity : boundaryViscosity; }
    // Substitutions made for SPlisHSPlasH values Floe does not implement, for the warnings.
    std::vector<std::string> substitutions() const;
};

PressureSolver parsePressureSolver(const std::string& name); // throws floe::Error
const char* pressureSolverName(PressureSolver solver);

} // namespace floe::sim
