// The coupling's cost (floe bench --suite bodies and fracture): a coupled scene's world stepped
// whole, then its fluid alone and its solids alone (or its deformable and fracture bodies each
// alone), each a RunWorld stepped by the one loop here.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace floe::gpu {
class Context;
class ShaderLibrary;
} // namespace floe::gpu

namespace floe {

// `scene` (assets/scenes/NAME.json): `warmup` steps, then the median (and mean) GPU ms of `steps`
// timed ones, coupled, fluid alone, solids alone; the coupling passes' share (coupling/* and
// sph/solid_*) and the coupled step's overhead over the two alone. A scene of deformable and
// fracture bodies without a fluid: together, each kind alone, the contact passes' share.
nlohmann::ordered_json couplingCost(gpu::Context& context, const gpu::ShaderLibrary& shaders, const std::string& scene, int warmup,
                                    int steps);

} // namespace floe
