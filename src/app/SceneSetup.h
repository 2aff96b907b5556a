// From a loaded scene to what the simulation and the renderer need: the world (domain,
// boundary particles sampled on the rigid bodies, the container's planes) and the camera.
#pragma once

#include "app/Scene.h"
#include "render/Camera.h"
#include "sim/World.h"

namespace floe {

// `timeStep` is the fixed step (or the CFL maximum), `stopTime` where steps end (0: none).
sim::WorldSettings makeWorld(const Scene& scene, float stopTime);
// Face planes of a convex mesh (2D: its lines at z = 0), outward normals: inside iff n.x <= w.
std::vector<glm::vec4> containerPlanes(const geometry::TriangleMesh& mesh, bool flat);
// The fluid's and the geometry's bounds (not the safety margin of the domain around them).
geometry::Bounds sceneBounds(const Scene& scene, const sim::WorldSettings& world);
render::Camera sceneCamera(const Scene& scene, const sim::WorldSettings& world, float aspect);

} // namespace floe
