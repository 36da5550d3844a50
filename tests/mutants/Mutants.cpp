// Deliberately wrong passes over TOSA IR (tests only; those of mid-level
// programs are in ProgramMutants.cpp). Each one matches TOSA
// ops by name and rebuilds them generically, so this file needs no TOSA
// headers and follows the MLIR 22 TOSA 1.0 operand layout:
//   mul(a, b, shift), slice(x, start, size) with tosa.const_shape operands,
//   rescale(x, multiplier, shift, input_zp, output_zp), const {values}.
#include "tests/mutants/Internal.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

#include <algorithm>
#include <climits>
#include <csignal>
#include <iterator>
#include <memory>
#include <utility>

namespace cc {

namespace {
using namespace mlir;
using namespace mutants;

// x * 0 -> 0 on floats: wrong for x = NaN or +-Inf (and loses -0).
void mulByZero(Operation *root) {
  for (Operation *op : opsNamed(root, "tosa.mul")) {
    RankedTensorType type = floatTensor(op->getResult(0));
    if (!type)
      continue;
    for (int i = 0; i < 2; ++i) {
      DenseElementsAttr c = constantOf(op->getOperand(i));
      if (c && c.isSplat() && c.getSplatValue<APFloat>().isZero()) {
        OpBuilder b(op);
        replace(op, constant(b, op->getLoc(), zeros(type)));
        break;
      }
    }
  }
}

// (a + b) - b -> a on floats: wrong under rounding and for b = +-Inf.
void addSubCancel(Operation *root) {
  for (Operation *op : opsNamed(root, "tosa.sub")) {
    if (!floatTensor(op->getResult(0)))
      continue;
    Operation *add = definedBy(op->getOperand(0), "tosa.add");
    if (!add)
      continue;
    Value b = op->getOperand(1);
    Value a = add->getOperand(1) == b   ? add->getOperand(0)
              : add->getOperand(0) == b ? add->getOperand(1)
                                        : Value();
    if (a && a.getType() == op->getResult(0).getType())
      replace(op, a);
  }
}

// a - b -> b - a.
void swapSub(Operation *root) {
  for (Operation *op : opsNamed(root, "tosa.sub")) {
    Value a = op->getOperand(0);
    op->setOperand(0, op->getOperand(1));
    op->setOperand(1, a);
  }
}

// Moves a slice window by one element along its first movable axis.
void sliceOffByOne(Operation *root) {
  for (Operation *op : opsNamed(root, "tosa.slice")) {
    auto type = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    DenseElementsAttr start = constantOf(op->getOperand(1), "tosa.const_shape");
    DenseElementsAttr size = constantOf(op->getOperand(2), "tosa.const_shape");
    if (!type || !start || !size)
      continue;
    SmallVector<int64_t> s(start.getValues<int64_t>());
    SmallVector<int64_t> n(size.getValues<int64_t>());
    // Forward where the window fits, else backward.
    int64_t axis = -1, step = 1;
    for (size_t d = 0; d < s.size() && axis < 0; ++d)
      if (s[d] + n[d] < type.getDimSize(d))
        axis = int64_t(d);
    for (size_t d = 0; d < s.size() && axis < 0; ++d)
      if (s[d] > 0)
        axis = int64_t(d), step = -1;
    if (axis < 0)
      continue;
    s[axis] += step;
    OpBuilder b(op);
    auto values = DenseIntElementsAttr::get(start.getType(), s);
    op->setOperand(1, build(b, op->getLoc(), "tosa.const_shape", {},
                            op->getOperand(1).getType(), values));
  }
}

// float -> int casts truncate toward zero instead of rounding to nearest
// even: the cast input becomes select(x >= 0, floor(x), ceil(x)).
void castTruncates(Operation *root) {
  for (Operation *op : opsNamed(root, "tosa.cast")) {
    Value x = op->getOperand(0);
    RankedTensorType in = floatTensor(x);
    auto out = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!in || !out || !out.getElementType().isInteger() ||
        out.getElementType().isInteger(1))
      continue;
    OpBuilder b(op);
    Location loc = op->getLoc();
    auto scalarType = RankedTensorType::get(
        SmallVector<int64_t>(in.getRank(), 1), in.getElementType());
    Value zero = constant(b, loc, zeros(scalarType));
    auto boolType = RankedTensorType::get(in.getShape(), b.getI1Type());
    Value positive = build(b, loc, "tosa.greater_equal", {x, zero}, boolType);
    Value down = build(b, loc, "tosa.floor", {x}, in);
    Value up = build(b, loc, "tosa.ceil", {x}, in);
    op->setOperand(0, build(b, loc, "tosa.select", {positive, down, up}, in));
  }
}

// clamp(x) -> x.
void dropClamp(Operation *root) {
  for (Operation *op : opsNamed(root, "tosa.clamp"))
    if (op->getOperand(0).getType() == op->getResult(0).getType())
      replace(op, op->getOperand(0));
}

// Uses the inverse permutation, where that keeps the result type.
void invertTranspose(Operation *root) {
  for (Operation *op : opsNamed(root, "tosa.transpose")) {
    auto perms = op->getAttrOfType<DenseI32ArrayAttr>("perms");
    auto in = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    auto out = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!perms || !in || !out)
      continue;
    ArrayRef<int32_t> p = perms.asArrayRef();
    SmallVector<int32_t> inverse(p.size());
    for (size_t i = 0; i < p.size(); ++i)
      inverse[p[i]] = int32_t(i);
    bool sameType = true;
    for (size_t i = 0; i < p.size(); ++i)
      sameType &= in.getDimSize(inverse[i]) == out.getDimSize(i);
    if (sameType && ArrayRef<int32_t>(inverse) != p)
      op->setAttr("perms", DenseI32ArrayAttr::get(op->getContext(), inverse));
  }
}

