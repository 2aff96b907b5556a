// The GPU tests report a crash with the signal and a backtrace (base/CrashReport.h): tools/test.sh
// re-runs a test that crashed once, and the backtrace says where the crash was (Floe, the driver,
// LLVM's JIT or a layer).
#include "base/CrashReport.h"

namespace {
const bool kCrashReport = (floe::installCrashReport("floe_tests_gpu"), true);
} // namespace
