// A progress line on stderr for runs longer than a second: rewritten in place on a terminal,
// one line every few seconds otherwise (CI logs).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

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

// A heartbeat while a run sets up (loading and meshing the scene, sampling, building buffers,
// compiling pipelines), so that a long set-up is never silent: from the first second on,
// "LABEL: setting up: STAGE (N s)" on stderr, rewritten in place on a terminal every second,
// a line every 5 s otherwise. FLOE_PROGRESS_AFTER (seconds) moves the first second, for tests.
class SetupProgress {
public:
    SetupProgress(std::string label, bool enabled);
    ~SetupProgress();
    SetupProgress(const SetupProgress&) = delete;
    SetupProgress& operator=(const SetupProgress&) = delete;
    void stage(std::string what);
    // Ends the heartbeat (idempotent); call before the run's own progress line starts.
    void stop();

private:
    void beat();
    using Clock = std::chrono::steady_clock;
    std::string label_;
    bool tty_;
    Clock::time_point start_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::string stage_ = "starting";
    bool done_ = false;
    bool printed_ = false;
    std::thread thread_;
};

} // namespace floe
