// What every `floe run` prepares before the device starts, for fluid and body scenes alike.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "app/Commands.h"
#include "gpu/Context.h"
#include "gpu/RenderDoc.h"
#include "render/OffscreenTarget.h"
#include "render/Renderer.h"

namespace floe {

struct RunOutput {
    std::filesystem::path dir;                 // --out, else out/<scene name>; created
    std::filesystem::path plotScript;          // tools/plot.py with --plots, else empty
    std::unique_ptr<gpu::RenderDoc> renderDoc; // with --capture: loaded, captures go to dir/capture*
};

// Checks --plots (script and interpreter), creates the output folder and loads RenderDoc for
// --capture (before any Vulkan instance exists). Throws floe::Error naming what is missing.
RunOutput prepareRunOutput(const RunOptions& options, const std::string& sceneName);

// Validation and device choice from the command line.
gpu::ContextOptions runContextOptions(const RunOptions& options);

// Runs with a fixed step (deformable bodies, fracture): --steps, else --seconds or the scene's
// stopAt over the step. Throws floe::Error naming the scene when that leaves no step.
uint64_t fixedStepCount(const RunOptions& options, double stopAt, double dt);

// The steps after which a fixed-step run takes its `frames` pictures: evenly from the start (0)
// to the end; one picture: the end.
std::vector<uint64_t> pictureSchedule(uint64_t steps, int frames);

// The offscreen target and renderer of a run's pictures (both null when nothing is drawn).
struct RunPictures {
    std::unique_ptr<render::OffscreenTarget> target;
    std::unique_ptr<render::Renderer> renderer;
    explicit operator bool() const { return target != nullptr; }
};
RunPictures makeRunPictures(gpu::Context& context, const gpu::ShaderLibrary& shaders, const RunOptions& options, bool rendering,
                            uint32_t framesInFlight);

} // namespace floe
