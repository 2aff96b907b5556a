#include "app/Progress.h"

#include <unistd.h>

#include <cstdio>

#include <fmt/format.h>

namespace floe {

Progress::Progress(std::string label, uint64_t total, bool enabled)
    : label_(std::move(label)), total_(total), enabled_(enabled), tty_(isatty(STDERR_FILENO) != 0), start_(Clock::now()),
      last_(start_)
{
}

void Progress::update(uint64_t done, const std::string& detail)
{
    if (!enabled_) return;
    const auto now = Clock::now();
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const double sinceLast = std::chrono::duration<double>(now - last_).count();
    if (elapsed < 1.0 || sinceLast < (tty_ ? 0.25 : 5.0)) return;
    last_ = now;
    const double rate = done / elapsed;
    const double eta = rate > 0 ? (total_ - done) / rate : 0.0;
    const std::string line = fmt::format("{} {}/{} ({:.0f}%)  {:.1f}/s  ETA {:.0f} s{}", label_, done, total_,
                                         total_ ? 100.0 * done / total_ : 100.0, rate, eta, detail.empty() ? "" : "  " + detail);
    if (tty_)
        std::fprintf(stderr, "\r%s\033[K", line.c_str());
    else
        std::fprintf(stderr, "%s\n", line.c_str());
    std::fflush(stderr);
    printed_ = true;
}

void Progress::finish()
{
    if (printed_ && tty_) std::fprintf(stderr, "\n");
    printed_ = false;
}

} // namespace floe
