#include "app/RunOutput.h"

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

} // namespace floe
