// Files that ship with Floe (assets/, tools/): found from the working directory, else in a
// parent of the floe executable's directory (build/floe finds the source tree's files).
#pragma once

#include <filesystem>
#include <string>
#include <system_error>

namespace floe {

// The path of `relative` (e.g. "assets/scenes/dam_break_2d.json"), or an empty path.
inline std::filesystem::path findProjectFile(const std::string& relative)
{
    if (std::filesystem::exists(relative)) return relative;
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec)
        for (std::filesystem::path dir = exe.parent_path(); !dir.empty() && dir != dir.root_path(); dir = dir.parent_path())
            if (std::filesystem::exists(dir / relative)) return dir / relative;
    return {};
}

} // namespace floe
