#include "backends/onnx/Conformance.h"
#include "backends/mlir/MlirBackend.h"
#include "backends/onnx/Onnx.h"
#include "backends/ref/Interpreter.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <regex>

namespace cc {

std::string_view caseStatusName(CaseStatus s) {
  switch (s) {
  case CaseStatus::Pass: return "pass";
  case CaseStatus::Fail: return "fail";
  case CaseStatus::Unsupported: return "unsupported";
  }
  return "?";
}

std::string compareWithExpected(const Outputs &actual, const Outputs &expected) {
  if (actual.size() != expected.size())
    return std::to_string(actual.size()) + " outputs, expected " +
           std::to_string(expected.size());
  for (size_t o = 0; o < actual.size(); ++o) {
    const Tensor &a = actual[o], &e = expected[o];
    std::string where = "output " + std::to_string(o);
    if (a.shape() != e.shape())
      return where + ": shape " + a.type().str() + ", expected " + e.type().str();
    bool floats = isFloat(e.dtype());
    if (floats != isFloat(a.dtype()) || isBool(e.dtype()) != isBool(a.dtype()))
      return where + ": dtype " + std::string(dtypeName(a.dtype())) + ", expected " +
             std::string(dtypeName(e.dtype()));
    double rtol = floats ? std::max(1e-3, 4 * epsilon(e.dtype())) : 0;
    double atol = floats ? std::max(1e-7, minNormal(e.dtype())) : 0;
    for (int64_t i = 0; i < e.size(); ++i) {
      double x = a.asDouble(i), y = e.asDouble(i);
      bool ok = floats ? (std::isnan(y) ? std::isnan(x)
                          : std::isinf(y) ? x == y
                                          : std::abs(x - y) <= atol + rtol * std::abs(y))
                       : x == y;
      if (!ok)
        return where + " element " + std::to_string(i) + ": got " +
               std::to_string(x) + ", expected " + std::to_string(y);
    }
  }
  return "";
}

int ConformanceReport::count(int path, CaseStatus s) const {
  int n = 0;
  for (const ConformanceCase &c : cases)
    n += (path == 0 ? c.ref : c.mlir).status == s;
  return n;
}

nlohmann::json ConformanceReport::toJson() const {
  nlohmann::json j;
  j["cases"] = nlohmann::json::array();
  for (const ConformanceCase &c : cases)
    j["cases"].push_back({{"name", c.name},
                          {"ops", c.opTypes},
                          {"ref", {{"status", caseStatusName(c.ref.status)},
                                   {"detail", c.ref.detail}}},
                          {"mlir", {{"status", caseStatusName(c.mlir.status)},
                                    {"detail", c.mlir.detail}}},
                          {"seconds", c.seconds}});
  for (int path : {0, 1})
    for (CaseStatus s : {CaseStatus::Pass, CaseStatus::Fail, CaseStatus::Unsupported})
      j["totals"][path ? "mlir" : "ref"][std::string(caseStatusName(s))] = count(path, s);
  return j;
}

namespace {

PathResult judge(const Expected<Outputs> &outputs, const Outputs &expected) {
  if (!outputs) {
    const Error &e = outputs.error();
    bool unsupported = e.code() == ErrorCode::Unsupported || e.code() == ErrorCode::Undefined;
    return {unsupported ? CaseStatus::Unsupported : CaseStatus::Fail, e.message()};
  }
  std::string why = compareWithExpected(*outputs, expected);
  return {why.empty() ? CaseStatus::Pass : CaseStatus::Fail, why};
}

} // namespace

Expected<ConformanceReport> runOnnxConformance(const std::string &dir,
                                               const ConformanceOptions &options) {
  namespace fs = std::filesystem;
  if (!fs::is_directory(dir))
    return makeError(dir + ": not a directory");
  std::regex filter;
  try {
    filter = std::regex(options.filter.empty() ? "." : options.filter);
  } catch (const std::regex_error &e) {
    return makeError("invalid --filter regex '" + options.filter + "': " + e.what());
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
                     "'" + (options.filter.empty() ? "" : " matches --filter '" +
                                                          options.filter + "'"));
  std::sort(names.begin(), names.end());

  ConformanceReport report;
  for (const std::string &name : names) {
    auto start = std::chrono::steady_clock::now();
    ConformanceCase c;
    c.name = name;
    auto tc = loadOnnxTestCase(dir + "/" + name);
    if (!tc) {
      bool unsupported = tc.error().code() == ErrorCode::Unsupported;
      c.ref = c.mlir = {unsupported ? CaseStatus::Unsupported : CaseStatus::Fail,
                        tc.error().message()};
    } else {
      c.opTypes = tc->opTypes;
      c.ref = judge(interpret(tc->graph, tc->inputs), tc->expected);
      if (backend) {
        RunOptions run;
        run.timeoutSeconds = options.timeoutSeconds;
        c.mlir = judge(backend->run(tc->graph, tc->inputs, run), tc->expected);
      } else {
        c.mlir = {CaseStatus::Unsupported, "no compiler under test"};
      }
    }
    c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    report.cases.push_back(std::move(c));
  }
  return report;
}

} // namespace cc
