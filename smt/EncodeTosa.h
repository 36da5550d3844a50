// The encoding of one TOSA op (EncodeTosa*.cpp): its operands, its
// element types and the helpers the semantics of TOSA's ops share.
// Internal to smt/.
#pragma once

#include "smt/Encoder.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Types.h"

#include <functional>
#include <string>
#include <vector>

namespace cc::smt::detail::tosaops {

using mlir::Operation;
using mlir::Type;
using Exprs = std::vector<z3::expr>;
using BinaryFn = z3::expr (*)(const z3::expr &, const z3::expr &);

struct Tosa {
  Tosa(Encoder &e, Operation *op);

  Encoder &e;
  z3::context &c;
  Operation *op;
  std::string n; // the op's name without "tosa."
  Type rt, elt;  // the result type and its element type
  Type inElt;    // the element type of the first operand
  bool fl;       // float operands
  std::vector<SVal> ins;

  void set(SVal r) { e.env[op->getResult(0)] = std::move(r); }
  z3::expr anyP(const Exprs &p);
  // An elementwise op whose result is poison where an operand is.
  void ew(std::vector<SVal> xs, std::function<z3::expr(const Exprs &)> f);
  void bin(std::function<z3::expr(const z3::expr &, const z3::expr &)> f);
  void un(std::function<z3::expr(const z3::expr &)> f);
  // Integer add, sub, abs and negate are TOSA's apply_add_s / apply_sub_s:
  // a result outside the type's range fails a REQUIRE, which (as for
  // apply_scale) makes the element poison; the reference refuses it too.
  void ewRequire(std::vector<SVal> xs, std::function<Elem(const Exprs &)> f);
  bool isZeroConst(const SVal &s);
  z3::expr isMin(const z3::expr &a);
  int64_t intAttr(const char *name);
  std::vector<int64_t> shapeOperand(unsigned i);
  // The result of `shape` whose element at idx is the first operand's at
  // src(idx); outside the operand is undefined.
  void gather(std::vector<int64_t> shape,
              std::function<std::vector<int64_t>(std::vector<int64_t>)> src);
};

// EncodeTosaMovement.cpp: data movement and reductions.
void reshape(Tosa &t);
void transpose(Tosa &t);
void slice(Tosa &t);
void pad(Tosa &t);
void reverse(Tosa &t);
void tile(Tosa &t);
// How a reduction folds two elements.
enum class Fold { Sum, Product, Max, Min, Any, All };
void reduce(Tosa &t, Fold f);

// EncodeTosaFreedoms.cpp: what the op table says TOSA leaves open about
// the op's results (OpDef::freedoms), applied to its encoded results.
void encodeFreedoms(Tosa &t);

} // namespace cc::smt::detail::tosaops
