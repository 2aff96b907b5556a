#include "io/SolidState.h"

#include <fstream>

#include <fmt/format.h>

#include "base/Error.h"

namespace floe::io {
namespace {

constexpr char kMagic[8] = {'F', 'L', 'O', 'E', 'S', 'O', 'L', 'D'};
constexpr uint32_t kVersion = 1;

template <class T> void put(std::ofstream& out, const T& value)
{
    out.write(reinterpret_cast<const char*>(&value), sizeof(T));
}

void putString(std::ofstream& out, const std::string& s)
{
    put(out, uint32_t(s.size()));
    out.write(s.data(), std::streamsize(s.size()));
}

template <class T> bool get(std::ifstream& in, T& value)
{
    return bool(in.read(reinterpret_cast<char*>(&value), sizeof(T)));
}

bool getBytes(std::ifstream& in, std::vector<char>& bytes, uint64_t size)
{
    if (size > (uint64_t(1) << 40)) return false; // a size no state has: a corrupt file
    bytes.resize(size);
    return size == 0 || bool(in.read(bytes.data(), std::streamsize(size)));
}

} // namespace

const std::vector<char>& SolidState::find(const std::string& name, const std::filesystem::path& file) const
{
    for (const auto& [key, bytes] : blobs)
        if (key == name) return bytes;
    throw Error(fmt::format("--load-state {}: the state has no {}", file.string(), name));
}

void SolidState::checkSize(const std::string& name, size_t bytes, size_t expected, const std::filesystem::path& file)
{
    if (bytes != expected)
        throw Error(fmt::format("--load-state {}: {} holds {} bytes, expected {}", file.string(), name, bytes, expected));
}

void saveSolidState(const std::filesystem::path& path, const SolidState& s)
{
    std::ofstream out(path, std::ios::binary);
    if (!out) throw Error(fmt::format("--save-state {}: cannot write", path.string()), ExitCode::Failure);
    out.write(kMagic, sizeof(kMagic));
    put(out, kVersion);
    putString(out, s.kind);
    put(out, s.fingerprint);
    put(out, s.step);
    put(out, uint32_t(s.blobs.size()));
    for (const auto& [name, bytes] : s.blobs) {
        putString(out, name);
        put(out, uint64_t(bytes.size()));
        out.write(bytes.data(), std::streamsize(bytes.size()));
    }
    if (!out) throw Error(fmt::format("--save-state {}: write failed", path.string()), ExitCode::Failure);
}

SolidState loadSolidState(const std::filesystem::path& path, const std::string& kind, uint64_t fingerprint)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(fmt::format("--load-state {}: cannot open the file", path.string()));
    char magic[8];
    uint32_t version = 0;
    in.read(magic, sizeof(magic));
    if (!in || std::memcmp(magic, kMagic, sizeof(magic)) != 0)
        throw Error(fmt::format("--load-state {}: not a Floe state file of a solid run", path.string()));
    const auto truncated = [&] { return Error(fmt::format("--load-state {}: the file is truncated", path.string())); };
    if (!get(in, version)) throw truncated();
    if (version != kVersion)
        throw Error(fmt::format("--load-state {}: state format version {}, this Floe reads {}", path.string(), version, kVersion));
    SolidState s;
    uint32_t length = 0, count = 0;
    std::vector<char> text;
    if (!get(in, length) || !getBytes(in, text, length)) throw truncated();
    s.kind.assign(text.begin(), text.end());
    if (s.kind != kind)
        throw Error(fmt::format("--load-state {}: saved from a {} run, this scene is a {} scene", path.string(), s.kind, kind));
    if (!get(in, s.fingerprint) || !get(in, s.step) || !get(in, count)) throw truncated();
    if (s.fingerprint != fingerprint)
        throw Error(
            fmt::format("--load-state {}: saved from a different scene set-up (bodies, meshes or method differ)", path.string()));
    for (uint32_t b = 0; b < count; ++b) {
        uint64_t size = 0;
        std::vector<char> name, bytes;
        if (!get(in, length) || !getBytes(in, name, length) || !get(in, size) || !getBytes(in, bytes, size)) throw truncated();
        s.blobs.emplace_back(std::string(name.begin(), name.end()), std::move(bytes));
    }
    return s;
}

} // namespace floe::io
