#include "app/Interrupt.h"

#include <atomic>
#include <csignal>

namespace floe {
namespace {

std::atomic<bool> requested{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler needs a lock-free flag");

extern "C" void onSignal(int signal)
{
    requested.store(true);
    // The next signal of this kind takes its default action: a second Ctrl-C ends the process.
    std::signal(signal, SIG_DFL);
}

} // namespace

void watchInterrupts()
{
    static const bool installed = [] {
        std::signal(SIGINT, onSignal);
        std::signal(SIGTERM, onSignal);
        return true;
    }();
    (void)installed;
}

bool interruptRequested()
{
    return requested.load();
}

} // namespace floe
