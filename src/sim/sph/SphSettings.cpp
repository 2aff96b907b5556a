#include "sim/sph/SphSettings.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "base/Error.h"
#include "shared/sph.h"

namespace floe::sim {

const SettingsTable& SphSettings::configurationTable()
{
    static const SettingsTable t = [] {
        SettingsTable s("Configuration");
        using S = SphSettings;
        s.integer("simulationMethod", &S::simulationMethod, 0, 6,
                  "pressure solver: 0 WCSPH (equation of state), 1 PCISPH, 2 PBF, 3 IISPH, 4 DFSPH; 5 and 6 (projective "
                  "fluids, ICSPH) are not in Floe and run as DFSPH with a warning")
            .integer("kernel", &S::kernel, 0, 4, "kernel: 0 cubic spline, 2 or 3 the Müller 2003 set, 4 cubic")
            .integer("gradKernel", &S::kernel, 0, 4, "gradient kernel (follows kernel)")
            .number("stiffness", &S::stiffness, "Pa", 0, 1e12, "equation-of-state stiffness k (also WCSPH.stiffness)")
            .number("exponent", &S::exponent, "", 1, 20, "Tait exponent gamma (also WCSPH.exponent)")
            .integer("maxIterations", &S::maxIterations, 1, 10000,
                     "maximum iterations per step of every iterative solver without its own (IISPH.maxIterations, ...)")
            .number("maxError", &S::maxError, "%", 1e-6, 100,
                    "tolerance of every iterative solver without its own (IISPH.maxError, ...): average compression in percent")
            .integer("maxIterationsV", &S::dfsphMaxIterationsV, 1, 10000,
                     "DFSPH divergence solver: maximum iterations (DFSPH.maxIterationsV)")
            .number("maxErrorV", &S::dfsphMaxErrorV, "%", 1e-6, 100,
                    "DFSPH divergence solver: tolerance, average density change per step in percent (DFSPH.maxErrorV)")
            .flag("enableDivergenceSolver", &S::divergenceSolver,
                  "DFSPH: run the divergence-free solver (DFSPH.enableDivergenceSolver)")
            .integer("cflMethod", &S::cflMethod, 0, 2, "time step: 0 fixed, 1 (or 2) CFL condition")
            .number("cflFactor", &S::cflFactor, "", 1e-3, 10,
                    "CFL factor: dt = factor * 0.4 * h / (|v|max + c), c the speed of sound for an EOS (else 0)")
            .number("cflMinTimeStepSize", &S::cflMinTimeStepSize, "s", 1e-8, 1, "smallest time step with CFL")
            .number("cflMaxTimeStepSize", &S::cflMaxTimeStepSize, "s", 1e-7, 1, "largest time step with CFL");
        return s;
    }();
    return t;
}

const std::vector<const SettingsTable*>& SphSettings::methodTables()
{
    using S = SphSettings;
    static const SettingsTable dfsph = [] {
        SettingsTable s("DFSPH");
        s.integer("minIterations", &S::dfsphMinIterations, -1, 10000,
                  "minimum iterations of the constant-density solver (-1: Floe.minIterations)")
            .integer("maxIterations", &S::dfsphMaxIterations, -1, 10000,
                     "maximum iterations of the constant-density solver (-1: Configuration.maxIterations)")
            .number("maxError", &S::dfsphMaxError, "%", -1, 100,
                    "constant-density solver: tolerance on the average compression in percent (-1: Configuration.maxError)")
            .integer("maxIterationsV", &S::dfsphMaxIterationsV, 1, 10000, "maximum iterations of the divergence-free solver")
            .number("maxErrorV", &S::dfsphMaxErrorV, "%", 1e-6, 100,
                    "divergence-free solver: tolerance on the average density change per time step in percent")
            .flag("enableDivergenceSolver", &S::divergenceSolver, "run the divergence-free solver");
        return s;
    }();
    static const SettingsTable iisph = [] {
        SettingsTable s("IISPH");
        s.integer("minIterations", &S::iisphMinIterations, -1, 10000, "minimum iterations per step (-1: Floe.minIterations)")
            .integer("maxIterations", &S::iisphMaxIterations, -1, 10000,
                     "maximum iterations per step (-1: Configuration.maxIterations)")
            .number("maxError", &S::iisphMaxError, "%", -1, 100,
                    "tolerance on the average compression in percent (-1: Configuration.maxError)");
        return s;
    }();
    static const SettingsTable wcsph = [] {
        SettingsTable s("WCSPH");
        s.number("stiffness", &S::stiffness, "Pa", 0, 1e12,
                 "stiffness k of SPlisHSPlasH's equation of state k ((rho/rho0)^gamma - 1)")
            .number("exponent", &S::exponent, "", 1, 20, "exponent gamma (1: linear); the object selects Floe.eos tait");
        return s;
    }();
    static const SettingsTable pcisph = [] {
        SettingsTable s("PCISPH");
        s.integer("minIterations", &S::pcisphMinIterations, -1, 10000, "minimum iterations per step (-1: Floe.minIterations)")
            .integer("maxIterations", &S::pcisphMaxIterations, -1, 10000,
                     "maximum iterations per step (-1: Configuration.maxIterations)")
            .number("maxError", &S::pcisphMaxError, "%", -1, 100,
                    "tolerance on the average compression in percent (-1: Configuration.maxError)");
        return s;
    }();
    static const SettingsTable pbf = [] {
        SettingsTable s("PBF");
        s.integer("minIterations", &S::pbfMinIterations, -1, 10000, "minimum iterations per step (-1: Floe.minIterations)")
            .integer("maxIterations", &S::pbfMaxIterations, -1, 10000,
                     "maximum iterations per step (-1: Configuration.maxIterations)")
            .number("maxError", &S::pbfMaxError, "%", -1, 100,
                    "tolerance on the average compression in percent (-1: Configuration.maxError)")
            .integer("velocityUpdateMethod", &S::pbfVelocityUpdate, 0, 1,
                     "0 first order v = (x - x_old)/dt; 1 (second order) is not in Floe and runs as 0 with a warning");
        return s;
    }();
    static const std::vector<const SettingsTable*> all = {&dfsph, &iisph, &wcsph, &pcisph, &pbf};
    return all;
}

const SettingsTable* SphSettings::methodTable(const std::string& section)
{
    for (const SettingsTable* t : methodTables())
        if (t->section() == section) return t;
    return nullptr;
}

const SettingsTable& SphSettings::floeTable()
{
    static const SettingsTable t = [] {
        SettingsTable s("Floe");
        using S = SphSettings;
        s.choice("solver", &S::solver, {"eos", "iisph", "dfsph", "pcisph", "pbf", "none"},
                 "pressure solver (overrides simulationMethod)")
            .choice("kernelSet", &S::kernelSet, {"cubic", "mueller2003"}, "kernels (overrides kernel)")
            .choice("eos", &S::eos, {"linear", "tait", "density"}, "equation of state")
            .flag("clampPressure", &S::clampPressure, "clamp negative equation-of-state pressures to 0")
            .number("viscosity", &S::viscosity, "m^2/s", 0, 100, "kinematic viscosity")
            .number("boundaryViscosity", &S::boundaryViscosity, "m^2/s", -1, 100, "viscosity at walls (negative: as the fluid)")
            .number("xsph", &S::xsph, "", 0, 1, "XSPH velocity smoothing")
            .number("omega", &S::omega, "", 0.01, 1, "relaxation of the Jacobi solvers (IISPH; DFSPH with dfsphIteration relaxed)")
            .choice("dfsphIteration", &S::dfsphIteration, {"increments", "relaxed"},
                    "DFSPH's iteration: increments (each adds kappa where the fluid is still compressed, never takes it back; "
                    "Bender & Koschier 2017, SPlisHSPlasH) or relaxed (the projected Jacobi of IISPH with omega)")
            .integer("minIterations", &S::minIterations, 0, 10000,
                     "minimum iterations per step of every iterative solver without its own")
            .choice("iisphMode", &S::iisphMode, {"reference", "thesis"}, "IISPH variant")
            .choice("diagonal", &S::diagonal, {"exact", "thesis"}, "IISPH diagonal")
            .choice("convergence", &S::convergence, {"compressed", "reference"},
                    "error the iterative solvers stop on: compressed (the predicted compression averaged over the particles "
                    "under pressure) or reference (SPlisHSPlasH's: summed over the particles and divided by all of them)")
            .number("boundarySpacing", &S::boundarySpacing, "", 0.1, 2, "boundary sample spacing / particle spacing")
            .integer("boundaryLayers", &S::boundaryLayers, 1, 5, "layers of boundary particles");
        return s;
    }();
    return t;
}

PressureSolver parsePressureSolver(const std::string& name)
{
    if (name == "eos" || name == "wcsph") return PressureSolver::Eos;
    if (name == "iisph") return PressureSolver::Iisph;
    if (name == "dfsph") return PressureSolver::Dfsph;
    if (name == "pcisph") return PressureSolver::Pcisph;
    if (name == "pbf") return PressureSolver::Pbf;
    if (name == "none") return PressureSolver::None;
    throw Error(fmt::format("unknown pressure solver '{}'; available: eos, iisph, dfsph, pcisph, pbf, none", name));
}

const char* pressureSolverName(PressureSolver solver)
{
    switch (solver) {
    case PressureSolver::Eos: return "eos";
    case PressureSolver::Iisph: return "iisph";
    case PressureSolver::Dfsph: return "dfsph";
    case PressureSolver::Pcisph: return "pcisph";
    case PressureSolver::Pbf: return "pbf";
    case PressureSolver::None: return "none";
    }
    return "?";
}

const char* pressureSolverTitle(PressureSolver solver)
{
    switch (solver) {
    case PressureSolver::Eos: return "equation of state (WCSPH)";
    case PressureSolver::Iisph: return "IISPH";
    case PressureSolver::Dfsph: return "DFSPH";
    case PressureSolver::Pcisph: return "PCISPH";
    case PressureSolver::Pbf: return "PBF";
    case PressureSolver::None: return "none";
    }
    return "?";
}

bool isIterative(PressureSolver solver)
{
    return solver == PressureSolver::Iisph || solver == PressureSolver::Dfsph || solver == PressureSolver::Pcisph ||
           solver == PressureSolver::Pbf;
}

const std::vector<PressureSolver>& allPressureSolvers()
{
    static const std::vector<PressureSolver> all = {PressureSolver::Dfsph, PressureSolver::Iisph, PressureSolver::Pcisph,
                                                    PressureSolver::Pbf,   PressureSolver::Eos,   PressureSolver::None};
    return all;
}

PressureSolver SphSettings::pressureSolver() const
{
    if (!solver.empty()) return parsePressureSolver(solver);
    switch (simulationMethod) {
    case 0: return PressureSolver::Eos;
    case 1: return PressureSolver::Pcisph;
    case 2: return PressureSolver::Pbf;
    case 3: return PressureSolver::Iisph;
    default: return PressureSolver::Dfsph; // 4, and 5/6 substituted (substitutions())
    }
}

IterationLimits SphSettings::limits(PressureSolver s) const
{
    int lo = -1, hi = -1;
    float error = -1.0f;
    switch (s) {
    case PressureSolver::Iisph: lo = iisphMinIterations, hi = iisphMaxIterations, error = iisphMaxError; break;
    case PressureSolver::Dfsph: lo = dfsphMinIterations, hi = dfsphMaxIterations, error = dfsphMaxError; break;
    case PressureSolver::Pcisph: lo = pcisphMinIterations, hi = pcisphMaxIterations, error = pcisphMaxError; break;
    case PressureSolver::Pbf: lo = pbfMinIterations, hi = pbfMaxIterations, error = pbfMaxError; break;
    default: break;
    }
    IterationLimits l;
    l.maxIterations = hi >= 1 ? hi : maxIterations;
    l.minIterations = std::min(lo >= 0 ? lo : minIterations, l.maxIterations);
    l.tolerance = (error > 0.0f ? error : maxError) / 100.0f;
    return l;
}

IterationLimits SphSettings::divergenceLimits() const
{
    // SPlisHSPlasH's divergence solver runs at least one iteration.
    return {1, dfsphMaxIterationsV, dfsphMaxErrorV / 100.0f};
}

bool SphSettings::muellerKernels() const
{
    if (!kernelSet.empty()) return kernelSet == "mueller2003";
    return kernel == 2 || kernel == 3;
}

uint32_t SphSettings::eosKind() const
{
    if (eos == "tait") return SPH_EOS_TAIT;
    if (eos == "density") return SPH_EOS_DENSITY;
    return SPH_EOS_LINEAR;
}

float SphSettings::acousticTimeStep(float spacing, float rho0) const
{
    const float c = shared::eosSoundSpeed(eosKind(), rho0, stiffness, exponent);
    return c > 0.0f ? 0.4f * spacing / c : 0.0f;
}

uint32_t SphSettings::viscousSubsteps(float dt, float spacing) const
{
    const float nu = std::max(viscosity, wallViscosity());
    if (!(nu > 0.0f) || !(dt > 0.0f)) return 1;
    const double bound = double(shared::SPH_VISCOUS_STEP) * spacing * spacing / nu;
    const double k = std::ceil(double(dt) / bound * (1.0 - 1e-6)); // a step at the bound takes one
    if (k <= 1.0) return 1;
    return k > double(kMaxViscousSubsteps) ? 0u : static_cast<uint32_t>(k);
}

std::vector<std::string> SphSettings::substitutions() const
{
    std::vector<std::string> out;
    static const char* methods[] = {"WCSPH", "PCISPH", "PBF", "IISPH", "DFSPH", "projective fluids", "ICSPH"};
    if (solver.empty() && simulationMethod >= 5)
        out.push_back(fmt::format("Configuration.simulationMethod {} ({}) is not in Floe: DFSPH runs instead (set Floe.solver "
                                  "to choose another)",
                                  simulationMethod, methods[simulationMethod]));
    if (kernelSet.empty() && kernel == 1)
        out.emplace_back("Configuration.kernel 1 (Wendland quintic) is not in Floe: the cubic spline runs instead");
    if (pbfVelocityUpdate != 0 && pressureSolver() == PressureSolver::Pbf)
        out.emplace_back("PBF.velocityUpdateMethod 1 (second order) is not in Floe: the first-order update runs instead");
    return out;
}

} // namespace floe::sim
