// Running mean, maximum and last value of a per-step metric (floe run's summary, floe bench).
#pragma once

#include <algorithm>
#include <cstdint>

#include <nlohmann/json.hpp>

namespace floe {

struct RunningStat {
    double sum = 0, max = 0, last = 0;
    uint64_t n = 0;
    void add(double v)
    {
        sum += v;
        max = n ? std::max(max, v) : v;
        last = v;
        ++n;
    }
    double mean() const { return n ? sum / double(n) : 0.0; }
    // {"mean", "max", "last"}, or null without values.
    nlohmann::ordered_json json() const
    {
        if (!n) return nullptr;
        return {{"mean", mean()}, {"max", max}, {"last", last}};
    }
};

} // namespace floe
