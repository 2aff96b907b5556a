#include "base/Settings.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/Error.h"

namespace floe {
namespace {

std::string shown(const nlohmann::json& v)
{
    std::string s = v.dump();
    if (s.size() > 60) s = s.substr(0, 57) + "...";
    return s;
}

std::string range(const SettingRow& row)
{
    return fmt::format("[{}, {}]{}", row.min, row.max, row.unit.empty() ? "" : " " + row.unit);
}

} // namespace

std::string describeExpectation(const SettingRow& row)
{
    switch (row.kind) {
    case SettingRow::Kind::Number: return "a number in " + range(row);
    case SettingRow::Kind::Integer: return "an integer in " + range(row);
    case SettingRow::Kind::Flag: return "true or false";
    case SettingRow::Kind::Vector: return "an array of 3 numbers, each in " + range(row);
    case SettingRow::Kind::Choice: break;
    }
    std::string list;
    for (size_t i = 0; i < row.choices.size(); ++i) list += (i ? ", " : "") + fmt::format("\"{}\"", row.choices[i]);
    return "one of " + list;
}

const SettingRow* SettingsTable::find(const std::string& key) const
{
    for (const SettingRow& r : rows_)
        if (r.key == key) return &r;
    return nullptr;
}

void SettingsTable::apply(void* settings, const std::string& key, const nlohmann::json& value, const std::string& where) const
{
    const SettingRow* row = find(key);
    if (!row) throw Error(fmt::format("{}: unknown setting {}.{}", where, section_, key));
    const auto fail = [&]() {
        throw Error(fmt::format("{}: {}.{}: expected {}, got {}", where, section_, key, describeExpectation(*row), shown(value)));
    };
    const auto inRange = [&](double x) { return std::isfinite(x) && x >= row->min && x <= row->max; };
    const SettingRow::Value target = row->member(settings);
    if (float* const* f = std::get_if<float*>(&target)) {
        if (!value.is_number() || !inRange(value.get<double>())) fail();
        **f = value.get<float>();
    } else if (int* const* i = std::get_if<int*>(&target)) {
        if (!value.is_number_integer() || !inRange(value.get<double>())) fail();
        **i = value.get<int>();
    } else if (uint32_t* const* u = std::get_if<uint32_t*>(&target)) {
        if (!value.is_number_integer() || !inRange(value.get<double>()) || value.get<double>() < 0) fail();
        **u = uint32_t(value.get<int64_t>());
    } else if (bool* const* b = std::get_if<bool*>(&target)) {
        // SPlisHSPlasH writes some booleans as 0/1.
        if (value.is_boolean())
            **b = value.get<bool>();
        else if (value.is_number_integer() && (value.get<int>() == 0 || value.get<int>() == 1))
            **b = value.get<int>() == 1;
        else
            fail();
    } else if (glm::vec3* const* v = std::get_if<glm::vec3*>(&target)) {
        if (!value.is_array() || value.size() != 3) fail();
        glm::vec3 out;
        for (int c = 0; c < 3; ++c) {
            if (!value[c].is_number() || !inRange(value[c].get<double>())) fail();
            out[c] = value[c].get<float>();
        }
        **v = out;
    } else if (std::string* const* s = std::get_if<std::string*>(&target)) {
        if (!value.is_string()) fail();
        const std::string str = value.get<std::string>();
        if (!row->choices.empty() && std::find(row->choices.begin(), row->choices.end(), str) == row->choices.end()) fail();
        **s = str;
    }
}

std::string closestKey(const std::string& key, const std::vector<std::string>& candidates)
{
    const auto distance = [](const std::string& a, const std::string& b) {
        std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
        for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
        for (size_t i = 1; i <= a.size(); ++i) {
            cur[0] = i;
            for (size_t j = 1; j <= b.size(); ++j) {
                const size_t cost = std::tolower(a[i - 1]) == std::tolower(b[j - 1]) ? 0 : 1;
                cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
            }
            std::swap(prev, cur);
        }
        return prev[b.size()];
    };
    std::string best;
    size_t bestDistance = 4;
    for (const std::string& c : candidates) {
        const size_t d = distance(key, c);
        if (d < bestDistance) {
            bestDistance = d;
            best = c;
        }
    }
    return best;
}

} // namespace floe
