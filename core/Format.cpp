#include "core/Format.h"

#include <cstdio>

namespace cc {

std::string formatDouble(const char *format, double v) {
  char buf[64];
  int n = std::snprintf(buf, sizeof buf, format, v);
  if (n < int(sizeof buf))
    return buf;
  std::string s(size_t(n), '\0');
  std::snprintf(s.data(), s.size() + 1, format, v);
  return s;
}

} // namespace cc