// Replaces a non-zero input (else output) zero point of a rescale by 0.
void dropRescaleZeroPoint(Operation *root) {
  for (Operation *op : opsNamed(root, "tosa.rescale")) {
    for (unsigned i : {3u, 4u}) {
      if (op->getNumOperands() <= i)
        break;
      DenseElementsAttr zp = constantOf(op->getOperand(i));
      if (!zp || !zp.getElementType().isInteger() || !zp.isSplat() ||
          zp.getSplatValue<APInt>().isZero())
        continue;
      OpBuilder b(op);
      op->setOperand(i, constant(b, op->getLoc(), zeros(zp.getType())));
      break;
    }
  }
}

// A tosa.const_shape holding `values` (a !tosa.shape<N>).
Value shapeConst(OpBuilder &b, Location loc, ArrayRef<int64_t> values) {
  MLIRContext *ctx = b.getContext();
  Type shapeType =
      parseType("!tosa.shape<" + std::to_string(values.size()) + ">", ctx);
  auto attrType =
      RankedTensorType::get({int64_t(values.size())}, IndexType::get(ctx));
  return build(b, loc, "tosa.const_shape", {}, shapeType,
               DenseIntElementsAttr::get(attrType, values));
}

RankedTensorType withShape(RankedTensorType t, ArrayRef<int64_t> shape) {
  return RankedTensorType::get(shape, t.getElementType());
}

// tosa.slice of `x` (static shapes).
Value slice(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> start,
            ArrayRef<int64_t> size) {
  auto t = cast<RankedTensorType>(x.getType());
  return build(b, loc, "tosa.slice",
               {x, shapeConst(b, loc, start), shapeConst(b, loc, size)},
               withShape(t, size));
}

// A float splat constant of `rank` ones-sized dims (broadcasts anywhere).
Value floatSplat(OpBuilder &b, Location loc, Type elt, int64_t rank, double v) {
  auto t = RankedTensorType::get(SmallVector<int64_t>(rank, 1), elt);
  return constant(
      b, loc,
      DenseElementsAttr::get(t, ArrayRef<Attribute>(FloatAttr::get(elt, v))));
}

// Float x * c (TOSA 1.0 mul takes a shift operand, 0 for floats).
Value mulBy(OpBuilder &b, Location loc, Value x, double c) {
  auto t = cast<RankedTensorType>(x.getType());
  auto shiftType = RankedTensorType::get({1}, b.getI8Type());
  Value shift = constant(b, loc, zeros(shiftType));
  return build(
      b, loc, "tosa.mul",
      {x, floatSplat(b, loc, t.getElementType(), t.getRank(), c), shift}, t);
}

