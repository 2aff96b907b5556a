// floe: command line entry. Everything happens in app/; see README.md for the commands.
#include <cstdio>
#include <exception>
#include <stdexcept>

#include "app/Commands.h"
#include "base/CrashReport.h"
#include "base/Error.h"

int main(int argc, char** argv)
{
    floe::installCrashReport("floe");
    try {
        return floe::runCli(argc, argv);
    } catch (const floe::Error& e) {
        std::fprintf(stderr, "floe: error: %s\n", e.what());
        return static_cast<int>(e.code());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "floe: internal error: %s\n", e.what());
        return static_cast<int>(floe::ExitCode::Failure);
    }
}
