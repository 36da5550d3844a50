// The op table: one entry per operator, holding everything about it.
//
// Adding an operator: its line in core/Ops.def (its OpId and JSON name) and
// its entry in one of the core/ops/*.cpp files; then the entries that
// tests/unit/coverage/OpCoverageTest.cpp asks of every other table (LibTorch,
// ONNX import and export, translation validation). An entry holds the
// arity, allowed dtypes,
// attributes (with defaults and how to sample them), the shape and type rule
// (which also tells the generator what is valid), value-domain constraints,
// the reference semantics (TOSA 1.0), the TOSA emission, how its results
// accumulate rounding error (the numeric oracle's tolerance) and the facts
// generators and the reference key on (integer extremes, magnitudes,
// accumulation, quantization).
#pragma once

#include "core/Graph.h"
#include "core/Rng.h"

#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace cc {

// How the reference evaluates floats.
enum class Precision {
  F64,    // every float value computed and kept in f64 (the reference)
  Target, // rounded to its declared dtype after every op (calibration)
};

// Constraints on operand values that keep the result defined (Csmith-style
// safe math). The generator draws inputs that satisfy them; the reference
// reports a violation as ErrorCode::Undefined instead of inventing a value.
enum class Domain {
  Any,
  Positive,    // > 0 (log of a float, rsqrt)
  NonZero,     // != 0 (intdiv divisor, reciprocal)
  NonNegative, // >= 0
  ShiftAmount, // 0 <= x < bit width of the element type
  Index,       // valid index into the gathered axis (gather)
  Finite,      // not Inf or NaN (conv weights, which may meet padding taps
               // that TOSA lets an implementation multiply: 0 * Inf)
};

struct AttrSpec {
  std::string name;
  AttrKind kind;
  std::optional<AttrValue> defaultValue; // nullopt: required
  std::string doc;
};

// Arguments of a reference kernel.
struct EvalArgs {
  const Node &node;
  std::vector<const Tensor *> operands;
  std::vector<TensorType> resultTypes; // declared types of the results
  Precision precision;

  const Attrs &attrs() const { return node.attrs; }
  const Tensor &in(size_t i) const { return *operands.at(i); }
  // A zeroed result buffer: floats are stored in f64 under Precision::F64
  // and in their declared dtype under Precision::Target; integers always
  // in their declared dtype.
  Tensor makeResult(size_t i = 0) const;
};

// Writes the TOSA text of one node into a func.func body.
class EmitContext {
public:
  // Major version of the MLIR whose TOSA syntax is written (22, or 19 for
  // Debian's mlir-19-tools); ops whose syntax differs check it.
  int syntaxVersion = 22;

  explicit EmitContext(const Graph &g, int syntaxVersion = 22);
  const Graph &graph() const { return g; }
  // SSA name of a graph value ("%x", "%v7").
  std::string name(ValueId v) const;
  std::string type(ValueId v) const { return g.typeOf(v).mlir(); }
  // A fresh SSA name for a helper value such as a shift constant.
  std::string fresh();
  // Emits `%c = "tosa.const"() ...` for a tensor and returns its name.
  std::string constant(const Tensor &t);
  // Appends one line of the body (indentation added here).
  void line(const std::string &text);
  const std::string &body() const { return text; }

private:
  const Graph &g;
  std::string text;
  int counter = 0;
};

// How an op's float results accumulate rounding error. The numeric oracle
// composes these along the graph into each output's tolerance.
struct Rounding {
  // Roundings, in ulps of the result dtype, that the op itself adds to one
  // result element: 0 when exact (data movement, max/min, compares, integer
  // ops), 1 for a correctly rounded elementwise op, the approximation bound
  // of a transcendental function (exp: 4 ulps), and the accumulation length
  // of a sum (matmul: C; conv2d: KH*KW*C, +1 for the bias; a reduction: its
  // axis size; avg_pool2d: the window, +1 for the division).
  double steps = 1;
  // Products only: how many factors each operand contributes to one product
  // term (mul, matmul, the convolutions: {1, 1}; reduce_product: {axis
  // size}). Relative errors of factors add, so the result inherits the sum
  // of factors[i] times operand i's error; unlisted operands (all of them
  // when this is empty) pass on the largest of their errors.
  std::vector<double> factors;

  using Rule = std::function<Rounding(const std::vector<TensorType> &operands,
                                      const Attrs &attrs)>;
  // A rule that does not depend on the operands.
  static Rule fixed(double steps, std::vector<double> factors = {}) {
    return [steps, factors](const std::vector<TensorType> &, const Attrs &) {
      return Rounding{steps, factors};
    };
  }
};

