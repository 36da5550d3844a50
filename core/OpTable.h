// The op table: one entry per operator, holding everything about it.
//
// Adding an operator touches exactly one place: its entry in one of the
// core/ops/*.cpp files. An entry holds the name and arity, allowed dtypes,
// attributes (with defaults and how to sample them), the shape and type rule
// (which also tells the generator what is valid), value-domain constraints,
// the reference semantics (TOSA 1.0) and the TOSA emission.
#pragma once

#include "core/Graph.h"
#include "core/Rng.h"

#include <functional>
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
  Positive,     // > 0 (log of a float, rsqrt)
  NonZero,      // != 0 (intdiv divisor, reciprocal)
  NonNegative,  // >= 0
  ShiftAmount,  // 0 <= x < bit width of the element type
  Index,        // valid index into the gathered axis (gather)
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

struct OpDef {
  std::string name;    // as in JSON ("add", "conv2d")
  std::string summary; // one line, for --help and docs
  int minOperands = 1;
  int maxOperands = 1; // -1: variadic (concat)
  int numResults = 1;
  // Element types allowed for the first operand (the op's input type).
  std::vector<DType> dtypes;
  std::vector<AttrSpec> attrs;
  // Per-operand value domains; missing entries mean Domain::Any.
  std::vector<Domain> domains;

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

  const AttrSpec *attr(const std::string &n) const;
  Domain domain(size_t operand) const {
    return operand < domains.size() ? domains[operand] : Domain::Any;
  }
  bool allows(DType t) const;
};

// `dense<...> : tensor<...>` for a tensor, exact for every dtype (NaN and
// infinities as hex bit patterns); a splat when all elements are equal.
std::string denseLiteral(const Tensor &t);

// The table. Lookup is by name; iteration is in a stable order.
const OpDef *findOp(const std::string &name);
const std::vector<OpDef> &allOps();

// Fills in declared attribute defaults that `attrs` lacks.
Attrs withDefaults(const OpDef &op, Attrs attrs);

} // namespace cc
