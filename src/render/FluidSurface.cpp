#include "render/FluidSurface.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>
#include <glm/gtc/constants.hpp>

#include "graph/RenderGraph.h"
#include "shared/fluid.h"

namespace floe::render {
namespace {

constexpr VkFormat kEyeDepthFormat = VK_FORMAT_R32_SFLOAT;
constexpr VkFormat kThicknessFormat = VK_FORMAT_R16_SFLOAT; // additive blending is mandatory for it
constexpr VkFormat kTestDepthFormat = VK_FORMAT_D32_SFLOAT;

} // namespace

FluidSettings fluidSettingsFor(float particleRadius, const glm::vec3& extent, bool flat)
{
    FluidSettings s;
    s.filterRadius = 3.0f * particleRadius;
    s.depthRange = 2.0f * particleRadius;
    const glm::vec3 waterTint(1.2f, 0.45f, 0.2f); // red absorbed most: clear water's blue-green
    if (flat) {
        // A 2D scene is one layer of particles seen face on (a summed thickness of 12 r / (pi
        // s^2), 1.7 r for s = 1.5): it absorbs like a deep pool, or it would hardly show.
        const float layer = 12.0f * particleRadius / (glm::pi<float>() * s.sphereScale * s.sphereScale);
        s.absorption = waterTint * (1.5f / layer);
        s.refraction = 0.0f;
        s.flat = true;
        s.filterRadius = 1.2f * particleRadius; // smooths the single layer's discs into one region; a lone drop keeps its disc
    } else {
        const float size = std::max({extent.x, extent.y, extent.z, 8.0f * particleRadius});
        s.absorption = waterTint * (8.0f / size);
        s.refraction = 0.08f / size;
    }
    return s;
}

FluidSurface::FluidSurface(gpu::Context& context, const gpu::ShaderLibrary& shaders, VkFormat colorFormat, uint32_t framesInFlight)
    : context_(context)
{
    gpu::GraphicsPipelineDesc desc;
    desc.name = "render/fluid_depth";
    desc.vertex = "render/fluid_spheres";
    desc.colorFormat = kEyeDepthFormat;
    desc.depthFormat = kTestDepthFormat;
    depthPass_ = gpu::createGraphicsPipeline(context, shaders, desc);

    desc.name = "render/fluid_thickness";
    desc.colorFormat = kThicknessFormat;
    desc.depthFormat = VK_FORMAT_UNDEFINED;
    desc.depthTest = false;
    desc.depthWrite = false;
    desc.blend = gpu::GraphicsPipelineDesc::Blend::Additive;
    thicknessPass_ = gpu::createGraphicsPipeline(context, shaders, desc);

    desc = {};
    desc.name = "render/fluid_composite";
    desc.vertex = "render/fullscreen";
    desc.colorFormat = colorFormat;
    desc.depthTest = false;
    desc.depthWrite = false;
    composite_ = gpu::createGraphicsPipeline(context, shaders, desc);

    smooth_ = gpu::createComputePipeline(context, shaders, "render/fluid_smooth");

    for (uint32_t i = 0; i < framesInFlight; ++i) {
        params_.emplace_back(context, gpu::BufferDesc{"fluid constants", sizeof(shared::FluidParams), gpu::MemoryKind::Upload});
        sphereFrame_.emplace_back(context,
                                  gpu::BufferDesc{"fluid sphere constants", sizeof(shared::RenderParams), gpu::MemoryKind::Upload});
    }
}

void FluidSurface::resize(uint32_t width, uint32_t height)
{
    if (width == width_ && height == height_) return;
    width_ = width;
    height_ = height;
    const VkImageUsageFlags colorUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    depthImage_ = gpu::Image(context_, {"fluid eye depth", kEyeDepthFormat, width, height, colorUsage});
    depthTest_ =
        gpu::Image(context_, {"fluid depth test", kTestDepthFormat, width, height, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT});
    thicknessImage_ = gpu::Image(context_, {"fluid thickness", kThicknessFormat, width, height, colorUsage});
    const uint64_t pixels = uint64_t(width) * height;
    const auto buffer = [&](const char* name, uint64_t bytesPerPixel, VkFormat format) {
        return gpu::Buffer(context_, {name, pixels * bytesPerPixel, gpu::MemoryKind::DeviceLocal, format});
    };
    rawDepth_ = buffer("fluid raw depth", 4, VK_FORMAT_R32_SFLOAT);
    depthA_ = buffer("fluid smoothed depth A", 4, VK_FORMAT_R32_SFLOAT);
    depthB_ = buffer("fluid smoothed depth B", 4, VK_FORMAT_R32_SFLOAT);
    thicknessBuffer_ = buffer("fluid thickness", 2, VK_FORMAT_R16_SFLOAT);
    sceneColor_ = buffer("fluid scene colour", 4, VK_FORMAT_R8G8B8A8_UNORM);
    sceneDepth_ = buffer("fluid scene depth", 4, VK_FORMAT_R32_SFLOAT);
    smoothed_ = &rawDepth_;
}

void FluidSurface::addSceneDepthCopy(graph::RenderGraph& graph, const gpu::Image& depth)
{
    resize(depth.width(), depth.height());
    graph.addCopyImageToBuffer("render/fluid_scene_depth", depth, sceneDepth_);
}

void FluidSurface::addPasses(graph::RenderGraph& graph, const gpu::Image& color, const shared::RenderParams& frame,
                             const gpu::Buffer& positions, uint32_t count, const FluidSettings& settings, uint32_t frameSlot)
{
    resize(color.width(), color.height());
    // Spheres of s particle radii close the gaps a single layer (2D, or a thin sheet) leaves
    // between spheres of radius r. Each particle stands for a cube of side 2r (the particle
    // spacing); the thickness pass scales sphere chords by cube volume / sphere volume =
    // 6 / (pi s^3), so that the summed thickness integrates the fluid's volume.
    const float s = std::max(settings.sphereScale, 0.1f);
    shared::RenderParams sphere = frame;
    sphere.particle.x = frame.particle.x * s;
    sphere.particle.y = 6.0f / (glm::pi<float>() * s * s * s);
    sphereFrame_.at(frameSlot).write(&sphere, sizeof(sphere));

    shared::FluidParams p{};
    p.view = frame.view;
    p.projection = frame.projection;
    p.size = glm::vec4(width_, height_, 1.0f / width_, 1.0f / height_);
    // Pixels per metre at eye depth 1 m: half the image height times the projection's y scale.
    const float pixelsPerMeter = 0.5f * float(height_) * std::fabs(frame.projection[1][1]);
    p.smoothing = glm::vec4(settings.filterRadius, settings.maxFilterPixels, settings.depthRange, pixelsPerMeter);
    p.absorption = glm::vec4(settings.absorption, settings.refraction * float(height_));
    p.lightDirection = frame.lightDirection;
    p.scatter = glm::vec4(settings.scatter, settings.specularExponent);
    // A flat layer seen face on sums 12 r / (pi s^2) of thickness on average (its discs' chords,
    // scaled as above); its outline is the smoothed thickness's iso-line at half that.
    const float layer = 12.0f * frame.particle.x / (glm::pi<float>() * s * s);
    p.surface = glm::vec4(settings.flat ? 1.0f : 0.0f, 0.5f * layer, layer, settings.outlinePixels);
    gpu::Buffer& params = params_.at(frameSlot);
    params.write(&p, sizeof(p));

    // The scene behind the fluid, for refraction (and RENDER_MODE_BOTH's particles in it).
    graph.addCopyImageToBuffer("render/fluid_scene_colour", color, sceneColor_);

    const gpu::Buffer& sphereConstants = sphereFrame_.at(frameSlot);
    graph.addGraphics(depthPass_)
        .read(RENDER_BIND_FRAME, sphereConstants)
        .read(RENDER_BIND_POSITIONS, positions)
        .color(depthImage_, glm::vec4(0.0f))
        .depth(depthTest_, 1.0f)
        .draw(6, count);
    graph.addGraphics(thicknessPass_)
        .read(RENDER_BIND_FRAME, sphereConstants)
        .read(RENDER_BIND_POSITIONS, positions)
        .color(thicknessImage_, glm::vec4(0.0f))
        .draw(6, count);
    graph.addCopyImageToBuffer("render/fluid_depth_copy", depthImage_, rawDepth_);
    graph.addCopyImageToBuffer("render/fluid_thickness_copy", thicknessImage_, thicknessBuffer_);

    smoothed_ = &rawDepth_;
    const gpu::Buffer* thickness = &thicknessBuffer_;
    // A flat layer smooths its thickness (a plain Gaussian of the filter radius, projected at the
    // layer's depth) and keeps its raw depth; otherwise the depth is smoothed.
    uint32_t plainRadius = 0;
    if (settings.flat) {
        const float layerDepth = std::max(-(frame.view * glm::vec4(0.0f, 0.0f, 0.0f, 1.0f)).z, 1e-6f);
        plainRadius = uint32_t(std::clamp(settings.filterRadius * pixelsPerMeter / layerDepth, 1.0f, settings.maxFilterPixels));
    }
    if (settings.iterations > 0) {
        graph.beginGroup("render/fluid_smooth");
        const uint32_t pixels = width_ * height_;
        const gpu::Buffer* in = settings.flat ? &thicknessBuffer_ : &rawDepth_;
        for (int i = 0; i < settings.iterations; ++i) {
            for (int axis = 0; axis < 2; ++axis) {
                const gpu::Buffer* out = axis == 0 ? &depthB_ : &depthA_;
                const shared::FluidSmoothPush push{axis == 0 ? 1u : 0u, axis == 0 ? 0u : 1u, pixels, plainRadius};
                graph.addCompute(smooth_)
                    .read(FLUID_BIND_PARAMS, params)
                    .read(FLUID_BIND_DEPTH_IN, *in)
                    .write(FLUID_BIND_DEPTH_OUT, *out)
                    .push(push)
                    .dispatchThreads(pixels);
                in = out;
            }
        }
        graph.endGroup();
        if (settings.flat)
            thickness = &depthA_;
        else
            smoothed_ = &depthA_;
    }

    compositeThickness_ = thickness;
    graph.addGraphics(composite_)
        .read(FLUID_BIND_PARAMS, params)
        .read(FLUID_BIND_DEPTH, *smoothed_)
        .read(FLUID_BIND_THICKNESS, *thickness)
        .read(FLUID_BIND_SCENE_COLOR, sceneColor_)
        .read(FLUID_BIND_SCENE_DEPTH, sceneDepth_)
        .color(color)
        .draw(3);
}

} // namespace floe::render
