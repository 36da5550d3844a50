// The encoder of MLIR functions into Z3 terms, internal to cc_smt: its
// state and the declarations its translation units share (the refinement
// query that uses it is in Refine.h). The bodies are in
//   EncodeTerms.cpp   sorts, constants, uninterpreted functions
//   EncodeFloat.cpp   float operations, abstract or IEEE
//   EncodeValues.cpp  values, shapes, broadcasting, region bodies
//   Encode.cpp        the dispatch of an op to the family of its dialect,
//                     calls, ops encoded as uninterpreted functions
// and one file per family, each with one table of its ops: EncodeArith.cpp
// (and EncodeMath.cpp: scalar semantics, per element), EncodeLinalg.cpp,
// EncodeTensor.cpp, EncodeTosa.cpp (and EncodeTosaKernels.cpp),
// EncodeMemref.cpp, EncodeScf.cpp (control flow: branches merged, loops
// unrolled), EncodeVector.cpp (vector values). The index dialect is encoded
// with arith (EncodeArith.cpp).
//
// Values are tensors of per-element terms (scalars are 0-d): static shapes,
// dynamic dimensions instantiated with small sizes (RefineSymbolic.cpp
// checks every size first, one symbolic element at a time). Integers are
// bit-vectors with exact semantics; every element carries a poison bit and the
// function an undefined-behaviour bit. Floats are first abstract (an
// uninterpreted sort; commutative operations take their operands in a canonical
// order and float sums of reductions are multisets, so reassociation is
// modelled), then Z3's IEEE theory when the abstract check finds a
// counterexample.
#pragma once

#include "smt/Internal.h"

#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <z3++.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace mlir {
class AffineExpr;
class Attribute;
class FloatType;
class ValueRange;
namespace arith {
enum class CmpFPredicate : uint64_t;
}
namespace scf {
class ForOp;
class WhileOp;
} // namespace scf
namespace affine {
class AffineForOp;
} // namespace affine
} // namespace mlir

