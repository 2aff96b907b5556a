// The fluid of a solids run (floe run on a scene of deformable or fracture bodies with
// FluidBlocks): the scene's fluid sampled once, its simulation, its two-way coupling with the
// solids (coupling::FluidSolidCoupling), the energy bound of fluid and solids together, and what
// each step and the summary record of it. BodyRun and FractureRun share it.
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "app/Scene.h"
#include "app/Stat.h"
#include "coupling/FluidSolidCoupling.h"
#include "sim/Simulation.h"

namespace floe::io {
class CsvWriter;
}

namespace floe {

struct CoupledFluid {
    sim::WorldSettings world;
    std::unique_ptr<sim::Simulation> fluid;
    std::unique_ptr<coupling::FluidSolidCoupling> coupling;
    double energyLimit = HUGE_VAL; // J: the fluid's and the solids' kinetic energy together (energyBound)
    RunningStat densityError;      // the steps' average compression
    uint32_t solidCorrections = 0; // fluid particles put back out of the solids (sph/solid_guard), run total

    explicit operator bool() const { return fluid != nullptr; }
    // A step's metrics (read back from `readback`) into the fluid's columns of metrics.csv
    // (density errors, iterations), the run's statistics; `blowUp` gets the fluid's own
    // divergence check (the energy of fluid and solids together is the caller's).
    sim::StepMetrics record(io::CsvWriter& csv, const sim::StepReadback& readback, const Scene& scene, std::string& blowUp);
    // The fluid's entries of summary.json.
    void summarize(nlohmann::ordered_json& summary, const Scene& scene) const;
};

// With FluidBlocks or FluidModels in the scene: the fluid sampled once, simulated and coupled with
// the solids given (either may be null); else empty.
CoupledFluid coupleFluid(gpu::Context& context, const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph, const Scene& scene,
                         body::DeformableBodies* bodies, fracture::FractureBodies* fracture);

} // namespace floe
