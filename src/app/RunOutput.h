// What every `floe run` prepares before the device starts, for fluid and body scenes alike.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "app/Commands.h"
#include "gpu/RenderDoc.h"

namespace floe {

struct RunOutput {
    std::filesystem::path dir;                 // --out, else out/<scene name>; created
    std::filesystem::path plotScript;          // tools/plot.py with --plots, else empty
    std::unique_ptr<gpu::RenderDoc> renderDoc; // with --capture: loaded, captures go to dir/capture*
};

// Checks --plots (script and interpreter), creates the output folder and loads RenderDoc for
// --capture (before any Vulkan instance exists). Throws floe::Error naming what is missing.
RunOutput prepareRunOutput(const RunOptions& options, const std::string& sceneName);

} // namespace floe
