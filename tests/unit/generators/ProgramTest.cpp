// The mid-level program generator: valid, deterministic programs that reach
// every family and run through the straight lowering.
#include "generators/Program.h"

#include "backends/mlir/MlirBackend.h"
#include "process/Process.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>

using namespace cc;

namespace {

constexpr int kSeeds = 1000;

// The signature of @main as written: "(%a0: tensor<..>, ...) -> (...)".
std::string signatureOf(const Program &p) {
  std::string s = "func.func @" + p.name + "(";
  for (size_t i = 0; i < p.args.size(); ++i)
    s += (i ? ", %a" : "%a") + std::to_string(i) + ": " + p.args[i].mlir();
  s += ") -> (";
  for (size_t i = 0; i < p.results.size(); ++i)
    s += (i ? ", " : "") + p.results[i].mlir();
  return s + ") {";
}

const std::vector<Program> &programs() {
  static const std::vector<Program> ps = [] {
    std::vector<Program> ps;
    for (int seed = 0; seed < kSeeds; ++seed)
      ps.push_back(generateProgram({}, uint64_t(seed)));
    return ps;
  }();
  return ps;
}

TEST(Program, ThousandSeedsVerifyAndAreDeterministic) {
  for (int seed = 0; seed < kSeeds; ++seed) {
    const Program &p = programs()[size_t(seed)];
    // CC_PROGRAM_DUMP=dir writes each program for inspection.
    if (const char *dir = std::getenv("CC_PROGRAM_DUMP"))
      std::ofstream(std::string(dir) + "/p" + std::to_string(seed) + ".mlir")
          << p.mlir;
    Error err = verifyMlir(p.mlir);
    ASSERT_FALSE(err) << "seed " << seed << ": " << err.message() << "\n"
                      << p.mlir;
    EXPECT_NE(p.mlir.find(signatureOf(p)), std::string::npos)
        << "seed " << seed << "\n"
        << p.mlir;
    EXPECT_FALSE(p.results.empty()) << "seed " << seed;
    EXPECT_EQ(generateProgram({}, uint64_t(seed)).mlir, p.mlir)
        << "seed " << seed;
  }
}

// MLIR 19 spells two ops differently; the rewrite goes both ways.
TEST(Program, OlderSyntaxRewritesToTensorAndLinalgMap) {
  const std::string v22 =
      "    %v1 = bufferization.to_tensor %v0 restrict writable : "
      "memref<2x3xf32> to tensor<2x3xf32>\n"
      "    %v2 = linalg.map ins(%v1, %a0 : tensor<2x3xf32>, tensor<2x3xi8>) "
      "outs(%v3 : tensor<2x3xbf16>)\n"
      "      (%b1: f32, %b2: i8, %b3: bf16) {\n";
  const std::string v19 =
      "    %v1 = bufferization.to_tensor %v0 restrict writable : "
      "memref<2x3xf32>\n"
      "    %v2 = linalg.map ins(%v1, %a0 : tensor<2x3xf32>, tensor<2x3xi8>) "
      "outs(%v3 : tensor<2x3xbf16>)\n"
      "      (%b1: f32, %b2: i8) {\n";
  EXPECT_EQ(toOlderSyntax(v22, 19), v19);
  EXPECT_EQ(toOlderSyntax(v22, 22), v22);
  std::string back = fromOlderSyntax(v19, 19);
  EXPECT_EQ(back, std::regex_replace(v22, std::regex("%b3"), "%cc_init0"));
  EXPECT_EQ(fromOlderSyntax(back, 19), back); // already MLIR 22's
}

// Programs for campaigns against MLIR 19 alone: mlir-opt-19 reads every one
// in its syntax (before, 169 of the first 400 were refused: to_tensor and
// linalg.map's spelling, math.isnan, isfinite and erfc), and MLIR 22 reads
// back what mlir-opt-19 prints.
TEST(Program, Mlir19ReadsProgramsAndMlir22ReadsItsOutput) {
  if (system("command -v mlir-opt-19 >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "mlir-opt-19 is not installed";
  ProgramOptions o;
  o.mlirSyntax = 19;
  int maps = 0, toTensors = 0;
  for (int seed = 0; seed < 200; ++seed) {
    Program p = generateProgram(o, uint64_t(seed));
    for (const char *op : {"math.isnan", "math.isfinite", "math.erfc"})
      EXPECT_EQ(p.mlir.find(op), std::string::npos) << seed << ": " << op;
    ASSERT_FALSE(verifyMlir(p.mlir)) << seed;
    maps += p.mlir.find("linalg.map ins(") != std::string::npos;
    toTensors += p.mlir.find("bufferization.to_tensor") != std::string::npos;
    auto r = process::runShell("mlir-opt-19", toOlderSyntax(p.mlir, 19),
                               RunLimits::timeOnly(60));
    ASSERT_TRUE(r) << r.error().message();
    ASSERT_EQ(r->exitCode, 0) << "seed " << seed << ": " << r->err;
    Error back = verifyMlir(fromOlderSyntax(r->out, 19));
    EXPECT_FALSE(back) << "seed " << seed << ": " << back.message() << "\n"
                       << r->out;
  }
  EXPECT_GT(maps, 10);
  EXPECT_GT(toTensors, 20);
}

TEST(Program, CountsArePrinted) {
  for (int seed = 0; seed < 50; ++seed) {
    const Program &p = programs()[size_t(seed)];
    EXPECT_EQ(p.opCounts, countProgramOps(p.mlir)) << "seed " << seed;
    int sum = 0;
    for (const auto &[family, n] : p.families)
      sum += n;
    EXPECT_EQ(sum, p.ops);
    // Each counted op appears in the text as often as counted.
    for (const auto &[name, n] : p.opCounts) {
      std::regex word("(^|[^#.\\w])" +
                      std::regex_replace(name, std::regex("\\."), "\\.") +
                      "(?![\\w.])");
      auto begin = std::sregex_iterator(p.mlir.begin(), p.mlir.end(), word);
      EXPECT_EQ(std::distance(begin, std::sregex_iterator()), n)
          << "seed " << seed << " " << name;
    }
  }
}

TEST(Program, EveryFamilyAndOpIsReached) {
  std::map<std::string, int> families, ops;
  for (const Program &p : programs()) {
    for (const auto &[k, n] : p.families)
      families[k] += n;
    for (const auto &[k, n] : p.opCounts)
      ops[k] += n;
  }
  for (const char *f :
       {"linalg.generic", "linalg.named", "tensor", "arith", "math", "scf",
        "vector", "memref", "affine", "bufferization", "index"})
    EXPECT_GT(families[f], 0) << f;
  for (const char *op : {"linalg.generic",
                         "linalg.matmul",
                         "linalg.batch_matmul",
                         "linalg.conv_2d_nhwc_hwcf",
                         "linalg.pooling_nhwc_sum",
                         "linalg.pooling_nhwc_max",
                         "linalg.fill",
                         "linalg.transpose",
                         "linalg.broadcast",
                         "linalg.reduce",
                         "linalg.map",
                         "tensor.extract",
                         "tensor.insert",
                         "tensor.extract_slice",
                         "tensor.insert_slice",
                         "tensor.pad",
                         "tensor.expand_shape",
                         "tensor.collapse_shape",
                         "tensor.concat",
                         "tensor.splat",
                         "tensor.generate",
                         "tensor.from_elements",
                         "scf.for",
                         "scf.if",
                         "scf.while",
                         "vector.transfer_read",
                         "vector.transfer_write",
                         "vector.broadcast",
                         "vector.shape_cast",
                         "vector.contract",
                         "vector.reduction",
                         "vector.multi_reduction",
                         "memref.alloc",
                         "affine.for",
                         "affine.load",
                         "affine.store",
                         "bufferization.to_tensor",
                         "vector.extract",
                         "vector.insert",
                         "vector.create_mask",
                         "vector.constant_mask"})
    EXPECT_GT(ops[op], 0) << op;
  // Every arith and math op of the scalar family.
  for (const char *op : {"arith.addi",
                         "arith.subi",
                         "arith.muli",
                         "arith.divsi",
                         "arith.divui",
                         "arith.remsi",
                         "arith.remui",
                         "arith.ceildivsi",
                         "arith.ceildivui",
                         "arith.floordivsi",
                         "arith.andi",
                         "arith.ori",
                         "arith.xori",
                         "arith.shli",
                         "arith.shrsi",
                         "arith.shrui",
                         "arith.maxsi",
                         "arith.minsi",
                         "arith.maxui",
                         "arith.minui",
                         "arith.mulsi_extended",
                         "arith.mului_extended",
                         "arith.addui_extended",
                         "arith.cmpi",
                         "arith.select",
                         "arith.extsi",
                         "arith.extui",
                         "arith.trunci",
                         "arith.index_cast",
                         "arith.index_castui",
                         "arith.sitofp",
                         "arith.uitofp",
                         "arith.fptosi",
                         "arith.fptoui",
                         "arith.extf",
                         "arith.truncf",
                         "arith.bitcast",
                         "arith.addf",
                         "arith.subf",
                         "arith.mulf",
                         "arith.divf",
                         "arith.remf",
                         "arith.negf",
                         "arith.maximumf",
                         "arith.minimumf",
                         "arith.maxnumf",
                         "arith.minnumf",
                         "arith.cmpf",
                         "math.absi",
                         "math.ctlz",
                         "math.cttz",
                         "math.ctpop",
                         "math.ipowi",
                         "math.absf",
                         "math.ceil",
                         "math.floor",
                         "math.round",
                         "math.roundeven",
                         "math.trunc",
                         "math.copysign",
                         "math.fma",
                         "math.sqrt",
                         "math.rsqrt",
                         "math.cbrt",
                         "math.exp",
                         "math.exp2",
                         "math.expm1",
                         "math.log",
                         "math.log2",
                         "math.log10",
                         "math.log1p",
                         "math.sin",
                         "math.cos",
                         "math.tan",
                         "math.tanh",
                         "math.sinh",
                         "math.cosh",
                         "math.asin",
                         "math.acos",
                         "math.atan",
                         "math.atan2",
                         "math.asinh",
                         "math.acosh",
                         "math.atanh",
                         "math.erf",
                         "math.erfc",
                         "math.powf",
                         "math.fpowi",
                         "math.isnan",
                         "math.isfinite",
                         "index.add",
                         "index.sub",
                         "index.mul",
                         "index.and",
                         "index.or",
                         "index.xor",
                         "index.maxs",
                         "index.mins",
                         "index.maxu",
                         "index.minu",
                         "index.divs",
                         "index.divu",
                         "index.rems",
                         "index.remu",
                         "index.ceildivs",
                         "index.ceildivu",
                         "index.floordivs",
                         "index.shl",
                         "index.shrs",
                         "index.shru",
                         "index.cmp",
                         "index.casts",
                         "index.castu"})
    EXPECT_GT(ops[op], 0) << op;
}

// The shapes folders and patterns match are emitted on purpose, each in
// many programs.
TEST(Program, EveryRewriteShapeIsReached) {
  std::map<std::string, int> programsWith;
  for (const Program &p : programs())
    for (const auto &[shape, n] : p.shapes)
      programsWith[shape] += n > 0;
  for (const char *shape :
       {"shape.round-trip", "shape.constant-operand", "shape.select-constant",
        "shape.negate-compare", "shape.repeat", "shape.mul-high"})
    EXPECT_GE(programsWith[shape], 20) << shape;
}

TEST(Program, OptionsAreHonoured) {
  ProgramOptions o;
  o.dtypes = {DType::f32};
  o.scf = o.vector = o.tensor = 0;
  o.ops = 30;
  for (int seed = 0; seed < 20; ++seed) {
    Program p = generateProgram(o, uint64_t(seed));
    ASSERT_FALSE(verifyMlir(p.mlir)) << p.mlir;
    EXPECT_EQ(p.families.count("scf"), 0u);
    EXPECT_EQ(p.families.count("vector"), 0u);
    EXPECT_GE(p.ops, 30);
    for (const TensorType &t : p.args)
      EXPECT_EQ(t.dtype, DType::f32);
  }
}

TEST(Program, InputsAreDeterministic) {
  for (int seed = 0; seed < 20; ++seed) {
    const Program &p = programs()[size_t(seed)];
    Inputs a = programInputs(p, 7), b = programInputs(p, 7),
           c = programInputs(p, 8);
    ASSERT_EQ(a.size(), p.args.size());
    bool differs = false;
    for (size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].type(), p.args[i]);
      EXPECT_TRUE(a[i] == b[i]);
      differs |= !(a[i] == c[i]);
    }
    if (!a.empty() && p.args[0].numElements() > 2) {
      EXPECT_TRUE(differs) << "seed " << seed;
    }
  }
}

// Every one of the 1,000 seeds runs through the straight lowering and the
// JIT (about 25 s on two cores). CC_PROGRAM_RUN="first count ops" runs
// other seeds and sizes instead, for exploration.
TEST(Program, RunsOnTheStraightLowering) {
  const NamedPipeline straight = straightLowering();
  RunOptions run;
  run.limits.timeoutSeconds = 60;
  int first = 0, count = kSeeds, ops = ProgramOptions().ops;
  if (const char *env = std::getenv("CC_PROGRAM_RUN"))
    std::sscanf(env, "%d %d %d", &first, &count, &ops);
  ProgramOptions options;
  options.ops = ops;
  for (int seed = first; seed < first + count; ++seed) {
    const Program p = generateProgram(options, uint64_t(seed));
    Expected<Outputs> out =
        runMlirModule(p.mlir, p.name, p.results, programInputs(p, 1),
                      straight.pipeline, straight.llvmOptLevel, run);
    ASSERT_TRUE(bool(out)) << "seed " << seed << ": " << out.error().message()
                           << "\n"
                           << p.mlir;
    EXPECT_EQ(out->size(), p.results.size());
  }
}

} // namespace