RankedTensorType retype(RankedTensorType t, Type elt) {
  return RankedTensorType::get(t.getShape(), elt);
}

bool isAnyOf(Operation *op, ArrayRef<StringRef> names) {
  return llvm::is_contained(names, op->getName().getStringRef());
}

SmallVector<Operation *> opsNamedAnyOf(Operation *root,
                                       ArrayRef<StringRef> names) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (isAnyOf(op, names))
      ops.push_back(op);
  });
  return ops;
}

// Elementwise binary ops whose operands broadcast (size-1 axes).
constexpr StringRef kBroadcastingOps[] = {"tosa.add",
                                          "tosa.sub",
                                          "tosa.mul",
                                          "tosa.maximum",
                                          "tosa.minimum",
                                          "tosa.pow",
                                          "tosa.intdiv",
                                          "tosa.bitwise_and",
                                          "tosa.bitwise_or",
                                          "tosa.bitwise_xor",
                                          "tosa.equal",
                                          "tosa.greater",
                                          "tosa.greater_equal",
                                          "tosa.logical_and",
                                          "tosa.logical_or",
                                          "tosa.logical_xor",
                                          "tosa.logical_left_shift",
                                          "tosa.arithmetic_right_shift"};

// A fused elementwise op reads its broadcast operand through an indexing
// map with the constant 0 on every axis, not only on its size-1 axes: the
// operand [1,3,1] of a [2,3,4] result acts as its first element. (A splat
// constant reads the same everywhere, so it is left alone.)
void broadcastFirst(Operation *root) {
  for (Operation *op : opsNamedAnyOf(root, kBroadcastingOps)) {
    auto out = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!out)
      continue;
    for (unsigned i : {0u, 1u}) {
      auto t = dyn_cast<RankedTensorType>(op->getOperand(i).getType());
      auto other = dyn_cast<RankedTensorType>(op->getOperand(1 - i).getType());
      if (!t || !other || t.getRank() != out.getRank() ||
          other.getShape() != out.getShape() ||
          t.getShape() == out.getShape() ||
          llvm::all_of(t.getShape(), [](int64_t d) { return d == 1; }))
        continue;
      if (DenseElementsAttr c = constantOf(op->getOperand(i)); c && c.isSplat())
        continue;
      OpBuilder b(op);
      SmallVector<int64_t> zero(t.getRank(), 0), one(t.getRank(), 1);
      op->setOperand(i, slice(b, op->getLoc(), op->getOperand(i), zero, one));
      break;
    }
  }
}

// A reduction runs over the wrong axis (the first other axis longer than
// 1); its [.., 1 at a', ..] result is then fitted to the declared type by
// taking index 0 of the real axis and broadcasting along the wrong one.
void reduceAxis(Operation *root) {
  for (Operation *op :
       opsNamedAnyOf(root, {"tosa.reduce_sum", "tosa.reduce_max",
                            "tosa.reduce_min", "tosa.reduce_product",
                            "tosa.reduce_all", "tosa.reduce_any"})) {
    auto in = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    auto axisAttr = op->getAttrOfType<IntegerAttr>("axis");
    if (!in || !axisAttr || !in.hasStaticShape())
      continue;
    int64_t axis = axisAttr.getInt(), wrong = -1;
    for (int64_t d = 0; d < in.getRank() && wrong < 0; ++d)
      if (d != axis && in.getDimSize(d) > 1)
        wrong = d;
    if (wrong < 0)
      continue;
    OpBuilder b(op);
    Location loc = op->getLoc();
    SmallVector<int64_t> shape(in.getShape());
    shape[wrong] = 1;
    SmallVector<NamedAttribute> attrs(op->getAttrs());
    for (NamedAttribute &a : attrs)
      if (a.getName() == "axis")
        a.setValue(IntegerAttr::get(axisAttr.getType(), wrong));
    Value r = build(b, loc, op->getName().getStringRef(), op->getOperand(0),
                    withShape(in, shape), attrs);
    SmallVector<int64_t> start(in.getRank(), 0), size(shape);
    size[axis] = 1;
    Value s = slice(b, loc, r, start, size);
    SmallVector<int64_t> multiples(in.getRank(), 1);
    multiples[wrong] = in.getDimSize(wrong);
    replace(op, build(b, loc, "tosa.tile", {s, shapeConst(b, loc, multiples)},
                      op->getResult(0).getType(), ArrayRef<NamedAttribute>{}));
  }
}

