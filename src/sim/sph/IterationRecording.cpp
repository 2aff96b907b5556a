#include "sim/sph/IterationRecording.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "base/Error.h"

namespace floe::sim {

void IterationHistory::add(uint32_t iterations)
{
    ring_[count_ % kWindow] = iterations;
    ++count_;
}

std::optional<uint32_t> IterationHistory::most() const
{
    if (count_ == 0) return std::nullopt;
    const uint32_t n = std::min(count_, kWindow);
    return *std::max_element(ring_.begin(), ring_.begin() + n);
}

int recordedIterations(const IterationLimits& limits, const IterationHistory& history, std::optional<int> forced)
{
    const int most = int(std::min<uint32_t>(history.most().value_or(4u), 100000u));
    const int wanted = forced ? *forced : 2 * most + 4;
    const int lowest = std::max(limits.minIterations, 1);
    return std::max(std::min(wanted, limits.maxIterations), std::min(lowest, limits.maxIterations));
}

std::optional<int> recordIterationsFromEnvironment()
{
    const char* env = std::getenv("FLOE_RECORD_ITERATIONS");
    if (!env || !*env || std::string(env) == "adaptive") return std::nullopt;
    if (std::string(env) == "all") return 1 << 30;
    char* end = nullptr;
    const long n = std::strtol(env, &end, 10);
    if (end == env || *end != '\0' || n < 1 || n > 100000)
        throw Error(fmt::format("FLOE_RECORD_ITERATIONS is '{}': expected adaptive, all or a count from 1 to 100000", env));
    return int(n);
}

} // namespace floe::sim
