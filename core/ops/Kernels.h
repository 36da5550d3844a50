// Internal helpers shared by the op families: TOSA 1.0 broadcasting, index
// mapping, a generic elementwise kernel and TOSA emission of simple ops.
#pragma once

#include "core/OpTable.h"

#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace cc {

// TOSA 1.0 broadcasting of `operands` (all of them): equal ranks, and in
// each dimension all sizes equal or 1. Returns the broadcast shape, or an
// error naming the first offending operand and dimension.
Expected<Shape> broadcastShape(const std::vector<TensorType> &operands);

// Error unless operands `first`..end all have the dtype of operand `first`.
Error requireSameDType(const std::vector<TensorType> &operands,
                       size_t first = 0);

// Error unless `t` is one of `allowed`; `what` names the operand.
Error requireDType(const TensorType &t, const std::vector<DType> &allowed,
                   const std::string &what);

// Error unless there are exactly n operands.
Error requireArity(const std::vector<TensorType> &operands, size_t n);

// The type rule of a broadcasting elementwise op: exactly `arity` operands
// from `first` on share one dtype, which must be in `allowed`, and all
// operands broadcast together. The result has the broadcast shape and
// `resultDType`, or the operands' dtype when that is nullopt.
Expected<std::vector<TensorType>>
inferBroadcastOp(const std::vector<TensorType> &operands, size_t arity,
                 const std::vector<DType> &allowed,
                 std::optional<DType> resultDType = std::nullopt,
                 size_t first = 0);

// Maps a flat row-major index of a broadcast result to the flat index of an
// operand whose size-1 dimensions are broadcast.
class BroadcastIndex {
public:
  BroadcastIndex(const Shape &result, const Shape &operand);
  int64_t operator()(int64_t flat) const;

private:
  Shape resultShape;
  std::vector<int64_t> operandStrides; // 0 in broadcast dimensions
  bool identity;
};

// "[1,0,2]": the multi-index of a flat row-major index.
std::string indexString(const Shape &shape, int64_t flat);

// ErrorCode::Undefined failure naming the element ("element [1,2]: why").
Error undefinedAt(const Shape &shape, int64_t flat, const std::string &why);

// One element computed by an elementwise kernel: a value, or `why` the spec
// leaves it undefined.
template <typename T> struct Elem {
  T value{};
  const char *undefined = nullptr;
  Elem(T v) : value(v) {}
  static Elem why(const char *reason) {
    Elem e{T{}};
    e.undefined = reason;
    return e;
  }
};

// Reads element i of t as T (double: any dtype through asDouble; int64_t:
// integer dtypes through getI).
template <typename T> T readAs(const Tensor &t, int64_t i) {
  if constexpr (std::is_floating_point_v<T>)
    return t.asDouble(i);
  else
    return t.getI(i);
}

// Writes v into element i of t, rounding (float result) or wrapping
// (integer result) to the storage dtype.
template <typename T> void writeAs(Tensor &t, int64_t i, T v) {
  if (isFloat(t.dtype()))
    t.setF(i, double(v));
  else
    t.setI(i, int64_t(v));
}

// Generic broadcasting elementwise kernel for result 0: fn(const T *x) gets
// the operands' elements (x[0], x[1], ...) read as T and returns Elem<T>.
// Works under both precisions, since EvalArgs::makeResult picks the storage
// and writeAs rounds or wraps into it.
template <typename T, typename Fn>
Expected<std::vector<Tensor>> mapElements(const EvalArgs &args, Fn fn) {
  Tensor out = args.makeResult();
  const Shape &shape = out.shape();
  std::vector<BroadcastIndex> maps;
  for (const Tensor *t : args.operands)
    maps.emplace_back(shape, t->shape());
  std::vector<T> x(args.operands.size());
  for (int64_t i = 0, n = out.size(); i < n; ++i) {
    for (size_t k = 0; k < x.size(); ++k)
      x[k] = readAs<T>(*args.operands[k], maps[k](i));
    Elem<T> r = fn(x.data());
    if (r.undefined)
      return undefinedAt(shape, i, r.undefined);
    writeAs<T>(out, i, r.value);
  }
  std::vector<Tensor> results;
  results.push_back(std::move(out));
  return results;
}

// Runs `floatFn` (fn(const double *x)) when operand `dataOperand` is a
// float, else `intFn` (fn(const int64_t *x, DType t), t the dtype of that
// operand, for the spec's range checks).
template <typename FloatFn, typename IntFn>
Expected<std::vector<Tensor>> floatOrInt(const EvalArgs &args, FloatFn floatFn,
                                         IntFn intFn, size_t dataOperand = 0) {
  DType t = args.in(dataOperand).dtype();
  if (isFloat(t))
    return mapElements<double>(args, floatFn);
  return mapElements<int64_t>(
      args, [&](const int64_t *x) -> Elem<int64_t> { return intFn(x, t); });
}

