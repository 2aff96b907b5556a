// Saved simulation states (--save-state, --load-state): everything that determines the rest of
// a run, so that a resumed run is bit-identical to an uninterrupted one. Binary, versioned, with
// a fingerprint of the scene setup that must match when loading.
#pragma once

#include <cstdint>
#include <filesystem>

#include "sim/World.h"

namespace floe::io {

void saveState(const std::filesystem::path& path, const sim::SimulationState& state, uint64_t fingerprint); // throws floe::Error
// Throws floe::Error (exit 2) for a missing, foreign, truncated or mismatching file.
sim::SimulationState loadState(const std::filesystem::path& path, uint64_t fingerprint);

} // namespace floe::io
