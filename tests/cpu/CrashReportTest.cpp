// base/CrashReport: a crash names the program and the signal and prints a backtrace, and the
// process still ends by that signal (ctest and the shell see the crash as one).
#include <csignal>

#include <gtest/gtest.h>

#include "base/CrashReport.h"

namespace {

#if !defined(__SANITIZE_ADDRESS__)
[[noreturn]] void crash(int signal)
{
    floe::installCrashReport("crash-test");
    std::raise(signal);
    std::abort(); // not reached: the handler re-raises with the default action
}
#endif

TEST(CrashReport, ACrashPrintsTheSignalAndABacktraceAndEndsByTheSignal)
{
#if defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "under AddressSanitizer its own report stays installed";
#else
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(crash(SIGSEGV), testing::KilledBySignal(SIGSEGV), "crash-test: crashed \\(SIGSEGV\\); backtrace:\n.+");
    EXPECT_EXIT(crash(SIGABRT), testing::KilledBySignal(SIGABRT), "crash-test: crashed \\(SIGABRT\\); backtrace:");
#endif
}

} // namespace
