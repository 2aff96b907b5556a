// Finds and loads the SPIR-V that the build compiled from shaders/ (<dir>/<pass name>.<stage>.spv).
// The directory is $FLOE_SHADER_DIR, else `shaders/` next to the executable, else the build
// tree's shader folder compiled in.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace floe::gpu {

class ShaderLibrary {
public:
    ShaderLibrary(); // throws floe::Error when no shader directory exists
    explicit ShaderLibrary(std::filesystem::path directory);

    const std::filesystem::path& directory() const { return directory_; }
    // `file` is relative to the directory, e.g. "prim/scan_blocks.comp". Throws floe::Error.
    std::vector<uint32_t> load(const std::string& file) const;

private:
    std::filesystem::path directory_;
};

} // namespace floe::gpu
