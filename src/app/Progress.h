// A progress line on stderr for runs longer than a second: rewritten in place on a terminal,
// one line every few seconds otherwise (CI logs).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace floe {

class Progress {
public:
    Progress(std::string label, uint64_t total, bool enabled = true);
    // done out of total, e.g. "12/100 (12%)  3.1/s".
    void update(uint64_t done, const std::string& detail = {});
    // A fraction in [0, 1] of work without a natural count (simulated time): "24%".
    void updateFraction(double fraction, const std::string& detail = {});
    void finish();

private:
    void print(double fraction, const std::string& counts, const std::string& detail);
    using Clock = std::chrono::steady_clock;
    std::string label_;
    uint64_t total_;
    bool enabled_;
    bool tty_;
    bool printed_ = false;
    Clock::time_point start_;
    Clock::time_point last_;
};

} // namespace floe
