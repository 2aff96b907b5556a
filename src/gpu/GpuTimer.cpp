#include "gpu/GpuTimer.h"

#include "gpu/Check.h"
#include "gpu/Context.h"
#include "gpu/TimestampMath.h"

namespace floe::gpu {

const char* timerModeName(TimerMode mode)
{
    switch (mode) {
    case TimerMode::Pass: return "pass";
    case TimerMode::Step: return "step";
    case TimerMode::Off: return "off";
    }
    return "?";
}

std::optional<TimerMode> parseTimerMode(const std::string& text)
{
    for (const TimerMode m : {TimerMode::Pass, TimerMode::Step, TimerMode::Off})
        if (text == timerModeName(m)) return m;
    return std::nullopt;
}

GpuTimer::GpuTimer(Context& context, uint32_t maxScopes) : device_(context.device()), maxScopes_(maxScopes)
{
    if (!context.caps().timestamps) return;
    periodNs_ = context.caps().timestampPeriodNs;
    validBits_ = context.caps().timestampValidBits;
    VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    info.queryCount = 2 * maxScopes + 2; // and the unreported pair's
    VK_CHECK(vkCreateQueryPool(device_, &info, nullptr, &pool_));
    vkResetQueryPool(device_, pool_, 0, 2 * maxScopes_ + 2);
}

GpuTimer::~GpuTimer()
{
    if (pool_) vkDestroyQueryPool(device_, pool_, nullptr);
}

void GpuTimer::reset()
{
    if (!pool_) return;
    if (!names_.empty()) vkResetQueryPool(device_, pool_, 0, 2 * static_cast<uint32_t>(names_.size()));
    if (stamped_) vkResetQueryPool(device_, pool_, 2 * maxScopes_, 2);
    stamped_ = 0;
    names_.clear();
    closed_.clear();
    dropped_ = 0;
}

int GpuTimer::begin(VkCommandBuffer cmd, const std::string& name, VkPipelineStageFlags2 stages)
{
    if (!pool_) return -1;
    if (names_.size() >= maxScopes_) {
        ++dropped_;
        return -1;
    }
    const uint32_t scope = static_cast<uint32_t>(names_.size());
    names_.push_back(name);
    closed_.push_back(false);
    vkCmdWriteTimestamp2(cmd, stages, pool_, 2 * scope);
    return static_cast<int>(scope);
}

void GpuTimer::stamp(VkCommandBuffer cmd, bool first)
{
    const uint32_t bit = first ? 1u : 2u;
    if (!pool_ || (stamped_ & bit)) return; // a query is written once between resets
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool_, 2 * maxScopes_ + (first ? 0u : 1u));
    stamped_ |= bit;
}

void GpuTimer::end(VkCommandBuffer cmd, int scope, VkPipelineStageFlags2 stages)
{
    if (scope < 0) return;
    vkCmdWriteTimestamp2(cmd, stages, pool_, 2 * static_cast<uint32_t>(scope) + 1);
    closed_[static_cast<size_t>(scope)] = true;
}

std::vector<PassTime> GpuTimer::results() const
{
    std::vector<PassTime> out;
    if (!pool_ || names_.empty()) return out;
    std::vector<uint64_t> stamps(2 * names_.size());
    VK_CHECK(vkGetQueryPoolResults(device_, pool_, 0, static_cast<uint32_t>(stamps.size()), stamps.size() * sizeof(uint64_t),
                                   stamps.data(), sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    for (size_t i = 0; i < names_.size(); ++i) {
        if (!closed_[i]) continue;
        const double ms = timestampIntervalMs(stamps[2 * i], stamps[2 * i + 1], periodNs_, validBits_);
        bool merged = false;
        for (PassTime& p : out)
            if (p.name == names_[i]) {
                p.ms += ms;
                merged = true;
                break;
            }
        if (!merged) out.push_back({names_[i], ms});
    }
    return out;
}

} // namespace floe::gpu