// f32 -> bf16 rounding loses the carry out of the mantissa: a value just
// below a power of two that rounds up to it (0.49999997 -> 0.5) gets the
// exponent of the truncated value (0.25).
void bf16Carry(Operation *root) {
  for (Operation *op : opsNamed(root, "tosa.cast")) {
    RankedTensorType in = floatTensor(op->getOperand(0));
    RankedTensorType out = floatTensor(op->getResult(0));
    if (!in || !out || !in.getElementType().isF32() ||
        !out.getElementType().isBF16())
      continue;
    OpBuilder b(op->getBlock(), std::next(op->getIterator()));
    Location loc = op->getLoc();
    Value x = op->getOperand(0), r = op->getResult(0);
    auto boolType = retype(in, b.getI1Type());
    auto toF32 = [&](Value v) { return build(b, loc, "tosa.cast", v, in); };
    auto toBf16 = [&](Value v) { return build(b, loc, "tosa.cast", v, out); };
    Value r32 = toF32(r);
    Value ar = build(b, loc, "tosa.abs", r32, in);
    Value ax = build(b, loc, "tosa.abs", x, in);
    Value up = build(b, loc, "tosa.greater", {ar, ax}, boolType);
    // |r| is a power of two iff the bf16 below it is |r| * (1 - 2^-8) (the
    // spacing halves below a power of two): every step here is exact.
    Value below = toF32(toBf16(mulBy(b, loc, ar, 1.0 - 1.0 / 256)));
    Value step = build(b, loc, "tosa.sub", {ar, below}, in);
    Value pow2 = build(b, loc, "tosa.greater_equal",
                       {ar, mulBy(b, loc, step, 256)}, boolType);
    Value carry = build(b, loc, "tosa.logical_and", {up, pow2}, boolType);
    Value wrong =
        build(b, loc, "tosa.select", {carry, mulBy(b, loc, r32, 0.5), r32}, in);
    Value result = toBf16(wrong);
    r.replaceAllUsesExcept(result, r32.getDefiningOp());
  }
}

// Off-by-one in pooling and convolution padding: one row (else column) of
// padding moves from the bottom to the top (SAME padding split on the wrong
// side); the output shape stays the same.
void padShift(Operation *root) {
  for (Operation *op :
       opsNamedAnyOf(root, {"tosa.avg_pool2d", "tosa.max_pool2d", "tosa.conv2d",
                            "tosa.depthwise_conv2d"})) {
    auto padAttr = op->getAttrOfType<DenseI64ArrayAttr>("pad");
    auto kernel = op->getAttrOfType<DenseI64ArrayAttr>("kernel");
    if (!padAttr || padAttr.size() != 4)
      continue;
    SmallVector<int64_t> pad(padAttr.asArrayRef());
    for (int axis : {0, 1}) {
      int64_t &lo = pad[2 * axis], &hi = pad[2 * axis + 1];
      int64_t delta = hi > 0 ? 1 : lo > 0 ? -1 : 0;
      // Pooling needs each pad below the kernel size.
      int64_t limit = kernel ? kernel[axis] : INT64_MAX;
      if (delta == 0 || lo + delta >= limit || hi - delta >= limit)
        continue;
      lo += delta;
      hi -= delta;
      op->setAttr("pad", DenseI64ArrayAttr::get(op->getContext(), pad));
      break;
    }
  }
}

// Sign error when folding a negate into add/sub: x - (-y) -> x - y and
// x + (-y) -> x + y (the op kind is not flipped).
void negateFold(Operation *root) {
  for (Operation *op : opsNamedAnyOf(root, {"tosa.sub", "tosa.add"})) {
    for (unsigned i : {0u, 1u}) {
      Operation *neg = definedBy(op->getOperand(i), "tosa.negate");
      if (neg && neg->getOperand(0).getType() == op->getOperand(i).getType()) {
        op->setOperand(i, neg->getOperand(0));
        break;
      }
    }
  }
}

