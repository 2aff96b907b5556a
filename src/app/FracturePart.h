// The fracture bodies' part of a run's world (src/app/FracturePart.cpp, app/RunParts.h,
// digest-004) and what the window and the bench share of it: settings, instances, the default view.
#pragma once

#include <vector>

#include "app/Commands.h"
#include "fracture/FractureBodies.h"
#include "render/Renderer.h"
#include "scene/Scene.h"

namespace floe {

fracture::FractureSettings fractureSettings(const Scene& scene);
std::vector<fracture::FractureBodyInstance> fractureInstances(const Scene& scene);
// Pictures of a fracture scene: the bodies' fall and the floor around where they land.
render::ViewSettings fractureSceneView(const Scene& scene, const fracture::FractureSettings& settings, float aspect);

} // namespace floe
