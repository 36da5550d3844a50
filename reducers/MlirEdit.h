// Structural edits of MLIR modules for the MLIR-level reducer, on parsed IR
// (reducers/MlirEdit.cpp holds the MLIR headers); not a public header.
#pragma once

#include <compare>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cc::reduce {

// How big a module is: ops (the module left out), then ops other than
// constants, then characters. Every accepted candidate is smaller, so the
// reduction terminates.
struct MlirSize {
  int ops = 0, nonConstant = 0;
  size_t chars = 0;
  auto operator<=>(const MlirSize &) const = default;
};

// What a static look at the module finds of undefined behaviour or
// non-termination: `definite` names a certain case (a loop whose step is
// not positive, an index outside a static dimension, an integer division by
// a zero constant), `unknown` counts the loop steps, indices and divisors
// whose range is not known.
struct UbScan {
  std::string definite;
  int unknown = 0;
};

struct MlirFacts {
  MlirSize size;
  UbScan ub;
};

// Size and UB scan of a module; nullopt when it does not parse or verify.
std::optional<MlirFacts> mlirFacts(const std::string &text);

// The one-change candidates of a module, biggest changes first: whole
// symbols (functions, globals) without uses, ops whose results are unused
// (region ops such as loop nests included), result-less ops, loops that
// run at least once cut to their first iteration, function arguments and
// results (call sites fixed), tensors read from constant
// globals made tensor constants, and ops replaced by zero constants (or
// ub.poison) of their result types. Candidates are made on demand.
class StructuralEdits {
public:
  explicit StructuralEdits(const std::string &module);
  ~StructuralEdits();
  size_t size() const;
  // The module after edit i; nullopt when the edit does not apply or the
  // result does not verify.
  std::optional<std::string> apply(size_t i) const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

// The module without its dead ops, and after cleanup pipelines (inline,
// symbol-dce, canonicalize, cse, and all of them), each a candidate;
// failures left out.
std::vector<std::string> cleanupCandidates(const std::string &module);

} // namespace cc::reduce
