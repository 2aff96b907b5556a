#include "app/Progress.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>

namespace floe {
namespace {

// One progress line: rewritten in place on a terminal, appended otherwise.
void writeLine(const std::string& line, bool tty)
{
    if (tty)
        std::fprintf(stderr, "\r%s\033[K", line.c_str());
    else
        std::fprintf(stderr, "%s\n", line.c_str());
    std::fflush(stderr);
}

} // namespace

Progress::Progress(std::string label, uint64_t total, bool enabled)
    : label_(std::move(label)), total_(total), enabled_(enabled), tty_(isatty(STDERR_FILENO) != 0), start_(Clock::now()),
      last_(start_)
{
}

void Progress::update(uint64_t done, const std::string& detail)
{
    if (!enabled_) return;
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    const double fraction = total_ ? double(done) / double(total_) : 1.0;
    print(fraction, fmt::format("{}/{} ", done, total_), fmt::format("{:.1f}/s  {}", elapsed > 0 ? done / elapsed : 0.0, detail));
}

void Progress::updateFraction(double fraction, const std::string& detail)
{
    if (!enabled_) return;
    print(std::clamp(fraction, 0.0, 1.0), {}, detail);
}

void Progress::print(double fraction, const std::string& counts, const std::string& detail)
{
    const auto now = Clock::now();
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const double sinceLast = std::chrono::duration<double>(now - last_).count();
    if (elapsed < 1.0 || sinceLast < (tty_ ? 0.25 : 5.0)) return;
    last_ = now;
    const double eta = fraction > 0 ? elapsed * (1.0 - fraction) / fraction : 0.0;
    const std::string line = fmt::format("{} {}({:.0f}%)  ETA {:.0f} s  {}", label_, counts, 100.0 * fraction, eta, detail);
    writeLine(line, tty_);
    printed_ = true;
}

void Progress::finish()
{
    if (printed_ && tty_) std::fprintf(stderr, "\n");
    printed_ = false;
}

SetupProgress::SetupProgress(std::string label, bool enabled)
    : label_(std::move(label)), tty_(isatty(STDERR_FILENO) != 0), start_(Clock::now())
{
    if (enabled) thread_ = std::thread([this] { beat(); });
}

SetupProgress::~SetupProgress()
{
    stop();
}

void SetupProgress::stage(std::string what)
{
    std::lock_guard lock(mutex_);
    stage_ = std::move(what);
}

void SetupProgress::stop()
{
    {
        std::lock_guard lock(mutex_);
        done_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void SetupProgress::beat()
{
    double after = 1.0;
    if (const char* env = std::getenv("FLOE_PROGRESS_AFTER")) after = std::max(0.0, std::atof(env));
    const auto interval = std::chrono::milliseconds(tty_ ? 1000 : 5000);
    std::unique_lock lock(mutex_);
    auto next = start_ + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(after));
    while (!wake_.wait_until(lock, next, [this] { return done_; })) {
        const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
        const std::string line = fmt::format("{}: setting up: {} ({:.0f} s)", label_, stage_, elapsed);
        writeLine(line, tty_);
        printed_ = true;
        next = Clock::now() + interval;
    }
    if (printed_ && tty_) std::fprintf(stderr, "\r\033[K"); // the run's own lines take the place
}

} // namespace floe
