// The MLIR-level reducer: cleanup pipelines and structural edits on parsed
// IR (reducers/MlirEdit.cpp), then textual passes over op lines. Every
// candidate is valid MLIR, free of new undefined behaviour (static scan),
// and judged once (a cache keyed by a hash of its text).
#include "reducers/Internal.h"

#include "backends/mlir/MlirBackend.h"
#include "core/File.h"
#include "reducers/MlirEdit.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <map>
#include <set>
#include <sstream>
#include <thread>
#include <unordered_map>

namespace cc {

namespace {

bool identChar(char c) {
  return std::isalnum(uint8_t(c)) || c == '_' || c == '.' || c == '$' ||
         c == '-';
}

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// A line `%name = op ... : ... -> TYPE` (or `: TYPE`) that defines exactly
// one value and opens no region.
struct Def {
  size_t line;
  std::string name, type;
};

std::optional<Def> defOf(const std::string &text, size_t line) {
  std::string t = trim(text);
  if (!t.starts_with("%") || t.ends_with("{"))
    return std::nullopt;
  size_t eq = t.find(" = ");
  if (eq == std::string::npos)
    return std::nullopt;
  std::string name = t.substr(0, eq);
  if (!std::all_of(name.begin() + 1, name.end(), identChar))
    return std::nullopt; // "%x:2" and the like
  size_t arrow = t.rfind(" -> ");
  size_t colon = t.rfind(" : ");
  std::string type;
  if (arrow != std::string::npos &&
      (colon == std::string::npos || arrow > colon))
    type = t.substr(arrow + 4);
  else if (colon != std::string::npos)
    type = t.substr(colon + 3);
  if (type.empty() || type.find(',') != std::string::npos)
    return std::nullopt;
  return Def{line, name, type};
}

// Function arguments `%a: TYPE` of `func.func` lines, with their line.
std::vector<Def> argsOf(const std::string &text, size_t line) {
  std::vector<Def> out;
  if (trim(text).find("func.func") == std::string::npos)
    return out;
  size_t open = text.find('('), close = text.find(") ");
  if (open == std::string::npos)
    return out;
  std::string list =
      text.substr(open + 1, close == std::string::npos ? std::string::npos
                                                       : close - open - 1);
  int depth = 0;
  std::string cur;
  for (char c : list + ",") {
    depth += (c == '<' || c == '(') - (c == '>' || c == ')');
    if (c == ',' && depth == 0) {
      size_t colon = cur.find(':');
      std::string n = trim(cur.substr(0, colon));
      if (colon != std::string::npos && n.starts_with("%"))
        out.push_back({line, n, trim(cur.substr(colon + 1))});
      cur.clear();
    } else {
      cur += c;
    }
  }
  return out;
}

// `line` with every use of value `from` renamed to `to`.
std::string renameUses(const std::string &line, const std::string &from,
                       const std::string &to) {
  std::string out;
  for (size_t i = 0; i < line.size();) {
    if (line.compare(i, from.size(), from) == 0 &&
        (i + from.size() == line.size() || !identChar(line[i + from.size()]))) {
      out += to;
      i += from.size();
    } else {
      out += line[i++];
    }
  }
  return out;
}

// Simpler variants of one op line: each attribute of its attribute
// dictionary left out, and each non-splat dense constant made a zero splat.
// Invalid variants (a required attribute gone) are rejected by the caller.
std::vector<std::string> simplerLines(const std::string &line) {
  std::vector<std::string> out;
  std::string t = trim(line);
  if (t.empty() || t.ends_with("{") || t.starts_with("func.func"))
    return out;
  // The attribute dictionary: " {" at depth 0 of () and <>.
  int depth = 0;
  for (size_t i = 0; i + 1 < line.size(); ++i) {
    char c = line[i];
    depth +=
        (c == '(' || c == '<' || c == '[') - (c == ')' || c == '>' || c == ']');
    if (depth != 0 || c != ' ' || line[i + 1] != '{')
      continue;
    size_t open = i + 1, close = open;
    int d = 0;
    for (; close < line.size(); ++close) {
      d += (line[close] == '{') - (line[close] == '}');
      if (d == 0)
        break;
    }
    if (close >= line.size())
      break;
    std::vector<std::pair<size_t, size_t>> entries; // [begin, end)
    size_t begin = open + 1;
    int e = 0;
    for (size_t k = open + 1; k <= close; ++k) {
      char ch = line[k];
      if (k == close || (ch == ',' && e == 0)) {
        entries.push_back({begin, k});
        begin = k + 1;
        continue;
      }
      e += (ch == '(' || ch == '<' || ch == '[' || ch == '{') -
           (ch == ')' || ch == '>' || ch == ']' || ch == '}');
    }
    for (size_t k = 0; k < entries.size(); ++k) {
      std::string dict;
      for (size_t m = 0; m < entries.size(); ++m)
        if (m != k)
          dict += (dict.empty() ? "" : ", ") +
                  trim(line.substr(entries[m].first,
                                   entries[m].second - entries[m].first));
      out.push_back(line.substr(0, i) +
                    (dict.empty() ? "" : " {" + dict + "}") +
                    line.substr(close + 1));
    }
    break;
  }
  // Dense constants: "dense<[...]>" to a zero splat (integer, then float).
  for (size_t at = line.find("dense<["); at != std::string::npos;
       at = line.find("dense<[", at + 1)) {
    size_t end = line.find("]>", at);
    if (end == std::string::npos)
      break;
    for (const char *zero : {"dense<0>", "dense<0.000000e+00>"})
      out.push_back(line.substr(0, at) + zero + line.substr(end + 2));
  }
  return out;
}

// Judges candidates: each is first checked (verified, no new undefined
// behaviour, smaller when asked) and looked up in the cache; the rest run
// up to options.jobs at a time.
class Gate {
public:
  Gate(const std::function<bool(const std::string &)> &stillFails,
       const ReduceOptions &options, MlirReduceResult &result)
      : stillFails(stillFails), options(options), result(result) {}

