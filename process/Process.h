// Child processes with deadlines: the one place crosscheck forks, execs,
// pipes and waits. A child runs under RunLimits (killed past its time, its
// address space bounded), its standard output is captured up to a bound,
// its standard error cut to a tail; what it did comes back as data.
#pragma once

#include "core/Error.h"
#include "process/Limits.h"

#include <functional>
#include <string>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace cc::process {

class StageCell;

inline constexpr size_t kKeptStderrBytes = size_t(1) << 20;
// What an external program may write to stdout: far above any module a
// graph lowers to, far below what would exhaust crosscheck's own memory.
inline constexpr size_t kMaxExternalOutputBytes = size_t(256) << 20;

struct ChildOptions {
  std::string stdinText; // its standard input, then end of file
  // The child leads a process group of its own, killed as a whole: a
  // shell's command line dies with it.
  bool ownProcessGroup = true;
  RunLimits limits;
  // The child is killed when its captured output passes this (0: no
  // bound); stderr is always cut to its last kKeptStderrBytes.
  size_t maxOutputBytes = 0;
  // Non-empty: the child's stdout and stderr go to this file (appended
  // with appendOutput, else truncated) instead of being captured.
  std::string outputPath;
  bool appendOutput = false;
  bool keepStderr = false; // the child's stderr stays this process's own
  // Set in the child before it runs.
  std::vector<std::pair<std::string, std::string>> env;
  // runChild only: the child's stage cell, whose out-of-memory mark counts
  // as running out of memory.
  StageCell *cell = nullptr;
};

struct ProcessResult {
  int exitCode = 0; // when it exited normally
  int signal = 0;   // when a signal killed it (not our kill at the deadline)
  bool timedOut = false;
  // It died of, or reported, memory exhaustion under limits.memoryBytes.
  bool outOfMemory = false;
  bool outputOverflow = false; // killed for writing past maxOutputBytes
  std::string out, err;        // captured stdout (or the result pipe), stderr

  bool succeeded() const {
    return !timedOut && !outputOverflow && !signal && exitCode == 0;
  }
  // Its exit status as a shell reports it: 128 + N for signal N.
  int status() const { return signal ? 128 + signal : exitCode; }
  // "exited with status 3", "crashed with signal 11 (Segmentation fault)".
  std::string how() const;
};

// What runs in a forked child: writes its answer to outFd, returns its exit
// status. It must not return into the parent's state: the child _exits.
using ChildMain = std::function<int(int outFd)>;

// Forks `main` with a pipe captured into ProcessResult::out, waits for it
// within options.limits.timeoutSeconds and kills it (its process group with
// ownProcessGroup) past it. Fork from a single-threaded process: locks that
// other threads hold at the fork stay locked in the child.
Expected<ProcessResult> runChild(const ChildMain &main,
                                 const ChildOptions &options);
// Several children at once, each as runChild would run it, under one
// deadline; one result per child, in order.
std::vector<Expected<ProcessResult>>
runChildren(const std::vector<ChildMain> &mains, const ChildOptions &options);

// `/bin/sh -c command`, its stdout captured (up to options.maxOutputBytes).
Expected<ProcessResult> runShell(const std::string &command,
                                 const ChildOptions &options);
// runShell with stdinText on its standard input, under `limits`, its
// stdout bounded by kMaxExternalOutputBytes.
Expected<ProcessResult> runShell(const std::string &command,
                                 const std::string &stdinText,
                                 RunLimits limits);
// A program found on PATH (or by its path), with these arguments; no shell
// reads them. A program that cannot be started exits with 127.
Expected<ProcessResult> runProgram(const std::vector<std::string> &argv,
                                   const ChildOptions &options);

// " (ran out of memory: limit N MiB)" when r ran out of memory, else "".
std::string memoryNote(const ProcessResult &r, uint64_t limitBytes);

// A child that runs while this process goes on (a campaign stopped from
// outside, in tests); killed and reaped when it is destroyed unless waited
// for.
class Background {
public:
  static Expected<Background> start(const std::function<int()> &main);
  Background(Background &&o) noexcept
      : id(std::exchange(o.id, -1)), exited(o.exited), status(o.status) {}
  Background &operator=(Background &&) = delete;
  ~Background();
  pid_t pid() const { return id; }
  bool running(); // it has not exited yet
  void kill(int signal);
  // Waits for it to end: its status as a shell reports it.
  int wait();

private:
  explicit Background(pid_t pid) : id(pid) {}
  pid_t id = -1;
  bool exited = false; // reaped by running()
  int status = 0;
};

} // namespace cc::process
