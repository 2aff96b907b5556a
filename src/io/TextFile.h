// Whole-file text output (JSON summaries and bench results).
#pragma once

#include <filesystem>
#include <string>

namespace floe::io {

// Writes `text` to `path`, replacing it; false when the file cannot be written.
bool writeTextFile(const std::filesystem::path& path, const std::string& text);

} // namespace floe::io
