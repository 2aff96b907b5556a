// floe bench's fracture suite (digest-004 Tables 4 and 5, Fig. 40): for the five tetrahedral
// objects of Table 2 at about the thesis' node counts, GPU ms per fracture event per method at 3
// and 8 iterations (Table 5's layout), fragments after seeded drops (Table 4's layout, mean over
// the drops), and GPU ms per step against the fragment count of a cube broken up to 600
// fragments (the thesis lost real time at 400-500).
#pragma once

#include <nlohmann/json.hpp>

namespace floe {
namespace gpu {
class Context;
class ShaderLibrary;
} // namespace gpu

struct FractureBenchOptions {
    int drops = 10;         // seeded drops per object and method (Table 4)
    int dropSteps = 84;     // 1.4 s at 60 Hz: the fall from height 5 and the impact
    int maxFragments = 600; // the fragment sweep stops there
};

nlohmann::ordered_json fractureBench(gpu::Context& context, const gpu::ShaderLibrary& shaders, const FractureBenchOptions& options);
void printFractureBench(const nlohmann::ordered_json& results);

} // namespace floe
