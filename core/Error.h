// Errors as values: every fallible function in crosscheck returns Expected<T>
// (or Error for no value). A failure carries one clear, user-facing message.
#pragma once

#include <any>
#include <cassert>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace cc {

// Failures that callers tell apart from plain errors.
enum class ErrorCode : uint8_t {
  None, // a plain error: bad input, a missing file, crosscheck's own setup
  // The TOSA spec leaves the result undefined (the reference refuses to
  // invent a value; the generator must avoid it).
  Undefined,
  // A backend cannot express this graph: not a bug in the compiler under
  // test.
  Unsupported,
  // The compiler under test rejected or broke on valid input (its pipeline
  // failed, its output failed the verifier, it crashed or ran out of
  // memory): a finding, carrying a CompilerFault (backends/Backend.h).
  CompilerFailure,
  Timeout,       // the compiler under test hung: a finding too
  NotReproduced, // the reducer's finding does not show on its own case
};
// "undefined-behaviour", "unsupported", "compiler-failure", "timeout",
// "not-reproduced"; "" for None.
inline std::string_view errorCodeName(ErrorCode c) {
  switch (c) {
  case ErrorCode::None:
    return "";
  case ErrorCode::Undefined:
    return "undefined-behaviour";
  case ErrorCode::Unsupported:
    return "unsupported";
  case ErrorCode::CompilerFailure:
    return "compiler-failure";
  case ErrorCode::Timeout:
    return "timeout";
  case ErrorCode::NotReproduced:
    return "not-reproduced";
  }
  return "";
}

// None when unknown.
inline ErrorCode parseErrorCode(std::string_view name) {
  for (auto c : {ErrorCode::Undefined, ErrorCode::Unsupported,
                 ErrorCode::CompilerFailure, ErrorCode::Timeout,
                 ErrorCode::NotReproduced})
    if (errorCodeName(c) == name)
      return c;
  return ErrorCode::None;
}

class Error {
public:
  Error() = default; // success
  // `code` classifies failures a caller may act on.
  static Error failure(std::string message, ErrorCode code = ErrorCode::None) {
    Error e;
    e.msg = std::move(message);
    e.errCode = std::move(code);
    return e;
  }
  // `detail`: typed facts for the code that acts on the failure (what a
  // compiler under test did: backends/Backend.h's CompilerFault); the
  // message stays what users read.
  template <typename T>
  static Error failure(std::string message, ErrorCode code, T detail) {
    Error e = failure(std::move(message), std::move(code));
    e.facts = std::make_shared<const std::any>(std::move(detail));
    return e;
  }
  static Error success() { return Error(); }
  explicit operator bool() const { return msg.has_value(); } // true on failure
  const std::string &message() const { return *msg; }
  ErrorCode code() const { return errCode; }
  // The facts of type T the failure carries, or null.
  template <typename T> const T *detail() const {
    return facts ? std::any_cast<T>(facts.get()) : nullptr;
  }
  // Prefixes context ("in node 3 (add): ...") while keeping one line.
  Error withContext(const std::string &ctx) const {
    Error e = msg ? failure(ctx + ": " + *msg, errCode) : Error();
    e.facts = facts;
    return e;
  }

private:
  std::optional<std::string> msg;
  ErrorCode errCode = ErrorCode::None;
  std::shared_ptr<const std::any> facts;
};

inline Error makeError(std::string message) {
  return Error::failure(std::move(message));
}

template <typename T> class Expected {
public:
  Expected(T value) : v(std::move(value)) {}
  Expected(Error err) : v(std::move(err)) { assert(std::get<Error>(v)); }
  explicit operator bool() const { return v.index() == 0; } // true on success
  T &operator*() { return std::get<0>(v); }
  const T &operator*() const { return std::get<0>(v); }
  T *operator->() { return &std::get<0>(v); }
  const T *operator->() const { return &std::get<0>(v); }
  const Error &error() const { return std::get<1>(v); }
  Error takeError() const { return *this ? Error() : std::get<1>(v); }

private:
  std::variant<T, Error> v;
};

} // namespace cc

// Propagates a failure out of the calling function.
#define CC_TRY(expr)                                                           \
  do {                                                                         \
    if (::cc::Error ccErr_ = (expr))                                           \
      return ccErr_;                                                           \
  } while (0)

// Binds `var` to the value of an Expected or propagates its failure.
#define CC_ASSIGN(var, expr)                                                   \
  auto var##OrErr_ = (expr);                                                   \
  if (!var##OrErr_)                                                            \
    return var##OrErr_.error();                                                \
  auto &var = *var##OrErr_
