// What an oracle concludes about one test case: pass, a finding, or a skip
// (the case cannot be judged, e.g. the backend does not support the graph).
//
// A finding's Signature defines "the same bug": the deduplication of a
// campaign and the reducer's acceptance test both compare signatures.
#pragma once

#include "core/Error.h"

#include <optional>
#include <string>
#include <string_view>
#include <tuple>

namespace cc {

enum class Kind {
  Crash,       // the compiler under test crashed
  Timeout,     // it hung past the time limit
  Verifier,    // it produced IR that fails the MLIR verifier
  PassFailure, // a pass rejected valid input (legalization or pass failure)
  Miscompile,  // it ran, but the numeric oracle rejects its outputs
  TvIncorrect, // translation validation proved a pass or rewrite wrong
  // The two references (our interpreter and LibTorch eager) disagree: a bug
  // in one of them, not in the compiler under test.
  RefDisagreement,
};

std::string_view kindName(Kind k); // "crash", "tv-incorrect", ...
std::optional<Kind> parseKind(std::string_view name);

struct Signature {
  Kind kind = Kind::Miscompile;
  std::string backend;     // "mlir:tosa-O3"
  std::string stage;       // the pass or pattern, when known
  std::string detail;      // top frames, or the op kinds involved
  std::string str() const; // "miscompile|mlir:tosa-O3|<stage>|<detail>"
  bool operator==(const Signature &) const = default;
  bool operator<(const Signature &o) const {
    return std::tie(kind, backend, stage, detail) <
           std::tie(o.kind, o.backend, o.stage, o.detail);
  }
};

struct Finding {
  Signature signature;
  std::string message; // one line for humans
};

class Verdict {
public:
  enum class Outcome { Pass, Finding, Skip };

  static Verdict pass() { return Verdict(Outcome::Pass, {}, ""); }
  static Verdict fail(Finding f) {
    return Verdict(Outcome::Finding, std::move(f), "");
  }
  static Verdict skip(std::string why) {
    return Verdict(Outcome::Skip, {}, std::move(why));
  }

  Outcome outcome() const { return out; }
  bool passed() const { return out == Outcome::Pass; }
  const std::optional<Finding> &finding() const { return find; }
  const std::string &skipReason() const { return why; }

private:
  Verdict(Outcome o, std::optional<Finding> f, std::string w)
      : out(o), find(std::move(f)), why(std::move(w)) {}
  Outcome out;
  std::optional<Finding> find;
  std::string why;
};

// The finding for a backend failure that carries ErrorCode::CompilerFailure
// or ErrorCode::Timeout. Its kind and signature come from the CompilerFault
// the error carries (backends/Backend.h; an error without one counts as a
// pass failure, or a hang with ErrorCode::Timeout); a pass or verifier
// failure's detail is the template of the compiler's last diagnostic. The
// finding's message is the error's, on one line.
Finding compilerFailureFinding(const std::string &backend,
                               const Error &failure);

} // namespace cc
