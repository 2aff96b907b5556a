#include "app/SceneView.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "render/FluidSurface.h"
#include "scene/SceneSetup.h"
#include "shared/render.h"
#include "sim/ParticleBuffers.h"

namespace floe {

render::ViewSettings sceneView(const Scene& scene, const sim::WorldSettings& world, float aspect)
{
    render::ViewSettings view;
    view.camera = sceneCamera(scene, world, aspect);
    view.particleRadius = world.particleRadius;
    view.boundaryRadius = 0.5f * scene.sph.boundarySpacing * 2.0f * world.particleRadius;
    view.colorAttribute = RENDER_COLOR_SPEED;
    // Colour range up to the speed of a free fall through the domain's height.
    const float height = world.domainMax.y - world.domainMin.y;
    view.colorMax = std::max(0.5f, std::sqrt(2.0f * glm::length(world.gravity) * height));
    view.drawFloor = !world.sim2D;
    view.floorHeight = sceneBounds(scene, world).lo.y;
    view.floorHalfExtent = 0.75f * std::max(world.domainMax.x - world.domainMin.x, world.domainMax.z - world.domainMin.z) + 0.5f;
    view.floorCenter = {0.5f * (world.domainMin.x + world.domainMax.x), 0.5f * (world.domainMin.z + world.domainMax.z)};
    view.fluid = render::fluidSettingsFor(world.particleRadius, world.domainMax - world.domainMin, world.sim2D);
    return view;
}

std::vector<glm::vec4> drawnBoundarySamples(const sim::WorldSettings& world)
{
    std::vector<glm::vec4> samples;
    samples.reserve(world.drawnBoundary.size());
    for (const glm::vec3& b : world.drawnBoundary) samples.emplace_back(b, 0.0f);
    return samples;
}

std::vector<glm::vec4> outlinePoints(const Scene& scene)
{
    std::vector<glm::vec4> points;
    if (scene.config.sim2D) return points;
    const auto add = [&](const geometry::TriangleMesh& mesh) {
        for (const auto& [a, b] : geometry::featureEdges(mesh, 20.0f)) {
            points.emplace_back(a, 1.0f);
            points.emplace_back(b, 1.0f);
        }
    };
    for (const RigidBody& body : scene.rigidBodies)
        if (body.isWall) add(body.mesh);
    if (scene.container && scene.container->shakeAmplitude == 0.0f) add(scene.container->mesh);
    return points;
}

SceneDrawing uploadSceneDrawing(gpu::Context& context, graph::RenderGraph& graph, const Scene& scene,
                                const sim::WorldSettings& world)
{
    SceneDrawing d;
    const auto upload = [&](const char* name, const std::vector<glm::vec4>& points) {
        gpu::Buffer b(context, {name, points.size() * 16, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32G32B32A32_SFLOAT});
        sim::uploadNow(context, graph, b, points.data(), points.size() * 16);
        return b;
    };
    if (!world.drawnBoundary.empty()) {
        const std::vector<glm::vec4> samples = drawnBoundarySamples(world);
        d.boundary = upload("drawn boundary", samples);
        d.boundaryCount = static_cast<uint32_t>(samples.size());
    }
    const std::vector<glm::vec4> points = outlinePoints(scene);
    if (!points.empty()) {
        d.outlines = upload("outlines", points);
        d.outlineCount = static_cast<uint32_t>(points.size());
    }
    return d;
}

} // namespace floe
