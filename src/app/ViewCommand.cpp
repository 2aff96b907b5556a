// floe view: the interactive window. The same world (app/RunWorld: the scene's parts, coupled),
// Renderer and RenderGraph as the headless run draw into an offscreen target of the window's
// size, which is blitted into the swapchain image; the ImGui pass draws over it. Per frame (two
// in flight): wait for the slot's fence, read its GPU timings and the world's metrics, acquire
// an image, build the UI, add the steps, the picture, the blit, the UI and the present
// transition to the graph, submit once. A world whose host reads each step before the next
// (fracture) runs its steps to completion before the frame.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>

#include <fmt/format.h>
#include <glm/geometric.hpp>
#include <glm/gtc/constants.hpp>
#include <imgui.h>
#include <nlohmann/json.hpp>
#include <volk.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "app/Commands.h"
#include "app/DeformablePart.h"
#include "app/FracturePart.h"
#include "app/ProjectFiles.h"
#include "app/RunWorld.h"
#include "app/SceneView.h"
#include "base/Error.h"
#include "gpu/Check.h"
#include "gpu/Commands.h"
#include "gpu/Context.h"
#include "gpu/RenderDoc.h"
#include "gpu/ShaderLibrary.h"
#include "graph/RenderGraph.h"
#include "io/Png.h"
#include "io/TextFile.h"
#include "render/OffscreenTarget.h"
#include "render/Renderer.h"
#include "scene/SceneLoader.h"
#include "scene/SceneSetup.h"
#include "shared/fluid.h"
#include "shared/render.h"
#include "sim/Simulation.h"
#include "view/Panels.h"
#include "view/Swapchain.h"
#include "view/Ui.h"
#include "view/Window.h"

namespace floe {
namespace {

constexpr uint32_t kFramesInFlight = 2;
// The blit into the swapchain image is its first use: the acquire semaphore is waited for there.
constexpr VkPipelineStageFlags2 kAcquireWait = VK_PIPELINE_STAGE_2_BLIT_BIT;

std::filesystem::path defaultScene()
{
    const std::filesystem::path p = findProjectFile("assets/scenes/dam_break_2d.json");
    if (p.empty()) throw Error("floe view: no scene given and assets/scenes/dam_break_2d.json not found; give SCENE.json");
    return p;
}

Scene loadViewScene(const std::filesystem::path& file, const ViewOptions& o, bool printWarnings = true)
{
    Scene scene = loadScene(file);
    applyOverrides(scene, o.sets);
    if (!o.solver.empty()) {
        try {
            (void)sim::parsePressureSolver(o.solver);
        } catch (const Error& e) {
            throw Error(fmt::format("--solver {}: {}", o.solver, e.what()));
        }
        scene.sph.solver = o.solver;
    }
    if (printWarnings)
        for (const std::string& w : scene.warnings) std::fprintf(stderr, "floe: warning: %s\n", w.c_str());
    return scene;
}

// Mean and variance of the luminance and the share of pixels that differ from the corner's
// colour: a blank or uniform screenshot has no variance and no coverage.
nlohmann::ordered_json pictureStats(const std::vector<uint8_t>& rgba, uint32_t width, uint32_t height)
{
    double sum = 0, sum2 = 0;
    size_t differing = 0;
    const uint8_t* corner = rgba.data();
    const size_t n = size_t(width) * height;
    for (size_t i = 0; i < n; ++i) {
        const uint8_t* p = &rgba[i * 4];
        const double y = 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
        sum += y;
        sum2 += y * y;
        differing += (std::abs(p[0] - corner[0]) + std::abs(p[1] - corner[1]) + std::abs(p[2] - corner[2])) > 6;
    }
    const double mean = n ? sum / double(n) : 0.0;
    return {{"luminance_mean", mean},
            {"luminance_variance", n ? sum2 / double(n) - mean * mean : 0.0},
            {"differing_from_corner", n ? double(differing) / double(n) : 0.0}};
}

class ViewSession {
public:
    explicit ViewSession(const ViewOptions& o) : o_(o) {}
    int run();

private:
    void openScene(const std::filesystem::path& file);
    void resetSimulation();
    void buildWorld(); // the world from the scene and the panels' settings, and what it draws
    void recordStep(const WorldStep& step);
    void recreateSwapchain();
    // The fluid scene's bounds (sceneBounds) projected into the scene's viewport: x0, y0, x1, y1
    // in pixels (top row 0), or null for solids.
    nlohmann::ordered_json sceneBoundsPixels() const
    {
        if (state_.bodies || state_.fracture || !target_) return nullptr;
        const geometry::Bounds b = sceneBounds(scene_, world_->fluidWorld());
        const float w = float(target_->width()), h = float(target_->height());
        const glm::mat4 m = state_.view.camera.projection(w / h) * state_.view.camera.view();
        glm::vec2 lo(1e30f), hi(-1e30f);
        for (int k = 0; k < 8; ++k) {
            const glm::vec3 corner((k & 1) ? b.hi.x : b.lo.x, (k & 2) ? b.hi.y : b.lo.y, (k & 4) ? b.hi.z : b.lo.z);
            const glm::vec4 clip = m * glm::vec4(corner, 1.0f);
            const glm::vec2 pixel((clip.x / clip.w * 0.5f + 0.5f) * w, (clip.y / clip.w * 0.5f + 0.5f) * h);
            lo = glm::min(lo, pixel);
            hi = glm::max(hi, pixel);
        }
        return {{"x0", lo.x}, {"y0", lo.y}, {"x1", hi.x}, {"y1", hi.y}};
    }
    // The scene's viewport width: left of the docked panel (view::sceneViewportWidth).
    uint32_t sceneWidth() const
    {
        const uint32_t w = swapchain_->width();
        if (state_.panelMax.x <= 0.0f) { // before the panel's first frame: its default place
            const float right = float(w) - view::kPanelMargin;
            return view::sceneViewportWidth(w, right - view::defaultPanelWidth(float(w)), right, false);
        }
        return view::sceneViewportWidth(w, state_.panelMin.x, state_.panelMax.x, state_.panelCollapsed);
    }
    void reloadShaders();
    void readSlot(uint32_t slot);
    void handleInput();
    void exerciseWindow(uint64_t frame);