  // Index of the first candidate (in order) that still fails, or -1.
  int firstFailing(const std::vector<std::string> &candidates,
                   bool mustShrink) {
    std::vector<size_t> pending;
    for (size_t k = 0; k < candidates.size(); ++k) {
      auto known = precheck(candidates[k], mustShrink);
      if (known && *known)
        return int(k);
      if (!known)
        pending.push_back(k);
      if (pending.size() == size_t(std::max(1, options.jobs)) ||
          (k + 1 == candidates.size() && !pending.empty())) {
        int hit = runWindow(candidates, pending);
        if (hit >= 0)
          return hit;
        pending.clear();
      }
    }
    return -1;
  }
  bool fails(const std::string &text, bool mustShrink = false) {
    return firstFailing({text}, mustShrink) == 0;
  }
  // The module that candidates must be smaller than; its unknown ranges
  // are the most a candidate may have.
  void accept(const std::string &text) {
    auto facts = reduce::mlirFacts(text);
    if (facts)
      current = *facts;
    currentText = text;
    if (!options.outDir.empty())
      (void)writeAtomically(options.outDir + "/reduced.mlir", text);
  }
  void baseline(const reduce::MlirFacts &facts) { current = facts; }
  bool outOfCalls() const {
    return options.maxCalls > 0 && result.oracleCalls >= options.maxCalls;
  }
  const reduce::MlirFacts &facts() const { return current; }
  bool originalHasUb = false;

private:
  // The answer when known without running the test, else nullopt.
  std::optional<bool> precheck(const std::string &text, bool mustShrink) {
    if (text == currentText)
      return false; // no progress
    uint64_t key = std::hash<std::string>()(text);
    if (auto it = cache.find(key); it != cache.end()) {
      ++result.cacheHits;
      return it->second;
    }
    auto facts = reduce::mlirFacts(text);
    bool ok = facts && (!mustShrink || facts->size < current.size);
    if (facts && !originalHasUb &&
        (!facts->ub.definite.empty() ||
         facts->ub.unknown > current.ub.unknown)) {
      ++result.ubRejected;
      ok = false;
    }
    if (!facts)
      ++result.invalid;
    if (ok && outOfCalls())
      return false; // not judged: no cache entry
    if (ok)
      return std::nullopt;
    cache[key] = false;
    return false;
  }