namespace cc::smt::detail {

// Thrown by the encoder only, caught by checkFunctionPair: an op or type
// the encoding does not cover becomes `unknown` with this reason.
struct EncodeFailure {
  std::string reason;
};
[[noreturn]] void unsupported(const std::string &reason);
// Thrown by Encoder::encodeOp when encoding an op failed inside the
// encoder itself (a Z3 sort error, a bad access): an error naming the op,
// never a crash or a verdict.
struct EncodeBug {
  std::string message;
};
// "op '<name>'": an op no family encodes.
[[noreturn]] void unsupportedOp(mlir::Operation *op);

enum class FMode { Abstract, Ieee };

// One element: its value and its poison bit.
using Elem = std::pair<z3::expr, z3::expr>;

// A value: row-major elements with their poison bits; rank 0 for scalars.
struct SVal {
  std::vector<int64_t> shape;
  std::vector<z3::expr> v, p;
  // A memref argument: the array (index -> element) its elements select
  // from, so that symbolic loads stay one select.
  std::optional<z3::expr> array;
  int64_t size() const { return int64_t(v.size()); }
};

// A block of memory (an argument buffer, an allocation, a global, the
// storage of a tensor): arrays from a 64-bit element index to the element
// and to its poison bit (uninitialized memory is poison).
struct MemBlock {
  z3::expr v, p;
  int64_t size;
  bool writable;
  bool live = true;   // false after memref.dealloc
  bool owned = false; // allocated by the function (alloc/alloca): freeable
  // An argument's block may not be dereferenceable: an input Boolean,
  // the same on both sides; accessing it where it is false is undefined.
  std::optional<z3::expr> deref = std::nullopt;
};
// A memref: a strided view into a block, in elements. Sizes may be symbolic
// (a subview of dynamic size) until an op needs to iterate over them.
struct MemRef {
  int block;
  z3::expr offset;
  std::vector<z3::expr> sizes, strides;
  // The result of memref.alloc/alloca itself: only that may be freed (a
  // dealloc of a view, a subview or a cast, is undefined).
  bool allocation = false;
};

// Row-major shapes: element count, and flat index <-> multi-index.
int64_t product(const std::vector<int64_t> &s);
std::vector<int64_t> unflatten(int64_t i, const std::vector<int64_t> &s);
int64_t flatten(const std::vector<int64_t> &idx, const std::vector<int64_t> &s);

// Bounds of the per-element encoding: elements of one value, and points of
// one linalg iteration space (each point evaluates the body once).
constexpr int64_t kMaxElements = 1 << 16;
constexpr int64_t kMaxIterations = 1 << 18;

// tensor.concat and tosa.concat: the inputs one after another along `dim`.
SVal concatenate(const std::vector<SVal> &ins, int64_t dim);

// Facts about terms, by term id. An entry keeps its term alive, so that Z3
// does not give the id to another term, and is found for that term only.
template <typename V> class TermMap {
public:
  void set(const z3::expr &t, V v) {
    m.insert_or_assign(t.id(), std::pair{t, std::move(v)});
  }
  const V *find(const z3::expr &t) const {
    auto it = m.find(t.id());
    return it != m.end() && z3::eq(it->second.first, t) ? &it->second.second
                                                        : nullptr;
  }

private:
  std::unordered_map<unsigned, std::pair<z3::expr, V>> m;
};

// Integer maximum/minimum, its operands in one order (by term id) as
// Encoder::fmaxmin's: max(x, lo) and max(lo, x) are one term on both sides.
// The type's least value is max's identity and min's absorbing element
// (the greatest the reverse): a lowering that starts a maximum from the
// least value then computes the source's very term.
inline z3::expr imaxmin(z3::expr a, z3::expr b, bool isMax, bool isSigned) {
  if (a.id() > b.id())
    std::swap(a, b);
  if (z3::eq(a, b))
    return a;
  unsigned w = a.get_sort().bv_size();
  z3::expr least = isSigned ? a.ctx().bv_val(1, w).rotate_right(1).simplify()
                            : a.ctx().bv_val(0, w);
  z3::expr greatest = (least - 1).simplify();
  z3::expr identity = isMax ? least : greatest;
  z3::expr absorbing = isMax ? greatest : least;
  for (auto [x, y] : {std::pair{a, b}, std::pair{b, a}}) {
    if (z3::eq(x, identity))
      return y;
    if (z3::eq(x, absorbing))
      return x;
  }
  z3::expr aFirst = isSigned ? (isMax ? a > b : a < b)
                             : (isMax ? z3::ugt(a, b) : z3::ult(a, b));
  return z3::ite(aFirst, a, b);
}

// Calls visit(x) once for each application in the DAG of `e`, parents
// first; the children of x are visited only where it returns true.
template <typename Visit> void forEachNode(const z3::expr &e, Visit visit) {
  std::unordered_set<unsigned> seen;
  std::vector<z3::expr> todo{e};
  while (!todo.empty()) {
    z3::expr x = todo.back();
    todo.pop_back();
    if (!x.is_app() || !seen.insert(x.id()).second || !visit(x))
      continue;
    for (unsigned i = 0; i < x.num_args(); ++i)
      todo.push_back(x.arg(i));
  }
}

class Encoder {
public:
  Encoder(z3::context &c, FMode mode, const TvOptions &opts);

  z3::context &c;
  FMode mode;
  const TvOptions &opts;
  z3::expr ub;
  unsigned floatOps = 0;
  bool usedReassoc = false, usedUf = false, usedDynamic = false;
  bool usedMemrefResults = false; // compared by contents (encodeCall)
  // The math functions left uninterpreted (usedUf), by name ("tan").
  std::set<std::string> mathFns;
  // A NaN's bits or sign were read (bitcast, copysign): Z3 has one NaN.
  bool usedNaNBits = false;
  // The value of every term is the program's semantics: no uninterpreted
  // function or op, no sum left unordered, no NaN bits.
  bool exact() const {
    return !usedUf && !usedReassoc && !usedNaNBits && opaqueOps.empty();
  }
  // exact() for one term at one point (`vars` = `vals`): no sum in an
  // order of this encoding's choosing, and, there, no uninterpreted
  // function application left (exp(-inf) is exact) and no NaN bits.
  bool exactAt(const z3::expr &e, const z3::expr_vector &vars,
               const z3::expr_vector &vals) const;
  // The source of a query in IEEE mode: a zero result whose sign TOSA
  // leaves open (Freedoms::zeroSign) takes the sign a fresh Boolean of
  // `choices` picks, all false being one deterministic semantics. The
  // refinement query quantifies them universally (Refine.cpp). TOSA ops
  // read what TOSA leaves open from the op table (EncodeTosa.cpp).
  bool openChoices = false;
  std::vector<z3::expr> choices;
  // Whether this side's semantics may be opened by choices (the source, in
  // IEEE mode), and a fresh choice that stands for `freedom`, the words of
  // the verdict's "up to ..." (freedoms): what TOSA leaves open, the sign
  // of a maxnumf of two zeros, what a fast-math flag allows.
  bool canChoose() const { return openChoices && mode == FMode::Ieee; }
  z3::expr choose(const std::string &freedom);
  std::set<std::string> freedoms;
  std::string freedomsText() const;
  // Fast-math flags of the source whose freedom is not modelled (reassoc,
  // afn): a counterexample may be a value they allow (Counterexample.cpp).
  std::set<std::string> unmodelledFlags;
  llvm::DenseMap<mlir::Value, SVal> env;

