// Saved states of solid runs (--save-state, --load-state for deformable-body and fracture
// scenes): the GPU buffers that carry a run from one step to the next, and the host's counters,
// as named blobs. Binary and versioned, with the kind of run and a fingerprint of the scene's
// set-up that must match when loading, so that a resumed run is bit-identical to an
// uninterrupted one (Cli.SolidRunsResumeBitIdentically).
#pragma once

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace floe::io {

struct SolidState {
    std::string kind;         // "deformable bodies", "fracture"
    uint64_t fingerprint = 0; // of the scene's set-up
    uint64_t step = 0;        // steps done
    std::vector<std::pair<std::string, std::vector<char>>> blobs;

    template <class T> void add(const std::string& name, const std::vector<T>& values)
    {
        std::vector<char> bytes(values.size() * sizeof(T));
        if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
        blobs.emplace_back(name, std::move(bytes));
    }
    // The blob `name` as `count` values of T (0: as many as it holds); throws floe::Error naming
    // `file` for a missing blob or one of another size.
    template <class T> std::vector<T> get(const std::string& name, size_t count, const std::filesystem::path& file) const
    {
        const std::vector<char>& bytes = find(name, file);
        if (count == 0) count = bytes.size() / sizeof(T);
        checkSize(name, bytes.size(), count * sizeof(T), file);
        std::vector<T> values(count);
        if (!bytes.empty()) std::memcpy(values.data(), bytes.data(), bytes.size());
        return values;
    }

private:
    const std::vector<char>& find(const std::string& name, const std::filesystem::path& file) const;
    static void checkSize(const std::string& name, size_t bytes, size_t expected, const std::filesystem::path& file);
};

// Throws floe::Error naming the file when it cannot be written.
void saveSolidState(const std::filesystem::path& path, const SolidState& state);
// Throws floe::Error (exit 2) naming the file for a missing, foreign, truncated or mismatching
// file (another kind of run, or another scene set-up).
SolidState loadSolidState(const std::filesystem::path& path, const std::string& kind, uint64_t fingerprint);

// FNV-1a over the values given, for set-up fingerprints.
class Fingerprint {
public:
    Fingerprint& add(uint64_t value)
    {
        hash_ = (hash_ ^ value) * 1099511628211ull;
        return *this;
    }
    Fingerprint& add(float value)
    {
        uint32_t bits;
        std::memcpy(&bits, &value, 4);
        return add(uint64_t(bits));
    }
    uint64_t value() const { return hash_; }

private:
    uint64_t hash_ = 1469598103934665603ull;
};

} // namespace floe::io
