// The encoding of an op: the dispatch to its dialect family (one table
// of ops per family, in the Encode<Family>.cpp files), function calls,
// and ops encoded as uninterpreted functions.
#include "smt/Encoder.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringMap.h"

namespace cc::smt::detail {

using namespace mlir;

void unsupported(const std::string &reason) { throw EncodeFailure{reason}; }

void unsupportedOp(Operation *op) {
  unsupported("op '" + op->getName().getStringRef().str() + "'");
}

// An op the encoding does not cover, if it is pure and on values: its
// results are uninterpreted functions of all its operand elements (one
// function per op, attributes and types). The same op on the same operands
// on both sides gives the same terms, so a pass that leaves it alone is
// still checked; a counterexample that depends on it is replayed.
void Encoder::encodeOp(Operation *op) {
  try {
    encodeKnownOp(op);
  } catch (const EncodeFailure &) {
    if (!opaqueOp(op))
      throw;
  } catch (const EncodeBug &) {
    throw;
  } catch (const std::exception &e) {
    throw EncodeBug{"internal error while encoding op '" +
                    op->getName().getStringRef().str() + "': " + e.what()};
  }
  // Integer tensors in Z3's normal form (sums and products flattened and
  // sorted): the same integer computation written in another order, as a
  // lowering or a fold writes it, becomes the same term, which later ops
  // and the final comparison then share.
  for (Value r : op->getResults()) {
    auto it = env.find(r);
    if (it == env.end() || it->second.v.empty() ||
        !it->second.v[0].get_sort().is_bv())
      continue;
    for (z3::expr &e : it->second.v)
      e = e.simplify();
  }
}

void Encoder::encodeKnownOp(Operation *op) {
  // ub.poison: every element poison.
  if (auto poison = dyn_cast<ub::PoisonOp>(op)) {
    Type t = poison.getType();
    env[poison] = undef(argShape(t), getElementTypeOrSelf(t));
    return;
  }
  using Family = void (Encoder::*)(Operation *);
  static const llvm::StringMap<Family> kFamilies = {
      {"arith", &Encoder::encodeArithMath},
      {"math", &Encoder::encodeArithMath},
      {"index", &Encoder::encodeArithMath},
      {"llvm", &Encoder::encodeArithMath},
      {"builtin", &Encoder::encodeCast},
      {"linalg", &Encoder::encodeLinalg},
      {"tensor", &Encoder::encodeTensor},
      {"shape", &Encoder::encodeTensor},
      {"memref", &Encoder::encodeMemref},
      {"bufferization", &Encoder::encodeMemref},
      {"affine", &Encoder::encodeMemref},
      {"tosa", &Encoder::encodeTosa},
      {"scf", &Encoder::encodeScf},
      {"vector", &Encoder::encodeVector},
      {"func", &Encoder::encodeFunc}};
  auto it = kFamilies.find(op->getName().getDialectNamespace());
  if (it == kFamilies.end())
    unsupportedOp(op);
  // Only the families of memory, calls and linalg (on buffers) read views;
  // a value family given a memref (arith.select of two buffers) would read
  // an empty value.
  bool memoryFamily = it->second == &Encoder::encodeMemref ||
                      it->second == &Encoder::encodeFunc ||
                      it->second == &Encoder::encodeLinalg;
  auto isRef = [](Type t) { return isa<BaseMemRefType>(t); };
  if (!memoryFamily && (llvm::any_of(op->getOperandTypes(), isRef) ||
                        llvm::any_of(op->getResultTypes(), isRef)))
    unsupported("op '" + op->getName().getStringRef().str() +
                "' on memref values");
  (this->*it->second)(op);
}

// builtin.unrealized_conversion_cast, as the conversions to LLVM leave it
// at the boundary of a function: a value of one type seen as another of
// the same elements in the same order (index as i64, a 2-D vector as an
// array of 1-D vectors).
void Encoder::encodeCast(Operation *op) {
  auto cast = dyn_cast<UnrealizedConversionCastOp>(op);
  if (!cast || cast.getNumOperands() != 1 || cast.getNumResults() != 1)
    unsupportedOp(op);
  Type from = cast.getOperand(0).getType(), to = cast.getResult(0).getType();
  if (!z3::eq(sortOf(from), sortOf(to)))
    unsupported("a cast between element types");
  SVal v = get(cast.getOperand(0));
  std::vector<int64_t> shape = argShape(to);
  if (product(shape) != v.size())
    unsupported("a cast between element counts");
  v.shape = shape;
  env[cast.getResult(0)] = std::move(v);
}

// func.call: the callee's body on the call's operands (memref operands
// are bound to the callee's arguments as views).
void Encoder::encodeFunc(Operation *op) {
  auto call = dyn_cast<func::CallOp>(op);
  if (!call)
    unsupportedOp(op);
  auto f = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      op, call.getCalleeAttr());
  if (!f)
    unsupported("call of unknown function");
  // A declaration: one uninterpreted function of the operands, the same
  // on both sides (assumed pure: the verdict says so).
  if (f.isExternal()) {
    if (!call.getNumResults())
      unsupported("call of external function @" + f.getSymName().str() +
                  " without results (only its side effects would matter)");
    if (!opaqueResults("call @" + f.getSymName().str(), op))
      unsupported("call of external function @" + f.getSymName().str() +
                  " on operands or results other than values");
    return;
  }
  for (auto [a, v] : llvm::zip(f.getArguments(), call.getOperands()))
    if (isa<MemRefType>(v.getType()))
      bindRef(a, ref(v));
  auto outs = encodeCall(f, operandsOf(op), callDepth + 1);
  for (auto [r, v] : llvm::zip(call.getResults(), outs))
    env[r] = v;
}

