#include "oracles/FindingFile.h"

#include "core/Json.h"

#include <filesystem>

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

json testCaseToJson(const TestCase &c) {
  json inputs = json::array();
  for (const Tensor &t : c.inputs)
    inputs.push_back(tensorToJson(t));
  return {
      {"cut", c.cut},     {"timeout", c.timeoutSeconds},   {"seed", c.seed},
      {"index", c.index}, {"graph", graphToJson(c.graph)}, {"inputs", inputs}};
}

Expected<TestCase> testCaseFromJson(const json &j) {
  if (!j.is_object() || !j.contains("graph") || !j.contains("inputs") ||
      !j["inputs"].is_array())
    return formatError("a case needs 'graph' and an 'inputs' array");
  TestCase c;
  CC_ASSIGN(graph, graphFromJson(j["graph"]));
  CC_TRY(verify(graph));
  c.graph = std::move(graph);
  for (const json &t : j["inputs"]) {
    CC_ASSIGN(tensor, tensorFromJson(t));
    c.inputs.push_back(std::move(tensor));
  }
  if (c.inputs.size() != c.graph.inputs.size())
    return formatError("the case has " + std::to_string(c.inputs.size()) +
                       " inputs, its graph " +
                       std::to_string(c.graph.inputs.size()));
  for (size_t i = 0; i < c.inputs.size(); ++i)
    if (c.inputs[i].type() != c.graph.typeOf(c.graph.inputs[i]))
      return formatError("input " + std::to_string(i) +
                         " does not have the type of the graph's input");
  c.cut = j.value("cut", "");
  c.timeoutSeconds = j.value("timeout", 30.0);
  c.seed = j.value("seed", uint64_t(0));
  c.index = j.value("index", uint64_t(0));
  return c;
}

json findingToJson(const FindingRecord &f) {
  return {{"format", "crosscheck-finding"},
          {"version", kFindingFormatVersion},
          {"signature", signatureToJson(f.finding.signature)},
          {"message", f.finding.message},
          {"case", testCaseToJson(f.testCase)},
          {"log", f.log},
          {"evidence", f.evidence}};
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
