// Running mean, maximum and last value of a per-step metric (floe run's summary, floe bench), and
// the median of timed runs (floe bench).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

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

// The median of the timed runs (the upper one of an even count), 0 without any.
inline double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

} // namespace floe