  // ---- sorts, constants, uninterpreted functions (EncodeTerms.cpp) --------
  static bool isFloat(mlir::Type t);
  std::pair<unsigned, unsigned> fpBits(mlir::FloatType ft);
  z3::sort sortOf(mlir::Type t);
  z3::expr fpConst(double d, const z3::sort &s);
  z3::expr fpNaN(const z3::sort &s);
  z3::expr rne();
  z3::expr rtz();
  z3::expr isNaN(const z3::expr &a);
  // An abstract float constant: named by its bits, no facts about it.
  z3::expr floatBits(uint64_t bits, mlir::FloatType ft);
  z3::expr elemConst(mlir::Attribute a, mlir::Type elt);
  SVal constant(mlir::Attribute a, mlir::Type ty);
  z3::expr zeroOf(const z3::sort &s);
  z3::expr uf(const std::string &name, const std::vector<z3::expr> &args,
              const z3::sort &range);
  // Commutative abstract operations see their operands in a canonical order.
  z3::expr ufComm(const std::string &name, z3::expr a, z3::expr b,
                  const z3::sort &range);
  z3::expr boolToBv(const z3::expr &b);
  z3::expr bvTrue(const z3::expr &bv1);
  // An i1 value as a Boolean; branching on poison is undefined.
  z3::expr branchCondition(mlir::Value v);

  // ---- float operations (EncodeFloat.cpp) ---------------------------------
  z3::expr fadd(const z3::expr &a, const z3::expr &b);
  z3::expr fmul(const z3::expr &a, const z3::expr &b);
  z3::expr fsub(const z3::expr &a, const z3::expr &b);
  z3::expr fdiv(const z3::expr &a, const z3::expr &b);
  z3::expr fneg(const z3::expr &a);
  z3::expr fabs(const z3::expr &a);
  // IEEE maximum/minimum: NaN propagates, -0 < +0. With propagateNaN false
  // (maxnum, TOSA nan_mode IGNORE) a NaN operand yields the other one.
  // With openTie (arith's maxnumf and minnumf: "If the arguments are -0.0
  // and +0.0, then the result is either of them"), the source's choice
  // picks which zero.
  z3::expr fmaxmin(const z3::expr &a, const z3::expr &b, bool isMax,
                   bool propagateNaN, bool openTie = false);
  // ---- fast-math flags of arith and math ops (EncodeFastMath.cpp) ---------
  // One element of `op` from `exact` under the op's flags: nnan and ninf
  // make a NaN or infinite operand or result poison; in the source, nsz
  // opens the signs of zero operands and results, arcp lets a division be
  // a multiplication by the reciprocal (LLVM's LangRef, as Alive2 reads
  // it). The target computes the exact result, one of its behaviours.
  Elem withFastMath(mlir::Operation *op, const std::vector<z3::expr> &a,
                    const std::vector<z3::expr> &pa,
                    llvm::function_ref<Elem(const std::vector<z3::expr> &,
                                            const std::vector<z3::expr> &)>
                        exact);
  // After `op` (an addf or subf) is encoded: where it and the mulf of an
  // operand both carry `contract`, the source may compute the fused
  // multiply-add instead.
  void contractFastMath(mlir::Operation *op);
  z3::expr fcmp(mlir::arith::CmpFPredicate pred, const z3::expr &a,
                const z3::expr &b);
  z3::expr roundToIntegral(const z3::expr &rm, const z3::expr &a);
  // A named math function: uninterpreted in both modes (exact where IEEE
  // defines it: sqrt, rounding, fma).
  z3::expr mathFn(const std::string &name, const std::vector<z3::expr> &args);
  z3::expr fcast(const z3::expr &a, mlir::Type to);
  z3::expr intToFloat(const z3::expr &a, mlir::Type to, bool isSigned);
  // Float to integer, rounding toward zero (arith) or to nearest even
  // (TOSA); `outOfRange` receives the condition of a NaN/Inf/overflow.
  z3::expr floatToInt(const z3::expr &a, unsigned w, bool isSigned,
                      bool nearest, z3::expr &outOfRange);
  // arith.bitcast. A float made from bits gives those bits back exactly;
  // other floats give their IEEE encoding, and a NaN one fixed NaN
  // pattern per width, unknown (Z3 has one NaN; LLVM leaves the payload
  // of a computed NaN open).
  z3::expr bitsToFloat(const z3::expr &bits, mlir::Type to);
  z3::expr floatToBits(const z3::expr &a, unsigned ebits, unsigned sbits);
  TermMap<z3::expr> floatFromBits; // a float made from bits: the bits
  // The abstract constants 1.0: 1.0 * x is x in IEEE, NaN and the signs of
  // zeros and infinities included, so fmul drops them.
  TermMap<bool> ones;
  // C's special values of exp, log and pow around their uninterpreted
  // function, in IEEE mode (EncodeFloat.cpp).
  z3::expr transcendental(const std::string &name,
                          const std::vector<z3::expr> &args,
                          const z3::expr &rest);
  // A float sum of terms; abstract sums are multisets (EncodeFloat.cpp).
  z3::expr fsum(const std::vector<z3::expr> &in);
  const std::vector<z3::expr> *sumLeaves(const z3::expr &t) const;
  z3::expr narrowed(const z3::expr &sum, const z3::sort &s);
  // The abstract sums built so far and their terms.
  TermMap<std::vector<z3::expr>> sumTerms;
  // Abstract casts of a sum to a narrower float: the sum.
  TermMap<z3::expr> narrowedSums;
  // IEEE sums of more than two terms and products of more than one, in an
  // order of this encoding's choosing, and their operands.
  TermMap<std::vector<z3::expr>> orderedTerms;

