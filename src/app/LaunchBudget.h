// What a bench step records on the GPU's queue (issue 19's launch budget): dispatches (those in
// conditional regions apart: a device with conditional rendering skips them once a solver has
// converged), barriers, transfers and timestamps, per step.
#pragma once

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "graph/RenderGraph.h"

namespace floe {

inline nlohmann::ordered_json launchBudgetJson(const graph::RecordStats& s, double steps)
{
    const double n = std::max(steps, 1.0);
    return {{"dispatches", double(s.dispatches) / n}, {"conditional_dispatches", double(s.conditionalDispatches) / n},
            {"barriers", double(s.barriers) / n},     {"transfers", double(s.transfers) / n},
            {"timestamps", double(s.timestamps) / n}, {"draws", double(s.draws) / n}};
}

// "dispatches D, barriers B, timestamps T" for a bench table row.
inline std::string launchBudgetText(const nlohmann::ordered_json& b)
{
    return fmt::format("dispatches {:.0f}, barriers {:.0f}, timestamps {:.0f}",
                       b["dispatches"].get<double>() + b["conditional_dispatches"].get<double>(), b["barriers"].get<double>(),
                       b["timestamps"].get<double>());
}

} // namespace floe
