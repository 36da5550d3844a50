#include "reports/RootCause.h"

#include "core/File.h"
#include "core/Format.h"
#include "core/Json.h"
#include "core/OpTable.h"
#include "generators/Program.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>

namespace cc {

using nlohmann::json;

namespace {

constexpr const char *kFormat = "crosscheck-known-bugs";

Expected<Regex> regexField(const json &m, const char *field,
                           const std::string &bug) {
  if (!m[field].is_string())
    return makeError("known bug '" + bug + "': match." + field +
                     " must be a string (a regex)");
  auto re = Regex::compile(m[field].get<std::string>());
  if (!re)
    return makeError("known bug '" + bug + "': match." + field +
                     " is not a valid regex: " + re.error().message());
  return re;
}

// The regex field of a match named `key`, or null.
std::optional<Regex> *regexSlot(KnownBug::Match &m, const std::string &key) {
  std::pair<const char *, std::optional<Regex> KnownBug::Match::*> fields[] = {
      {"cut", &KnownBug::Match::cut},
      {"stage", &KnownBug::Match::stage},
      {"detail", &KnownBug::Match::detail},
      {"message", &KnownBug::Match::message},
      {"culprit", &KnownBug::Match::culprit},
      {"program", &KnownBug::Match::program}};
  for (auto [name, field] : fields)
    if (key == name)
      return &(m.*field);
  return nullptr;
}

Expected<KnownBug::Match> parseMatch(const json &m, const std::string &bug) {
  if (!m.is_object())
    return makeError("known bug '" + bug + "': each match must be an object");
  KnownBug::Match out;
  out.text = jsonText(m);
  for (const auto &[key, value] : m.items()) {
    if (key == "kind") {
      out.kind = value.is_string() ? parseKind(value.get<std::string>())
                                   : std::nullopt;
      if (!out.kind)
        return makeError("known bug '" + bug + "': unknown kind " +
                         jsonText(value));
    } else if (key == "graph_has") {
      for (const json &d : value.is_array() ? value : json::array({value})) {
        auto t =
            d.is_string() ? parseDType(d.get<std::string>()) : std::nullopt;
        if (!t)
          return makeError("known bug '" + bug + "': unknown dtype " +
                           jsonText(d) + " in match.graph_has");
        out.graphHas.push_back(*t);
      }
    } else if (key == "graph_ops") {
      for (const json &o : value.is_array() ? value : json::array({value})) {
        if (!o.is_string() || !findOp(o.get<std::string>()))
          return makeError("known bug '" + bug + "': unknown op " +
                           jsonText(o) + " in match.graph_ops");
        out.graphOps.push_back(o.get<std::string>());
      }
    } else if (auto *field = regexSlot(out, key)) {
      CC_ASSIGN(re, regexField(m, key.c_str(), bug));
      *field = std::move(re);
    } else {
      return makeError("known bug '" + bug + "': unknown match field '" + key +
                       "' (kind, cut, stage, detail, message, culprit, "
                       "program, graph_has, graph_ops)");
    }
  }
  return out;
}

Expected<KnownBug> parseBug(const json &b) {
  if (!b.is_object() || !b["name"].is_string() || !b["match"].is_array())
    return makeError("each known bug needs a \"name\" and a \"match\" array");
  KnownBug k;
  k.name = b["name"].get<std::string>();
  for (const char *f : {"title", "upstream", "status"})
    if (b.contains(f)) {
      if (!b[f].is_string())
        return makeError("known bug '" + k.name + "': \"" + f +
                         "\" must be a string");
      (std::string(f) == "title"      ? k.title
       : std::string(f) == "upstream" ? k.upstream
                                      : k.status) = b[f].get<std::string>();
    }
  for (const json &m : b["match"]) {
    CC_ASSIGN(match, parseMatch(m, k.name));
    k.matches.push_back(std::move(match));
  }
  return k;
}

} // namespace

std::string culpritOf(const FindingRecord &f, const FindingRecord *reduced) {
  if (reduced && reduced->reduction && !reduced->reduction->culprit.empty())
    return reduced->reduction->culprit;
  return f.finding.signature.stage;
}

namespace {

bool carries(const Graph &g, DType t) {
  for (const ValueInfo &v : g.values)
    if (v.type.dtype == t)
      return true;
  return false;
}

bool matches(const KnownBug::Match &m, const FindingRecord &f,
             const FindingRecord *reduced) {
  const Signature &s = f.finding.signature;
  auto found = [](const std::optional<Regex> &re, const std::string &t) {
    return !re || re->search(t);
  };
  if ((m.kind && *m.kind != s.kind) || !found(m.cut, s.backend) ||
      !found(m.stage, s.stage) || !found(m.detail, s.detail) ||
      !found(m.message, f.finding.message) ||
      !found(m.culprit, culpritOf(f, reduced)))
    return false;
  const TestCase &c = (reduced ? *reduced : f).testCase;
  if (m.program && !(c.program && m.program->search(c.program->mlir)))
    return false;
  const Graph &g = c.graph;
  for (DType t : m.graphHas)
    if (!carries(g, t))
      return false;
  for (const std::string &op : m.graphOps)
    if (std::none_of(g.nodes.begin(), g.nodes.end(),
                     [&](const Node &n) { return opName(n.op) == op; }))
      return false;
  return true;
}

// The reduced case's structure without names, shapes or values: its ops
// with their operand and result element types, in order.
std::string reducedForm(const TestCase &c) {
  std::string form;
  if (c.program) { // its ops in order, as printed
    for (const std::string &op : programOps(c.program->mlir))
      form += op + ";";
    return form;
  }
  const Graph &g = c.graph;
  for (const Node &n : g.nodes) {
    form += std::string(opName(n.op)) + "(";
    for (size_t i = 0; i < n.operands.size(); ++i)
      form += (i ? "," : "") +
              std::string(dtypeName(g.typeOf(n.operands[i]).dtype));
    form += ")->";
    for (size_t i = 0; i < n.results.size(); ++i)
      form +=
          (i ? "," : "") + std::string(dtypeName(g.typeOf(n.results[i]).dtype));
    form += ";";
  }
  return form;
}

// A crash's signal and innermost two frames ("signal 11 (...) at f1 < f2
// < f3" -> "signal 11 (...) at f1 < f2"): the outer frames vary with how
// the pass was driven, not with the bug.
std::string crashSite(const std::string &detail) {
  size_t first = detail.find(" < ");
  size_t second =
      first == std::string::npos ? first : detail.find(" < ", first + 3);
  return detail.substr(0, second);
}

std::string rootKey(const FindingRecord &f, const FindingRecord *reduced,
                    const std::string &culprit) {
  const Signature &s = f.finding.signature;
  std::string kind(kindName(s.kind));
  // A miscompile is as specific as its reduced case; a crash or a pass
  // failure as its stage and message, whichever compiler showed it.
  // Where a back-end failure first shows depends on how far the pipeline
  // was reduced (a triage only bisects it): not part of the key.
  if (s.kind == Kind::Miscompile && reduced && !culprit.empty())
    return kind + "|" + culprit.substr(0, culprit.find(" (shows after ")) +
           "|" + reducedForm(reduced->testCase);
  if (s.kind == Kind::Crash)
    return kind + "|" + s.stage + "|" + crashSite(s.detail);
  return kind + "|" + s.stage + "|" + s.detail;
}

} // namespace

Expected<std::vector<KnownBug>> loadKnownBugs(const std::string &path) {
  auto text = readFile(path);
  if (!text)
    return makeError("known bugs '" + path + "' cannot be read");
  auto parsed = parseJson(*text);
  json j = parsed ? *parsed : json();
  auto format = jsonField<std::string>(j, "format", "");
  if (!j.is_object() || !format || *format != kFormat || !j["bugs"].is_array())
    return makeError("known bugs '" + path + "' is not a " + kFormat +
                     " file ({\"format\": \"" + kFormat +
                     "\", \"bugs\": [...]})");
  std::vector<KnownBug> out;
  for (const json &b : j["bugs"]) {
    auto bug = parseBug(b);
    if (!bug)
      return bug.error().withContext("known bugs '" + path + "'");
    out.push_back(std::move(*bug));
  }
  return out;
}

const KnownBug *matchKnownBug(const std::vector<KnownBug> &bugs,
                              const FindingRecord &finding,
                              const FindingRecord *reduced) {
  for (const KnownBug &b : bugs)
    for (const KnownBug::Match &m : b.matches)
      if (matches(m, finding, reduced))
        return &b;
  return nullptr;
}

std::vector<RootCause>
groupRootCauses(const std::vector<FindingForGrouping> &findings,
                const std::vector<KnownBug> &known) {
  std::vector<RootCause> out;
  std::map<std::string, size_t> byKey;
  for (size_t i = 0; i < findings.size(); ++i) {
    const FindingRecord &f = *findings[i].record;
    const FindingRecord *r = findings[i].reduced;
    std::string culprit = culpritOf(f, r);
    const KnownBug *k = matchKnownBug(known, f, r);
    std::string key = k ? "known:" + k->name : rootKey(f, r, culprit);
    auto [it, fresh] = byKey.emplace(key, out.size());
    if (fresh)
      out.push_back(RootCause{key, culprit, k, {}});
    out[it->second].members.push_back(i);
  }
  return out;
}

} // namespace cc
