// Bug bundles: the files, the README and the standalone repro.sh.
#include "reports/Bundle.h"

#include "backends/Registry.h"
#include "backends/mlir/MlirBackend.h"
#include "backends/mlir/PassPipeline.h"
#include "backends/torch/Torch.h"
#include "backends/ref/Interpreter.h"
#include "core/Json.h"
#include "core/OpTable.h"
#include "core/Npy.h"
#include "oracles/Numeric.h"
#include "reducers/Reduce.h"
#include "reports/CiOutputs.h"
#include "reports/ReproScript.h"
#include "reports/Trace.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <sys/utsname.h>
#include <sys/wait.h>

namespace cc {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

using repro::shellQuote;

constexpr const char *kDriver = "repro_main";
// crosscheck's own passes (test mutants, crash-on-purpose) are named cc-*;
// upstream mlir-opt cannot run them.
bool isUpstreamPass(const std::string &pass) { return !pass.starts_with("cc-"); }

std::string passName(const std::string &leaf) {
  return leaf.substr(0, leaf.find('{'));
}

std::string fmt(const char *f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}
std::string num(double v) { return fmt("%.17g", v); }
std::string shortNum(double v) { return fmt("%.6g", v); }

std::string jsonNumber(const json &j) {
  if (j.is_number())
    return shortNum(j.get<double>());
  return j.is_string() ? j.get<std::string>() : j.dump();
}

// The pipeline text and LLVM -O level of an MLIR cut, or empty.
std::pair<std::string, int> cutPipeline(const std::string &cut) {
  std::optional<NamedPipeline> p = pipelineOfSpec(cut);
  if (!p)
    return {"", 0};
  std::string text = p->pipeline;
  if (!text.starts_with("builtin.module("))
    text = "builtin.module(" + text + ")";
  return {text, p->llvmOptLevel};
}

// ---- MLIR text of the driver ----

// The integer type a printed element goes through: floats by their bits.
std::string bitsType(DType t) {
  switch (t) {
  case DType::f16: case DType::bf16: return "i16";
  case DType::f32: return "i32";
  case DType::f64: return "i64";
  default: return std::string(dtypeName(t));
  }
}

// @repro_main: calls the function on the inputs as constants and prints
// every output element as an integer (floats by their bit pattern, f64 as
// two 32-bit halves), one per line, so that nothing is lost to printing.
std::string driverText(const Graph &g, const Inputs &inputs,
                       const std::string &func) {
  std::ostringstream os;
  std::string argTypes, args, resTypes;
  // The inputs live in mutable public globals, so that LLVM cannot fold
  // them into the function once it inlines it: the function computes on
  // runtime values, as in crosscheck's JIT.
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string m = g.typeOf(g.inputs[i]).mlir(), dense = denseLiteral(inputs[i]);
    m.replace(0, strlen("tensor"), "memref");
    os << "memref.global @repro_in" << i << " : " << m << " = "
       << dense.substr(0, dense.rfind(" : ")) << "\n";
  }
  os << "func.func @" << kDriver << "() {\n";
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorType &t = g.typeOf(g.inputs[i]);
    std::string m = t.mlir();
    m.replace(0, strlen("tensor"), "memref");
    os << "  %m" << i << " = memref.get_global @repro_in" << i << " : " << m
       << "\n  %in" << i << " = bufferization.to_tensor %m" << i
       << " restrict : " << m << " to " << t.mlir() << "\n";
    argTypes += (i ? ", " : "") + t.mlir();
    args += (i ? ", %in" : "%in") + std::to_string(i);
  }
  for (size_t i = 0; i < g.outputs.size(); ++i)
    resTypes += (i ? ", " : "") + g.typeOf(g.outputs[i]).mlir();
  os << "  ";
  for (size_t i = 0; i < g.outputs.size(); ++i)
    os << (i ? ", %out" : "%out") << i;
  os << (g.outputs.empty() ? "" : " = ") << "func.call @" << func << "(" << args
     << ") : (" << argTypes << ") -> (" << resTypes << ")\n";
  os << "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
        "  %c32 = arith.constant 32 : i64\n";
  int tmp = 0;
  for (size_t o = 0; o < g.outputs.size(); ++o) {
    const TensorType &t = g.typeOf(g.outputs[o]);
    std::string ind = "  ", idx;
    for (size_t d = 0; d < t.shape.size(); ++d) {
      std::string n = "%n" + std::to_string(tmp++);
      std::string iv = "%i" + std::to_string(tmp++);
      os << ind << n << " = arith.constant " << t.shape[d] << " : index\n"
         << ind << "scf.for " << iv << " = %c0 to " << n << " step %c1 {\n";
      idx += (d ? ", " : "") + iv;
      ind += "  ";
    }
    std::string v = "%v" + std::to_string(tmp++);
    os << ind << v << " = tensor.extract %out" << o << "[" << idx << "] : "
       << t.mlir() << "\n";
    std::string cur = v, it = bitsType(t.dtype);
    if (isFloat(t.dtype)) {
      std::string b = "%b" + std::to_string(tmp++);
      os << ind << b << " = arith.bitcast " << v << " : " << dtypeName(t.dtype)
         << " to " << it << "\n";
      cur = b;
    }
    if (it != "i64") {
      std::string w = "%w" + std::to_string(tmp++);
      bool unsignedBits = isFloat(t.dtype) || isBool(t.dtype);
      os << ind << w << " = arith." << (unsignedBits ? "extui " : "extsi ")
         << cur << " : " << it << " to i64\n";
      cur = w;
    }
    if (t.dtype == DType::f64) {
      std::string hi = "%h" + std::to_string(tmp++);
      std::string lo = "%l" + std::to_string(tmp++);
      std::string l32 = "%t" + std::to_string(tmp++);
      os << ind << hi << " = arith.shrui " << cur << ", %c32 : i64\n"
         << ind << l32 << " = arith.trunci " << cur << " : i64 to i32\n"
         << ind << lo << " = arith.extui " << l32 << " : i32 to i64\n"
         << ind << "vector.print " << hi << " : i64\n"
         << ind << "vector.print " << lo << " : i64\n";
    } else {
      os << ind << "vector.print " << cur << " : i64\n";
    }
    for (size_t d = t.shape.size(); d-- > 0;) {
      ind.resize(ind.size() - 2);
      os << ind << "}\n";
    }
  }
  os << "  return\n}\n";
  return os.str();
}

