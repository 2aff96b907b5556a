// Settings tables: one row per user-facing setting (JSON key, unit, range, help, member). The
// same table drives the scene loader, `--set key=value` overrides and (later) the ImGui panels,
// so a setting is declared exactly once.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include <glm/vec3.hpp>
#include <nlohmann/json_fwd.hpp>

namespace floe {

struct SettingRow {
    enum class Kind { Number, Integer, Flag, Vector, Choice };
    Kind kind = Kind::Number;
    std::string key;         // JSON key (SPlisHSPlasH's name where one exists)
    std::string unit;        // "m", "s", "kg/m^3", "" for pure numbers
    double min = 0, max = 0; // inclusive range for numbers and each vector component
    std::string help;
    std::vector<std::string> choices; // enums: the accepted strings
    // Type-erased access to the member, bound to one settings object.
    using Value = std::variant<float*, int*, uint32_t*, bool*, glm::vec3*, std::string*>;
    std::function<Value(void*)> member;
};

class SettingsTable {
public:
    explicit SettingsTable(std::string section) : section_(std::move(section)) {}
    template <class S> SettingsTable& number(const std::string& key, float S::*m, const std::string& unit, double lo, double hi,
                                             const std::string& help)
    {
        rows_.push_back({SettingRow::Kind::Number, key, unit, lo, hi, help, {}, [m](void* s) {
                             return SettingRow::Value(&(static_cast<S*>(s)->*m));
                         }});
        return *this;
    }
    template <class S> SettingsTable& integer(const std::string& key, int S::*m, double lo, double hi, const std::string& help)
    {
        rows_.push_back({SettingRow::Kind::Integer, key, "", lo, hi, help, {}, [m](void* s) {
                             return SettingRow::Value(&(static_cast<S*>(s)->*m));
                         }});
        return *this;
    }
    // Counts a subsystem keeps unsigned (an Integer row; the range must lie within uint32_t).
    template <class S> SettingsTable& integer(const std::string& key, uint32_t S::*m, double lo, double hi, const std::string& help)
    {
        rows_.push_back({SettingRow::Kind::Integer, key, "", lo, hi, help, {}, [m](void* s) {
                             return SettingRow::Value(&(static_cast<S*>(s)->*m));
                         }});
        return *this;
    }
    template <class S> SettingsTable& flag(const std::string& key, bool S::*m, const std::string& help)
    {
        rows_.push_back({SettingRow::Kind::Flag, key, "", 0, 1, help, {}, [m](void* s) {
                             return SettingRow::Value(&(static_cast<S*>(s)->*m));
                         }});
        return *this;
    }
    template <class S> SettingsTable& vector(const std::string& key, glm::vec3 S::*m, const std::string& unit, double lo, double hi,
                                             const std::string& help)
    {
        rows_.push_back({SettingRow::Kind::Vector, key, unit, lo, hi, help, {}, [m](void* s) {
                             return SettingRow::Value(&(static_cast<S*>(s)->*m));
                         }});
        return *this;
    }
    template <class S>
    SettingsTable& choice(const std::string& key, std::string S::*m, std::vector<std::string> choices, const std::string& help)
    {
        rows_.push_back({SettingRow::Kind::Choice, key, "", 0, 0, help, std::move(choices),
                         [m](void* s) { return SettingRow::Value(&(static_cast<S*>(s)->*m)); }});
        return *this;
    }

    // Every row of `inner`, for the settings object `inner` describes held as member `sub` (a
    // subsystem's own settings inside a scene section): the subsystem declares its keys, ranges,
    // help and defaults once.
    template <class S, class T> SettingsTable& nested(T S::*sub, const SettingsTable& inner)
    {
        for (const SettingRow& r : inner.rows()) {
            SettingRow row = r;
            row.member = [sub, get = r.member](void* s) { return get(&(static_cast<S*>(s)->*sub)); };
            rows_.push_back(std::move(row));
        }
        return *this;
    }

    const std::string& section() const { return section_; }
    const std::vector<SettingRow>& rows() const { return rows_; }
    const SettingRow* find(const std::string& key) const;

    // Sets one setting from JSON, checking type and range. Throws floe::Error naming
    // `where` (file or "--set"), section.key, what was expected and what was given.
    void apply(void* settings, const std::string& key, const nlohmann::json& value, const std::string& where) const;

private:
    std::string section_;
    std::vector<SettingRow> rows_;
};

// "expected a number in [0.0001, 1] m" etc. for messages and help output.
std::string describeExpectation(const SettingRow& row);
// Closest key of `candidates` to `key` (edit distance <= 3), or "".
std::string closestKey(const std::string& key, const std::vector<std::string>& candidates);

} // namespace floe
