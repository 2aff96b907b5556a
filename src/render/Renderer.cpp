#include "render/Renderer.h"

#include <glm/geometric.hpp>

#include "gpu/Image.h"
#include "graph/RenderGraph.h"
#include "shared/fluid.h"
#include "shared/render.h"
#include "sim/ParticleBuffers.h"

namespace floe::render {

int parseRenderMode(const std::string& name)
{
    if (name == "particles") return RENDER_MODE_PARTICLES;
    if (name == "fluid") return RENDER_MODE_FLUID;
    if (name == "both") return RENDER_MODE_BOTH;
    return -1;
}

const char* renderModeName(int mode)
{
    switch (mode) {
    case RENDER_MODE_FLUID: return "fluid";
    case RENDER_MODE_BOTH: return "both";
    default: return "particles";
    }
}

Renderer::Renderer(gpu::Context& context, const gpu::ShaderLibrary& shaders, VkFormat colorFormat, VkFormat depthFormat,
                   uint32_t framesInFlight)
    : context_(context), shaders_(shaders), colorFormat_(colorFormat), depthFormat_(depthFormat), framesInFlight_(framesInFlight)
{
    gpu::GraphicsPipelineDesc desc;
    desc.name = "render/particles";
    desc.colorFormat = colorFormat;
    desc.depthFormat = depthFormat;
    particles_ = gpu::createGraphicsPipeline(context, shaders, desc);
    desc.name = "render/floor";
    floor_ = gpu::createGraphicsPipeline(context, shaders, desc);
    for (uint32_t i = 0; i < framesInFlight; ++i) {
        frameConstants_.emplace_back(context,
                                     gpu::BufferDesc{"frame constants", sizeof(shared::RenderParams), gpu::MemoryKind::Upload});
        boundaryConstants_.emplace_back(
            context, gpu::BufferDesc{"boundary constants", sizeof(shared::RenderParams), gpu::MemoryKind::Upload});
    }
}

void Renderer::setOutlines(const gpu::Buffer* points, uint32_t pointCount)
{
    outlines_ = pointCount >= 2 ? points : nullptr;
    outlinePoints_ = outlines_ ? pointCount - pointCount % 2 : 0;
    if (outlines_ && edges_.handle() == VK_NULL_HANDLE) {
        gpu::GraphicsPipelineDesc desc;
        desc.name = "render/edges";
        desc.colorFormat = colorFormat_;
        desc.depthFormat = depthFormat_;
        desc.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
        desc.depthCompare = VK_COMPARE_OP_LESS_OR_EQUAL;
        edges_ = gpu::createGraphicsPipeline(context_, shaders_, desc);
    }
}

void Renderer::addPasses(graph::RenderGraph& graph, const gpu::Image& color, const gpu::Image& depth,
                         const sim::ParticleBuffers& particles, const ViewSettings& view, uint32_t frameSlot,
                         const gpu::Buffer* boundary, uint32_t boundaryCount)
{
    addPasses(graph, color, depth, &particles, view, frameSlot, boundary, boundaryCount, {});
}

void Renderer::addPasses(graph::RenderGraph& graph, const gpu::Image& color, const gpu::Image& depth,
                         const sim::ParticleBuffers* fluid, const ViewSettings& view, uint32_t frameSlot,
                         const gpu::Buffer* boundary, uint32_t boundaryCount, std::span<const MeshDraw> meshes)
{
    const float aspect = float(color.width()) / float(color.height());
    shared::RenderParams frame{};
    frame.view = view.camera.view();
    frame.projection = view.camera.projection(aspect);
    // Key light from the upper left front, in view space.
    const glm::vec3 light = glm::normalize(glm::vec3(frame.view * glm::vec4(glm::normalize(glm::vec3(-0.4f, 1.0f, 0.6f)), 0.0f)));
    frame.lightDirection = glm::vec4(light, 0.0f);
    frame.particle = glm::vec4(view.particleRadius, view.colorMin, view.colorMax, float(view.colorAttribute));
    frame.floor = glm::vec4(view.floorHeight, view.floorHalfExtent, view.floorCenter.x, view.floorCenter.y);
    frame.viewport = glm::vec4(color.width(), color.height(), 1.0f / color.width(), 1.0f / color.height());
    gpu::Buffer& constants = frameConstants_.at(frameSlot);
    constants.write(&frame, sizeof(frame));

    const glm::vec4 background = kBackground;
    bool cleared = false;
    if (view.drawFloor) {
        graph.addGraphics(floor_).read(RENDER_BIND_FRAME, constants).color(color, background).depth(depth, 1.0f).draw(6);
        cleared = true;
    }
    if (boundary && boundaryCount > 0) {
        shared::RenderParams solid = frame;
        solid.particle = glm::vec4(view.boundaryRadius, 0.0f, 1.0f, float(RENDER_COLOR_SOLID));
        gpu::Buffer& boundaryConstants = boundaryConstants_.at(frameSlot);
        boundaryConstants.write(&solid, sizeof(solid));
        auto pass = graph.addGraphics(particles_);
        pass.read(RENDER_BIND_FRAME, boundaryConstants)
            .read(RENDER_BIND_POSITIONS, *boundary)
            .read(RENDER_BIND_VELOCITIES, *boundary)
            .read(RENDER_BIND_METRICS_A, *boundary)
            .read(RENDER_BIND_METRICS_B, *boundary);
        if (cleared)
            pass.color(color).depth(depth);
        else
            pass.color(color, background).depth(depth, 1.0f);
        pass.draw(6, boundaryCount);
        cleared = true;
    }
    for (const MeshDraw& mesh : meshes) {
        if (mesh.triangleCount == 0) continue;
        if (mesh_.handle() == VK_NULL_HANDLE) {
            gpu::GraphicsPipelineDesc desc;
            desc.name = "render/mesh";
            desc.colorFormat = colorFormat_;
            desc.depthFormat = depthFormat_;
            mesh_ = gpu::createGraphicsPipeline(context_, shaders_, desc);
        }
        auto pass = graph.addGraphics(mesh_);
        pass.read(RENDER_BIND_FRAME, constants)
            .read(RENDER_BIND_POSITIONS, *mesh.positions)
            .read(RENDER_BIND_VELOCITIES, *mesh.normals)
            .read(RENDER_BIND_METRICS_A, *mesh.triangles);
        if (cleared)
            pass.color(color).depth(depth);
        else
            pass.color(color, background).depth(depth, 1.0f);
        pass.draw(3 * mesh.triangleCount);
        cleared = true;
    }
    if (outlines_) {
        // Drawn before the fluid and writing depth: an edge in front of the fluid stays visible,
        // one behind it is covered, and the fluid surface treats the lines as solids.
        auto pass = graph.addGraphics(edges_);
        pass.read(RENDER_BIND_FRAME, constants).read(RENDER_BIND_POSITIONS, *outlines_);
        if (cleared)
            pass.color(color).depth(depth);
        else
            pass.color(color, background).depth(depth, 1.0f);
        pass.draw(outlinePoints_);
        cleared = true;
    }
    if (!cleared) {
        // Nothing solid: clear the targets with an empty draw.
        graph.addGraphics(floor_).read(RENDER_BIND_FRAME, constants).color(color, background).depth(depth, 1.0f).draw(0);
    }
    if (!fluid) return;
    const sim::ParticleBuffers& particles = *fluid;
    if (view.mode != RENDER_MODE_PARTICLES) {
        if (!fluid_) fluid_ = std::make_unique<FluidSurface>(context_, shaders_, colorFormat_, framesInFlight_);
        fluid_->addSceneDepthCopy(graph, depth); // solids only: particles show through the surface
    }
    if (view.mode != RENDER_MODE_FLUID) {
        graph.addGraphics(particles_)
            .read(RENDER_BIND_FRAME, constants)
            .read(RENDER_BIND_POSITIONS, particles.positions)
            .read(RENDER_BIND_VELOCITIES, particles.velocities)
            .read(RENDER_BIND_METRICS_A, particles.metricsA)
            .read(RENDER_BIND_METRICS_B, particles.metricsB)
            .color(color)
            .depth(depth)
            .draw(6, particles.count);
    }
    if (view.mode == RENDER_MODE_FLUID) {
        fluid_->addPasses(graph, color, frame, particles.positions, particles.count, view.fluid, frameSlot);
    } else if (view.mode == RENDER_MODE_BOTH) {
        // The surface as a clear glaze over the coloured particles: a tenth of the absorption, so
        // that the colour map keeps its meaning under it (at full absorption the speeds washed
        // out to the water's teal) while the surface's reflections and highlights stay.
        FluidSettings glaze = view.fluid;
        glaze.absorption *= 0.1f;
        fluid_->addPasses(graph, color, frame, particles.positions, particles.count, glaze, frameSlot);
    }
}

} // namespace floe::render