    const ViewOptions& o_;
    std::unique_ptr<gpu::RenderDoc> renderDoc_;
    std::string renderDocWhy_;
    std::unique_ptr<gpu::Context> context_;
    std::unique_ptr<gpu::ShaderLibrary> shaders_;
    std::unique_ptr<graph::RenderGraph> graph_;
    std::unique_ptr<view::Window> window_;
    std::unique_ptr<view::Swapchain> swapchain_;
    std::unique_ptr<view::Ui> ui_;
    std::unique_ptr<gpu::FrameResources> frames_;
    std::unique_ptr<render::Renderer> renderer_;
    std::unique_ptr<render::OffscreenTarget> target_;
    std::unique_ptr<RunWorld> world_;       // the scene's fluid and solids, as floe run steps them
    std::unique_ptr<WorldDrawing> drawing_; // what the picture shows of it
    std::vector<bool> readbackPending_;     // per frame slot: its steps' metrics are to be read
    std::vector<VkSemaphore> acquired_;
    gpu::Buffer screenshotBuffer_;

    view::PanelState state_;
    Scene scene_;
    bool needRecreate_ = true;
    uint64_t recreations_ = 0;
    std::string capturePath_;
};

void ViewSession::openScene(const std::filesystem::path& file)
{
    Scene scene = loadViewScene(file, o_);
    const uint64_t particles = countFluidParticles(scene);
    if (scene.deformableBodies.empty() && scene.fractureBodies.empty() &&
        particles > sim::ParticleBuffers::maxFluidParticles(*context_, scene.config.sim2D ? 2 : 3))
        throw Error(fmt::format("{}: {} particles do not fit on {}", file.string(), particles, context_->deviceName()));
    if (context_) vkDeviceWaitIdle(context_->device());
    scene_ = std::move(scene);
    state_.scenePath = file;
    state_.settings = scene_.sph;
    state_.bodies = !scene_.deformableBodies.empty();
    if (state_.bodies) state_.bodySettings = bodySettings(scene_);
    state_.fracture = !scene_.fractureBodies.empty();
    if (state_.fracture) state_.fractureSettings = fractureSettings(scene_);
    resetSimulation();
    // The scene's viewport beside the panel.
    const float aspect =
        target_ && target_->height() ? float(target_->width()) / float(target_->height()) : float(o_.width) / float(o_.height);
    const int mode = state_.view.mode;
    const int iterations = state_.view.fluid.iterations;
    state_.view = world_->fluid()                     ? sceneView(scene_, world_->fluidWorld(), aspect)
                  : state_.fracture && !state_.bodies ? fractureSceneView(scene_, state_.fractureSettings, aspect)
                                                      : bodySceneView(scene_, state_.bodySettings, aspect);
    state_.view.mode = mode;
    state_.view.fluid.iterations = iterations;
    state_.orbit = view::OrbitCamera::from(state_.view.camera);
    state_.homeOrbit = state_.orbit;
    state_.colorDefaults = {state_.view.colorMin, state_.view.colorMax};
}

void ViewSession::resetSimulation()
{
    vkDeviceWaitIdle(context_->device());
    state_.resetHistories();
    state_.diverged.clear();
    state_.simTime = 0.0;
    state_.steps = 0;
    buildWorld();
}

void ViewSession::buildWorld()
{
    vkDeviceWaitIdle(context_->device());
    if (renderer_) renderer_->setOutlines(nullptr, 0);
    drawing_.reset();
    world_.reset();
    std::fill(readbackPending_.begin(), readbackPending_.end(), false);
    scene_.sph = state_.settings;
    RunWorld::Settings settings;
    if (state_.bodies) settings.bodies = state_.bodySettings;
    if (state_.fracture) settings.fracture = state_.fractureSettings;
    world_ = std::make_unique<RunWorld>(*context_, *shaders_, *graph_, scene_, 0.0, settings);
    if (world_->fracture()) state_.fractureReport = world_->fracture()->report();
    // The fluid's walls (drawn samples, 3D outlines), a glass's points, the solids' surfaces.
    RunOptions drawn;
    drawn.width = target_ ? target_->width() : o_.width;
    drawn.height = target_ ? target_->height() : o_.height;
    drawing_ = std::make_unique<WorldDrawing>();
    world_->prepareDrawing(*drawing_, *context_, *graph_, drawn);
    if (renderer_) renderer_->setOutlines(&drawing_->scene.outlines, drawing_->scene.outlineCount);
}

void ViewSession::recordStep(const WorldStep& w)
{
    for (const PartStep& part : w.parts)
        if (part.fluid) state_.recordMetrics(*part.fluid);
    const auto value = [&](const char* name) {
        for (const PartStep& part : w.parts)
            for (const auto& [column, v] : part.values)
                if (column == name) return std::visit([](auto x) { return double(x); }, v);
        return 0.0;
    };
    if (world_->bodies()) state_.recordBodyMetrics(float(value("volume_error_max")), float(value("rigid_error_max")));
    if (fracture::FractureBodies* fracture = world_->fracture()) {
        state_.fractureReport = fracture->report();
        state_.fractureLoad.push(state_.fractureReport.maxLoad);
        state_.fragments.push(float(state_.fractureReport.fragments));
    }
    if (world_->fixedStep()) state_.simTime = double(state_.steps) * world_->timeStep();
    if (state_.diverged.empty() && !w.blowUp.empty()) {
        state_.diverged = w.blowUp;
        state_.paused = true;
        std::fprintf(stderr, "floe view: the simulation diverged: %s (paused; R resets)\n", state_.diverged.c_str());
    }
}

void ViewSession::recreateSwapchain()
{
    uint32_t w = 0, h = 0;
    window_->framebufferSize(w, h);
    vkDeviceWaitIdle(context_->device());
    if (!swapchain_->recreate(w, h)) return; // minimised: try again after the next events
    ++recreations_;
    target_ = std::make_unique<render::OffscreenTarget>(*context_, sceneWidth(), swapchain_->height());
    screenshotBuffer_ = gpu::Buffer(
        *context_, {"screenshot read-back", uint64_t(swapchain_->width()) * swapchain_->height() * 4, gpu::MemoryKind::Readback});
    needRecreate_ = false;
}

void ViewSession::reloadShaders()
{
    // The build system recompiles exactly the shaders whose sources (or includes) changed.
    const std::filesystem::path buildDir = shaders_->directory().parent_path();
    const view::CommandOutput out = view::runCommand({"cmake", "--build", buildDir.string(), "--target", "floe_shaders"});
    if (out.status != 0) {
        state_.reloadMessage = "shader compilation failed; the running pipelines are kept:\n" + out.output;
        state_.reloadFailed = true;
        std::fprintf(stderr, "floe view: %s\n", state_.reloadMessage.c_str());
        return;
    }
    // New pipelines: the renderer anew, the world anew with its state (through a saved state,
    // as --save-state and --load-state carry a run over).
    vkDeviceWaitIdle(context_->device());
    const std::filesystem::path saved =
        std::filesystem::temp_directory_path() / fmt::format("floe-view-{}.state", reinterpret_cast<uintptr_t>(this));
    world_->save(*graph_, saved, state_.steps, state_.simTime);
    renderer_ = std::make_unique<render::Renderer>(*context_, *shaders_, render::OffscreenTarget::kColorFormat,
                                                   render::OffscreenTarget::kDepthFormat, kFramesInFlight);
    buildWorld();
    world_->load(*graph_, saved);
    std::error_code ignored;
    std::filesystem::remove(saved, ignored);
    state_.reloadMessage = "shaders reloaded";
    state_.reloadFailed = false;
    std::fprintf(stderr, "floe view: shaders reloaded\n");
}

void ViewSession::readSlot(uint32_t slot)
{
    std::map<std::string, double> passes;
    for (const gpu::PassTime& t : frames_->timer(slot).results()) passes[t.name] += t.ms;
    if (!passes.empty()) state_.recordTimings(passes);
    if (!readbackPending_[slot]) return;
    readbackPending_[slot] = false;
    recordStep(world_->collect(*graph_, slot, state_.simTime));
}

void ViewSession::exerciseWindow(uint64_t frame)
{
    // Under Xvfb without a window manager iconify may be ignored; the resize always happens.
    if (frame == 4) window_->setSize(o_.width * 3 / 4, o_.height * 3 / 4);
    if (frame == 8) window_->iconify();
    if (frame == 10) window_->restore();
    if (frame == 12) window_->setSize(o_.width, o_.height);
}

int ViewSession::run()
{
    const std::filesystem::path sceneFile = o_.scene.empty() ? defaultScene() : o_.scene;
    (void)loadViewScene(sceneFile, o_, false); // bad input is reported before a window opens
    // RenderDoc must be loaded before the instance exists.
    renderDoc_ = gpu::RenderDoc::load(renderDocWhy_);
    gpu::ContextOptions contextOptions;
    contextOptions.validation = o_.device.validate;
    contextOptions.deviceName = o_.device.device;
    contextOptions.instanceExtensions = view::Window::requiredInstanceExtensions();
    contextOptions.presentation = true;

    context_ = std::make_unique<gpu::Context>(contextOptions);
    shaders_ = std::make_unique<gpu::ShaderLibrary>();
    graph_ = std::make_unique<graph::RenderGraph>(*context_);
    window_ = std::make_unique<view::Window>("Floe", o_.width, o_.height);
    window_->createSurface(*context_);
    swapchain_ = std::make_unique<view::Swapchain>(*context_, window_->surface());
    uint32_t w = 0, h = 0;
    window_->framebufferSize(w, h);
    if (!swapchain_->recreate(std::max(w, 1u), std::max(h, 1u)))
        throw Error("floe view: the window has no size", ExitCode::Failure);
    target_ = std::make_unique<render::OffscreenTarget>(*context_, sceneWidth(), swapchain_->height());
    screenshotBuffer_ = gpu::Buffer(
        *context_, {"screenshot read-back", uint64_t(swapchain_->width()) * swapchain_->height() * 4, gpu::MemoryKind::Readback});
    needRecreate_ = false;
    ui_ = std::make_unique<view::Ui>(*context_, *window_, *swapchain_);
    frames_ = std::make_unique<gpu::FrameResources>(*context_, kFramesInFlight);
    renderer_ = std::make_unique<render::Renderer>(*context_, *shaders_, render::OffscreenTarget::kColorFormat,
                                                   render::OffscreenTarget::kDepthFormat, kFramesInFlight);
    for (uint32_t i = 0; i < kFramesInFlight; ++i) {
        VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        VkSemaphore s = VK_NULL_HANDLE;
        VK_CHECK(vkCreateSemaphore(context_->device(), &info, nullptr, &s));
        acquired_.push_back(s);
    }
    readbackPending_.assign(kFramesInFlight, false);

    state_.view.mode = render::parseRenderMode(o_.render);
    state_.view.fluid.iterations = o_.smoothing.value_or(3);
    state_.paused = o_.paused;
    state_.stepsPerFrame = o_.stepsPerFrame;
    state_.renderDocAvailable = renderDoc_ != nullptr;
    state_.renderDocWhy = renderDocWhy_;
    state_.scenes = view::listScenes();
    state_.deviceName = context_->deviceName();
    openScene(sceneFile);
    const std::filesystem::path outDir =
        o_.screenshot.empty() ? std::filesystem::path("out") / "view" : o_.screenshot.parent_path();
    if (renderDoc_) renderDoc_->setCaptureTemplate((outDir.empty() ? std::filesystem::path(".") : outDir) / "capture");

    uint64_t frame = 0; // frames drawn, from 1
    int uiVertices = 0;
    nlohmann::ordered_json screenshotInfo = nullptr;
    const auto start = std::chrono::steady_clock::now();
    auto lastShaderCheck = start;
    std::optional<std::filesystem::file_time_type> shaderStamp = view::newestShaderSource();
    while (!window_->shouldClose()) {
        window_->pollEvents();
        uint32_t fw = 0, fh = 0;
        window_->framebufferSize(fw, fh);
        if (fw == 0 || fh == 0) { // minimised: draw nothing until restored
            window_->waitEvents(0.05);
            if (o_.exerciseWindow) exerciseWindow(frame);
            ++state_.minimisedWaits;
            if (state_.minimisedWaits > 200 && o_.exerciseWindow) window_->restore();
            continue;
        }
        if (needRecreate_ || fw != swapchain_->width() || fh != swapchain_->height()) {
            recreateSwapchain();
            if (needRecreate_) continue;
        }
        const uint32_t slot = uint32_t(frame % kFramesInFlight);
        frames_->wait(slot);
        readSlot(slot);
        const std::optional<uint32_t> index = swapchain_->acquire(acquired_[slot]);
        if (!index) {
            needRecreate_ = true;
            continue;
        }
        ++frame;
        const bool captureThis = renderDoc_ && (state_.captureRequested || frame == o_.captureFrame);
        state_.captureRequested = false;
        if (captureThis) renderDoc_->startFrameCapture(context_->instance());

        ui_->newFrame();
        handleInput();
        const view::PanelActions actions =
            view::drawPanels(state_, world_->fluid(), world_->bodies(), drawing_->pointCount, world_->fracture());
        if (sceneWidth() != target_->width()) {
            // The panel was resized, collapsed or undocked: the scene's viewport follows.
            vkDeviceWaitIdle(context_->device());
            target_ = std::make_unique<render::OffscreenTarget>(*context_, sceneWidth(), swapchain_->height());
        }
        if (actions.openScene) {
            // A bad scene file is reported in the panel; the current scene keeps running.
            try {
                openScene(*actions.openScene);
                state_.sceneError.clear();
            } catch (const Error& e) {
                state_.sceneError = e.what();
            }
        }
        if (actions.reset) resetSimulation();
        sim::Simulation* fluid = world_->fluid();
        body::DeformableBodies* bodies = world_->bodies();
        fracture::FractureBodies* fracture = world_->fracture();
        if (actions.settingsChanged && fluid) {
            // A coupled fluid refuses the solvers it cannot take (PCISPH, PBF): said in the panel, the
            // solver kept.
            try {
                fluid->setSettings(state_.settings);
                state_.sceneError.clear();
            } catch (const Error& e) {
                state_.sceneError = e.what();
                state_.settings = fluid->settings();
            }
        }
        if (actions.bodySettingsChanged && bodies) {
            if (state_.bodySettings.omega != bodies->settings().omega)
                resetSimulation(); // regions are built for one omega
            else
                bodies->setSettings(state_.bodySettings);
        }
        if (actions.fractureSettingsChanged && fracture) {
            if (fracture->needsRebuild(state_.fractureSettings))
                resetSimulation(); // the Constraint method's pieces are made with the bodies
            else
                fracture->setSettings(state_.fractureSettings);
        }
        if (actions.reloadShaders) reloadShaders();
        if (state_.autoReload && std::chrono::steady_clock::now() - lastShaderCheck > std::chrono::seconds(1)) {
            lastShaderCheck = std::chrono::steady_clock::now();
            const auto newest = view::newestShaderSource();
            if (newest && shaderStamp && *newest != *shaderStamp) reloadShaders();
            shaderStamp = newest;
        }
        state_.view.camera = state_.orbit.camera(world_->fluidWorld().sim2D);

        const bool stepping = (!state_.paused || state_.stepOnce) && state_.diverged.empty();
        const int steps = state_.stepOnce ? 1 : state_.stepsPerFrame;
        const bool ahead = world_->framesInFlight() > 1; // steps may run while the host records the next frame
        if (stepping && !ahead) {
            // Each step's read-back decides the rebuild after cuts (fracture): the steps run to
            // completion before the frame (no frame in flight may read the buffers they change).
            vkDeviceWaitIdle(context_->device());
            for (int k = 0; k < steps; ++k) {
                world_->beginStep(0, double(state_.steps + 1) * world_->timeStep());
                world_->addStep(*graph_);
                world_->addReadbacks(*graph_, 0);
                context_->submitAndWait([&](VkCommandBuffer c) { graph_->execute(c); });
                ++state_.steps;
                recordStep(world_->collect(*graph_, 0, state_.simTime));
            }
        }
        VkCommandBuffer cmd = frames_->begin(slot);
        if (stepping && ahead) {
            world_->beginStep(slot, double(state_.steps + uint64_t(steps)) * world_->timeStep());
            for (int k = 0; k < steps; ++k) world_->addStep(*graph_);
            world_->addReadbacks(*graph_, slot);
            readbackPending_[slot] = true;
            state_.steps += uint64_t(steps);
        }
        state_.stepOnce = false;
        world_->addDrawPasses(*graph_);
        renderer_->addPasses(*graph_, target_->color(), target_->depth(), drawing_->particles, state_.view, slot,
                             drawing_->pointCount ? drawing_->points : nullptr, drawing_->pointCount, drawing_->meshes);
        const gpu::Image& image = swapchain_->image(*index);
        graph_->acquired(image, kAcquireWait);
        // The scene left of the panel; under the panel the scene's background.
        graph_->addBlitBeside("view/blit", target_->color(), image, render::kBackground);
        ui_->addPass(*graph_, *swapchain_, *index);
        uiVertices = ui_->lastVertexCount();
        const bool lastFrame = o_.quitAfter && frame >= o_.quitAfter;
        const bool screenshot = lastFrame && !o_.screenshot.empty();
        if (screenshot) {
            graph_->addCopyImageToBuffer("view/screenshot", image, screenshotBuffer_);
            graph_->addHostRead(screenshotBuffer_);
        }
        graph_->addPresent(image);
        graph_->execute(cmd, &frames_->timer(slot));
        frames_->submit(slot, acquired_[slot], kAcquireWait, swapchain_->renderFinished(*index));
        if (!swapchain_->present(*index, swapchain_->renderFinished(*index))) needRecreate_ = true;
        if (captureThis) {
            capturePath_ = renderDoc_->endFrameCapture(context_->instance(), frame);
            state_.lastCapture = capturePath_.empty() ? "RenderDoc wrote no capture" : capturePath_;
            std::fprintf(stderr, "floe view: frame %llu captured: %s\n", static_cast<unsigned long long>(frame),
                         state_.lastCapture.c_str());
        }
        if (screenshot) {
            frames_->wait(slot);
            std::vector<uint8_t> pixels =
                screenshotBuffer_.readVector<uint8_t>(size_t(swapchain_->width()) * swapchain_->height() * 4);
            if (swapchain_->format() == VK_FORMAT_B8G8R8A8_SRGB || swapchain_->format() == VK_FORMAT_B8G8R8A8_UNORM)
                for (size_t i = 0; i < pixels.size(); i += 4) std::swap(pixels[i], pixels[i + 2]);
            io::writePng(o_.screenshot, swapchain_->width(), swapchain_->height(), pixels);
            screenshotInfo = pictureStats(pixels, swapchain_->width(), swapchain_->height());
            screenshotInfo["file"] = o_.screenshot.string();
            screenshotInfo["width"] = swapchain_->width();
            screenshotInfo["height"] = swapchain_->height();
        }
        if (o_.exerciseWindow) exerciseWindow(frame);
        if (lastFrame) break;
    }
    frames_->waitAll();
    vkDeviceWaitIdle(context_->device());
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    fmt::print("floe view: {} frames in {:.1f} s ({:.1f} frames/s), {} steps, t = {:.4g} s, on {}\n", frame, wall,
               wall > 0 ? double(frame) / wall : 0.0, state_.steps, state_.simTime, context_->deviceName());
    if (!o_.screenshot.empty() && !screenshotInfo.is_null()) fmt::print("  screenshot  {}\n", o_.screenshot.string());
    if (!capturePath_.empty()) fmt::print("  capture     {}\n", capturePath_);
    if (context_->validationEnabled()) fmt::print("  validation  {} messages\n", context_->validationMessageCount());
    if (!o_.report.empty()) {
        nlohmann::ordered_json report = {
            {"frames", frame},
            {"wall_seconds", wall},
            {"steps", state_.steps},
            {"simulated_seconds", state_.simTime},
            {"render", render::renderModeName(state_.view.mode)},
            {"swapchain_recreations", recreations_},
            {"minimised_waits", state_.minimisedWaits},
            {"ui_vertices", uiVertices},
            {"scene_viewport", {{"width", target_->width()}, {"height", target_->height()}}},
            {"panel",
             {{"x0", state_.panelMin.x},
              {"y0", state_.panelMin.y},
              {"x1", state_.panelMax.x},
              {"y1", state_.panelMax.y},
              {"collapsed", state_.panelCollapsed}}},
            {"panel_overflow_px", state_.panelOverflow},
            {"scene_bounds_px", sceneBoundsPixels()},
            {"screenshot", screenshotInfo},
            {"capture", capturePath_.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(capturePath_)},
            {"gpu_ms_mean", state_.meanTimings()},
            {"diverged", state_.diverged},
            {"validation_messages", context_->validationMessageCount()}};
        if (!io::writeTextFile(o_.report, report.dump(2) + "\n"))
            throw Error(fmt::format("--report {}: cannot write", o_.report.string()), ExitCode::Failure);
    }
    for (VkSemaphore s : acquired_) vkDestroySemaphore(context_->device(), s, nullptr);
    return 0;
}

void ViewSession::handleInput()
{
    const ImGuiIO& io = ImGui::GetIO();
    if (!io.WantCaptureMouse) {
        if (ImGui::IsMouseDragging(ImGuiMouseButton_Left)) state_.orbit.rotate(io.MouseDelta.x, io.MouseDelta.y);
        if (ImGui::IsMouseDragging(ImGuiMouseButton_Right) || ImGui::IsMouseDragging(ImGuiMouseButton_Middle))
            state_.orbit.pan(io.MouseDelta.x, io.MouseDelta.y, float(swapchain_->height()));
        if (io.MouseWheel != 0.0f) state_.orbit.zoom(io.MouseWheel);
    }
    if (io.WantCaptureKeyboard) return;
    if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) state_.paused = !state_.paused;
    if (ImGui::IsKeyPressed(GLFW_KEY_S, false)) {
        state_.paused = true;
        state_.stepOnce = true;
    }
    if (ImGui::IsKeyPressed(GLFW_KEY_R, false)) resetSimulation();
    if (ImGui::IsKeyPressed(GLFW_KEY_F, false)) state_.view.mode = (state_.view.mode + 1) % 3;
    if (ImGui::IsKeyPressed(GLFW_KEY_C, false) && state_.renderDocAvailable) state_.captureRequested = true;
    if (ImGui::IsKeyPressed(GLFW_KEY_H, false)) state_.showHelp = !state_.showHelp;
}

} // namespace

int viewCommand(const ViewOptions& options)
{
    ViewSession session(options);
    return session.run();
}

} // namespace floe
