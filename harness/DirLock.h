// An exclusive lock on a directory that one crosscheck process writes (a
// campaign directory, a report's output): DIR/crosscheck.lock, held while
// the process writes there, so that a second writer is refused instead of
// corrupting the first one's work.
#pragma once

#include "core/Error.h"

#include <memory>
#include <string>

namespace cc {

class DirLock {
public:
  // Locks DIR (which must exist); fails at once, naming the holder's pid,
  // when another process holds it.
  static Expected<std::unique_ptr<DirLock>> acquire(const std::string &dir);
  ~DirLock();
  DirLock(const DirLock &) = delete;
  DirLock &operator=(const DirLock &) = delete;

  static std::string path(const std::string &dir) {
    return dir + "/crosscheck.lock";
  }

private:
  explicit DirLock(int fd) : fd(fd) {}
  int fd;
};

} // namespace cc
