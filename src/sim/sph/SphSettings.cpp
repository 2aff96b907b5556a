#include "sim/sph/SphSettings.h"

#include <fmt/format.h>

#include "base/Error.h"
#include "shared/sph.h"

namespace floe::sim {

const SettingsTable& SphSettings::configurationTable()
{
    static const SettingsTable t = [] {
        SettingsTable s("Configuration");
        using S = SphSettings;
        s.integer("simulationMethod", &S::simulationMethod, 0, 5, "pressure solver: 0 WCSPH (equation of state), 3 IISPH")
            .integer("kernel", &S::kernel, 0, 4, "kernel: 0 cubic spline, 2 or 3 the Müller 2003 set, 4 cubic")
            .integer("gradKernel", &S::kernel, 0, 4, "gradient kernel (follows kernel)")
            .number("stiffness", &S::stiffness, "Pa", 0, 1e12, "equation-of-state stiffness k")
            .number("exponent", &S::exponent, "", 1, 20, "Tait exponent gamma")
            .integer("maxIterations", &S::maxIterations, 1, 10000, "IISPH maximum iterations per step")
            .number("maxError", &S::maxError, "%", 1e-6, 100, "IISPH tolerance: average compression in percent")
            .integer("cflMethod", &S::cflMethod, 0, 2, "time step: 0 fixed, 1 (or 2) CFL condition")
            .number("cflFactor", &S::cflFactor, "", 1e-3, 10,
                    "CFL factor: dt = factor * 0.4 * h / (|v|max + c), c the speed of sound for an EOS (else 0)")
            .number("cflMinTimeStepSize", &S::cflMinTimeStepSize, "s", 1e-8, 1, "smallest time step with CFL")
            .number("cflMaxTimeStepSize", &S::cflMaxTimeStepSize, "s", 1e-7, 1, "largest time step with CFL");
        return s;
    }();
    return t;
}

const SettingsTable& SphSettings::floeTable()
{
    static const SettingsTable t = [] {
        SettingsTable s("Floe");
        using S = SphSettings;
        s.choice("solver", &S::solver, {"eos", "iisph", "none"}, "pressure solver (overrides simulationMethod)")
            .choice("kernelSet", &S::kernelSet, {"cubic", "mueller2003"}, "kernels (overrides kernel)")
            .choice("eos", &S::eos, {"linear", "tait", "density"}, "equation of state")
            .flag("clampPressure", &S::clampPressure, "clamp negative equation-of-state pressures to 0")
            .number("viscosity", &S::viscosity, "m^2/s", 0, 100, "kinematic viscosity")
            .number("boundaryViscosity", &S::boundaryViscosity, "m^2/s", -1, 100, "viscosity at walls (negative: as the fluid)")
            .number("xsph", &S::xsph, "", 0, 1, "XSPH velocity smoothing")
            .number("omega", &S::omega, "", 0.01, 1, "IISPH relaxation")
            .integer("minIterations", &S::minIterations, 0, 10000, "IISPH minimum iterations per step")
            .choice("iisphMode", &S::iisphMode, {"reference", "thesis"}, "IISPH variant")
            .choice("diagonal", &S::diagonal, {"exact", "thesis"}, "IISPH diagonal")
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
    if (name == "none") return PressureSolver::None;
    throw Error(fmt::format("unknown pressure solver '{}'; available: eos, iisph, none", name));
}

const char* pressureSolverName(PressureSolver solver)
{
    switch (solver) {
    case PressureSolver::Eos: return "eos";
    case PressureSolver::Iisph: return "iisph";
    case PressureSolver::None: return "none";
    }
    return "?";
}

PressureSolver SphSettings::pressureSolver() const
{
    if (!solver.empty()) return parsePressureSolver(solver);
    return simulationMethod == 0 ? PressureSolver::Eos : PressureSolver::Iisph;
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

std::vector<std::string> SphSettings::substitutions() const
{
    std::vector<std::string> out;
    static const char* methods[] = {"WCSPH", "PCISPH", "PBF", "IISPH", "DFSPH", "Projective Fluids"};
    if (solver.empty() && simulationMethod != 0 && simulationMethod != 3)
        out.push_back(
            fmt::format("Configuration.simulationMethod {} ({}) is not in Floe: IISPH runs instead (set Floe.solver to choose)",
                        simulationMethod, methods[simulationMethod]));
    if (kernelSet.empty() && kernel == 1)
        out.emplace_back("Configuration.kernel 1 (Wendland quintic) is not in Floe: the cubic spline runs instead");
    return out;
}

} // namespace floe::sim
