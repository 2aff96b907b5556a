// What pictures of a scene show by default, headless and in the window alike.
#pragma once

#include <vector>

#include <glm/vec4.hpp>

#include "gpu/Buffer.h"
#include "render/Renderer.h"
#include "scene/Scene.h"
#include "sim/World.h"

namespace floe {

// The camera, radii, the speed colour range, the floor and the fluid surface's settings for
// pictures of `aspect` (width / height); particles mode.
render::ViewSettings sceneView(const Scene& scene, const sim::WorldSettings& world, float aspect);
// The samples drawn for obstacles and (2D) walls, as vec4 positions for the renderer.
std::vector<glm::vec4> drawnBoundarySamples(const sim::WorldSettings& world);
// The outlines of 3D walls (RigidBodies with isWall, which are not drawn as samples there) and of
// a still container: their creases and open edges, two vec4 points per line
// (Renderer::setOutlines). A shaken container moves on the GPU and is not outlined; 2D scenes
// draw their walls as samples and have none.
std::vector<glm::vec4> outlinePoints(const Scene& scene);

// A fluid scene's drawn samples and wall outlines on the device, for a run's pictures (the
// caller hands the outlines to Renderer::setOutlines where they will stay).
struct SceneDrawing {
    gpu::Buffer boundary, outlines;
    uint32_t boundaryCount = 0, outlineCount = 0;
};
SceneDrawing uploadSceneDrawing(gpu::Context& context, graph::RenderGraph& graph, const Scene& scene,
                                const sim::WorldSettings& world);

} // namespace floe
