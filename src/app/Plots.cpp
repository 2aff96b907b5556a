#include "app/Plots.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "app/ProjectFiles.h"
#include "base/Error.h"

namespace floe {
namespace {

constexpr const char* kSystemPython = "/usr/bin/python3";

// Runs `argv` (no shell) with stdout discarded; its exit status, or -1 if it could not start.
int runQuietly(const std::vector<std::string>& argv)
{
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    const int started = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (started != 0) return -1;
    int status = 0;
    if (waitpid(pid, &status, 0) < 0) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

} // namespace

std::filesystem::path requirePlotScript()
{
    const std::filesystem::path script = findProjectFile("tools/plot.py");
    if (script.empty())
        throw Error("--plots: cannot find tools/plot.py from the working directory or the floe executable", ExitCode::Failure);
    if (!std::filesystem::exists(kSystemPython))
        throw Error(fmt::format("--plots: {} is missing (Debian: python3-matplotlib)", kSystemPython), ExitCode::Failure);
    return script;
}

void writePlots(const std::filesystem::path& script, const std::filesystem::path& runDir)
{
    // Debian's interpreter (with python3-matplotlib), not whichever python3 is first on PATH.
    if (runQuietly({kSystemPython, script.string(), runDir.string()}) != 0)
        throw Error(fmt::format("--plots: {} {} failed (its message is above)", script.string(), runDir.string()),
                    ExitCode::Failure);
}

} // namespace floe
