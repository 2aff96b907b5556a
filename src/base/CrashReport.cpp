#include "base/CrashReport.h"

#include <csignal>
#include <cstring>
#include <execinfo.h>
#include <initializer_list>
#include <unistd.h>

namespace floe {
#if !defined(__SANITIZE_ADDRESS__)
namespace {

const char* gProgram = "floe";

void writeText(const char* text)
{
    const ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
    (void)ignored;
}

// Only async-signal-safe calls: write, backtrace (loaded before, see below), backtrace_symbols_fd.
void report(int signal)
{
    writeText("\n");
    writeText(gProgram);
    writeText(": crashed (");
    const char* name = signal == SIGSEGV ? "SIGSEGV" : signal == SIGBUS ? "SIGBUS" : signal == SIGABRT ? "SIGABRT" : "SIGFPE";
    writeText(name);
    writeText("); backtrace:\n");
    void* frames[64];
    const int n = ::backtrace(frames, 64);
    ::backtrace_symbols_fd(frames, n, STDERR_FILENO);
    // SA_RESETHAND restored the default action: the process ends by the same signal.
    std::raise(signal);
}

} // namespace
#endif

void installCrashReport(const char* program)
{
#if defined(__SANITIZE_ADDRESS__)
    (void)program;
#else
    gProgram = program;
    // backtrace loads libgcc on its first call, which allocates: do that now, not in the handler.
    void* warm[1];
    (void)::backtrace(warm, 1);
    struct sigaction action {};
    action.sa_handler = report;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND | SA_NODEFER;
    for (int signal : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE}) ::sigaction(signal, &action, nullptr);
#endif
}

} // namespace floe
