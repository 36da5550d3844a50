// Helpers for the per-op tests: build a one-node graph, run it through the
// reference interpreter, check its type rule, and check its TOSA emission
// (as text, and with an installed mlir-opt).
#pragma once

#include "backends/ref/Interpreter.h"
#include "core/OpTable.h"
#include "process/Process.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

namespace cc::test {

// A tensor of the given type holding `values` (row-major); ints are
// truncated, floats rounded to the dtype.
inline Tensor tensorOf(DType dtype, Shape shape,
                       const std::vector<double> &values) {
  Tensor t(dtype, std::move(shape));
  EXPECT_EQ(int64_t(values.size()), t.size());
  for (int64_t i = 0; i < t.size() && i < int64_t(values.size()); ++i) {
    if (isFloat(dtype))
      t.setF(i, values[i]);
    else
      t.setI(i, int64_t(values[i]));
  }
  return t;
}

// Same from a type string ("f32[2,2]").
inline Tensor tensorOf(const std::string &type,
                       const std::vector<double> &values) {
  auto t = parseTensorType(type);
  EXPECT_TRUE(bool(t)) << type;
  return t ? tensorOf(t->dtype, t->shape, values) : Tensor();
}

// A graph with one input per tensor ("in0", "in1", ...) and one `op` node.
inline Expected<Graph> singleOpGraph(const std::string &op,
                                     const std::vector<TensorType> &types,
                                     Attrs attrs = {}) {
  Graph g;
  std::vector<ValueId> ins;
  for (size_t i = 0; i < types.size(); ++i)
    ins.push_back(g.addInput("in" + std::to_string(i), types[i]));
  auto out = g.add(op, ins, std::move(attrs));
  if (!out)
    return out.error();
  g.addOutput(*out);
  return g;
}

// Runs `op` on `inputs`; returns its output or the failure (graph
// construction or evaluation).
inline Expected<Tensor> runOp(const std::string &op,
                              const std::vector<Tensor> &inputs,
                              Attrs attrs = {},
                              Precision precision = Precision::F64) {
  std::vector<TensorType> types;
  for (const Tensor &t : inputs)
    types.push_back(t.type());
  auto g = singleOpGraph(op, types, std::move(attrs));
  if (!g)
    return g.error();
  if (Error e = verify(*g))
    return e;
  auto out = interpret(*g, inputs, precision);
  if (!out)
    return out.error();
  return out->at(0);
}

// Element values of a tensor as doubles.
inline std::vector<double> valuesOf(const Tensor &t) {
  std::vector<double> v;
  for (int64_t i = 0; i < t.size(); ++i)
    v.push_back(t.asDouble(i));
  return v;
}

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kI32Min = -2147483648.0, kI32Max = 2147483647.0;

inline Attrs
attrsOf(std::initializer_list<std::pair<std::string, AttrValue>> list) {
  Attrs a;
  for (const auto &[name, value] : list)
    a.set(name, value);
  return a;
}

inline Tensor f32s(Shape s, std::vector<double> v) {
  return tensorOf(DType::f32, s, v);
}
inline Tensor i32s(Shape s, std::vector<double> v) {
  return tensorOf(DType::i32, s, v);
}

// Every named op has a table entry with all its parts.
inline void expectCompleteEntries(const std::vector<std::string> &ops) {
  for (const std::string &name : ops) {
    const OpDef *op = findOp(name);
    ASSERT_NE(op, nullptr) << name;
    EXPECT_FALSE(op->summary.empty()) << name;
    EXPECT_FALSE(op->dtypes.empty()) << name;
    EXPECT_TRUE(op->infer && op->eval && op->emit) << name;
    EXPECT_EQ(!op->attrs.empty(), bool(op->sampleAttrs)) << name;
    for (const AttrSpec &a : op->attrs)
      EXPECT_FALSE(a.doc.empty()) << name << "." << a.name;
  }
}

// Runs op and expects the values (NaN matches NaN; the sign of zero counts).
inline void expectValues(const std::string &op,
                         const std::vector<Tensor> &inputs,
                         const std::vector<double> &expected, Attrs attrs = {},
                         Precision precision = Precision::F64) {
  auto out = runOp(op, inputs, std::move(attrs), precision);
  ASSERT_TRUE(bool(out)) << op << ": " << out.error().message();
  std::vector<double> got = valuesOf(*out);
  ASSERT_EQ(got.size(), expected.size()) << op;
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(expected[i])) {
      EXPECT_TRUE(std::isnan(got[i]))
          << op << " element " << i << ": " << got[i];
      continue;
    }
    EXPECT_EQ(got[i], expected[i]) << op << " element " << i;
    EXPECT_EQ(std::signbit(got[i]), std::signbit(expected[i]))
        << op << " element " << i << ": sign of zero";
  }
}

// Expects op to be undefined at the element `index` ("[0,1]").
inline void expectUndefined(const std::string &op,
                            const std::vector<Tensor> &inputs,
                            const std::string &index, Attrs attrs = {}) {
  auto out = runOp(op, inputs, std::move(attrs));
  ASSERT_FALSE(bool(out)) << op << " should be undefined";
  EXPECT_EQ(out.error().code(), ErrorCode::Undefined) << out.error().message();
  EXPECT_NE(out.error().message().find("element " + index), std::string::npos)
      << out.error().message();
}