// The name of the (first) function of an emitted module.
Expected<std::string> functionName(const std::string &module) {
  size_t at = module.find("func.func @");
  if (at == std::string::npos)
    return makeError("the emitted module has no function");
  size_t begin = at + strlen("func.func @");
  return module.substr(begin, module.find('(', begin) - begin);
}

// The emitted module with the driver added to its body.
Expected<std::pair<std::string, std::string>>
programText(const Graph &g, const Inputs &inputs) {
  CC_ASSIGN(module, emitModule(g));
  CC_ASSIGN(func, functionName(module));
  size_t close = module.rfind('}');
  if (close == std::string::npos)
    return makeError("the emitted module has no body");
  std::string program = module.substr(0, close) + driverText(g, inputs, func) +
                        module.substr(close);
  return std::pair{module, program};
}

// ---- Expected values and the comparison ----

// One line per output element for repro.sh: OUT INDEX KIND EXPECTED
// ALLOWED ALT, with KIND the output dtype, EXPECTED the f64 reference
// ("nan", "inf", "-inf" when not finite in the dtype), ALLOWED the absolute
// error the oracle allows there and ALT, for floats, the class of the
// target-precision reference ("finite", "nan", "inf", "-inf": a NaN or Inf
// the faithful evaluation also shows is accepted, an element it could not
// calibrate accepts any finite value) and for float-derived integers the
// other accepted value ("-" when none).
std::string floatClass(double v) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v > 0 ? "inf" : "-inf";
  return "finite";
}

struct Expectation {
  std::string table;          // the lines above
  std::vector<double> allowed; // per element, flattened over outputs
};

Expectation expectations(const Graph &g, const Outputs &ref,
                         const Outputs &target, const Outputs &magnitudes) {
  NumericOptions o;
  NumericReport tol = judgeNumeric(g, target, ref, target, o, &magnitudes);
  std::vector<OutputSpec> specs = outputSpecs(g);
  Expectation e;
  std::ostringstream os;
  for (size_t k = 0; k < ref.size() && k < specs.size(); ++k) {
    DType d = specs[k].type.dtype;
    double rel = k < tol.outputs.size() ? tol.outputs[k].relTolerance : 0;
    double abs = k < tol.outputs.size() ? tol.outputs[k].absTolerance : 0;
    for (int64_t i = 0, n = ref[k].size(); i < n; ++i) {
      os << k << " " << i << " " << dtypeName(d) << " ";
      if (isFloat(d)) {
        double ev = ref[k].getF(i), tv = target[k].getF(i);
        double shown = std::fabs(ev) > maxFinite(d) ? roundToFloat(d, ev) : ev;
        // As the oracle: relative to the magnitude of the terms.
        double terms = std::fabs(ev);
        if (k < magnitudes.size() && magnitudes[k].size() == ref[k].size())
          terms = std::max(terms, magnitudes[k].getF(i));
        double allowed =
            std::max({o.margin * std::fabs(tv - ev), rel * terms, abs});
        e.allowed.push_back(allowed);
        os << (std::isfinite(shown) ? num(shown) : floatClass(shown)) << " "
           << num(allowed) << " " << floatClass(tv) << "\n";
      } else {
        int64_t ev = ref[k].getI(i), tv = target[k].getI(i);
        if (isBool(d))
          ev = ev != 0, tv = tv != 0;
        e.allowed.push_back(0);
        os << ev << " 0 "
           << (specs[k].model.floatDerived && tv != ev ? std::to_string(tv)
                                                       : "-")
           << "\n";
      }
    }
  }
  e.table = os.str();
  return e;
}

