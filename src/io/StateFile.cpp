#include "io/StateFile.h"

#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "base/Error.h"

namespace floe::io {
namespace {

constexpr char kMagic[8] = {'F', 'L', 'O', 'E', 'S', 'T', 'A', 'T'};
constexpr uint32_t kVersion = 3; // 2: the solvers' warm starts (solverState); 3: the reported time

template <class T> void put(std::ofstream& out, const T& value)
{
    out.write(reinterpret_cast<const char*>(&value), sizeof(T));
}

template <class T> void putVector(std::ofstream& out, const std::vector<T>& v)
{
    out.write(reinterpret_cast<const char*>(v.data()), std::streamsize(v.size() * sizeof(T)));
}

} // namespace

void saveState(const std::filesystem::path& path, const sim::SimulationState& s, uint64_t fingerprint)
{
    std::ofstream out(path, std::ios::binary);
    if (!out) throw Error(fmt::format("--save-state {}: cannot write", path.string()));
    out.write(kMagic, sizeof(kMagic));
    put(out, kVersion);
    put(out, static_cast<uint32_t>(s.positions.size()));
    put(out, fingerprint);
    put(out, s.state);
    put(out, s.lastStep);
    put(out, s.reportedTime);
    putVector(out, s.positions);
    putVector(out, s.velocities);
    putVector(out, s.ids);
    putVector(out, s.solverState);
    if (!out) throw Error(fmt::format("--save-state {}: write failed", path.string()));
}

sim::SimulationState loadState(const std::filesystem::path& path, uint64_t fingerprint)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(fmt::format("--load-state {}: cannot open the file", path.string()));
    char magic[8];
    uint32_t version = 0, count = 0;
    uint64_t savedFingerprint = 0;
    in.read(magic, sizeof(magic));
    in.read(reinterpret_cast<char*>(&version), 4);
    in.read(reinterpret_cast<char*>(&count), 4);
    in.read(reinterpret_cast<char*>(&savedFingerprint), 8);
    if (!in || std::memcmp(magic, kMagic, sizeof(magic)) != 0)
        throw Error(fmt::format("--load-state {}: not a Floe state file", path.string()));
    if (version != kVersion)
        throw Error(fmt::format("--load-state {}: state format version {}, this Floe reads {}", path.string(), version, kVersion));
    if (savedFingerprint != fingerprint)
        throw Error(fmt::format("--load-state {}: saved from a different scene set-up (particles, boundary or grid differ)",
                                path.string()));
    sim::SimulationState s;
    in.read(reinterpret_cast<char*>(&s.state), sizeof(s.state));
    in.read(reinterpret_cast<char*>(&s.lastStep), sizeof(s.lastStep));
    in.read(reinterpret_cast<char*>(&s.reportedTime), sizeof(s.reportedTime));
    s.positions.resize(count);
    s.velocities.resize(count);
    s.ids.resize(count);
    s.solverState.resize(count);
    in.read(reinterpret_cast<char*>(s.positions.data()), std::streamsize(count * 16ull));
    in.read(reinterpret_cast<char*>(s.velocities.data()), std::streamsize(count * 16ull));
    in.read(reinterpret_cast<char*>(s.ids.data()), std::streamsize(count * 4ull));
    in.read(reinterpret_cast<char*>(s.solverState.data()), std::streamsize(count * 16ull));
    if (!in) throw Error(fmt::format("--load-state {}: the file is truncated", path.string()));
    return s;
}

} // namespace floe::io
