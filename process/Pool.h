// Long-lived worker processes fed over pipes: forked once from the
// coordinator (so they inherit its loaded libraries and backends), each
// serves one request at a time. A worker that dies or stops answering is
// reported and replaced by a fresh one; the pool itself never dies with it.
#pragma once

#include "core/Error.h"

#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

namespace cc::process {

class WorkerPool {
public:
  // `serve` runs in the worker: request bytes in, reply bytes out (one
  // frame each way, process/Wire.h).
  using Serve = std::function<std::string(const std::string &request)>;
  WorkerPool(int workers, Serve serve)
      : count(workers), serve(std::move(serve)) {}
  ~WorkerPool();
  WorkerPool(const WorkerPool &) = delete;
  WorkerPool &operator=(const WorkerPool &) = delete;

  Error start(); // forks every worker; call from a single-threaded process
  int size() const { return count; }
  bool busy(int worker) const { return slots[size_t(worker)].busy; }

  // Sends a request to an idle worker; it must answer within
  // `timeoutSeconds` or it is killed and replaced. A worker that cannot
  // take the request is dead: wait() reports it.
  void submit(int worker, const std::string &request, double timeoutSeconds);

  struct Event {
    enum Kind { Reply, Died, TimedOut } kind = Reply;
    int worker = 0;
    std::string reply; // for Reply
    // Died: the signal that killed it (0: it exited, with exitCode).
    int signal = 0, exitCode = 0;
    std::string stderrTail;   // Died, TimedOut: the last of its stderr
    std::string restartError; // TimedOut: why no new worker took its place
    // Died, TimedOut: "worker killed by signal 11 (Segmentation fault)",
    // "worker exited with status 1", "worker did not answer in time".
    std::string how() const;
    // how(), then its stderr tail.
    std::string detail() const;
    static Event of(Kind kind, int worker) {
      Event e;
      e.kind = kind;
      e.worker = worker;
      return e;
    }
  };
  // Waits up to maxSeconds for replies or deaths of busy workers.
  Expected<std::vector<Event>> wait(double maxSeconds);

  // Kills every worker (also done by the destructor).
  void stop();

private:
  struct Slot {
    pid_t pid = -1;
    int toWorker = -1, fromWorker = -1, errFromWorker = -1;
    bool busy = false;
    double deadline = 0;    // steady seconds
    std::string pending;    // partial reply
    std::string stderrTail; // last bytes of its stderr
  };
  Error spawn(Slot &slot);
  void reap(Slot &slot, int signal);
  // Reads what worker i wrote on its reply (or stderr) pipe; appends a
  // reply or a death to events.
  Error readFrom(int i, bool isErr, std::vector<Event> &events);
  // Worker i closed its reply pipe: reaps it and starts a new one.
  Error replaceExited(int i, std::vector<Event> &events);
  [[noreturn]] void workerMain(int in, int out);

  int count;
  Serve serve;
  std::vector<Slot> slots;
};

} // namespace cc::process