// Mismatching elements of `actual`, judged like repro.sh judges them.
struct Mismatch {
  size_t output;
  int64_t index;
  double expected, actual, allowed;
};

std::vector<Mismatch> mismatches(const Graph &g, const Outputs &actual,
                                 const Outputs &ref, const Outputs &target,
                                 const std::vector<double> &allowed) {
  std::vector<Mismatch> out;
  size_t flat = 0;
  for (size_t k = 0; k < ref.size(); ++k) {
    DType d = g.typeOf(g.outputs[k]).dtype;
    for (int64_t i = 0, n = ref[k].size(); i < n; ++i, ++flat) {
      if (k >= actual.size() || actual[k].size() != n)
        continue;
      double ev = ref[k].asDouble(i), av = actual[k].asDouble(i),
             tv = target[k].asDouble(i);
      bool bad;
      if (!isFloat(d)) {
        bad = av != ev && !(isBool(d) && (av != 0) == (ev != 0)) && av != tv;
      } else {
        double shown = std::fabs(ev) > maxFinite(d) ? roundToFloat(d, ev) : ev;
        std::string ac = floatClass(av), ec = floatClass(shown);
        if (ac != "finite" || ec != "finite")
          bad = ac != ec && ac != floatClass(tv);
        else
          bad = std::isfinite(tv) && std::fabs(av - ev) > allowed[flat];
      }
      if (bad)
        out.push_back({k, i, ev, av, allowed[flat]});
    }
  }
  return out;
}

// ---- README ----

// At most `maxLines` lines, saying how many were left out.
std::string clip(const std::string &text, size_t maxLines) {
  std::istringstream is(text);
  std::string line, out;
  size_t n = 0, total = 0;
  while (std::getline(is, line)) {
    if (n < maxLines)
      out += line + "\n", ++n;
    ++total;
  }
  if (total > n)
    out += "// ... " + std::to_string(total - n) + " more lines\n";
  return out;
}

const json *findKey(const json &j, const std::string &key) {
  if (j.is_object()) {
    if (j.contains(key))
      return &j[key];
    for (const auto &[k, v] : j.items())
      if (const json *f = findKey(v, key))
        return f;
  }
  return nullptr;
}

std::string versions() {
  std::string s = "- MLIR/LLVM (crosscheck's in-process compiler): " +
                  std::string(CC_LLVM_VERSION) + "\n";
#ifdef __VERSION__
  s += "- host C++ compiler of crosscheck: " + std::string(__VERSION__) + "\n";
#endif
  struct utsname u;
  if (uname(&u) == 0)
    s += "- system: " + std::string(u.sysname) + " " + u.release + " " +
         u.machine + "\n";
  s += "- repro.sh prints the version of the mlir-opt it runs\n";
  return s;
}

Error writeText(const std::string &path, const std::string &text) {
  return writeFile(path, text);
}

// Writes an executable script.
Error writeScript(const std::string &path, const std::string &text) {
  CC_TRY(writeText(path, text));
  std::error_code ec;
  fs::permissions(path,
                  fs::perms::owner_exec | fs::perms::group_exec |
                      fs::perms::others_exec,
                  fs::perm_options::add, ec);
  return Error::success();
}

// Renders graph.dot to graph.svg with Graphviz's dot, when installed.
bool renderSvg(const std::string &dir) {
  std::string cmd = "dot -Tsvg " + shellQuote(dir + "/graph.dot") + " -o " +
                    shellQuote(dir + "/graph.svg") + " 2>/dev/null";
  return std::system(cmd.c_str()) == 0 && fs::exists(dir + "/graph.svg");
}


// What a bundle's repro.sh needs besides the pipeline.
struct ReproSpec {
  std::string dir, title, program, table;
  bool compare;        // expected values are known
  bool passesComplete; // the pipeline runs to completion (no crash)
};

struct Repro {
  std::string pipeline;  // what repro.sh runs (empty: not reproducible)
  std::string splitNote; // for the README, when crosscheck's passes ran here
};

