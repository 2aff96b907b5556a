// floe run for scenes of breakable tetrahedral bodies (src/app/FractureRun.cpp, digest-004).
#pragma once

#include <chrono>
#include <vector>

#include "app/Commands.h"
#include "app/Scene.h"
#include "fracture/FractureBodies.h"
#include "render/Renderer.h"

namespace floe {

class SetupProgress;

fracture::FractureSettings fractureSettings(const Scene& scene);
std::vector<fracture::FractureBodyInstance> fractureInstances(const Scene& scene);
// Pictures of a fracture scene: the bodies' fall and the floor around where they land.
render::ViewSettings fractureSceneView(const Scene& scene, const fracture::FractureSettings& settings, float aspect);
int runFracture(const RunOptions& options, const Scene& scene, std::chrono::steady_clock::time_point wallStart,
                SetupProgress& setup);

} // namespace floe
