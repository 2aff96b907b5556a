#pragma once

#include <cstdint>
#include <filesystem>
#include <span>

namespace floe::io {

// Writes 8-bit RGBA pixels (row-major, top row first). Throws floe::Error on failure.
void writePng(const std::filesystem::path& path, uint32_t width, uint32_t height, std::span<const uint8_t> rgba);

} // namespace floe::io
