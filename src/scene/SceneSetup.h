// From a loaded scene to what the simulation and the renderer need: the world (domain,
// boundary particles sampled on the rigid bodies, the container's planes) and the camera.
#pragma once

#include <string>

#include "render/Camera.h"
#include "scene/Scene.h"
#include "sim/World.h"

namespace floe {

// `timeStep` is the fixed step (or the CFL maximum), `stopTime` where steps end (0: none).
sim::WorldSettings makeWorld(const Scene& scene, float stopTime);
// Face planes of a convex mesh (2D: its lines at z = 0), outward normals: inside iff n.x <= w.
std::vector<glm::vec4> containerPlanes(const geometry::TriangleMesh& mesh, bool flat);
// The fluid's and the geometry's bounds (not the safety margin of the domain around them).
geometry::Bounds sceneBounds(const Scene& scene, const sim::WorldSettings& world);
render::Camera sceneCamera(const Scene& scene, const sim::WorldSettings& world, float aspect);

// Energy from nowhere: the fluid's kinetic energy can never exceed its initial kinetic energy
// plus the potential energy gravity releases if its centre of mass fell to the scene's lowest
// point along gravity (J). Infinity where that does not bound the scene (no gravity, a shaken
// container doing work).
// With deformable or fracture bodies, the bound holds their kinetic energy and what gravity can
// give them too, for the fluid's (if any) and the bodies' kinetic energy together; infinity where
// a plate presses the deformable bodies or one starts deformed (twisted).
double energyBound(const Scene& scene, const sim::WorldSettings& world);
// The same with the scene's fluid as sampleFluid(scene) gave it (sampled once by the caller).
double energyBound(const Scene& scene, const sim::WorldSettings& world, const FluidSampling& fluid);
// Why a fluid step shows a blow-up, or "" (floe run, floe view and the bench share the rules):
// non-finite values, particles out of the closed domain, a compression above 100 % (incompressible
// solvers), or kinetic energy above `energyLimit` (energyBound).
// `compressible` (an equation of state): its compression is a result, not an error, so only the
// other checks apply.
std::string fluidDivergence(const sim::StepMetrics& m, double energyLimit, bool compressible = false);

} // namespace floe
