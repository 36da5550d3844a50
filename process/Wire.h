// The one codec of what crosscheck's processes tell each other: a flat
// little-endian byte string of integers, doubles and length-prefixed
// strings, sent as frames (a u64 length, then the bytes). A frame cut short
// by a dying writer is never read as a message.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cc::process {

class WireWriter {
public:
  WireWriter &u64(uint64_t v);
  WireWriter &i64(int64_t v) { return u64(uint64_t(v)); }
  WireWriter &f64(double v);
  WireWriter &str(std::string_view s); // its length, then its bytes
  WireWriter &raw(const void *data, size_t n);
  const std::string &bytes() const { return buf; }
  std::string take() { return std::move(buf); }

private:
  std::string buf;
};

// Reads what a WireWriter wrote. A read past the end (or a length longer
// than what is left) clears ok() and returns zeros from then on, so a
// decoder reads on and checks once.
class WireReader {
public:
  explicit WireReader(std::string_view in) : in(in) {}
  uint64_t u64();
  int64_t i64() { return int64_t(u64()); }
  double f64();
  std::string str();
  bool raw(void *dst, size_t n);
  bool ok() const { return good; }
  // Everything was read, and nothing more is there.
  bool done() const { return good && in.empty(); }

private:
  bool fail();
  std::string_view in;
  bool good = true;
};

// Writes all of `bytes` to fd, retrying on EINTR; false when the reader is
// gone.
bool writeAll(int fd, std::string_view bytes);
// Reads exactly n bytes; false at EOF or on an error first.
bool readExactly(int fd, void *data, size_t n);

// A frame: the length of `bytes` as a u64, then the bytes.
std::string frame(std::string_view bytes);
bool writeFrame(int fd, std::string_view bytes);
// Blocks for the next frame; nullopt at EOF (or a frame cut short).
std::optional<std::string> readFrame(int fd);
// Takes the first complete frame off the front of `buffer` (bytes read so
// far from a stream); nullopt while it is incomplete.
std::optional<std::string> takeFrame(std::string &buffer);
// Every complete frame of a finished stream, in order; a last frame cut
// short (its writer was killed) is left out.
std::vector<std::string> frames(std::string buffer);

} // namespace cc::process
