// The deformable bodies' part of a run's world (src/app/DeformablePart.cpp, app/RunParts.h) and
// what the window and the bench share of it: settings, instances, obstacles, the default view.
#pragma once

#include <vector>

#include "app/Commands.h"
#include "body/DeformableBodies.h"
#include "render/Renderer.h"
#include "scene/Scene.h"

namespace floe {

body::BodySettings bodySettings(const Scene& scene);
std::vector<body::BodyInstance> bodyInstances(const Scene& scene);
// Pictures of a body scene: the bodies framed from the front and above (the lower part of tall
// stacks), the floor; the glass's wall drawn as points.
render::ViewSettings bodySceneView(const Scene& scene, const body::BodySettings& settings, float aspect);
std::vector<glm::vec4> glassSamples(const body::BodySettings& settings);

} // namespace floe