  // ---- values, shapes, bodies (EncodeValues.cpp) --------------------------
  SVal &get(mlir::Value v);
  // Index arguments the query fixes (TvOptions::indexArgValues): sizes and
  // offsets that read them are concrete.
  z3::expr_vector pinVars{c}, pinVals{c};
  z3::expr pinned(const z3::expr &e);
  int64_t concreteIndex(const z3::expr &e);
  int64_t concreteIndex(mlir::Value v);
  // Shape of a value of type `t`: dynamic dims take the instantiated sizes
  // (TvOptions::argDimSizes, in the order met, where set).
  std::vector<int64_t> argShape(mlir::Type t);
  size_t dynamicDimsMet = 0;
  // Result shape: static dims of the type; dynamic ones from `dynSizes`.
  std::vector<int64_t> resultShape(mlir::Type t, mlir::ValueRange dynSizes);
  SVal fresh(const std::string &prefix, mlir::Type t);
  SVal undef(std::vector<int64_t> shape, mlir::Type elt);
  // Element at possibly symbolic indices; out of bounds is UB.
  Elem at(const SVal &t, const std::vector<z3::expr> &idx);
  // The same, `outside` where the indices are out of bounds (no UB: the
  // caller decides).
  Elem atOr(const SVal &t, const std::vector<z3::expr> &idx,
            const Elem &outside);
  SVal scalar(z3::expr v, z3::expr p);
  // The values of scalars (indices, sizes); their poison is or-ed into
  // `poison`.
  std::vector<z3::expr> scalarValues(mlir::ValueRange vs, z3::expr &poison);
  SVal indexVal(int64_t i);
  // Runs a single-block body with scalar block arguments at `point` of an
  // iteration space and returns the yielded elements.
  std::vector<Elem> evalBody(mlir::Block &body, const std::vector<SVal> &args,
                             const std::vector<int64_t> &point);
  const std::vector<int64_t> *curPoint = nullptr;
  // The point of a body evaluated at symbolic indices (RefineSymbolic.cpp):
  // linalg.index reads it where curPoint is not set.
  const std::vector<z3::expr> *symPoint = nullptr;
  // Elementwise ops with broadcasting (arith on tensors, TOSA).
  SVal broadcastTo(const SVal &a, const std::vector<int64_t> &shape);
  std::vector<int64_t> broadcastShape(const std::vector<SVal> &xs);
  using ElemFn = std::function<Elem(const std::vector<z3::expr> &,
                                    const std::vector<z3::expr> &)>;
  SVal elementwise(const std::vector<SVal> &ins, const ElemFn &fn);
  // Memref operands give an empty value (their view is in `refs`).
  std::vector<SVal> operandsOf(mlir::Operation *op);
  void bind(mlir::Value v, SVal s);