  // Runs the pending candidates (in parallel when there are several).
  int runWindow(const std::vector<std::string> &candidates,
                const std::vector<size_t> &pending) {
    std::vector<char> answer(pending.size(), 0);
    std::vector<std::thread> threads;
    for (size_t j = 0; j < pending.size(); ++j) {
      auto judge = [&, j] { answer[j] = stillFails(candidates[pending[j]]); };
      if (pending.size() == 1)
        judge();
      else
        threads.emplace_back(judge);
    }
    for (std::thread &t : threads)
      t.join();
    result.oracleCalls += int64_t(pending.size());
    int first = -1;
    for (size_t j = 0; j < pending.size(); ++j) {
      cache[std::hash<std::string>()(candidates[pending[j]])] = answer[j];
      if (answer[j] && first < 0)
        first = int(pending[j]);
    }
    return first;
  }

  const std::function<bool(const std::string &)> &stillFails;
  const ReduceOptions &options;
  MlirReduceResult &result;
  std::unordered_map<uint64_t, bool> cache;
  reduce::MlirFacts current;
  std::string currentText;
};

std::string joinLines(const std::vector<std::string> &lines) {
  std::string text;
  for (const std::string &l : lines)
    if (!l.empty())
      text += l + "\n";
  return text;
}

std::vector<std::string> splitLines(const std::string &module) {
  std::vector<std::string> lines;
  std::istringstream in(module);
  for (std::string l; std::getline(in, l);)
    lines.push_back(l);
  return lines;
}

// The textual passes: lines that define one value, and their attributes
// and constants.
class TextReducer {
public:
  explicit TextReducer(const std::string &module) : lines(splitLines(module)) {}

  std::vector<Def> defs() const {
    std::vector<Def> out;
    for (size_t i = 0; i < lines.size(); ++i)
      if (auto d = defOf(lines[i], i))
        out.push_back(*d);
    return out;
  }

  // The module without the definitions in `drop`; nullopt when a dropped
  // value has uses and no replacement of its type.
  std::optional<std::string> without(const std::set<size_t> &drop) const {
    std::vector<std::string> out = lines;
    std::vector<Def> available;
    for (size_t i = 0; i < lines.size(); ++i) {
      for (const Def &a : argsOf(lines[i], i))
        available.push_back(a);
      auto d = defOf(lines[i], i);
      if (!d)
        continue;
      if (!drop.count(i)) {
        available.push_back(*d);
        continue;
      }
      out[i].clear();
      const Def *with = nullptr;
      for (const Def &a : available)
        if (a.type == d->type)
          with = &a;
      for (size_t j = i + 1; j < out.size(); ++j) {
        if (with)
          out[j] = renameUses(out[j], d->name, with->name);
        else if (renameUses(out[j], d->name, "") != out[j])
          return std::nullopt; // used, and nothing can take its place
      }
    }
    return joinLines(out);
  }

  // Replaces line i by the first simpler variant that still fails.
  bool simplifyLine(size_t i, Gate &gate) {
    std::vector<std::string> texts;
    for (const std::string &variant : simplerLines(lines[i])) {
      std::vector<std::string> candidate = lines;
      candidate[i] = variant;
      texts.push_back(joinLines(candidate));
    }
    int k = gate.firstFailing(texts, false);
    if (k < 0)
      return false;
    lines = splitLines(texts[size_t(k)]);
    gate.accept(texts[size_t(k)]);
    return true;
  }

