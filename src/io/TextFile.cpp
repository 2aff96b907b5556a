#include "io/TextFile.h"

#include <cstdio>

namespace floe::io {

bool writeTextFile(const std::filesystem::path& path, const std::string& text)
{
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f) return false;
    const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    return std::fclose(f) == 0 && written;
}

} // namespace floe::io
