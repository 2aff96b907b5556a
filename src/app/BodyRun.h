// floe run for scenes of deformable bodies (src/app/BodyRun.cpp).
#pragma once

#include <chrono>
#include <vector>

#include "app/Commands.h"
#include "app/Scene.h"
#include "body/DeformableBodies.h"

namespace floe {

body::BodySettings bodySettings(const Scene& scene);
std::vector<body::BodyInstance> bodyInstances(const Scene& scene);
int runBodies(const RunOptions& options, const Scene& scene, std::chrono::steady_clock::time_point wallStart);

} // namespace floe
