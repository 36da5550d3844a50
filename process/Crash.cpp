#include "process/Crash.h"

#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cxxabi.h>
#include <execinfo.h>
#include <unistd.h>

namespace cc::process {

namespace {
// Separates the crash handler's stack trace from other stderr output.
constexpr char kStackMarker[] = "\n--- crosscheck worker stack ---\n";
constexpr int kCrashSignals[] = {SIGSEGV, SIGFPE,  SIGBUS, SIGILL,
                                 SIGABRT, SIGTRAP, SIGSYS};

// Only async-signal-safe calls, given that backtrace() was called once
// before the fork (prepareCrashReports).
void onCrash(int sig) {
  void *frames[48];
  int n = backtrace(frames, 48);
  (void)!write(2, kStackMarker, sizeof kStackMarker - 1);
  // Skips this handler and the kernel's signal trampoline.
  if (n > 2)
    backtrace_symbols_fd(frames + 2, n - 2, 2);
  // SA_RESETHAND restored the default action: die of the same signal (a
  // faulting instruction would also fault again on return).
  raise(sig);
}

// One line of backtrace_symbols_fd, "path(symbol+0x1f) [0x7f..]", as
// "symbol (file)" with the symbol demangled; code without a symbol keeps its
// file and offset, JIT-compiled code (in no file) only its address.
std::string frameName(const std::string &line) {
  size_t open = line.find('('), close = line.find(')', open);
  if (open == std::string::npos || open == 0 || close == std::string::npos)
    return line + " (no file: JIT-compiled code)";
  std::string path = line.substr(0, open);
  std::string file = path.substr(path.rfind('/') + 1);
  std::string inner = line.substr(open + 1, close - open - 1);
  size_t plus = inner.find('+');
  if (plus == 0 || plus == std::string::npos)
    return file + inner;
  std::string symbol = inner.substr(0, plus);
  int status = 0;
  char *demangled =
      abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status);
  if (status == 0 && demangled)
    symbol = demangled;
  std::free(demangled);
  if (symbol.size() > 120)
    symbol = symbol.substr(0, 117) + "...";
  return symbol + " (" + file + ")";
}
} // namespace

void prepareCrashReports() {
  static const bool done = [] {
    void *frame[1];
    backtrace(frame, 1);
    return true;
  }();
  (void)done;
}

void installCrashHandlers() {
  static char altStack[1 << 16];
  stack_t ss{};
  ss.ss_sp = altStack;
  ss.ss_size = sizeof altStack;
  sigaltstack(&ss, nullptr);
  struct sigaction sa{};
  sa.sa_handler = onCrash;
  sa.sa_flags = SA_RESETHAND | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (int sig : kCrashSignals)
    sigaction(sig, &sa, nullptr);
}

CrashReport readCrashReport(const std::string &err, size_t maxFrames) {
  CrashReport r;
  size_t marker = err.find(kStackMarker);
  r.before = err.substr(0, marker);
  while (!r.before.empty() && std::isspace(uint8_t(r.before.back())))
    r.before.pop_back();
  if (marker == std::string::npos)
    return r;
  std::string frames = err.substr(marker + sizeof kStackMarker - 1);
  std::string self = program_invocation_short_name;
  size_t pos = 0;
  while (pos < frames.size() && r.frames.size() < maxFrames) {
    size_t end = frames.find('\n', pos);
    std::string line = frames.substr(pos, end - pos);
    pos = end == std::string::npos ? frames.size() : end + 1;
    if (line.empty())
      continue;
    r.frames.push_back(frameName(line));
    std::string path = line.substr(0, line.find('('));
    if (path.substr(path.rfind('/') + 1) == self)
      break;
  }
  return r;
}

} // namespace cc::process
