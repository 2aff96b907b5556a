#include "io/Png.h"

#include <fmt/format.h>
#include <stb_image_write.h>

#include "base/Error.h"

namespace floe::io {

void writePng(const std::filesystem::path& path, uint32_t width, uint32_t height, std::span<const uint8_t> rgba)
{
    if (rgba.size() < size_t(width) * height * 4)
        throw Error(fmt::format("{}: too few pixels for {}x{}", path.string(), width, height), ExitCode::Failure);
    if (!stbi_write_png(path.c_str(), int(width), int(height), 4, rgba.data(), int(width * 4)))
        throw Error(fmt::format("cannot write {}", path.string()), ExitCode::Failure);
}

} // namespace floe::io