// x - x -> 0 on floats: wrong for x = NaN or +-Inf.
void subSelf(Operation *root) {
  for (Operation *op : opsNamed(root, "tosa.sub")) {
    RankedTensorType type = floatTensor(op->getResult(0));
    if (type && op->getOperand(0) == op->getOperand(1)) {
      OpBuilder b(op);
      replace(op, constant(b, op->getLoc(), zeros(type)));
    }
  }
}

// Bit width and kind of a tensor's elements; 0 for i1 and the rest.
std::pair<unsigned, bool> widthAndFloat(Type t) {
  auto r = dyn_cast<RankedTensorType>(t);
  if (!r)
    return {0, false};
  Type e = r.getElementType();
  if (auto f = dyn_cast<FloatType>(e))
    return {f.getWidth(), true};
  if (e.isInteger() && !e.isInteger(1))
    return {e.getIntOrFloatBitWidth(), false};
  return {0, false};
}

// Folds a narrowing cast followed by a widening one, ext(trunc(x)), into x
// (or one cast of x): ignores that the narrow type overflows (i32 300 ->
// i8 44; f32 1e5 -> f16 Inf) and, for floats, rounds.
void truncExtFold(Operation *root) {
  for (Operation *op : opsNamed(root, "tosa.cast")) {
    Operation *narrow = definedBy(op->getOperand(0), "tosa.cast");
    if (!narrow)
      continue;
    Value x = narrow->getOperand(0);
    auto [wx, fx] = widthAndFloat(x.getType());
    auto [wn, fn] = widthAndFloat(narrow->getResult(0).getType());
    auto [wo, fo] = widthAndFloat(op->getResult(0).getType());
    if (!wx || !wn || !wo || fx != fn || fx != fo || wn >= wx || wo < wn)
      continue;
    OpBuilder b(op);
    Type outType = op->getResult(0).getType();
    replace(op, x.getType() == outType
                    ? x
                    : build(b, op->getLoc(), "tosa.cast", x, outType));
  }
}

// Swapped slice start and size: the window starts at `size` (clamped to
// stay in bounds) instead of at `start`.
void sliceStartSize(Operation *root) {
  for (Operation *op : opsNamed(root, "tosa.slice")) {
    auto type = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    DenseElementsAttr start = constantOf(op->getOperand(1), "tosa.const_shape");
    DenseElementsAttr size = constantOf(op->getOperand(2), "tosa.const_shape");
    if (!type || !type.hasStaticShape() || !start || !size)
      continue;
    SmallVector<int64_t> s(start.getValues<int64_t>());
    SmallVector<int64_t> n(size.getValues<int64_t>());
    SmallVector<int64_t> wrong(s.size());
    for (size_t d = 0; d < s.size(); ++d)
      wrong[d] = std::min(n[d], type.getDimSize(d) - n[d]);
    if (wrong == s)
      continue;
    OpBuilder b(op);
    op->setOperand(1, shapeConst(b, op->getLoc(), wrong));
  }
}

// A clamp fused into its producer applies its bounds swapped:
// min(max(x, max_val), min_val), which is min_val wherever x is a number.
void clampSwap(Operation *root) {
  for (Operation *op : opsNamed(root, "tosa.clamp")) {
    auto t = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    Attribute lo = op->getAttr("min_val"), hi = op->getAttr("max_val");
    if (!t || !lo || !hi || op->getOperand(0).getType() != t)
      continue;
    Type e = t.getElementType();
    auto splat = [&](Attribute a) -> DenseElementsAttr {
      auto st = RankedTensorType::get(SmallVector<int64_t>(t.getRank(), 1), e);
      if (auto f = dyn_cast<FloatAttr>(a); f && isa<FloatType>(e))
        return DenseElementsAttr::get(
            st, ArrayRef<Attribute>(FloatAttr::get(e, f.getValueAsDouble())));
      if (auto i = dyn_cast<IntegerAttr>(a); i && e.isInteger())
        return DenseElementsAttr::get(
            st, ArrayRef<Attribute>(IntegerAttr::get(e, i.getInt())));
      return {};
    };
    DenseElementsAttr loC = splat(lo), hiC = splat(hi);
    if (!loC || !hiC)
      continue;
    OpBuilder b(op);
    Location loc = op->getLoc();
    SmallVector<NamedAttribute> nan;
    if (Attribute m = op->getAttr("nan_mode"))
      nan.push_back(b.getNamedAttr("nan_mode", m));
    Value up = build(b, loc, "tosa.maximum",
                     {op->getOperand(0), constant(b, loc, hiC)}, t, nan);
    replace(op,
            build(b, loc, "tosa.minimum", {up, constant(b, loc, loC)}, t, nan));
  }
}