  std::vector<std::string> lines;
};

// One round of ddmin over the value-defining lines; true when it shrank.
bool textRound(std::string &module, Gate &gate,
               const std::function<bool()> &spent) {
  TextReducer r(module);
  std::vector<int> items;
  for (const Def &d : r.defs())
    items.push_back(int(d.line));
  std::string accepted;
  auto firstPassing = [&](const std::vector<std::vector<int>> &keeps) {
    std::vector<std::string> texts;
    std::vector<int> index;
    for (size_t k = 0; k < keeps.size(); ++k) {
      std::set<size_t> drop(items.begin(), items.end());
      for (int i : keeps[k])
        drop.erase(size_t(i));
      if (auto text = r.without(drop)) {
        texts.push_back(*text);
        index.push_back(int(k));
      }
    }
    int k = gate.firstFailing(texts, false);
    if (k < 0)
      return -1;
    accepted = texts[size_t(k)];
    return index[size_t(k)];
  };
  std::vector<int> kept = ddmin(items, firstPassing, spent);
  if (kept.size() == items.size() || accepted.empty() || accepted == module)
    return false;
  module = accepted;
  gate.accept(module);
  return true;
}

// Cleanup pipelines' outputs that are smaller, smallest first.
bool cleanupRound(std::string &module, Gate &gate) {
  std::vector<std::pair<reduce::MlirSize, std::string>> sized;
  for (std::string &c : reduce::cleanupCandidates(module))
    if (auto facts = reduce::mlirFacts(c))
      sized.push_back({facts->size, std::move(c)});
  std::stable_sort(
      sized.begin(), sized.end(),
      [](const auto &a, const auto &b) { return a.first < b.first; });
  std::vector<std::string> texts;
  for (auto &[size, text] : sized)
    texts.push_back(std::move(text));
  int k = gate.firstFailing(texts, true);
  if (k < 0)
    return false;
  module = texts[size_t(k)];
  gate.accept(module);
  return true;
}

// Structural edits, one at a time, each scan resuming where the last
// accepted edit was; true when anything was accepted.
bool structuralRound(std::string &module, Gate &gate, size_t jobs,
                     const std::function<bool()> &spent) {
  bool any = false;
  for (size_t from = 0;;) {
    reduce::StructuralEdits edits(module);
    int hit = -1;
    std::vector<std::string> batch;
    std::vector<size_t> at;
    for (size_t i = from; i < edits.size() && hit < 0 && !spent(); ++i) {
      if (auto text = edits.apply(i)) {
        batch.push_back(std::move(*text));
        at.push_back(i);
      }
      if (batch.size() < jobs && i + 1 < edits.size())
        continue;
      int k = gate.firstFailing(batch, true);
      if (k >= 0) {
        hit = int(at[size_t(k)]);
        module = batch[size_t(k)];
      }
      batch.clear();
      at.clear();
    }
    if (hit >= 0) {
      gate.accept(module);
      any = true;
      from = size_t(hit);
    } else if (from > 0 && !spent()) {
      from = 0; // wrap around once before giving up
    } else {
      return any;
    }
  }
}

} // namespace

Expected<MlirReduceResult>
reduceMlir(const std::string &module,
           const std::function<bool(const std::string &)> &stillFails,
           const ReduceOptions &options) {
  auto start = std::chrono::steady_clock::now();
  MlirReduceResult result;
  Gate gate(stillFails, options, result);
  auto spent = [&] {
    double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    return s >= options.budgetSeconds || gate.outOfCalls();
  };
  CC_TRY(verifyMlir(module));
  auto facts = reduce::mlirFacts(module);
  if (!facts)
    return makeError("the module does not verify");
  gate.originalHasUb = !facts->ub.definite.empty();
  gate.baseline(*facts);
  if (!gate.fails(module))
    return Error::failure("the module does not show the failure",
                          ErrorCode::NotReproduced);
  gate.accept(module);
  result.opsBefore = facts->size.ops;
  std::string best = module;
  size_t jobs = size_t(std::max(1, options.jobs));
  for (bool changed = true; changed && !spent();) {
    changed = structuralRound(best, gate, jobs, spent);
    changed |= cleanupRound(best, gate);
    while (!spent() && textRound(best, gate, spent))
      changed = true;
  }
  // Then attributes and constants, line by line, to a fixpoint.
  TextReducer r(best);
  for (bool more = true; more && !spent();) {
    more = false;
    for (size_t i = 0; i < r.lines.size() && !spent(); ++i)
      while (!spent() && r.simplifyLine(i, gate)) {
        more = true;
        ++result.simplified;
      }
  }
  result.module = joinLines(r.lines);
  auto after = reduce::mlirFacts(result.module);
  result.opsAfter = after ? after->size.ops : 0;
  return result;
}

} // namespace cc
