#include "harness/DirLock.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace cc {

// A POSIX record lock (fcntl), not flock: the kernel drops it when the
// process dies, SIGKILL included, so no lock outlives its campaign, and
// the workers a campaign forks do not inherit it, so a killed campaign's
// workers never keep the directory locked while they wind down.
Expected<std::unique_ptr<DirLock>> DirLock::acquire(const std::string &dir) {
  std::string file = path(dir);
  // Never through a link: a downloaded directory may hold one in its place.
  int fd =
      ::open(file.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0)
    return makeError("cannot lock '" + dir + "': " +
                     (errno == ELOOP ? std::string("its lock file is a "
                                                   "symbolic link")
                                     : std::strerror(errno)));
  struct flock lk{};
  lk.l_type = F_WRLCK;
  lk.l_whence = SEEK_SET;
  if (fcntl(fd, F_SETLK, &lk) == 0)
    return std::unique_ptr<DirLock>(new DirLock(fd));
  int err = errno;
  struct flock holder = lk;
  bool known = fcntl(fd, F_GETLK, &holder) == 0 && holder.l_type != F_UNLCK;
  ::close(fd);
  if (err != EACCES && err != EAGAIN)
    return makeError("cannot lock '" + dir + "': " + std::strerror(err));
  return makeError(
      "'" + dir + "' is in use by another crosscheck process" +
      (known ? " (pid " + std::to_string(holder.l_pid) + ")" : std::string()) +
      "; wait for it to finish, or choose another directory");
}

DirLock::~DirLock() { ::close(fd); }

} // namespace cc