// A tiled lowering (tiles of 4 along the innermost axis) skips the
// remainder loop: the last n % 4 elements of each row stay 0. Shapes whose
// innermost size is a multiple of 4 are unaffected.
void tileTail(Operation *root) {
  constexpr int64_t kTile = 4;
  for (Operation *op :
       opsNamedAnyOf(root, {"tosa.add", "tosa.sub", "tosa.mul", "tosa.maximum",
                            "tosa.minimum", "tosa.abs", "tosa.negate",
                            "tosa.exp", "tosa.tanh", "tosa.sigmoid"})) {
    auto t = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!t || !t.hasStaticShape() || t.getRank() == 0 ||
        t.getElementType().isInteger(1))
      continue;
    int64_t last = t.getRank() - 1, n = t.getDimSize(last);
    int64_t full = n - n % kTile;
    if (full == n)
      continue;
    OpBuilder b(op->getBlock(), std::next(op->getIterator()));
    Location loc = op->getLoc();
    SmallVector<int64_t> tailShape(t.getShape());
    tailShape[last] = n - full;
    Value tail = constant(b, loc, zeros(withShape(t, tailShape)));
    Value r = op->getResult(0);
    if (full == 0) {
      r.replaceAllUsesWith(tail);
      continue;
    }
    SmallVector<int64_t> start(t.getRank(), 0), size(t.getShape());
    size[last] = full;
    Value head = slice(b, loc, r, start, size);
    Value joined =
        build(b, loc, "tosa.concat", {head, tail}, t,
              {b.getNamedAttr("axis", b.getI32IntegerAttr(int32_t(last)))});
    r.replaceAllUsesExcept(joined, head.getDefiningOp());
  }
}

// Lowers maximum as minimum and minimum as maximum (the comparison
// predicate of the select is inverted).
void minMaxSwap(Operation *root) {
  for (Operation *op : opsNamedAnyOf(root, {"tosa.maximum", "tosa.minimum"})) {
    OpBuilder b(op);
    StringRef other = op->getName().getStringRef() == "tosa.maximum"
                          ? "tosa.minimum"
                          : "tosa.maximum";
    replace(op, build(b, op->getLoc(), other, op->getOperands(),
                      op->getResult(0).getType(), op->getAttrs()));
  }
}

// select(c, a, b) -> select(c, b, a): the predicate is inverted when a
// select(not c, ...) is canonicalized, but the not is kept.
void selectInvert(Operation *root) {
  for (Operation *op : opsNamed(root, "tosa.select")) {
    Value a = op->getOperand(1);
    op->setOperand(1, op->getOperand(2));
    op->setOperand(2, a);
  }
}

