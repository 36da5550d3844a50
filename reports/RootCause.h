// Root causes: the findings of a campaign grouped by the bug behind them,
// not by op x dtype, and matched against the bugs the project already knows
// (corpus/known/*.json), so that a nightly run says "0 new" when nothing
// new is wrong.
#pragma once

#include "core/Error.h"
#include "core/Regex.h"
#include "oracles/FindingFile.h"

#include <string>
#include <vector>

namespace cc {

// A bug the project knows, and how to recognise its findings: every field
// of `match` that is given must hold.
struct KnownBug {
  std::string name;     // "vector-i1-packed-memory"
  std::string title;    // one line
  std::string upstream; // the upstream issue or pull request, or ""
  std::string status;   // "open", "fixed by PR #N after MLIR 22", ...
  struct Match {
    std::optional<Kind> kind;
    // RE2 regexes (core/Regex.h: linear time) searched in the signature's
    // fields and message.
    std::optional<Regex> cut, stage, detail, message;
    std::string text; // the match object as written, for messages
    // Element types the finding's graph (its reduced graph, when there is
    // one) must carry.
    std::vector<DType> graphHas;
    // Ops the finding's graph must contain (a bug in one op's lowering
    // shows at the output of whatever consumes it).
    std::vector<std::string> graphOps;
    // Regexes searched in the culprit pass (from the reduced
    // finding's bisection; "" before it) and in the program's text (the
    // reduced one, when there is one): a program miscompile's signature is
    // too coarse to name a bug, its reduced form is not.
    std::optional<Regex> culprit, program;
  };
  std::vector<Match> matches; // any of them
};

// Reads a known-bugs file ({"format": "crosscheck-known-bugs", "bugs":
// [...]}); one clear error for a malformed one.
Expected<std::vector<KnownBug>> loadKnownBugs(const std::string &path);

// The known bug that a finding (with its reduced case, if any) matches.
const KnownBug *matchKnownBug(const std::vector<KnownBug> &bugs,
                              const FindingRecord &finding,
                              const FindingRecord *reduced = nullptr);

// The input of the grouping: one deduplicated finding (a signature).
struct FindingForGrouping {
  const FindingRecord *record;
  const FindingRecord *reduced = nullptr; // its reduced case
};

// One root cause and the signatures it explains.
struct RootCause {
  // What the findings share: "known:NAME" for a known bug; else kind,
  // culprit and reduced form (or the signature without the compiler's
  // name, when not reduced).
  std::string key;
  // The pass, pattern or back-end stage to blame, when known.
  std::string culprit;
  const KnownBug *known = nullptr;
  std::vector<size_t> members; // indices into the grouped findings
};

// The culprit of a finding: the first failing pass found by reduction,
// else the stage of its signature.
std::string culpritOf(const FindingRecord &f, const FindingRecord *reduced);

// Groups findings by root cause, in order of first member.
std::vector<RootCause>
groupRootCauses(const std::vector<FindingForGrouping> &findings,
                const std::vector<KnownBug> &known);

} // namespace cc