std::vector<SVal>
Encoder::encodeCall(func::FuncOp f, const std::vector<SVal> &args, int depth) {
  if (depth > 8)
    unsupported("call depth above 8");
  if (f.isExternal())
    unsupported("call of external function @" + f.getSymName().str());
  Block &body = f.getBody().front();
  if (!llvm::hasSingleElement(f.getBody()))
    unsupported("function with several blocks");
  for (auto [i, a] : llvm::enumerate(body.getArguments())) {
    // A call's memref operands are bound by the caller (their views).
    if (isa<MemRefType>(a.getType())) {
      if (depth == 0)
        bindArgument(unsigned(i), a, args[i]);
      continue;
    }
    env[a] = args[i];
  }
  ++callDepth;
  for (Operation &op : body.without_terminator())
    encodeOp(&op);
  --callDepth;
  std::vector<SVal> outs;
  for (Value v : body.getTerminator()->getOperands()) {
    // The checked function's memref result is observed by its contents at
    // the return (its identity, whether it aliases an argument, is not
    // compared: the verdict says so).
    if (isa<MemRefType>(v.getType())) {
      if (depth > 0)
        unsupported("a call of a function that returns a memref");
      usedMemrefResults = true;
      outs.push_back(loadView(ref(v)));
      continue;
    }
    outs.push_back(get(v));
  }
  return outs;
}

// An op of a dialect crosscheck does not link (unregistered: MLIR's test
// dialect, a user's own) is assumed pure, as a declared function is: the
// verdict names it among the uninterpreted ops.
bool Encoder::opaqueOp(Operation *op) {
  bool pure = !op->isRegistered() || isMemoryEffectFree(op);
  if (op->getNumRegions() || !pure || !op->getNumResults())
    return false;
  return opaqueResults(op->getName().getStringRef().str(), op);
}

// `op`'s results as uninterpreted functions of all its operand elements,
// named `what` in the verdict's notes; false where an operand or result is
// not a value of static shape.
bool Encoder::opaqueResults(const std::string &what, Operation *op) {
  std::vector<z3::expr> args;
  z3::expr_vector poison(c);
  for (Value v : op->getOperands()) {
    auto it = env.find(v);
    if (it == env.end())
      return false;
    args.insert(args.end(), it->second.v.begin(), it->second.v.end());
    for (const z3::expr &p : it->second.p)
      poison.push_back(p);
  }
  std::string key;
  llvm::raw_string_ostream os(key);
  // Inherent attributes as properties or in the dictionary (a generic
  // printer moves them) name the same function.
  NamedAttrList attrs(op->getAttrDictionary());
  if (auto props =
          dyn_cast_or_null<DictionaryAttr>(op->getPropertiesAsAttribute()))
    attrs.append(props.getValue());
  os << op->getName() << attrs.getDictionary(op->getContext())
     << op->getOperandTypes() << op->getResultTypes();
  char name[40];
  std::snprintf(name, sizeof name, "opaque_%016zx",
                std::hash<std::string>{}(key));
  std::vector<SVal> results;
  for (Value r : op->getResults()) {
    Type t = r.getType();
    auto rt = dyn_cast<RankedTensorType>(t);
    if ((rt && !rt.hasStaticShape()) ||
        (!rt && !isa<IntegerType, FloatType, IndexType>(t)))
      return false;
    SVal out;
    out.shape = argShape(t);
    try {
      (void)sortOf(t);
    } catch (const EncodeFailure &) {
      return false;
    }
    results.push_back(std::move(out));
  }
  z3::expr in =
      uf(std::string(name) + "_in", args, c.uninterpreted_sort("Operands"));
  z3::expr p = z3::mk_or(poison).simplify();
  for (auto [k, r] : llvm::enumerate(op->getResults())) {
    SVal &out = results[k];
    std::string fn = std::string(name) + "_r" + std::to_string(k);
    for (int64_t i = 0; i < product(out.shape); ++i) {
      out.v.push_back(
          uf(fn, {in, c.bv_val(uint64_t(i), 32)}, sortOf(r.getType())));
      out.p.push_back(p);
    }
    env[r] = std::move(out);
  }
  opaqueOps.insert(what);
  return true;
}

} // namespace cc::smt::detail