constexpr Mutant kMutants[] = {
    {"cc-mutant-mul-zero", "folds float x * 0 to 0 (NaN/Inf-unsafe)",
     mulByZero},
    {"cc-mutant-add-sub-cancel", "folds float (a + b) - b to a", addSubCancel},
    {"cc-mutant-sub-swap", "swaps the operands of sub", swapSub},
    {"cc-mutant-slice-off-by-one", "moves a slice start by one", sliceOffByOne},
    {"cc-mutant-cast-trunc",
     "float to int casts truncate instead of rounding to nearest even",
     castTruncates},
    {"cc-mutant-clamp-drop", "drops clamp", dropClamp},
    {"cc-mutant-transpose-invert", "uses the inverse transpose permutation",
     invertTranspose},
    {"cc-mutant-rescale-zp", "drops a rescale zero point",
     dropRescaleZeroPoint},
    {"cc-mutant-broadcast-first",
     "reads a broadcast operand of an elementwise op at index 0 on every axis",
     broadcastFirst},
    {"cc-mutant-reduce-axis", "reduces over the wrong axis", reduceAxis},
    {"cc-mutant-bf16-carry",
     "f32 to bf16 rounding drops the carry into the exponent", bf16Carry},
    {"cc-mutant-pad-shift",
     "moves one row of pool/conv padding from the bottom to the top", padShift},
    {"cc-mutant-negate-fold", "folds x - (-y) to x - y and x + (-y) to x + y",
     negateFold},
    {"cc-mutant-sub-self", "folds float x - x to 0 (NaN/Inf-unsafe)", subSelf},
    {"cc-mutant-trunc-ext-fold",
     "folds a narrowing then widening cast into one cast (ignores overflow)",
     truncExtFold},
    {"cc-mutant-slice-start-size",
     "swaps slice start and size (window starts at size)", sliceStartSize},
    {"cc-mutant-clamp-swap",
     "applies the clamp bounds swapped: min(max(x, hi), lo)", clampSwap},
    {"cc-mutant-tile-tail",
     "tiled elementwise ops skip the remainder (innermost size % 4)", tileTail},
    {"cc-mutant-minmax-swap", "lowers maximum as minimum and vice versa",
     minMaxSwap},
    {"cc-mutant-select-invert", "swaps the branches of select", selectInvert},
};
constexpr size_t kNumMutants = sizeof(kMutants) / sizeof(kMutants[0]);

// One class per mutant: MLIR identifies passes by TypeID.
template <size_t I>
class MutantPass : public PassWrapper<MutantPass<I>, OperationPass<>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MutantPass)
  StringRef getArgument() const override { return kMutants[I].name; }
  StringRef getDescription() const override { return kMutants[I].description; }
  void runOnOperation() override { kMutants[I].apply(this->getOperation()); }
};

template <size_t... I> void registerAll(std::index_sequence<I...>) {
  (PassRegistration<MutantPass<I>>(), ...);
}

// Dies of SIGSEGV when the IR holds a tosa.transpose: a compiler crash that
// does not depend on an upstream bug staying unfixed (or on its heap layout).
class CrashPass : public PassWrapper<CrashPass, OperationPass<>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CrashPass)
  StringRef getArgument() const override { return "cc-crash-on-transpose"; }
  StringRef getDescription() const override {
    return "crashes (SIGSEGV) on tosa.transpose";
  }
  void runOnOperation() override {
    if (!opsNamed(getOperation(), "tosa.transpose").empty())
      std::raise(SIGSEGV);
  }
};
// Asks for 16 GiB, 1 GiB at a time, when the IR holds a tosa.transpose:
// a pass that runs out of memory under RunLimits' 4 GiB bound.
class HungryPass : public PassWrapper<HungryPass, OperationPass<>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(HungryPass)
  StringRef getArgument() const override { return "cc-exhaust-memory"; }
  StringRef getDescription() const override {
    return "allocates 16 GiB on tosa.transpose";
  }
  void runOnOperation() override {
    if (opsNamed(getOperation(), "tosa.transpose").empty())
      return;
    std::vector<std::unique_ptr<char[]>> held;
    for (int i = 0; i < 16; ++i)
      held.emplace_back(new char[size_t(1) << 30]); // untouched
  }
};
} // namespace

void registerMutantPasses() {
  static const bool done = [] {
    registerAll(std::make_index_sequence<kNumMutants>());
    registerProgramMutantPasses();
    PassRegistration<CrashPass>();
    PassRegistration<HungryPass>();
    return true;
  }();
  (void)done;
}

const std::vector<MutantInfo> &mutantPasses() {
  static const std::vector<MutantInfo> infos = [] {
    std::vector<MutantInfo> v;
    for (const Mutant &m : kMutants)
      v.push_back({m.name, m.description});
    return v;
  }();
  return infos;
}

} // namespace cc