// Expects the type rule to reject op on these operand types.
inline void expectTypeError(const std::string &op,
                            const std::vector<TensorType> &types,
                            const std::string &fragment, Attrs attrs = {}) {
  auto g = singleOpGraph(op, types, std::move(attrs));
  ASSERT_FALSE(bool(g)) << op << " should be rejected";
  EXPECT_NE(g.error().message().find(fragment), std::string::npos)
      << g.error().message();
}

// The type-rule error message of `op` on operand types, "" when valid.
inline std::string inferError(const std::string &op,
                              const std::vector<std::string> &types,
                              Attrs attrs = {}) {
  const OpDef *def = findOp(op);
  EXPECT_NE(def, nullptr) << op;
  if (!def)
    return "unknown op " + op;
  std::vector<TensorType> ts;
  for (const std::string &t : types)
    ts.push_back(*parseTensorType(t));
  auto r = def->infer(ts, withDefaults(*def, std::move(attrs)));
  return r ? "" : r.error().message();
}

// The emitted TOSA text of the single node of a one-op graph, or the error.
inline Expected<std::string> emitOp(const std::string &op,
                                    const std::vector<std::string> &types,
                                    Attrs attrs, int syntaxVersion = 22) {
  std::vector<TensorType> ts;
  for (const std::string &t : types)
    ts.push_back(*parseTensorType(t));
  auto g = singleOpGraph(op, ts, std::move(attrs));
  if (!g)
    return g.error();
  EmitContext ctx(*g, syntaxVersion);
  if (Error e = findOp(op)->emit(ctx, g->nodes[0]))
    return e;
  return ctx.body();
}

// The emitted func.func @`name` of a graph.
inline Expected<std::string> emitFunction(const Graph &g, int syntaxVersion,
                                          const std::string &name = "main") {
  EmitContext ctx(g, syntaxVersion);
  std::string args;
  for (size_t i = 0; i < g.inputs.size(); ++i)
    args +=
        (i ? ", " : "") + ctx.name(g.inputs[i]) + ": " + ctx.type(g.inputs[i]);
  for (const Node &n : g.nodes)
    if (Error e = opDef(n.op).emit(ctx, n))
      return e;
  ValueId out = g.outputs.at(0);
  return "func.func @" + name + "(" + args + ") -> " + ctx.type(out) + " {\n" +
         ctx.body() + "    return " + ctx.name(out) + " : " + ctx.type(out) +
         "\n}\n";
}

inline bool haveTool(const std::string &tool) {
  process::ChildOptions o;
  o.outputPath = "/dev/null";
  auto r = process::runProgram({"/bin/sh", "-c", "command -v \"$0\"", tool}, o);
  return r && r->succeeded();
}

struct ToolRun {
  bool ok = false;
  std::string output; // printed IR or diagnostics
};

// Runs `tool` (an mlir-opt) on `mlir`, which it parses, verifies (plus
// `passes`) and prints.
inline ToolRun runMlirOpt(const std::string &tool, const std::string &mlir,
                          const std::string &passes = "") {
  static int counter = 0;
  // The pid keeps parallel test processes (ctest -j) apart.
  std::string path = testing::TempDir() + "cc_emit_" +
                     std::to_string(getpid()) + "_" +
                     std::to_string(counter++) + ".mlir";
  std::ofstream(path) << mlir;
  ToolRun run;
  if (FILE *p =
          popen((tool + " " + passes + " " + path + " 2>&1").c_str(), "r")) {
    char buf[512];
    while (fgets(buf, sizeof buf, p))
      run.output += buf;
    run.ok = pclose(p) == 0;
  }
  std::remove(path.c_str());
  return run;
}

// Emits each op for every dtype it allows (attributes from its sampler,
// fixed seed; the second operand broadcast) into one module and checks that
// mlir-opt-<version> accepts it; MLIR 22 also checks the dtypes against
// TOSA 1.0's profiles and extensions (tosa-validate). Under MLIR 19 an op may
// refuse with ErrorCode::Unsupported instead.
inline void expectEmissionParses(const std::vector<std::string> &ops,
                                 int version) {
  std::string tool = "mlir-opt-" + std::to_string(version);
  if (!haveTool(tool))
    GTEST_SKIP() << tool << " is not installed";
  Rng rng(7);
  std::string module;
  int cases = 0;
  for (const std::string &op : ops) {
    const OpDef *def = findOp(op);
    ASSERT_NE(def, nullptr) << op;
    for (DType dtype : def->dtypes) {
      std::vector<TensorType> types;
      for (int k = 0; k < def->minOperands; ++k) {
        DType d = op == "select" && k == 0 ? DType::i1 : dtype;
        types.push_back({d, k == 1 ? Shape{1, 3} : Shape{2, 3}});
      }
      Attrs attrs = def->sampleAttrs ? def->sampleAttrs(rng, types) : Attrs{};
      auto g = singleOpGraph(op, types, attrs);
      ASSERT_TRUE(bool(g)) << op << " " << dtypeName(dtype) << ": "
                           << g.error().message();
      auto text = emitFunction(*g, version, "case" + std::to_string(cases++));
      if (!text && version <= 19 &&
          text.error().code() == ErrorCode::Unsupported)
        continue;
      ASSERT_TRUE(bool(text)) << op << ": " << text.error().message();
      module += *text;
    }
  }
  std::string validate = version >= 22
                             ? "--tosa-attach-target=\"profiles=pro_int,pro_fp "
                               "extensions=int16,bf16\" --tosa-validate="
                               "strict-op-spec-alignment"
                             : "";
  ToolRun run = runMlirOpt(tool, module, validate);
  EXPECT_TRUE(run.ok) << run.output << "\n--- input ---\n" << module;
}

} // namespace cc::test
