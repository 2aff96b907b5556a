#include "app/RunOutput.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "app/Plots.h"
#include "base/Error.h"

namespace floe {

RunOutput prepareRunOutput(const RunOptions& o, const std::string& sceneName)
{
    RunOutput out;
    // --plots: the plotting script and its interpreter are checked before the run, not after it.
    if (o.plots) out.plotScript = requirePlotScript();
    out.dir = o.out.empty() ? std::filesystem::path("out") / sceneName : o.out;
    std::error_code ec;
    std::filesystem::create_directories(out.dir, ec);
    if (ec) throw Error(fmt::format("--out {}: cannot create the directory: {}", out.dir.string(), ec.message()));
    if (o.capture) {
        std::string why;
        out.renderDoc = gpu::RenderDoc::load(why);
        if (!out.renderDoc) throw Error("--capture: " + why);
        out.renderDoc->setCaptureTemplate((out.dir / "capture").string());
    }
    return out;
}

gpu::ContextOptions runContextOptions(const RunOptions& o)
{
    gpu::ContextOptions options;
    options.validation = o.device.validate;
    options.deviceName = o.device.device;
    return options;
}

uint64_t fixedStepCount(const RunOptions& o, double stopAt, double dt)
{
    const uint64_t steps = o.steps ? *o.steps : uint64_t(std::llround(std::max(o.seconds.value_or(stopAt), 0.0) / dt));
    if (steps == 0)
        throw Error(
            fmt::format("{}: no run length: Configuration.stopAt is {}; give --steps N or --seconds T", o.scene.string(), stopAt));
    return steps;
}

std::vector<uint64_t> pictureSchedule(uint64_t steps, int frames)
{
    std::vector<uint64_t> at;
    if (frames == 1) at.push_back(steps);
    for (int i = 0; frames > 1 && i < frames; ++i) at.push_back(uint64_t(std::llround(double(steps) * i / (frames - 1))));
    return at;
}

RunPictures makeRunPictures(gpu::Context& context, const gpu::ShaderLibrary& shaders, const RunOptions& o, bool rendering,
                            uint32_t framesInFlight)
{
    RunPictures p;
    if (!rendering) return p;
    p.target = std::make_unique<render::OffscreenTarget>(context, o.width, o.height);
    p.renderer = std::make_unique<render::Renderer>(context, shaders, render::OffscreenTarget::kColorFormat,
                                                    render::OffscreenTarget::kDepthFormat, framesInFlight);
    return p;
}

} // namespace floe
