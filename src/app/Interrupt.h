// Ctrl-C (SIGINT) and SIGTERM during `floe run`: the run stops after the step in flight, writes
// its metrics, pictures and summary.json with status "interrupted", and exits with 130. A second
// signal ends the process at once, as if no handler were installed.
#pragma once

namespace floe {

// Installs the handlers (once per process; later calls do nothing).
void watchInterrupts();
// True once a signal arrived after watchInterrupts().
bool interruptRequested();

} // namespace floe
