#include "core/File.h"

#include "core/Limits.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace cc {

namespace {

Error writeError(const std::string &path, int error) {
  if (error == ELOOP)
    return makeError("cannot write '" + path +
                     "': it is a symbolic link (crosscheck does not write "
                     "through links)");
  return makeError("cannot write '" + path + "': " + std::strerror(error));
}

// Writes all of `contents` to a new descriptor opened with `flags`.
Error writeNew(const std::string &path, const std::string &contents,
               int flags) {
  int fd =
      ::open(path.c_str(), flags | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0)
    return writeError(path, errno);
  for (size_t done = 0; done < contents.size();) {
    ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      int error = errno;
      ::close(fd);
      return writeError(path, error);
    }
    done += size_t(n);
  }
  return ::close(fd) == 0 ? Error() : writeError(path, errno);
}

} // namespace

Expected<std::string> readFile(const std::string &path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return makeError("'" + path + "' is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return makeError("cannot open '" + path + "': " + std::strerror(errno));
  std::string text;
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, size_t(in.gcount()));
    // Also ends reading an endless device such as /dev/zero.
    if (int64_t(text.size()) > kMaxFileBytes)
      return makeError("'" + path + "' is larger than " +
                       std::to_string(kMaxFileBytes >> 20) + " MiB");
  }
  if (in.bad())
    return makeError("cannot read '" + path + "': " + std::strerror(errno));
  return text;
}

Error writeFile(const std::string &path, const std::string &contents) {
  return writeNew(path, contents, O_CREAT | O_TRUNC);
}

Error writeAtomically(const std::string &path, const std::string &contents) {
  std::string tmp = path + ".tmp";
  // A stale temporary file, or a link planted in its place, goes first:
  // unlink removes a link, never what it points to.
  if (::unlink(tmp.c_str()) != 0 && errno != ENOENT)
    return writeError(tmp, errno);
  CC_TRY(writeNew(tmp, contents, O_CREAT | O_EXCL));
  // rename replaces a link at `path` itself, never its target.
  if (::rename(tmp.c_str(), path.c_str()) != 0)
    return writeError(path, errno);
  return Error();
}

Error makeDirectory(const std::string &path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode))
      return makeError("cannot write into '" + path +
                       "': it is a symbolic link (crosscheck does not write "
                       "through links)");
    if (!S_ISDIR(st.st_mode))
      return makeError("cannot create directory '" + path +
                       "': a file of that name exists");
    return Error();
  }
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec)
    return makeError("cannot create directory '" + path + "': " + ec.message());
  return Error();
}

} // namespace cc
