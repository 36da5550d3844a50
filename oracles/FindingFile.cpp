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

// jsonField, its error a malformed finding's.
template <class T>
Expected<T> typed(const nlohmann::json &j, const char *key, T otherwise) {
  auto v = jsonField(j, key, std::move(otherwise));
  if (!v)
    return formatError(v.error().message());
  return v;
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
  CC_ASSIGN(name, typed<std::string>(j, "name", "main"));
  p.name = std::move(name);
  p.mlir = j["mlir"].get<std::string>();
  CC_ASSIGN(args, typesFromJson(j.value("args", json()), "args"));
  CC_ASSIGN(results, typesFromJson(j.value("results", json()), "results"));
  p.args = std::move(args);
  p.results = std::move(results);
  CC_ASSIGN(source, typed<std::string>(j, "source", ""));
  p.source = std::move(source);
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
  if (c.program) {
    j["program"] = {{"name", c.program->name},
                    {"mlir", c.program->mlir},
                    {"args", typesToJson(c.program->args)},
                    {"results", typesToJson(c.program->results)}};
    if (!c.program->source.empty())
      j["program"]["source"] = c.program->source;
  } else {
    j["graph"] = graphToJson(c.graph);
  }
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
  CC_ASSIGN(cut, typed<std::string>(j, "cut", ""));
  c.cut = std::move(cut);
  // Files older than "memory" ran with RunLimits' own default.
  CC_ASSIGN(timeout, typed(j, "timeout", RunLimits().timeoutSeconds));
  CC_ASSIGN(memory, typed(j, "memory", RunLimits().memoryBytes));
  CC_ASSIGN(seed, typed(j, "seed", uint64_t(0)));
  CC_ASSIGN(index, typed(j, "index", uint64_t(0)));
  if (!(timeout > 0))
    return formatError("field 'timeout' must be positive");
  c.limits = {timeout, memory};
  c.seed = seed;
  c.index = index;
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

// Every field has the type its reader wants, or the error names it.
Expected<FindingRecord> findingFields(const json &j) {
  FindingRecord f;
  CC_ASSIGN(sig, signatureFromJson(j.value("signature", json())));
  f.finding.signature = sig;
  CC_ASSIGN(message, typed<std::string>(j, "message", ""));
  f.finding.message = std::move(message);
  CC_ASSIGN(c, testCaseFromJson(j.value("case", json())));
  f.testCase = std::move(c);
  CC_ASSIGN(log, typed<std::string>(j, "log", ""));
  f.log = std::move(log);
  f.evidence = j.value("evidence", json::object());
  if (j.contains("reduction"))
    f.reduction = reductionFromJson(j["reduction"]);
  else
    f.reduction = legacyReduction(f.evidence);
  return f;
}

Expected<FindingRecord> findingFromJson(const json &j) {
  CC_ASSIGN(format, typed<std::string>(j, "format", ""));
  if (!j.is_object() || format != "crosscheck-finding")
    return formatError("not a crosscheck finding (format must be "
                       "\"crosscheck-finding\")");
  if (j.value("version", json(0)) != json(kFindingFormatVersion))
    return formatError("unsupported version " +
                       jsonText(j.value("version", json(0))).substr(0, 40) +
                       " (this build reads " +
                       std::to_string(kFindingFormatVersion) + ")");
  // A wrong type the readers do not check (a graph's nested fields) is
  // nlohmann's exception: an error too, never an abort.
  try {
    return findingFields(j);
  } catch (const json::exception &e) {
    return formatError(e.what());
  }
}

Expected<FindingRecord> loadFinding(const std::string &path) {
  std::string file =
      std::filesystem::is_directory(path) ? path + "/finding.json" : path;
  CC_ASSIGN(text, readFile(file));
  auto j = parseJson(text);
  if (!j)
    return Error::failure(file + ": " + j.error().message());
  auto f = findingFromJson(*j);
  if (!f)
    return f.error().withContext(file);
  return f;
}

Error saveFinding(const std::string &path, const FindingRecord &f) {
  return writeFile(path, jsonText(findingToJson(f), 1) + "\n");
}

} // namespace cc