// Writes repro.mlir and repro.sh for `pipeline`. Passes that upstream
// mlir-opt lacks (crosscheck's cc-* test passes) run here, in-process, and
// repro.mlir is the program after them; repro.sh runs the upstream rest.
Expected<Repro> writeRepro(const ReproSpec &spec, const std::string &pipeline,
                           int optLevel, std::vector<std::string> &notes) {
  Repro r{pipeline, ""};
  std::string reproMlir = spec.program;
  if (!pipeline.empty()) {
    CC_ASSIGN(leaves, splitPipeline(pipeline));
    size_t cut = 0;
    for (size_t i = 0; i < leaves.size(); ++i)
      if (!isUpstreamPass(leaves[i].name))
        cut = i + 1;
    std::vector<PipelineLeaf> head(leaves.begin(), leaves.begin() + long(cut));
    std::vector<PipelineLeaf> rest(leaves.begin() + long(cut), leaves.end());
    if (cut > 0 && !spec.passesComplete) {
      // They fail here (a crash, a hang): nothing upstream can show.
      notes.push_back("the failure is in crosscheck's own passes (" +
                      joinPipeline(head) + "), which upstream mlir-opt "
                      "does not have: repro.sh cannot reproduce it");
      r.pipeline.clear();
    } else if (cut > 0) {
      auto steps = tracePipeline(spec.program, joinPipeline(head));
      if (!steps || steps->empty()) {
        notes.push_back("cannot run crosscheck's own passes: " +
                        (steps ? std::string("no pass ran")
                               : steps.error().message()));
      } else {
        reproMlir = steps->back().after;
        r.pipeline = joinPipeline(rest);
        r.splitNote = "The pipeline names crosscheck's own test passes (`" +
                      joinPipeline(head) +
                      "`), which upstream mlir-opt does not have: `repro.mlir` "
                      "is the program after them, and repro.sh runs the rest "
                      "of the pipeline. `REPRO_MLIR=input.mlir ./repro.sh` "
                      "runs that same rest on the program before them.";
      }
    }
  }
  CC_TRY(writeText(spec.dir + "/repro.mlir", reproMlir));
  std::string script =
      r.pipeline.empty()
          ? "#!/bin/sh\n# " + spec.title +
                "\necho 'not reproducible with upstream mlir-opt and "
                "mlir-runner (see README.md)' >&2\nexit 2\n"
          : repro::mlirScript({spec.title, spec.table, spec.compare},
                              r.pipeline, optLevel);
  CC_TRY(writeScript(spec.dir + "/repro.sh", script));
  return r;
}

// The repro.sh of a compiler that is not an in-process MLIR pipeline: an
// external *-opt command (rerun on tosa.mlir, its output completed by
// upstream mlir-opt) or TorchScript (a LibTorch program on the traced
// module). Returns the README's words on how it reproduces; empty for other
// compilers (the exit-2 repro.sh stays).
Expected<std::string> writeOtherRepro(const ReproSpec &spec,
                                      const std::string &cut, const Graph &g,
                                      const Inputs &inputs) {
  repro::Check check{spec.title, spec.table, spec.compare};
  if (cut.starts_with("mlir-ext")) {
    CC_ASSIGN(ext, externalOfSpec(cut));
    CC_ASSIGN(tosa, emitModule(g, ext.syntaxVersion));
    CC_ASSIGN(func, functionName(tosa));
    CC_TRY(writeText(spec.dir + "/tosa.mlir", tosa));
    CC_TRY(writeText(spec.dir + "/driver.mlir", driverText(g, inputs, func)));
    std::string completion = ext.completion.pipeline;
    if (!completion.starts_with("builtin.module("))
      completion = "builtin.module(" + completion + ")";
    CC_TRY(writeScript(spec.dir + "/repro.sh",
                       repro::externalScript(check, ext.command, completion,
                                             ext.completion.llvmOptLevel)));
    return "```sh\n./repro.sh            # exit 1: the bug is present; 0: "
           "fixed\n```\n\nNeeds the compiler under test, mlir-opt and "
           "mlir-runner from MLIR 22 (override with `REPRO_COMPILER`, "
           "`MLIR_OPT`, `MLIR_RUNNER`, `MLIR_C_RUNNER_UTILS`). It runs\n\n"
           "```sh\n" + ext.command + " < tosa.mlir > compiled.mlir\n```\n\n"
           "(tosa.mlir in MLIR " + std::to_string(ext.syntaxVersion) +
           "'s TOSA syntax), adds `@repro_main` (driver.mlir) to the "
           "compiled module, lowers the rest of the way with crosscheck's "
           "straight `" + ext.completion.name + "` lowering in mlir-opt, runs "
           "it with mlir-runner and compares what `@repro_main` prints with "
           "the expected values.\n\n";
  }
  if (cut == "torchscript") {
    CC_TRY(saveTorchScript(g, inputs, spec.dir + "/model.pt",
                           spec.dir + "/inputs.pt"));
    CC_TRY(writeText(spec.dir + "/repro.cpp", repro::torchProgram()));
    CC_TRY(writeScript(spec.dir + "/repro.sh", repro::torchScript(check)));
    return std::string(
        "```sh\n./repro.sh            # exit 1: the bug is present; 0: "
        "fixed\n```\n\nNeeds only LibTorch (Debian's `libtorch-dev`; "
        "override with `CXX`, `TORCH_INCLUDE`, `TORCH_LIBS`). It builds "
        "`repro.cpp`, which loads the traced module `model.pt` "
        "(`torch::jit::load`), freezes it, runs `optimize_for_inference` and "
        "executes it twice on `inputs.pt` with the TensorExpr fuser on CPU "
        "(the profiling executor runs the fused graph the second time), and "
        "compares the printed outputs with the expected values.\n\n");
  }
  return std::string();
}

