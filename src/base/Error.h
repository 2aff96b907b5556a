// User-facing errors: bad input (exit 2) and device limits a scene exceeds (exit 2). Thrown
// where the problem is found, caught once in main, printed as one clear message.
#pragma once

#include <stdexcept>
#include <string>

namespace floe {

enum class ExitCode : int { Ok = 0, Diverged = 1, BadInput = 2, Failure = 3, Interrupted = 130 };

class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message, ExitCode code = ExitCode::BadInput) : std::runtime_error(message), code_(code) {}
    ExitCode code() const { return code_; }

private:
    ExitCode code_;
};

} // namespace floe
