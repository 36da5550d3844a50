// The differential oracle for generated mid-level programs: each compiler
// under test runs the program, and so does the straight lowering
// (mlir:straight: direct conversions only, none of the passes under test).
// The pipelines under test keep IEEE semantics (no fast-math, no
// reassociation), so outputs are compared exactly: integers by value,
// floats by value with NaNs alike and zeros by their sign. The programs
// are free of undefined behaviour by construction (docs/PROGRAMS.md), so
// every difference is a miscompile.
#pragma once

#include "oracles/Consensus.h"

#include <vector>

namespace cc {

// The straight lowering's spec: the reference of every program case.
inline constexpr const char *kProgramReference = "mlir:straight";

// Why the program of `c` is undefined on c's inputs according to its
// encoding (smt/Evaluate.h: a poison result, a division by zero, an
// out-of-bounds access, a read of uninitialized memory), or "" when it is
// defined or the encoding cannot tell (always "" without Z3). The
// reducer's gate against candidates with undefined behaviour.
std::string programUndefined(const TestCase &c);

// Whether the program leaves the sign of a zero result open: arith's
// maxnumf and minnumf (and the vector reductions of those kinds).
bool zeroSignOpen(const MlirProgram &p);

// Judges cases of one program that differ in their inputs only (every
// case's `program` set): each backend runs every input set at once. A
// miscompile's signature is (backend, "<dtype>:<value|nan|inf|signed-zero>"
// of its first difference); a crash, failure or hang is a finding as for
// graphs. A failure of the reference lowering itself is a finding of
// mlir:straight. With options.smtReference, a straight lowering that
// differs from the program's value computed from its encoding (where that
// is computed), or a program the encoding finds undefined, is a
// reference-disagreement of "mlir:straight~smt" with detail
// "smt:<dtype>:<kind>" (or "smt:undefined", "smt:error"); then the
// reference is not trusted on that case: a compiler's miscompile stays
// only where it differs from the encoding's value too.
std::vector<Expected<ConsensusResult>>
judgeProgramSets(const std::vector<TestCase> &cases,
                 const std::vector<Backend *> &cuts,
                 const ConsensusOptions &options = {});

} // namespace cc