// Runs DIR/repro.sh (output into DIR/repro.out); its exit status, or -1.
// Exit status 1 that does not show the finding's own kind of failure (a
// reduced pipeline that no longer lowers @repro_main's loops makes
// mlir-runner fail, not the program compute wrong values) counts as 3.
int runRepro(const std::string &dir, Kind kind) {
  std::string cmd = "sh " + shellQuote(dir + "/repro.sh") + " >" +
                    shellQuote(dir + "/repro.out") + " 2>&1";
  int st = std::system(cmd.c_str());
  int status = st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  if (status != 1)
    return status;
  auto out = readFile(dir + "/repro.out");
  auto shows = [&](const char *what) {
    return out && out->find(what) != std::string::npos;
  };
  switch (kind) {
  case Kind::Miscompile:
  case Kind::TvIncorrect:
  case Kind::RefDisagreement:
    return shows("output elements differ") ? 1 : 3;
  case Kind::Crash:
    return shows(" crashed (signal") ? 1 : 3;
  case Kind::Timeout:
    return shows(" hung (killed") ? 1 : 3;
  default:
    return 1;
  }
}

} // namespace

std::string graphDot(const Graph &g) {
  auto label = [](const std::string &s) {
    std::string out;
    for (char c : s)
      out += c == '"' ? std::string("\\\"") : std::string(1, c);
    return out;
  };
  std::ostringstream os;
  os << "digraph graph_ {\n  rankdir=TB;\n  node [fontname=\"monospace\" "
        "fontsize=11];\n  edge [fontname=\"monospace\" fontsize=9];\n";
  for (size_t i = 0; i < g.inputs.size(); ++i) {
    const ValueInfo &v = g.values.at(g.inputs[i]);
    os << "  v" << g.inputs[i] << " [shape=ellipse label=\"" << label(v.name)
       << "\\n" << v.type.str() << "\"];\n";
  }
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const Node &node = g.nodes[n];
    std::string attrs;
    for (const auto &[k, v] : node.attrs.all()) {
      std::string text;
      if (auto *i = std::get_if<int64_t>(&v))
        text = std::to_string(*i);
      else if (auto *f = std::get_if<double>(&v))
        text = shortNum(*f);
      else if (auto *b = std::get_if<bool>(&v))
        text = *b ? "true" : "false";
      else if (auto *s = std::get_if<std::string>(&v))
        text = *s;
      else if (auto *t = std::get_if<DType>(&v))
        text = dtypeName(*t);
      else
        text = "...";
      attrs += "\\n" + k + "=" + text;
    }
    bool constant = node.op == "const";
    os << "  n" << n << " [shape=" << (constant ? "note" : "box")
       << " style=filled fillcolor=\"" << (constant ? "#eeeeee" : "#dbe9f6")
       << "\" label=\"" << label(node.op) << label(attrs) << "\"];\n";
    for (ValueId operand : node.operands) {
      const ValueInfo &v = g.values.at(operand);
      os << "  " << (v.producer < 0 ? "v" + std::to_string(operand)
                                    : "n" + std::to_string(v.producer))
         << " -> n" << n << " [label=\"" << v.type.str() << "\"];\n";
    }
  }
  for (size_t i = 0; i < g.outputs.size(); ++i) {
    const ValueInfo &v = g.values.at(g.outputs[i]);
    os << "  out" << i << " [shape=doubleoctagon label=\"output "
       << label(v.name) << "\"];\n  "
       << (v.producer < 0 ? "v" + std::to_string(g.outputs[i])
                          : "n" + std::to_string(v.producer))
       << " -> out" << i << " [label=\"" << v.type.str() << "\"];\n";
  }
  os << "}\n";
  return os.str();
}

