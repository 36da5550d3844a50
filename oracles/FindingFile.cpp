#include "oracles/FindingFile.h"

#include "core/File.h"
#include "core/Json.h"

#include <filesystem>
#include <type_traits>

namespace cc {

using nlohmann::json;

namespace {
Error formatError(const std::string &what) {
  return Error::failure("malformed finding: " + what);
}
} // namespace

json signatureToJson(const Signature &s) {
  return {{"kind", kindName(s.kind)},
          {"backend", s.backend},
          {"stage", s.stage},
          {"detail", s.detail}};
}

Expected<Signature> signatureFromJson(const json &j) {
  if (!j.is_object() || !j.contains("kind") || !j["kind"].is_string())
    return formatError("signature needs a string 'kind'");
  auto kind = parseKind(j["kind"].get<std::string>());
  if (!kind)
    return formatError("unknown kind '" + j["kind"].get<std::string>() + "'");
  Signature s;
  s.kind = *kind;
  for (auto [key, field] :
       {std::pair{"backend", &s.backend}, std::pair{"stage", &s.stage},
        std::pair{"detail", &s.detail}})
    if (j.contains(key) && j[key].is_string())
      *field = j[key].get<std::string>();
  return s;
}

namespace {
json typesToJson(const std::vector<TensorType> &types) {
  json a = json::array();
  for (const TensorType &t : types)
    a.push_back(t.str());
  return a;
}

Expected<std::vector<TensorType>> typesFromJson(const json &j,
                                                const char *what) {
  if (!j.is_array())
    return formatError(std::string("the program's '") + what +
                       "' must be an array of tensor types");
  std::vector<TensorType> types;
  for (const json &t : j) {
    if (!t.is_string())
      return formatError(std::string("the program's '") + what +
                         "' must be an array of tensor types");
    CC_ASSIGN(type, parseTensorType(t.get<std::string>()));
    types.push_back(std::move(type));
  }
  return types;
}

Expected<MlirProgram> programFromJson(const json &j) {
  if (!j.is_object() || !j.contains("mlir") || !j["mlir"].is_string())
    return formatError("a program needs its 'mlir' text");
  MlirProgram p;
  p.name = j.value("name", "main");
  p.mlir = j["mlir"].get<std::string>();
  CC_ASSIGN(args, typesFromJson(j.value("args", json()), "args"));
  CC_ASSIGN(results, typesFromJson(j.value("results", json()), "results"));
  p.args = std::move(args);
  p.results = std::move(results);
  return p;
}
} // namespace

std::string caseName(const TestCase &c) {
  return c.program ? c.program->name : c.graph.name;
}

std::vector<TensorType> inputTypes(const TestCase &c) {
  if (c.program)
    return c.program->args;
  std::vector<TensorType> types;
  for (ValueId v : c.graph.inputs)
    types.push_back(c.graph.typeOf(v));
  return types;
}

json testCaseToJson(const TestCase &c) {
  json inputs = json::array();
  for (const Tensor &t : c.inputs)
    inputs.push_back(tensorToJson(t));
  json j = {{"cut", c.cut},
            {"timeout", c.limits.timeoutSeconds},
            {"memory", c.limits.memoryBytes},
            {"seed", c.seed},
            {"index", c.index},
            {"inputs", inputs}};
  if (c.program)
    j["program"] = {{"name", c.program->name},
                    {"mlir", c.program->mlir},
                    {"args", typesToJson(c.program->args)},
                    {"results", typesToJson(c.program->results)}};
  else
    j["graph"] = graphToJson(c.graph);
  return j;
}

Expected<TestCase> testCaseFromJson(const json &j) {
  if (!j.is_object() || !(j.contains("graph") || j.contains("program")) ||
      !j.contains("inputs") || !j["inputs"].is_array())
    return formatError(
        "a case needs a 'graph' (or a 'program') and an 'inputs' array");
  TestCase c;
  if (j.contains("program")) {
    CC_ASSIGN(program, programFromJson(j["program"]));
    c.program = std::move(program);
  } else {
    CC_ASSIGN(graph, graphFromJson(j["graph"]));
    CC_TRY(verify(graph));
    c.graph = std::move(graph);
  }
  for (const json &t : j["inputs"]) {
    CC_ASSIGN(tensor, tensorFromJson(t));
    c.inputs.push_back(std::move(tensor));
  }
  std::vector<TensorType> types = inputTypes(c);
  const char *owner = c.program ? "program" : "graph";
  if (c.inputs.size() != types.size())
    return formatError("the case has " + std::to_string(c.inputs.size()) +
                       " inputs, its " + owner + " " +
                       std::to_string(types.size()));
  for (size_t i = 0; i < c.inputs.size(); ++i)
    if (c.inputs[i].type() != types[i])
      return formatError("input " + std::to_string(i) +
                         " does not have the "
                         "type of the " +
                         owner + "'s input");
  c.cut = j.value("cut", "");
  // Files older than "memory" ran with RunLimits' own default.
  c.limits.timeoutSeconds = j.value("timeout", RunLimits().timeoutSeconds);
  c.limits.memoryBytes = j.value("memory", RunLimits().memoryBytes);
  c.seed = j.value("seed", uint64_t(0));
  c.index = j.value("index", uint64_t(0));
  return c;
}

json outputsToJson(const Outputs &outs) {
  json a = json::array();
  for (const Tensor &t : outs)
    a.push_back(tensorToJson(t));
  return a;
}

namespace {
json reductionToJson(const Reduction &r) {
  return {{"ops_before", r.opsBefore},
          {"ops_after", r.opsAfter},
          {"oracle_calls", r.oracleCalls},
          {"budget_exhausted", r.budgetExhausted},
          {"quick", r.quick},
          {"bisected", r.bisected},
          {"culprit", r.culprit}};
}

// The value at j[key] when it has type T, else `otherwise`.
template <class T> T field(const json &j, const char *key, T otherwise) {
  if (!j.is_object() || !j.contains(key))
    return otherwise;
  const json &v = j[key];
  if constexpr (std::is_same_v<T, bool>)
    return v.is_boolean() ? v.get<bool>() : otherwise;
  else if constexpr (std::is_same_v<T, std::string>)
    return v.is_string() ? v.get<std::string>() : otherwise;
  else
    return v.is_number_integer() ? v.get<T>() : otherwise;
}

Reduction reductionFromJson(const json &j) {
  Reduction r;
  r.opsBefore = field(j, "ops_before", 0);
  r.opsAfter = field(j, "ops_after", 0);
  r.oracleCalls = field<int64_t>(j, "oracle_calls", 0);
  r.budgetExhausted = field(j, "budget_exhausted", false);
  r.quick = field(j, "quick", false);
  r.bisected = field(j, "bisected", false);
  r.culprit = field<std::string>(j, "culprit", "");
  return r;
}

// Files written before "reduction" kept it in the evidence: "reduced"
// ({ops_before, ...}) and "first_failing_pass".
std::optional<Reduction> legacyReduction(json &evidence) {
  if (!evidence.is_object() || !evidence.contains("reduced"))
    return std::nullopt;
  Reduction r = reductionFromJson(evidence["reduced"]);
  r.culprit = field<std::string>(evidence, "first_failing_pass", "");
  r.bisected = !r.culprit.empty();
  evidence.erase("reduced");
  evidence.erase("first_failing_pass");
  return r;
}
} // namespace

json findingToJson(const FindingRecord &f) {
  json j = {{"format", "crosscheck-finding"},
            {"version", kFindingFormatVersion},
            {"signature", signatureToJson(f.finding.signature)},
            {"message", f.finding.message},
            {"case", testCaseToJson(f.testCase)},
            {"log", f.log},
            {"evidence", f.evidence}};
  if (f.reduction)
    j["reduction"] = reductionToJson(*f.reduction);
  return j;
}

Expected<FindingRecord> findingFromJson(const json &j) {
  if (!j.is_object() || j.value("format", "") != "crosscheck-finding")
    return formatError("not a crosscheck finding (format must be "
                       "\"crosscheck-finding\")");
  if (j.value("version", 0) != kFindingFormatVersion)
    return formatError(
        "unsupported version " + j.value("version", json(0)).dump() +
        " (this build reads " + std::to_string(kFindingFormatVersion) + ")");
  FindingRecord f;
  CC_ASSIGN(sig, signatureFromJson(j.value("signature", json())));
  f.finding.signature = sig;
  f.finding.message = j.value("message", "");
  CC_ASSIGN(c, testCaseFromJson(j.value("case", json())));
  f.testCase = std::move(c);
  f.log = j.value("log", "");
  f.evidence = j.value("evidence", json::object());
  if (j.contains("reduction"))
    f.reduction = reductionFromJson(j["reduction"]);
  else
    f.reduction = legacyReduction(f.evidence);
  return f;
}

Expected<FindingRecord> loadFinding(const std::string &path) {
  std::string file =
      std::filesystem::is_directory(path) ? path + "/finding.json" : path;
  CC_ASSIGN(text, readFile(file));
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded())
    return Error::failure(file + ": not valid JSON");
  auto f = findingFromJson(j);
  if (!f)
    return f.error().withContext(file);
  return f;
}

Error saveFinding(const std::string &path, const FindingRecord &f) {
  return writeFile(path, findingToJson(f).dump(1) + "\n");
}

} // namespace cc
