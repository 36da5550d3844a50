#include "process/Wire.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace cc::process {

WireWriter &WireWriter::u64(uint64_t v) { return raw(&v, 8); }
WireWriter &WireWriter::f64(double v) { return raw(&v, 8); }
WireWriter &WireWriter::str(std::string_view s) {
  u64(s.size());
  buf.append(s);
  return *this;
}
WireWriter &WireWriter::raw(const void *data, size_t n) {
  buf.append(static_cast<const char *>(data), n);
  return *this;
}

bool WireReader::fail() {
  good = false;
  in = {};
  return false;
}

bool WireReader::raw(void *dst, size_t n) {
  if (!good || n > in.size())
    return fail();
  std::memcpy(dst, in.data(), n);
  in.remove_prefix(n);
  return true;
}

uint64_t WireReader::u64() {
  uint64_t v = 0;
  return raw(&v, 8) ? v : 0;
}

double WireReader::f64() {
  double v = 0;
  return raw(&v, 8) ? v : 0;
}

std::string WireReader::str() {
  uint64_t n = u64();
  if (!good || n > in.size()) {
    fail();
    return {};
  }
  std::string s(in.substr(0, n));
  in.remove_prefix(n);
  return s;
}

bool writeAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    bytes.remove_prefix(size_t(n));
  }
  return true;
}

bool readExactly(int fd, void *data, size_t n) {
  char *p = static_cast<char *>(data);
  while (n > 0) {
    ssize_t r = ::read(fd, p, n);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      return false;
    p += r;
    n -= size_t(r);
  }
  return true;
}

std::string frame(std::string_view bytes) {
  return WireWriter().str(bytes).take();
}

bool writeFrame(int fd, std::string_view bytes) {
  uint64_t n = bytes.size();
  return writeAll(fd, std::string_view(reinterpret_cast<char *>(&n), 8)) &&
         writeAll(fd, bytes);
}

std::optional<std::string> readFrame(int fd) {
  uint64_t n = 0;
  if (!readExactly(fd, &n, 8))
    return std::nullopt;
  std::string bytes;
  // Grown as it arrives: a bogus length must not allocate up front.
  char chunk[65536];
  while (bytes.size() < n) {
    size_t want = std::min<uint64_t>(sizeof chunk, n - bytes.size());
    if (!readExactly(fd, chunk, want))
      return std::nullopt;
    bytes.append(chunk, want);
  }
  return bytes;
}

std::optional<std::string> takeFrame(std::string &buffer) {
  if (buffer.size() < 8)
    return std::nullopt;
  uint64_t n = 0;
  std::memcpy(&n, buffer.data(), 8);
  if (buffer.size() - 8 < n)
    return std::nullopt;
  std::string bytes = buffer.substr(8, n);
  buffer.erase(0, 8 + n);
  return bytes;
}

std::vector<std::string> frames(std::string buffer) {
  std::vector<std::string> all;
  while (auto f = takeFrame(buffer))
    all.push_back(std::move(*f));
  return all;
}

} // namespace cc::process