// ---- The bundle ----

Expected<BundleResult> writeBundle(const FindingRecord &original,
                                   const std::string &dir,
                                   const BundleOptions &options) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    return makeError("cannot create bundle directory '" + dir +
                     "': " + ec.message());
  BundleResult result;
  FindingRecord f = original;
  const Signature &sig = original.finding.signature;
  CC_TRY(verify(f.testCase.graph).withContext("finding graph"));

  // The culprit: bisect the pipeline (this also shrinks it to the passes
  // the failure needs, checked by re-running every candidate).
  auto [pipeline, optLevel] = cutPipeline(f.testCase.cut);
  if (!pipeline.empty() && options.bisect && sig.kind != Kind::RefDisagreement) {
    ReduceOptions ro;
    ro.reduceGraph = false;
    ro.budgetSeconds = options.bisectBudgetSeconds;
    ro.jobs = options.jobs;
    auto reduced = reduceFinding(f, ro);
    if (!reduced) {
      result.notes.push_back("bisection: " + reduced.error().message());
    } else {
      result.culprit = reduced->firstFailingPass;
      f.testCase = reduced->reduced.testCase;
      std::tie(pipeline, optLevel) = cutPipeline(f.testCase.cut);
      if (result.culprit.empty())
        result.notes.push_back("bisection did not single out one pass");
    }
  }
  if (result.culprit.empty() && !sig.stage.empty())
    result.culprit = sig.stage;
  const Graph &g = f.testCase.graph;
  const Inputs &inputs = f.testCase.inputs;

  CC_TRY(saveFinding(dir + "/finding.json", original));
  CC_TRY(writeText(dir + "/graph.json", printGraph(g)));
  for (size_t i = 0; i < inputs.size(); ++i)
    CC_TRY(writeNpy(dir + "/input_" + std::to_string(i) + ".npy", inputs[i]));
  Outputs magnitudes;
  auto ref = interpret(g, inputs, Precision::F64, &magnitudes);
  auto target = interpret(g, inputs, Precision::Target);
  if (ref && target) {
    for (size_t i = 0; i < ref->size(); ++i)
      CC_TRY(writeNpy(dir + "/expected_" + std::to_string(i) + ".npy",
                      (*ref)[i]));
  } else {
    result.notes.push_back("no expected values: " +
                           (ref ? target.error() : ref.error()).message());
  }
  CC_TRY(writeText(dir + "/graph.dot", graphDot(g)));
  bool svg = renderSvg(dir);
  if (!svg)
    result.notes.push_back("Graphviz 'dot' is not installed: no graph.svg");

  CC_ASSIGN(texts, programText(g, inputs));
  const auto &[tosa, program] = texts;
  CC_TRY(writeText(dir + "/input.mlir", program));

  bool passesComplete = sig.kind == Kind::Miscompile ||
                        sig.kind == Kind::TvIncorrect ||
                        sig.kind == Kind::RefDisagreement;
  Expectation expect;
  if (ref && target)
    expect = expectations(g, *ref, *target, magnitudes);
  std::string title = std::string(kindName(sig.kind)) + ": " + sig.str();
  ReproSpec spec{dir, title, program, expect.table, ref && target,
                 passesComplete};
  CC_ASSIGN(repro, writeRepro(spec, pipeline, optLevel, result.notes));
  // How a compiler that is not an MLIR pipeline reproduces (README words).
  std::string otherHow;
  if (pipeline.empty()) {
    CC_ASSIGN(how, writeOtherRepro(spec, f.testCase.cut, g, inputs));
    otherHow = how;
    if (otherHow.empty())
      result.notes.push_back("the compiler under test '" + f.testCase.cut +
                             "' is neither an MLIR pass pipeline, an external "
                             "*-opt command nor TorchScript: repro.sh cannot "
                             "reproduce it with upstream tools");
  }
  // Checked with the upstream tools: a pipeline that bisection reduced may
  // fail in crosscheck's JIT but not in mlir-runner (other LLVM options);
  // then the bundle falls back to the whole pipeline.
  int status = -1;
  std::string originalPipeline = cutPipeline(original.testCase.cut).first;
  if (!repro.pipeline.empty() && options.verify) {
    status = runRepro(dir, sig.kind);
    if (status != 1 && pipeline != originalPipeline) {
      result.notes.push_back(
          "the reduced pipeline does not reproduce with upstream mlir-opt and "
          "mlir-runner (repro.sh exit status " + std::to_string(status) +
          "): repro.sh runs the whole pipeline of the finding, and the "
          "bisection's culprit (" + result.culprit + ") is not trusted");
      auto whole = cutPipeline(original.testCase.cut);
      result.culprit = sig.stage;
      pipeline = whole.first;
      CC_ASSIGN(again, writeRepro(spec, whole.first, whole.second, result.notes));
      repro = again;
      optLevel = whole.second;
      status = runRepro(dir, sig.kind);
    }
  } else if (!otherHow.empty() && options.verify) {
    status = runRepro(dir, sig.kind);
  }
  if (status >= 0 && status != 1)
    result.notes.push_back(
        "repro.sh does not show the bug with the upstream tools here (" +
        (status == 3 ? std::string("it fails, but not in the way the finding "
                                   "does")
                     : "exit status " + std::to_string(status)) +
        ", see repro.out)");
  result.pipeline = repro.pipeline;

  std::vector<PassStep> culpritTrace;
  if (!pipeline.empty() && !result.culprit.empty() && passesComplete) {
    auto steps = tracePipeline(tosa, pipeline);
    if (steps) {
      for (const PassStep &s : *steps)
        if (s.pass == passName(result.culprit)) {
          culpritTrace.push_back(s);
          break;
        }
    } else {
      result.notes.push_back("cannot trace the pipeline: " +
                             steps.error().message());
    }
  }
  if (!culpritTrace.empty()) {
    CC_TRY(writeText(dir + "/culprit-before.mlir", culpritTrace[0].before));
    CC_TRY(writeText(dir + "/culprit-after.mlir", culpritTrace[0].after));
  }

  // The actual outputs now, for the first mismatching elements.
  std::vector<Mismatch> wrong;
  std::string runNote;
  if (ref && target) {
    auto backend = makeBackend(f.testCase.cut);
    if (backend) {
      RunOptions ro;
      ro.timeoutSeconds = f.testCase.timeoutSeconds;
      auto actual = (*backend)->run(g, inputs, ro);
      if (actual)
        wrong = mismatches(g, *actual, *ref, *target, expect.allowed);
      else
        runNote = actual.error().message();
    } else {
      runNote = backend.error().message();
    }
  }

  // README.md
  std::ostringstream md;
  md << "# " << kindName(sig.kind) << ": `" << sig.str() << "`\n\n"
     << "Found by crosscheck (signature fingerprint `"
     << signatureFingerprint(sig) << "`, campaign seed "
     << original.testCase.seed << ", case " << original.testCase.index
     << ") on the compiler under test `" << original.testCase.cut << "`.\n\n"
     << "## What happened\n\n";
  if (sig.kind == Kind::Miscompile || sig.kind == Kind::TvIncorrect)
    md << "**Expected:** the compiled program computes the graph's outputs "
          "as the reference interpreter does (TOSA 1.0 semantics in f64), "
          "within the tolerance below.\n\n";
  else
    md << "**Expected:** the pipeline lowers the program and it runs to "
          "completion.\n\n";
  md << "**What happened:** " << kindDescription(sig.kind) << " "
     << original.finding.message << "\n\n";
  md << "## Reproduce\n\n";
  auto showStatus = [&] {
    if (status < 0)
      return;
    auto out = readFile(dir + "/repro.out");
    md << "When this bundle was written, `./repro.sh` exited with status "
       << (status == 3 ? 1 : status)
       << (status == 1   ? " (the bug shows)"
           : status == 3 ? " (a failure other than the finding's)"
                         : "")
       << ":\n\n```\n"
       << (out ? clip(*out, 30) : std::string()) << "```\n\n";
  };
  if (!otherHow.empty()) {
    md << otherHow;
    showStatus();
  } else if (result.pipeline.empty()) {
    md << "Not with upstream tools alone (see *Limits of this bundle*): the "
          "compiler under test is `"
       << f.testCase.cut << "`. `finding.json` replays it with crosscheck.\n\n";
  } else {
    md << "```sh\n./repro.sh            # exit 1: the bug is present; 0: "
          "fixed\n```\n\nNeeds only `mlir-opt` and `mlir-runner` from MLIR "
          "22 (override with `MLIR_OPT`, `MLIR_RUNNER`, "
          "`MLIR_C_RUNNER_UTILS`). It runs\n\n```sh\nmlir-opt repro.mlir "
          "--pass-pipeline='"
       << result.pipeline
       << "' |\n  mlir-runner -e repro_main -entry-point-result=void -O"
       << optLevel << " -shared-libs=libmlir_c_runner_utils.so\n```\n\n"
       << "and compares what `@repro_main` prints with the expected values.\n\n";
    if (!repro.splitNote.empty())
      md << repro.splitNote << "\n\n";
    showStatus();
  }
  md << "## The graph\n\n";
  md << "<table><tr><td>\n\n"
     << (svg ? "<img src=\"graph.svg\" alt=\"the graph\">"
             : "(graph.dot: Graphviz was not installed)")
     << "\n\n</td><td>\n\n<pre>\n" << xmlEscape(clip(tosa, 60))
     << "</pre>\n\n</td></tr></table>\n\n";
  md << "The inputs are `input_<i>.npy` (in the order of the function's "
        "arguments), the f64 reference outputs `expected_<i>.npy`.\n\n";
  md << "## Culprit\n\n";
  if (result.culprit.empty()) {
    md << "Not known" << (result.notes.empty() ? "" : " (see *Limits of this "
                                                       "bundle* below)")
       << ".\n\n";
  } else {
    md << "`" << result.culprit << "`"
       << (options.bisect && !pipeline.empty()
               ? ": the first pass after which the failure shows (bisection of "
                 "the pipeline, completed by the straight tosa-O0 lowering)."
               : ": the stage named by the finding.")
       << "\n\n";
    if (!culpritTrace.empty())
      md << "IR before `" << culpritTrace[0].pass
         << "` (culprit-before.mlir):\n\n```mlir\n"
         << clip(culpritTrace[0].before, 80) << "```\n\nIR after it "
         << "(culprit-after.mlir):\n\n```mlir\n"
         << clip(culpritTrace[0].after, 80) << "```\n\n";
  }
  md << "## Numeric evidence\n\n";
  const json *numeric = findKey(original.evidence, "numeric");
  if (numeric && numeric->contains("outputs")) {
    md << "| output | type | mismatches | max abs error | max rel error | "
          "max ulp | rel tolerance | abs tolerance |\n|---|---|---|---|---|---|"
          "---|---|\n";
    for (const json &o : (*numeric)["outputs"]) {
      json tol = o.value("tolerance", json::object());
      md << "| " << o.value("name", "") << " | " << o.value("type", "") << " | "
         << o.value("mismatches", 0) << " | "
         << jsonNumber(o.value("max_abs_error", json())) << " | "
         << jsonNumber(o.value("max_rel_error", json())) << " | "
         << jsonNumber(o.value("max_ulp", json())) << " | "
         << jsonNumber(tol.value("rel", json())) << " | "
         << jsonNumber(tol.value("abs", json())) << " |\n";
    }
    md << "\n";
  } else {
    md << "The finding carries no numeric report.\n\n";
  }
  if (!wrong.empty()) {
    md << "First mismatching elements (re-run now; tolerance as the oracle's: "
          "the largest of 4 x the error of the reference evaluated in the "
          "target precision, the relative bound and the tensor's absolute "
          "floor):\n\n| output | element | expected | actual | allowed error "
          "|\n|---|---|---|---|---|\n";
    for (size_t i = 0; i < wrong.size() && i < 10; ++i)
      md << "| " << wrong[i].output << " | " << wrong[i].index << " | "
         << shortNum(wrong[i].expected) << " | " << shortNum(wrong[i].actual)
         << " | " << shortNum(wrong[i].allowed) << " |\n";
    md << "\n" << wrong.size() << " mismatching element(s) in all.\n\n";
  } else if (!runNote.empty()) {
    md << "Re-running the case now: " << clip(runNote, 5) << "\n\n";
  }
  if (const json *cex = findKey(original.evidence, "counterexample"))
    md << "## SMT counterexample\n\n```\n"
       << (cex->is_string() ? cex->get<std::string>() : cex->dump(2))
       << "\n```\n\n";
  if (!original.log.empty())
    md << "## Log\n\n```\n" << clip(original.log, 40) << "```\n\n";
  if (!result.notes.empty()) {
    md << "## Limits of this bundle\n\n";
    for (const std::string &n : result.notes)
      md << "- " << n << "\n";
    md << "\n";
  }
  md << "## Versions\n\n" << versions() << "\n";
  md << "## Files\n\n`repro.sh`, `repro.mlir`, `input.mlir`, `graph.json`, "
        "`graph.dot`"
     << (svg ? ", `graph.svg`" : "")
     << ", `repro.out` (what repro.sh printed), `finding.json` (crosscheck's self-contained finding: `crosscheck "
        "reduce finding.json`), `input_<i>.npy`, `expected_<i>.npy`"
     << (culpritTrace.empty() ? "" : ", `culprit-before.mlir`, `culprit-after.mlir`")
     << (otherHow.empty() ? ""
         : pipeline.empty() && f.testCase.cut == "torchscript"
             ? ", `repro.cpp`, `model.pt`, `inputs.pt`"
             : ", `tosa.mlir`, `driver.mlir`")
     << ".\n";
  CC_TRY(writeText(dir + "/README.md", md.str()));
  return result;
}

} // namespace cc
