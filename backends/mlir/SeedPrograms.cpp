// Seed programs from MLIR files nobody here wrote (MLIR's own lit tests, a
// user's test suite): the shapes that folders and rewrites were written
// for. Each function with a body of each `// -----` chunk becomes a
// program whose @cc_main takes and returns tensors (a scalar as tensor<T>,
// an index as i64) and calls it, so that the reference and every compiler
// run it as they run generated programs.
#include "backends/mlir/MlirBackend.h"
#include "backends/mlir/MlirSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"

#include <optional>
#include <sstream>

namespace cc {

using namespace mlir;

namespace {
const char *const kSeedMain = "cc_main";

// A static tensor type of one of crosscheck's element types as crosscheck's.
std::optional<TensorType> tensorTypeOf(Type t) {
  auto r = dyn_cast<RankedTensorType>(t);
  std::optional<DType> d =
      r ? parseDType(mlirbackend::str(r.getElementType())) : std::nullopt;
  if (!d || !r.hasStaticShape())
    return std::nullopt;
  return TensorType{*d, Shape(r.getShape().begin(), r.getShape().end())};
}

// The tensor a value of type `t` travels in, or null when a program cannot
// take it (memrefs, vectors, dynamic shapes, element types crosscheck has
// no tensors of).
Type carrierOf(Type t) {
  auto i64 = IntegerType::get(t.getContext(), 64);
  Type carrier;
  if (auto r = dyn_cast<RankedTensorType>(t)) {
    if (!r.hasStaticShape())
      return nullptr;
    carrier = r.getElementType().isIndex() ? r.clone(i64) : r;
  } else if (t.isIntOrIndexOrFloat()) {
    carrier = RankedTensorType::get({}, t.isIndex() ? i64 : t);
  } else {
    return nullptr;
  }
  return tensorTypeOf(carrier) ? carrier : nullptr;
}

Value castIfNeeded(OpBuilder &b, Location loc, Value v, Type want) {
  if (v.getType() == want)
    return v;
  return arith::IndexCastOp::create(b, loc, want, v).getResult();
}

// A carrier `v` as the callee's argument type `want`.
Value unwrap(OpBuilder &b, Location loc, Value v, Type want) {
  if (!isa<RankedTensorType>(want))
    v = tensor::ExtractOp::create(b, loc, v, ValueRange{}).getResult();
  return castIfNeeded(b, loc, v, want);
}

// The callee's result `v` in its carrier type `carrier`.
Value wrap(OpBuilder &b, Location loc, Value v, Type carrier) {
  if (isa<RankedTensorType>(v.getType()))
    return castIfNeeded(b, loc, v, carrier);
  Type element = cast<RankedTensorType>(carrier).getElementType();
  Value scalar = castIfNeeded(b, loc, v, element);
  return tensor::FromElementsOp::create(b, loc, carrier, ValueRange{scalar})
      .getResult();
}

// Adds @cc_main calling `f` when its signature can be carried.
bool addMain(ModuleOp module, func::FuncOp f, MlirProgram &p) {
  FunctionType type = f.getFunctionType();
  std::vector<Type> args, results;
  for (Type t : type.getInputs())
    if (!args.emplace_back(carrierOf(t)))
      return false;
  for (Type t : type.getResults())
    if (!results.emplace_back(carrierOf(t)))
      return false;
  OpBuilder b(module.getContext());
  b.setInsertionPointToEnd(module.getBody());
  Location loc = f.getLoc();
  auto main =
      func::FuncOp::create(b, loc, kSeedMain, b.getFunctionType(args, results));
  b.setInsertionPointToStart(main.addEntryBlock());
  std::vector<Value> callArgs;
  for (size_t i = 0; i < args.size(); ++i)
    callArgs.push_back(
        unwrap(b, loc, main.getArgument(unsigned(i)), type.getInput(i)));
  auto call = func::CallOp::create(b, loc, f, callArgs);
  std::vector<Value> outs;
  for (size_t i = 0; i < results.size(); ++i)
    outs.push_back(wrap(b, loc, call.getResult(unsigned(i)), results[i]));
  func::ReturnOp::create(b, loc, outs);
  for (Type t : args)
    p.args.push_back(*tensorTypeOf(t));
  for (Type t : results)
    p.results.push_back(*tensorTypeOf(t));
  return true;
}

std::vector<std::string> chunksOf(const std::string &text) {
  std::vector<std::string> chunks(1);
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("// -----", 0) == 0)
      chunks.emplace_back();
    else
      chunks.back() += line + "\n";
  }
  return chunks;
}

// The programs of one chunk: none when it does not parse or verify, calls
// a function without a body (nothing to link it to), or already has a
// @cc_main.
void programsOfChunk(const std::string &chunk, const std::string &where,
                     std::vector<MlirProgram> &out) {
  auto ctx = mlirbackend::makeContext();
  // Loaded before building @cc_main: the chunk may not use them.
  ctx->loadDialect<arith::ArithDialect, func::FuncDialect,
                   tensor::TensorDialect>();
  mlirbackend::DiagnosticCapture diags(*ctx);
  auto parsed = mlirbackend::parseModule(*ctx, diags, chunk, where);
  if (!parsed || failed(verify(**parsed)) || (*parsed)->lookupSymbol(kSeedMain))
    return;
  std::vector<func::FuncOp> bodies;
  for (auto f : (*parsed)->getOps<func::FuncOp>()) {
    if (f.isDeclaration())
      return;
    bodies.push_back(f);
  }
  for (func::FuncOp f : bodies) {
    OwningOpRef<ModuleOp> copy = (*parsed)->clone();
    MlirProgram p;
    p.name = kSeedMain;
    if (!addMain(*copy, copy->lookupSymbol<func::FuncOp>(f.getSymName()), p) ||
        failed(verify(*copy)))
      continue;
    llvm::raw_string_ostream os(p.mlir);
    copy->print(os);
    p.source = where + ", @" + f.getSymName().str();
    out.push_back(std::move(p));
  }
}
} // namespace

std::vector<MlirProgram> seedPrograms(const std::string &text,
                                      const std::string &name) {
  std::vector<MlirProgram> out;
  std::vector<std::string> chunks = chunksOf(text);
  for (size_t i = 0; i < chunks.size(); ++i)
    programsOfChunk(chunks[i], name + ", chunk " + std::to_string(i + 1), out);
  return out;
}

} // namespace cc
