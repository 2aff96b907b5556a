// floe run for scenes of deformable bodies (src/app/BodyRun.cpp).
#pragma once

#include <chrono>
#include <vector>

#include "app/Commands.h"
#include "app/Scene.h"
#include "body/DeformableBodies.h"
#include "render/Renderer.h"

namespace floe {

class SetupProgress;

body::BodySettings bodySettings(const Scene& scene);
std::vector<body::BodyInstance> bodyInstances(const Scene& scene);
// The scene's RigidBodies as static obstacles (outward normals; `inverted` ones flipped).
std::vector<geometry::TriangleMesh> bodyObstacles(const Scene& scene);
// Pictures of a body scene: the bodies framed from the front and above (the lower part of tall
// stacks), the floor; the glass's wall drawn as points.
render::ViewSettings bodySceneView(const Scene& scene, const body::BodySettings& settings, float aspect);
std::vector<glm::vec4> glassSamples(const body::BodySettings& settings);
int runBodies(const RunOptions& options, const Scene& scene, std::chrono::steady_clock::time_point wallStart, SetupProgress& setup);

} // namespace floe