// The values one tensor may hold (OpDef::range): every element that is not
// NaN lies in [lo, hi] (the bounds may be infinite), and NaN occurs only when
// mayBeNaN. Integer ranges are exact results before any wrap-around, so a
// range beyond the result dtype says the op may be undefined there (TOSA
// leaves integer overflow and NaN cast to an integer undefined); rules of
// ops that wrap or saturate clip their range to the dtype themselves.
struct Interval {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool mayBeNaN = true;
};

// How the reference's magnitudes (interpret(), for the numeric oracle's
// cancellation bound) follow an op's float result.
enum class Magnitude {
  OfResult,   // |result|: the op starts afresh (division, compares, ...)
  OfOperands, // the op evaluated on its float operands' magnitudes: sums and
              // products add them up; data movement, negate, abs, casts
              // and select carry them
  AsAdd,      // add evaluated on them: |a - b| <= |a| + |b| (sub)
  // |result| + |f'(x)| * the operand's magnitude: an error in the operand
  // of a unary function, scaled by its slope (OpDef::slope). exp, sigmoid
  // and the like amplify their operand's relative error where they are
  // steep against their value.
  BySlope,
};

// What TOSA leaves open about an op's results (OpDef::freedoms). The
// reference evaluates one permitted choice and reports the others
// (interpret()'s Latitude); the numeric oracle accepts any of them.
struct Freedoms {
  // A zero float result may have either sign: results bounded by the
  // accuracy rules of sums and dot products (the bound does not tell -0.0
  // from +0.0) and the maximum or minimum of +0.0 and -0.0.
  bool zeroSign = false;
  // Elements whose float result is undefined (any value is permitted), as
  // a predicate over the element's operand values; elementwise ops only
  // (pow: a NaN operand, a negative base, a zero base with a non-positive
  // exponent). Empty: none.
  std::function<bool(const double *operands)> undefinedAt;
  // Elements of result 0 that a float operand moved within its permitted
  // error (`bound`: per operand, the absolute error of each element that
  // the numeric oracle permits, in f64; no bytes for an operand without
  // one) could
  // put on the other side of a step: floor, ceil, a cast to an integer, a
  // comparison, argmax. A compiler's value there is a permitted rounding
  // difference, not a miscompile, so the element is open. Empty: no step.
  std::function<std::vector<uint8_t>(const EvalArgs &args,
                                     const std::vector<Tensor> &bound)>
      openWithin;
};

// The operands on which integer minimum and maximum are defined: the op
// wraps, saturates, compares or moves them, with no overflow and no REQUIRE
// on their value. The input generator draws extremes only for those.
enum class IntExtremes { None, FirstOperand, AllOperands };

// Operand types the generator may feed an op (OpDef::sampleOperands).
struct OperandSample {
  std::vector<TensorType> types;
  // Bit i set: operand i must be a graph input or a constant, never an
  // intermediate value, because the op is undefined outside a value range
  // (integer overflow, a zero divisor, a shift or index out of range, a
  // negative pow base, a non-finite conv weight, NaN cast to an integer)
  // that only the input generator, through `domains`, can guarantee.
  uint32_t leafMask = 0;
};

struct OpDef {
  OpId id = OpId::Const;
  std::string name;    // as in JSON ("add", "conv2d"): opName(id), filled in
  std::string summary; // one line, for --help and docs
  // For the op reference (docs/OPS.md, `crosscheck ops`): the operands'
  // roles ("a, b", "input [N,H,W,C], weight [O,KH,KW,C], bias [O]"; empty:
  // x, or a, b, by arity) and what else a user must know of its semantics.
  std::string operandDoc, notes;
  int minOperands = 1;
  int maxOperands = 1; // -1: variadic (concat)
  int numResults = 1;
  // Element types allowed for the first operand (the op's input type).
  std::vector<DType> dtypes;
  std::vector<AttrSpec> attrs;
  // Per-operand value domains; missing entries mean Domain::Any.
  std::vector<Domain> domains;
  IntExtremes intExtremes = IntExtremes::None;
  Magnitude magnitude = Magnitude::OfResult;
  // Magnitude::BySlope: the derivative of the op's function at x, from x
  // and its value f(x).
  std::function<double(double x, double fx)> slope;
  // Sums or multiplies a whole window or axis (matmul, the convolutions,
  // reduce_sum, reduce_product, avg_pool2d): mixed-precision variants run
  // it in f32.
  bool accumulates = false;
  // Quantized variants run it on the integers and keep operand 0's scale
  // and zero point: its results are elements of operand 0 (data movement
  // that adds no value, max pooling).
  bool keepsQuantScale = false;
  // Each result element is a function of the operands' elements at its
  // index alone (an axis of size 1 broadcast): translation validation then
  // encodes one element at a time, at every size (smt/RefineSymbolic.cpp).
  bool elementwise = false;

