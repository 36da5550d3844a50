// Internal to the program generator (Program*.cpp): a small typed
// representation of MLIR values and an emitter that names SSA values, keeps
// the values in scope per region and prints ops as text.
#pragma once

#include "core/Rng.h"
#include "generators/Program.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cc::prog {

// --- tuning (one place; every value shapes what a seed gives) -------------
constexpr int64_t kMaxDim = 6;        // dims are in [1, kMaxDim]
constexpr int64_t kMaxElements = 256; // elements of any tensor
constexpr int kMaxRank = 4;
constexpr int kMaxArgs = 6;        // further operands are filled constants
constexpr int kMaxLoopTrips = 8;   // scf.for / scf.while trip counts
constexpr int kMaxRegionDepth = 2; // scf nested in scf
constexpr int kMaxResults = 6;

// Element types: the DTypes and index (inside the function only).
enum class Elt : uint8_t { i1, i8, i16, i32, i64, index, f16, bf16, f32, f64 };
bool isFloat(Elt e);
inline bool isInt(Elt e) { return !isFloat(e); }
int widthOf(Elt e); // index: 64
std::string eltName(Elt e);
Elt eltOf(DType d);
std::optional<DType> dtypeOf(Elt e); // nullopt for index

enum class Kind : uint8_t { Scalar, Vector, Tensor };

struct Type {
  Kind kind = Kind::Scalar;
  Elt elt = Elt::f32;
  Shape shape; // empty for scalars

  std::string str() const;
  Type with(Elt e) const { return {kind, e, shape}; }
  int64_t rank() const { return int64_t(shape.size()); }
  int64_t numElements() const { return cc::numElements(shape); }
  bool sameContainer(const Type &o) const {
    return kind == o.kind && shape == o.shape;
  }
  bool operator==(const Type &) const = default;
};
inline Type scalarT(Elt e) { return {Kind::Scalar, e, {}}; }
inline Type tensorT(Elt e, Shape s) { return {Kind::Tensor, e, std::move(s)}; }
inline Type vectorT(Elt e, Shape s) { return {Kind::Vector, e, std::move(s)}; }

struct Value {
  std::string name; // "%v12", "%v3#1"
  Type type;
};

// Values visible in one region. A body of a linalg op or tensor.generate
// sees only scalars from enclosing regions (`scalarsOnly`).
struct Scope {
  std::vector<Value> values;
  bool scalarsOnly = false;
};

// Whether an op name ("linalg.fill") counts as an op of the program (not a
// constant, tensor.empty, terminator or linalg.index).
bool countedOp(const std::string &name);

// In the order of programFamilies().
enum class Family { Linalg, Tensor, Scalar, Scf, Vector, Memref };

class Gen {
public:
  Gen(const ProgramOptions &options, uint64_t seed);
  Program run();

  Rng rng;
  ProgramOptions opt;
  std::vector<Elt> elts;             // the element types of tensors and vectors
  std::map<std::string, int> shapes; // Program::shapes

  // --- emission ------------------------------------------------------------
  // Prints "%vN = <rhs>" and adds the value to the current scope.
  Value def(const Type &t, const std::string &rhs, bool pool = true);
  std::string freshName();
  // Prints a line (an op's text, "}" ...) at the current indentation,
  // counting the op it starts with.
  void line(const std::string &text, int dedent = 0);
  // The values of the innermost region.
  const std::vector<Value> &local() const { return scopes.back().values; }
  void addValue(const Value &v) { scopes.back().values.push_back(v); }
  // A new function argument (in the outermost scope).
  Value newArg(Elt e, const Shape &shape);
  int argCount() const { return int(argTypes.size()); }
  // Prints "%vN:k = <rhs>"; the values are %vN#0 ...
  std::vector<Value> defN(const std::vector<Type> &ts, const std::string &rhs);
  // A fresh name for a block argument, added to the current scope.
  Value blockArg(const Type &t, bool pool = true);
  // The value's name, marking it used.
  std::string use(const Value &v);
  void openRegion(bool scalarsOnly); // a scope, indented
  void closeRegion();
  int emitted() const { return counted; }
  int depth() const { return int(scopes.size()) - 1; }

  // --- values --------------------------------------------------------------
  // Visible values that satisfy `pred`, innermost scope last.
  template <typename P> std::vector<Value> visible(P pred) const {
    std::vector<Value> out;
    bool onlyScalars = false;
    for (size_t i = scopes.size(); i-- > 0;) {
      for (const Value &v : scopes[i].values)
        if ((!onlyScalars || v.type.kind == Kind::Scalar) && pred(v))
          out.push_back(v);
      onlyScalars |= scopes[i].scalarsOnly;
    }
    return out;
  }
  // One of `vs`, preferring values nobody uses yet; nullopt when empty.
  std::optional<Value> choose(const std::vector<Value> &vs);
  bool unused(const Value &v) const;

