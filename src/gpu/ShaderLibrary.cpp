#include "gpu/ShaderLibrary.h"

#include <cstdlib>
#include <fstream>

#include <fmt/format.h>
#include <fmt/std.h>

#include "base/Error.h"

namespace floe::gpu {
namespace {

std::filesystem::path executableDirectory()
{
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path() : exe.parent_path();
}

} // namespace

ShaderLibrary::ShaderLibrary()
{
    std::vector<std::filesystem::path> candidates;
    if (const char* env = std::getenv("FLOE_SHADER_DIR"); env && *env) candidates.emplace_back(env);
    if (auto dir = executableDirectory(); !dir.empty()) candidates.push_back(dir / "shaders");
    candidates.emplace_back(FLOE_SHADER_BUILD_DIR);
    for (const auto& c : candidates)
        if (std::filesystem::is_directory(c / "prim")) {
            directory_ = c;
            return;
        }
    std::string tried;
    for (const auto& c : candidates) tried += fmt::format("\n  {}", c);
    throw Error(fmt::format("no compiled shaders found; build the floe_shaders target (cmake --build build). Looked in:{}", tried),
                ExitCode::Failure);
}

ShaderLibrary::ShaderLibrary(std::filesystem::path directory) : directory_(std::move(directory)) {}

std::vector<uint32_t> ShaderLibrary::load(const std::string& file) const
{
    const std::filesystem::path path = directory_ / (file + ".spv");
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) throw Error(fmt::format("shader {} not found (is the build up to date?)", path), ExitCode::Failure);
    const std::streamsize bytes = in.tellg();
    if (bytes <= 0 || bytes % 4 != 0)
        throw Error(fmt::format("shader {} is not SPIR-V ({} bytes)", path, bytes), ExitCode::Failure);
    std::vector<uint32_t> words(static_cast<size_t>(bytes) / 4);
    in.seekg(0);
    in.read(reinterpret_cast<char*>(words.data()), bytes);
    return words;
}

} // namespace floe::gpu