  // ---- memory (EncodeMemref.cpp) ------------------------------------------
  std::vector<MemBlock> mem;
  llvm::DenseMap<mlir::Value, MemRef> refs;
  std::map<unsigned, int> argBlocks; // memref argument -> its block
  // Per argument, the earlier memref argument whose block it shares (-1:
  // its own): aliased arguments.
  std::vector<int> aliasOf;
  std::map<std::string, int> globals; // memref.global -> its block
  MemRef &ref(mlir::Value v);
  int newBlock(z3::expr v, z3::expr p, int64_t size, bool writable,
               bool owned = false);
  // Binds by value: the argument is a copy before the map may grow (a
  // reference into the same map would dangle).
  void bindRef(mlir::Value v, MemRef m);
  MemRef identityView(int block, const std::vector<int64_t> &shape);
  int blockOf(const SVal &contents, mlir::Type elt, bool writable);
  void bindArgument(unsigned index, mlir::BlockArgument a,
                    const SVal &contents);
  SVal loadView(const MemRef &m);
  void storeView(const MemRef &m, const SVal &s);
  Elem load(const MemRef &m, const std::vector<z3::expr> &idx);
  void store(const MemRef &m, const std::vector<z3::expr> &idx,
             const z3::expr &v, const z3::expr &p);
  z3::expr address(const MemRef &m, const std::vector<z3::expr> &idx);
  std::vector<int64_t> concreteSizes(const MemRef &m);
  z3::expr affine(mlir::AffineExpr e, const std::vector<z3::expr> &dims,
                  const std::vector<z3::expr> &syms);

  // ---- ops ----------------------------------------------------------------
  // Encode.cpp: the dispatch of an op to the family of its dialect, calls.
  void encodeOp(mlir::Operation *op);
  std::vector<SVal> encodeCall(mlir::func::FuncOp f,
                               const std::vector<SVal> &args, int depth);
  int callDepth = 0;
  std::set<std::string> opaqueOps; // ops encoded as uninterpreted functions
  // The families: each encodes the ops of its dialects (one table of ops
  // each) and rejects the others with unsupportedOp.
  void encodeArithMath(mlir::Operation *op); // EncodeArith.cpp (and llvm)
  void encodeCast(mlir::Operation *op);      // Encode.cpp
  void encodeLinalg(mlir::Operation *op);    // EncodeLinalg.cpp
  void encodeTensor(mlir::Operation *op);    // EncodeTensor.cpp (and shape)
  void encodeMemref(mlir::Operation *op);    // EncodeMemref.cpp (and
                                             // bufferization, affine)
  void encodeTosa(mlir::Operation *op);      // EncodeTosa.cpp
  void encodeFunc(mlir::Operation *op);      // Encode.cpp
  void encodeScf(mlir::Operation *op);       // EncodeScf.cpp
  void encodeVector(mlir::Operation *op);    // EncodeVector.cpp
  // A loop unrolled to TvOptions::loopBound may run longer on some input
  // (EncodeScf.cpp): a check is then bounded.
  z3::expr pastBound;
  // TOSA's compute kernels (EncodeTosaKernels.cpp), after encodeTosa's own.
  void encodeTosaKernel(mlir::Operation *op, const std::vector<SVal> &ins);
  // The result element of a math op on one element per operand, poison
  // where `p` is (EncodeMath.cpp).
  Elem mathOp(mlir::Operation *op, const std::vector<z3::expr> &a,
              const z3::expr &p);

private:
  // scf (EncodeScf.cpp): a region's effects kept where a guard holds.
  struct PathState;
  PathState savePath();
  void mergePath(const z3::expr &g, const PathState &before);
  std::vector<SVal> runRegion(mlir::Region &region,
                              const std::vector<SVal> &args);
  // Region bodies encoded so far: nested loops multiply, so the unrolling
  // has one budget for the whole function (kMaxRegionRuns, EncodeScf.cpp).
  int64_t regionRuns = 0;
  std::vector<SVal> runGuarded(const z3::expr &g, mlir::Region &region,
                               const std::vector<SVal> &args);
  void encodeFor(mlir::scf::ForOp loop);
  void encodeWhile(mlir::scf::WhileOp loop);
  void encodeAffineFor(mlir::affine::AffineForOp loop);
  void encodeKnownOp(mlir::Operation *op);
  bool opaqueOp(mlir::Operation *op);
  bool opaqueResults(const std::string &what, mlir::Operation *op);
};

// TOSA's nan_mode: PROPAGATE (the default) or IGNORE (EncodeTosa.cpp).
bool propagatesNaN(mlir::Operation *op);
// Whether the op table says a TOSA op is elementwise (OpDef::elementwise).
bool tosaElementwise(mlir::Operation *op);

} // namespace cc::smt::detail