  Elt randomElt();             // a tensor/vector element type
  bool allowed(Elt e) const;   // one of the options' element types
  Elt randomScalarElt();       // also index
  Shape randomShape(int rank); // dims in [1, kMaxDim], <= kMaxElements
  std::string constantText(Elt e, bool edge); // literal of a random value
  Value constant(const Type &t, const std::string &literal);
  Value randomConstant(const Type &t); // splat for vectors and tensors
  Value indexConst(int64_t v);
  Value intConst(const Type &t, int64_t v);

  // --- shared helpers (ProgramScalar.cpp) -----------------------------------
  // v converted elementwise to element type `to` (scalars and vectors):
  // casts, fptosi/fptoui guarded.
  Value convert(const Value &v, Elt to);
  // A value of type t: a visible one, a converted one or a constant.
  Value operand(const Type &t);
  // One random arith/math op on values of container `like` (scalar or
  // vector type; the element type is drawn). Returns its result.
  Value scalarOp(const Type &like);
  // n scalar ops, then a value of type `out` (converted if needed).
  Value scalarChain(const Type &out, int n);
  // A vector `v` as a vector transfer may move it to or from memory: of an
  // allowed element type other than i1 (converted if needed), or nothing.
  // MLIR lowers a vector<Nxi1> load or store to a bit-packed LLVM access of
  // memory that holds one byte per i1 (docs/PROGRAMS.md).
  std::optional<Value> storable(const Value &v);
  // A binary op that combines an accumulator with a value (reductions).
  Value combine(const Value &acc, const Value &x);
  // An index in [0, bound): static, or computed from visible data.
  Value dynIndex(int64_t bound, double dynamicChance = 0.5);
  // An i1 scalar from visible data (a comparison) or a visible i1.
  Value condition();
  // A scalar computed from data: a visible one or a tensor element.
  std::optional<Value> dataScalar();
  // tensor.extract of t at in-bounds indices.
  Value extract(const Value &t, double dynamicChance = 0.5);

  // --- tensors (ProgramLinalg.cpp) -----------------------------------------
  // A tensor of type t: a visible one, a new argument or a filled constant.
  Value needTensor(const Type &t);
  // tensor.empty + linalg.fill; out of the pool: used by its caller only.
  Value filled(const Type &t, bool pool = true);
  std::optional<Value> someTensor(int minRank = 0, int maxRank = kMaxRank,
                                  bool noI1 = false);

  // --- families --------------------------------------------------------------
  bool emitFamily(Family f);
  void emitSome(int ops); // about `ops` ops drawn by family weight (regions)

private:
  std::vector<std::string> lines;
  std::vector<Scope> scopes;
  std::set<std::string> usedNames;
  std::vector<TensorType> argTypes;
  std::vector<std::string> argNames;
  int next = 0;
  int counted = 0;
  int target = 0;

  void finish(Program &p);
  void writeWhole(const Value &v);
  std::string indentText() const;
};

// Family emitters' pieces, one file each.
bool emitLinalgOp(Gen &g);
bool emitTensorOp(Gen &g);
bool emitScalarOps(Gen &g);
bool emitScfOp(Gen &g);
bool emitVectorOps(Gen &g);
bool emitMemrefOps(Gen &g);

// Op emitters shared by the scalar ops and the rewrite shapes
// (ProgramScalar.cpp).
Value cmpi(Gen &g, const char *pred, const Value &a, const Value &b);
Value cmpf(Gen &g, const char *pred, const Value &a, const Value &b);
Value select(Gen &g, const Value &c, const Value &a, const Value &b);
Value binary(Gen &g, const std::string &op, const Value &a, const Value &b);
Value indexBinary(Gen &g, const std::string &op, const Value &a,
                  const Value &b); // index.add %a, %b: no type
Value castOp(Gen &g, const std::string &op, const Value &v, Elt to);
extern const char *const kCmpI[10]; // arith.cmpi / index.cmp predicates
extern const char *const kCmpF[16];
int64_t signedMin(Elt e);
// The rewrite shape `shape` ("shape.repeat") on `a` (ProgramShapes.cpp).
Value applyShape(Gen &g, const std::string &shape, const Value &a);

// Helpers shared by files.
std::string join(const std::vector<std::string> &xs, const std::string &sep);
std::string shapeText(const Shape &s); // "2, 3"
std::string typesText(const std::vector<Value> &vs);
std::string namesText(Gen &g, const std::vector<Value> &vs); // marks used
std::string floatLiteral(Elt e, double v); // exact bits, "0x3F800000"
std::string intLiteral(Elt e, int64_t v);  // "true"/"false" for i1
bool opChar(char c);
bool wordChar(char c);

} // namespace cc::prog
