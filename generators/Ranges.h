// Value ranges propagated through a graph with the op table's range rules
// (OpDef::range), so that generators can tell which computed values stay in
// the domains of the ops that consume them.
#pragma once

#include "core/OpTable.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cc {

// Any value of dtype d (NaN included for floats): an unknown range.
Interval fullRange(DType d);

// Integer bounds of the tame leaves: i32 in [-64, 64] and i16 in
// [-1024, 1024] keep arithmetic away from overflow; i8 (quantized data) and
// i1 use their whole range.
std::pair<int64_t, int64_t> tameIntBounds(DType d);

// The widest range of the tame leaves: generated inputs once narrowed
// (makeInputs) and the generator's tame constants. Finite, and small enough
// that no op with an overflow hazard overflows on them alone.
Interval tameRange(DType d);

// Whether every value in r meets `domain` as operand `operand` of an op with
// these operand types (NaN never does).
bool inDomain(const Interval &r, Domain domain,
              const std::vector<TensorType> &operandTypes);

// The range of a result of `op` (dtype `result`) from its operands' ranges;
// integer ranges are clipped to the dtype and float bounds beyond its largest
// finite value become infinite. `overflow`, when given, says whether the
// unclipped integer range left the dtype (undefined in TOSA).
Interval resultRange(const OpDef &op, const std::vector<Interval> &operands,
                     const std::vector<TensorType> &operandTypes,
                     const Attrs &attrs, DType result,
                     bool *overflow = nullptr);

// The range of every value of g, indexed by ValueId, from the ranges of its
// inputs (in the order of g.inputs).
std::vector<Interval> propagateRanges(const Graph &g,
                                      const std::vector<Interval> &inputRanges);

// A node where the ranges say a computed value may leave an operand's
// domain, overflow an integer, or turn finite operands into Inf or NaN.
struct Hazard {
  size_t node;
  std::string why;
};
std::vector<Hazard> findHazards(const Graph &g,
                                const std::vector<Interval> &inputRanges);

// Whether some output of g may hold NaN or +-Inf under these ranges.
bool mayBeNonFinite(const Graph &g, const std::vector<Interval> &ranges);

} // namespace cc
