// Stack traces of a forked child that crashes: the child prints its stack
// to stderr from a signal handler, the parent reads it back as frames.
#pragma once

#include <string>
#include <vector>

namespace cc::process {

// Call in the parent before forking: backtrace() loads libgcc on its first
// call, which a signal handler must not do.
void prepareCrashReports();
// Call in the child: on SIGSEGV, SIGFPE, SIGBUS, SIGILL, SIGABRT, SIGTRAP or
// SIGSYS it prints a marker and its stack to stderr (on an alternate
// stack, so that a stack overflow is reported too), then dies of the
// signal.
void installCrashHandlers();

// What a crashed child's stderr says.
struct CrashReport {
  std::string before; // its stderr before the stack, trailing space cut
  // The stack, innermost first, as "symbol (file)" with the symbol
  // demangled; it ends at the first frame of this program's own binary.
  std::vector<std::string> frames;
};
CrashReport readCrashReport(const std::string &stderrText,
                            size_t maxFrames = 10);

} // namespace cc::process
