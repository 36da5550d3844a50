#include "backends/onnx/Conformance.h"
#include "backends/mlir/MlirBackend.h"
#include "backends/onnx/Importer.h"
#include "backends/onnx/Onnx.h"
#include "backends/onnx/Proto.h"
#include "backends/ref/Interpreter.h"
#include "core/File.h"
#include "core/Json.h"
#include "oracles/Differential.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <regex>

namespace cc {

std::string_view caseStatusName(CaseStatus s) {
  switch (s) {
  case CaseStatus::Pass:
    return "pass";
  case CaseStatus::Fail:
    return "fail";
  case CaseStatus::Unsupported:
    return "unsupported";
  }
  return "?";
}

int ConformanceReport::count(int path, CaseStatus s, bool inScope) const {
  int n = 0;
  for (const ConformanceCase &c : cases)
    n += (path == 0 ? c.ref : c.mlir).status == s &&
         !(inScope && !c.outOfScope.empty());
  return n;
}

int ConformanceReport::inScope() const {
  return int(
      std::count_if(cases.begin(), cases.end(), [](const ConformanceCase &c) {
        return c.outOfScope.empty();
      }));
}

nlohmann::json ConformanceReport::toJson() const {
  nlohmann::json j;
  j["cases"] = nlohmann::json::array();
  for (const ConformanceCase &c : cases)
    j["cases"].push_back(
        {{"name", c.name},
         {"ops", c.opTypes},
         {"out_of_scope", c.outOfScope},
         {"ref",
          {{"status", caseStatusName(c.ref.status)}, {"detail", c.ref.detail}}},
         {"mlir",
          {{"status", caseStatusName(c.mlir.status)},
           {"detail", c.mlir.detail}}},
         {"seconds", c.seconds}});
  for (int path : {0, 1})
    for (CaseStatus s :
         {CaseStatus::Pass, CaseStatus::Fail, CaseStatus::Unsupported})
      j["totals"][path ? "mlir" : "ref"][std::string(caseStatusName(s))] =
          count(path, s);
  j["totals"]["in_scope"] = inScope();
  j["totals"]["in_scope_imported"] =
      count(0, CaseStatus::Pass, true) + count(0, CaseStatus::Fail, true);
  return j;
}

namespace {

// ONNX ops that DL inference graphs do not contain, by kind.
const std::map<std::string, std::string> &outOfScopeOps() {
  static const std::map<std::string, std::string> ops = [] {
    std::map<std::string, std::string> m;
    auto add = [&m](const char *why,
                    std::initializer_list<const char *> names) {
      for (const char *n : names)
        m[n] = why;
    };
    add("training", {"NegativeLogLikelihoodLoss", "SoftmaxCrossEntropyLoss"});
    add("random", {"Bernoulli", "Multinomial", "RandomNormal",
                   "RandomNormalLike", "RandomUniform", "RandomUniformLike"});
    add("signal processing", {"DFT", "STFT", "BlackmanWindow", "HammingWindow",
                              "HannWindow", "MelWeightMatrix"});
    add("text", {"TfIdfVectorizer", "StringNormalizer", "RegexFullMatch"});
    add("control flow", {"If", "Loop", "Scan"});
    add("sequences", {"SequenceAt", "SequenceConstruct", "SequenceEmpty",
                      "SequenceErase", "SequenceInsert", "SequenceLength",
                      "SplitToSequence", "ConcatFromSequence", "Optional",
                      "OptionalGetElement", "OptionalHasElement"});
    add("shape depends on data",
        {"NonZero", "Unique", "Compress", "NonMaxSuppression"});
    return m;
  }();
  return ops;
}

// Why a test is outside the DL-inference scope ("" when inside).
std::string scopeOf(const std::string &dir) {
  auto bytes = readFile(dir + "/model.onnx");
  if (!bytes)
    return "";
  auto model = onnx::parseModel(*bytes);
  if (!model)
    return "";
  for (const onnx::NodeProto &n : model->nodes) {
    if (n.domain == "ai.onnx.preview.training")
      return "training";
    if (auto it = outOfScopeOps().find(n.opType); it != outOfScopeOps().end())
      return it->second;
  }
  for (const auto *list : {&model->inputs, &model->outputs})
    for (const onnx::ValueProto &v : *list) {
      if (v.type && v.type->dtype == DType::f64)
        return "f64 data";
      if (!v.type && (v.whyNoType.find("STRING") != std::string::npos ||
                      v.whyNoType.find("not a tensor") != std::string::npos))
        return "strings, sequences or optionals";
    }
  return "";
}

PathResult notRun(const Error &e) {
  bool unsupported =
      e.code() == ErrorCode::Unsupported || e.code() == ErrorCode::Undefined;
  return {unsupported ? CaseStatus::Unsupported : CaseStatus::Fail,
          e.message()};
}

// A "compiler" whose outputs are ONNX's expected ones, so that they are
// judged exactly as a compiler's: the imported graph means exact TOSA, and
// ONNX's result for the original op (a correctly rounded Div, a fused
// Softmax) is one of the results that graph permits.
class ExpectedOutputs : public Backend {
public:
  explicit ExpectedOutputs(Outputs o) : outputs(std::move(o)) {}
  std::string name() const override { return "onnx-expected"; }
  Support supports(const Graph &) const override { return Support::yes(); }
  Expected<Outputs> run(const Graph &, const Inputs &,
                        const RunOptions &) override {
    return outputs;
  }

private:
  Outputs outputs;
};

PathResult judgeExpected(const OnnxTestCase &tc) {
  Outputs expected;
  for (const Tensor &t : tc.expected) {
    auto n = onnx::narrowTensor(t, "expected output");
    if (!n)
      return notRun(n.error());
    expected.push_back(*n);
  }
  ExpectedOutputs onnxOutputs(std::move(expected));
  auto result = runDifferential(tc.graph, tc.inputs, onnxOutputs);
  if (!result)
    return notRun(result.error());
  if (result->verdict.passed() || !result->report)
    return {CaseStatus::Pass, ""};
  // The report calls ONNX's outputs "got" and the reference "expected".
  return {CaseStatus::Fail,
          "ONNX's output is outside what the imported graph permits: " +
              result->report->summary()};
}

// The compiler under test against the reference, as in a campaign.
PathResult judgeCompiler(const OnnxTestCase &tc, Backend &cut,
                         const RunLimits &limits) {
  DifferentialOptions options;
  options.limits = limits;
  auto result = runDifferential(tc.graph, tc.inputs, cut, options);
  if (!result)
    return notRun(result.error());
  const Verdict &v = result->verdict;
  if (v.passed())
    return {CaseStatus::Pass, ""};
  if (!v.finding())
    return {CaseStatus::Unsupported, v.skipReason()};
  return {CaseStatus::Fail,
          v.finding()->signature.str() + ": " + v.finding()->message};
}

} // namespace

Expected<ConformanceReport>
runOnnxConformance(const std::string &dir, const ConformanceOptions &options) {
  namespace fs = std::filesystem;
  if (!fs::is_directory(dir))
    return makeError(dir + ": not a directory");
  std::regex filter;
  try {
    filter = std::regex(options.filter.empty() ? "." : options.filter);
  } catch (const std::regex_error &e) {
    return makeError("invalid --filter regex '" + options.filter +
                     "': " + e.what());
  }
  std::unique_ptr<Backend> backend;
  if (!options.cut.empty()) {
    CC_ASSIGN(b, makeMlirBackend(options.cut));
    backend = std::move(b);
  }
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto &e : fs::directory_iterator(dir, ec))
    if (fs::exists(e.path() / "model.onnx") &&
        std::regex_search(e.path().filename().string(), filter))
      names.push_back(e.path().filename().string());
  if (ec)
    return makeError("cannot list '" + dir + "': " + ec.message());
  // Zero cases run is not a pass: the directory or the filter is wrong.
  if (names.empty())
    return makeError("no ONNX test case (a folder with model.onnx) in '" + dir +
                     "'" +
                     (options.filter.empty()
                          ? ""
                          : " matches --filter '" + options.filter + "'"));
  std::sort(names.begin(), names.end());

  ConformanceReport report;
  for (const std::string &name : names) {
    auto start = std::chrono::steady_clock::now();
    ConformanceCase c;
    c.name = name;
    c.outOfScope = scopeOf(dir + "/" + name);
    auto tc = loadOnnxTestCase(dir + "/" + name);
    if (!tc) {
      bool unsupported = tc.error().code() == ErrorCode::Unsupported;
      c.ref =
          c.mlir = {unsupported ? CaseStatus::Unsupported : CaseStatus::Fail,
                    tc.error().message()};
    } else {
      c.opTypes = tc->opTypes;
      c.ref = judgeExpected(*tc);
      if (backend) {
        c.mlir = judgeCompiler(*tc, *backend, options.limits);
      } else {
        c.mlir = {CaseStatus::Unsupported, "no compiler under test"};
      }
    }
    c.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    report.cases.push_back(std::move(c));
  }
  return report;
}

} // namespace cc
