// GPU timings with timestamp queries. The render graph opens the scopes, by TimerMode: one per
// timed pass (or per group of passes such as one solver's iterations), one per recorded step, or
// none. Results are summed per name.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <volk.h>

namespace floe::gpu {

class Context;

// What `--timers` asks for. Pass: a timestamp pair around every pass or group, written at the
// pass's own pipeline stages (a GPU drains those stages at each one). Step: one pair around all
// the work of a recorded step. Off: no timestamps.
enum class TimerMode { Pass, Step, Off };
const char* timerModeName(TimerMode mode);
// "pass", "step" or "off"; std::nullopt for anything else.
std::optional<TimerMode> parseTimerMode(const std::string& text);

struct PassTime {
    std::string name;
    double ms = 0.0;
};

class GpuTimer {
public:
    // A fracture step opens about 800 scopes (20 substeps x 30 colours of constraints, ...).
    GpuTimer(Context& context, uint32_t maxScopes = 4096);
    ~GpuTimer();
    GpuTimer(const GpuTimer&) = delete;
    GpuTimer& operator=(const GpuTimer&) = delete;

    bool enabled() const { return pool_ != VK_NULL_HANDLE; }
    // Host-side reset; call after the previous command buffer using this timer completed.
    void reset();
    // Returns a scope index, or -1 when timing is unavailable or all scopes are used. The
    // timestamps are written once all earlier commands have completed `stages` (the timed pass's
    // own stages; ALL_COMMANDS for a scope around mixed work).
    int begin(VkCommandBuffer cmd, const std::string& name, VkPipelineStageFlags2 stages = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
    void end(VkCommandBuffer cmd, int scope, VkPipelineStageFlags2 stages = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
    // Timestamps around a command buffer's work that are never read (the timers are off): the
    // first before it, the other after it, each once between resets. Lavapipe finishes a command
    // buffer sooner with them: the 3D dam break's DFSPH (10.6k particles, 0.5 s simulated) took
    // 3.2-3.7 s with `--timers off` against 2.1-2.6 s with `step` (its timestamps), and a global
    // barrier at the end instead changed nothing; with the pair, `off` takes what `step` takes.
    // The mechanism is the driver's (Mesa 22.3).
    void stamp(VkCommandBuffer cmd, bool first);
    // After the command buffer completed: milliseconds per name, in first-use order.
    std::vector<PassTime> results() const;
    // Scopes asked for after all were used since the last reset (those passes are untimed).
    uint32_t dropped() const { return dropped_; }

private:
    VkDevice device_ = VK_NULL_HANDLE;
    VkQueryPool pool_ = VK_NULL_HANDLE;
    uint32_t maxScopes_ = 0, dropped_ = 0;
    double periodNs_ = 1.0;
    uint32_t validBits_ = 64;
    std::vector<std::string> names_;
    std::vector<bool> closed_;
    uint32_t stamped_ = 0; // the unreported pair (the pool's last two queries) written since the last reset: bits 1, 2
};

} // namespace floe::gpu