// An integer result checked against the range of t: the spec's REQUIRE in
// apply_add_s and friends makes an out-of-range result undefined.
inline Elem<int64_t> checkedInt(DType t, int64_t v, const char *why) {
  if (v < intMin(t) || v > intMax(t))
    return Elem<int64_t>::why(why);
  return v;
}

// --- Emission ---------------------------------------------------------------

// An SSA operand with its MLIR type.
struct EmitOperand {
  std::string name;
  std::string type;
};

// The node's graph operands.
std::vector<EmitOperand> operandsOf(const EmitContext &ctx, const Node &node);

// A tosa.const holding `t`, as an operand.
EmitOperand constOperand(EmitContext &ctx, const Tensor &t);

// Writes `%r = <op> %a, %b {attrs} : (ta, tb) -> tr` for the node's results.
// `attrDict` is the inside of the braces ("" for none).
void emitOp(EmitContext &ctx, const Node &node, const std::string &op,
            const std::vector<EmitOperand> &operands,
            const std::string &attrDict = "");

// Same with the node's own operands.
inline void emitOp(EmitContext &ctx, const Node &node, const std::string &op,
                   const std::string &attrDict = "") {
  emitOp(ctx, node, op, operandsOf(ctx, node), attrDict);
}

// An emitter writing `tosa.<name>` with the node's operands, no attributes.
std::function<Error(EmitContext &, const Node &)> simpleEmit(std::string op);

// An entry for a broadcasting elementwise op: `arity` operands of one dtype
// from `dtypes`, result of the broadcast shape and `resultDType` (default:
// the operands' dtype), emitted as tosa.<name> unless emit is replaced.
OpDef elementwiseOp(
    OpId id, std::string summary, int arity, std::vector<DType> dtypes,
    std::function<Expected<std::vector<Tensor>>(const EvalArgs &)> eval,
    std::optional<DType> resultDType = std::nullopt);

// OpDef::sampleOperands of a broadcasting elementwise op: `arity` operands
// of dtype d, operand 0 shaped `hint` and the others broadcastable to it
// (some dimensions 1). Operands in `leaves` are forced leaves (see
// OperandSample::leafMask) when d is one of `leafDTypes` (all dtypes when
// that is empty).
using OperandSampler =
    std::function<std::optional<OperandSample>(Rng &, DType, const Shape &)>;
OperandSampler elementwiseOperands(int arity, uint32_t leaves = 0,
                                   std::vector<DType> leafDTypes = {});

// The TOSA nan_mode attribute ("nan_mode = #tosa.nan_mode<IGNORE>" in MLIR
// 22) for a node's "nan_mode" string attribute; "" for the default
// PROPAGATE. MLIR 19 has no nan_mode: IGNORE is then ErrorCode::Unsupported.
Expected<std::string> nanModeAttr(const EmitContext &ctx, const Node &node);

// The MLIR literal of one scalar of float or integer type t ("1.5",
// "0x7F800000" for infinity, "-3"), exact for every dtype.
std::string scalarLiteral(DType t, double v);

// Attribute spec and validity check of the "nan_mode" attribute.
AttrSpec nanModeSpec();
Error checkNanMode(const Attrs &attrs);

// Freedoms::openWithin of an elementwise op with steps (floor, ceil, a cast
// to an integer, a comparison): open where moving the float operands by
// their bounds, the first one way and the others the other way, or all the
// reverse, changes the result.
decltype(Freedoms::openWithin) openWhenMoved(decltype(OpDef::eval) eval);

// --- value ranges (OpDef::range) ------------------------------------------

using RangeRule = decltype(OpDef::range);
// Smallest interval holding both.
Interval hull(const Interval &a, const Interval &b);
// Interval arithmetic; NaN where Inf - Inf or 0 * Inf may occur.
Interval addRange(const Interval &a, const Interval &b);
Interval negRange(const Interval &a);
Interval mulRange(const Interval &a, const Interval &b);
// A sum of n terms, each in `term`.
Interval sumRange(const Interval &term, double n);
// f applied to the bounds of operand 0, for a non-decreasing f.
RangeRule monotoneRange(double (*f)(double));
// Operand 0's range (data movement, max-pooling).
RangeRule identityRange();
// The hull of all operands' ranges (concat, select's values from `first`).
RangeRule hullRange(size_t first = 0);
// A fixed range without NaN (compares: [0, 1]).
RangeRule fixedRange(double lo, double hi);

} // namespace cc