  Freedoms freedoms;

  // Shape and type rule: result types from operand types and attributes, or
  // an error saying which constraint is violated.
  std::function<Expected<std::vector<TensorType>>(
      const std::vector<TensorType> &operands, const Attrs &attrs)>
      infer;
  // Reference semantics (TOSA 1.0).
  std::function<Expected<std::vector<Tensor>>(const EvalArgs &)> eval;
  // TOSA emission; an ErrorCode::Unsupported failure when this op (or this
  // use of it) cannot be expressed in ctx.syntaxVersion.
  std::function<Error(EmitContext &ctx, const Node &node)> emit;
  // Samples valid attributes for the given operand types (generators).
  // Optional: ops without attributes leave it empty.
  std::function<Attrs(Rng &rng, const std::vector<TensorType> &operands)>
      sampleAttrs;
  // Samples operand types the op accepts when operand 0 has dtype `d` (one
  // of `dtypes`), shaped after `hint` (an existing value's shape the
  // generator wants to consume) where the op allows it; nullopt when `d`
  // cannot be used. `sampleAttrs` then completes the node. Empty:
  // `minOperands` operands of type {d, hint}, none of them a forced leaf.
  std::function<std::optional<OperandSample>(Rng &rng, DType d,
                                             const Shape &hint)>
      sampleOperands;
  // Operand types of a small typical use whose data operands have dtype d
  // (one of `dtypes`): the op x dtype matrix, the coverage test and the
  // op reference. Empty: exampleOperands' default.
  std::function<std::vector<TensorType>(DType d)> example;
  // Numeric error behaviour of float results (see Rounding), called only
  // with operands and attributes (defaults filled in) that `infer` accepts.
  // Integer and boolean results are exact whatever it says; whether they
  // derive from floats (argmax, compares, casts) follows from the dtypes.
  // Empty: Rounding{}, one rounding.
  Rounding::Rule rounding;
  // Range of the (first) result from the operands' ranges, assuming the
  // operands meet `domains` (the generators check those separately). Sound:
  // every value the reference can compute lies inside. Empty: unknown, i.e.
  // any value of the result dtype (NaN included for floats).
  std::function<Interval(const std::vector<Interval> &operands,
                         const std::vector<TensorType> &operandTypes,
                         const Attrs &attrs)>
      range;

  const AttrSpec *attr(const std::string &n) const;
  Domain domain(size_t operand) const {
    return operand < domains.size() ? domains[operand] : Domain::Any;
  }
  bool allowsIntExtremes(size_t operand) const {
    return intExtremes == IntExtremes::AllOperands ||
           (intExtremes == IntExtremes::FirstOperand && operand == 0);
  }
  bool allows(DType t) const;
  // The result elements that freedoms.undefinedAt makes undefined for
  // these operands (broadcast as the op does); empty when there are none.
  std::vector<uint8_t> undefinedElements(const EvalArgs &args) const;
};

// The op reference as Markdown: the ops with their operands, attributes
// and notes, their rounding, what TOSA leaves open, and the op x dtype
// matrix (the generated part of docs/OPS.md; core/OpDocs.cpp).
std::string opReferenceMarkdown();

// `dense<...> : tensor<...>` for a tensor, exact for every dtype (NaN and
// infinities as hex bit patterns); a splat when all elements are equal.
std::string denseLiteral(const Tensor &t);

// The table, in the order of core/Ops.def.
const OpDef &opDef(OpId op);
const std::vector<OpDef> &allOps();
// By name, for names from outside a graph (flags, ONNX); null if none.
const OpDef *findOp(std::string_view name);

// Fills in declared attribute defaults that `attrs` lacks.
Attrs withDefaults(const OpDef &op, Attrs attrs);

// op.example(d), or by default minOperands operands: d[2,3,4], then
// d[1,3,4] (broadcast along the first dimension).
std::vector<TensorType> exampleOperands(const OpDef &op, DType d);
// A graph of one `op` node over inputs of exampleOperands(op, d), its
// attributes sampled with `seed` (a const holds a d[2,3] tensor of mixed
// values); an error when d is not one of the op's dtypes.
Expected<Graph> exampleGraph(const OpDef &op, DType d, uint64_t seed);

} // namespace cc
