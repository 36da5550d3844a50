#include "core/File.h"

#include "core/Limits.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace cc {

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
  std::ofstream out(path, std::ios::binary);
  if (!out || !(out << contents) || !out.flush())
    return makeError("cannot write '" + path + "'");
  return Error();
}

Error writeAtomically(const std::string &path, const std::string &contents) {
  std::string tmp = path + ".tmp";
  CC_TRY(writeFile(tmp, contents));
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  return ec ? makeError("cannot write '" + path + "': " + ec.message())
            : Error();
}

} // namespace cc
