// A crash (segmentation fault, bus error, abort, floating-point trap) prints the program's name,
// the signal and a backtrace to stderr before the process dies of the same signal, so that a
// crash in a run or a test says where it happened: in Floe, in the Vulkan driver, in LLVM's JIT
// or in a layer. Programs link with -rdynamic for their own symbols. Not installed under
// AddressSanitizer, whose own report is better.
#pragma once

namespace floe {

void installCrashReport(const char* program);

} // namespace floe
