#include "core/Regex.h"

#include <re2/re2.h>

namespace cc {

Expected<Regex> Regex::compile(const std::string &pattern) {
  RE2::Options options;
  options.set_log_errors(false);
  auto re = std::make_shared<const RE2>(pattern, options);
  if (!re->ok())
    return makeError(re->error());
  return Regex(std::move(re));
}

bool Regex::search(std::string_view text) const {
  return RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *re);
}

const std::string &Regex::pattern() const { return re->pattern(); }

} // namespace cc
