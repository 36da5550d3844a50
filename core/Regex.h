// Regular expressions over text from anyone: RE2, whose matching takes time
// linear in the text and constant stack, unlike std::regex (libstdc++'s
// recurses per character and overflows the stack on a large stored
// program). RE2 syntax: no backreferences, no lookaround.
#pragma once

#include "core/Error.h"

#include <memory>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace cc {

class Regex {
public:
  // One clear error for a pattern RE2 does not accept.
  static Expected<Regex> compile(const std::string &pattern);
  // Whether the pattern matches somewhere in `text`.
  bool search(std::string_view text) const;
  const std::string &pattern() const;

private:
  explicit Regex(std::shared_ptr<const re2::RE2> re) : re(std::move(re)) {}
  std::shared_ptr<const re2::RE2> re; // shared: RE2 is immutable once built
};

} // namespace cc
