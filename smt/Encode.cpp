// The encoding of an op: the dispatch to its dialect family (one table
// of ops per family, in the Encode<Family>.cpp files), function calls,
// and ops encoded as uninterpreted functions.
#include "smt/Encoder.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
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
  using Family = void (Encoder::*)(Operation *);
  static const llvm::StringMap<Family> kFamilies = {
      {"arith", &Encoder::encodeArithMath},
      {"math", &Encoder::encodeArithMath},
      {"index", &Encoder::encodeArithMath},
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
    if (isa<MemRefType>(v.getType()))
      unsupported("a function that returns a memref");
    outs.push_back(get(v));
  }
  return outs;
}

bool Encoder::opaqueOp(Operation *op) {
  if (op->getNumRegions() || !isMemoryEffectFree(op) || !op->getNumResults())
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
  os << op->getName() << op->getAttrDictionary() << op->getOperandTypes()
     << op->getResultTypes();
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
