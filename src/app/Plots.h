// `floe run --plots`: tools/plot.py under Debian's /usr/bin/python3 (python3-matplotlib).
#pragma once

#include <filesystem>

namespace floe {

// The plotting script, checked before a run starts; throws floe::Error (exit 3) when the
// script or the interpreter is missing.
std::filesystem::path requirePlotScript();
// Writes DIR/plots/*.png from DIR/metrics.csv; throws floe::Error (exit 3) on failure.
void writePlots(const std::filesystem::path& script, const std::filesystem::path& runDir);

} // namespace floe
