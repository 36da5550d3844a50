// The MLIR-level reducer: textual, so that it needs no MLIR headers (only
// cc::verifyMlir to keep every candidate valid).
#include "reducers/Internal.h"

#include "backends/mlir/MlirBackend.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <map>
#include <set>
#include <sstream>

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
  if (arrow != std::string::npos && (colon == std::string::npos || arrow > colon))
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
  std::string list = text.substr(open + 1, close == std::string::npos
                                               ? std::string::npos
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
    depth += (c == '(' || c == '<' || c == '[') -
             (c == ')' || c == '>' || c == ']');
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

class MlirReducer {
public:
  MlirReducer(const std::string &module,
              const std::function<bool(const std::string &)> &stillFails)
      : stillFails(stillFails) {
    load(module);
  }

  void load(const std::string &module) {
    lines.clear();
    std::istringstream in(module);
    for (std::string l; std::getline(in, l);)
      lines.push_back(l);
  }

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
    std::string text;
    for (const std::string &l : out)
      if (!l.empty())
        text += l + "\n";
    return text;
  }

  // Every candidate that still fails is the best so far: kept on disk.
  bool test(const std::string &module) {
    if (verifyMlir(module))
      return false;
    ++calls;
    if (!stillFails(module))
      return false;
    if (!outDir.empty())
      (void)reduce::writeAtomically(outDir + "/reduced.mlir", module);
    return true;
  }

  std::string outDir;

  // Replaces line i by the first simpler variant that still fails.
  bool simplifyLine(size_t i) {
    for (const std::string &variant : simplerLines(lines[i])) {
      std::vector<std::string> candidate = lines;
      candidate[i] = variant;
      std::string text;
      for (const std::string &l : candidate)
        text += l + "\n";
      if (test(text)) {
        lines = std::move(candidate);
        return true;
      }
    }
    return false;
  }

  std::vector<std::string> lines;
  const std::function<bool(const std::string &)> &stillFails;
  int64_t calls = 0;
};

} // namespace

Expected<MlirReduceResult>
reduceMlir(const std::string &module,
           const std::function<bool(const std::string &)> &stillFails,
           const ReduceOptions &options) {
  auto start = std::chrono::steady_clock::now();
  auto spent = [&] {
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                             start)
                   .count();
    return s >= options.budgetSeconds;
  };
  CC_TRY(verifyMlir(module));
  MlirReducer r(module, stillFails);
  r.outDir = options.outDir;
  if (!r.test(module))
    return Error::failure("the module does not show the failure",
                          ErrorCode::NotReproduced);
  MlirReduceResult result;
  result.opsBefore = int(r.defs().size());
  bool changed = true;
  while (changed && !spent()) {
    changed = false;
    std::vector<int> items;
    for (const Def &d : r.defs())
      items.push_back(int(d.line));
    std::string accepted;
    auto firstPassing = [&](const std::vector<std::vector<int>> &keeps) {
      for (size_t k = 0; k < keeps.size(); ++k) {
        if (options.maxCalls > 0 && r.calls >= options.maxCalls)
          return -1;
        std::set<size_t> drop(items.begin(), items.end());
        for (int i : keeps[k])
          drop.erase(size_t(i));
        auto text = r.without(drop);
        if (text && r.test(*text)) {
          accepted = *text;
          return int(k);
        }
      }
      return -1;
    };
    std::vector<int> kept = ddmin(items, firstPassing, spent);
    if (kept.size() < items.size() && !accepted.empty()) {
      // Start over on the accepted text: line numbers changed.
      r.load(accepted);
      changed = true;
    }
  }
  // Then attributes and constants, line by line, to a fixpoint.
  for (bool more = true; more && !spent();) {
    more = false;
    for (size_t i = 0; i < r.lines.size() && !spent(); ++i)
      while (!spent() && r.simplifyLine(i)) {
        more = true;
        ++result.simplified;
      }
  }
  result.module.clear();
  for (const std::string &l : r.lines)
    result.module += l + "\n";
  result.opsAfter = int(r.defs().size());
  result.oracleCalls = r.calls;
  return result;
}

} // namespace cc
