// The pass-pipeline reducer: ddmin over the leaf passes of a textual
// pipeline (keeping its nesting), then opt-bisect-style search for the
// first pass after which the failure shows.
//
// A candidate pipeline that no longer lowers to LLVM fails differently (a
// pass or JIT failure), so the signature check rejects it by itself.
#include "reducers/Internal.h"

#include "backends/mlir/MlirBackend.h"

#include <algorithm>
#include <cctype>

namespace cc::reduce {

namespace {

// One element of a pipeline: `name{options}(children)`.
struct PassNode {
  std::string name;
  std::string options; // with its braces, or empty
  bool nested = false; // has a (children) list, possibly empty
  std::vector<PassNode> children;
};

class Parser {
public:
  explicit Parser(const std::string &text) : s(text) {}

  Expected<std::vector<PassNode>> list() {
    std::vector<PassNode> out;
    while (true) {
      CC_ASSIGN(n, element());
      out.push_back(std::move(n));
      if (at < s.size() && s[at] == ',') {
        ++at;
        continue;
      }
      return out;
    }
  }
  bool done() const { return at == s.size(); }

private:
  Expected<PassNode> element() {
    PassNode n;
    while (at < s.size() && std::string(",(){}").find(s[at]) == std::string::npos)
      n.name += s[at++];
    n.name.erase(std::remove_if(n.name.begin(), n.name.end(),
                                [](char c) { return std::isspace(uint8_t(c)) != 0; }),
                 n.name.end());
    if (n.name.empty())
      return makeError("pipeline: expected a pass name at offset " +
                       std::to_string(at));
    if (at < s.size() && s[at] == '{') {
      size_t begin = at;
      int depth = 0;
      do {
        depth += s[at] == '{' ? 1 : s[at] == '}' ? -1 : 0;
        ++at;
      } while (at < s.size() && depth > 0);
      if (depth != 0)
        return makeError("pipeline: unbalanced '{'");
      n.options = s.substr(begin, at - begin);
    }
    if (at < s.size() && s[at] == '(') {
      ++at;
      n.nested = true;
      if (at < s.size() && s[at] != ')') {
        CC_ASSIGN(children, list());
        n.children = std::move(children);
      }
      if (at >= s.size() || s[at] != ')')
        return makeError("pipeline: expected ')'");
      ++at;
    }
    return n;
  }

  const std::string &s;
  size_t at = 0;
};

Expected<PassNode> parsePipeline(std::string text) {
  if (!text.starts_with("builtin.module("))
    text = "builtin.module(" + text + ")";
  Parser p(text);
  CC_ASSIGN(l, p.list());
  if (!p.done() || l.size() != 1)
    return makeError("pipeline: trailing text");
  return l.front();
}

void leafNames(const PassNode &n, std::vector<std::string> &out) {
  if (!n.nested) {
    out.push_back(n.name + n.options);
    return;
  }
  for (const PassNode &c : n.children)
    leafNames(c, out);
}

// The text of `n` keeping only the leaves whose preorder index is in
// `keep`; empty when nothing is left.
std::string print(const PassNode &n, const std::vector<bool> &keep,
                  size_t &leaf) {
  if (!n.nested)
    return keep[leaf++] ? n.name + n.options : "";
  std::string inner;
  for (const PassNode &c : n.children) {
    std::string t = print(c, keep, leaf);
    if (!t.empty())
      inner += (inner.empty() ? "" : ",") + t;
  }
  return inner.empty() ? "" : n.name + n.options + "(" + inner + ")";
}

std::string printKept(const PassNode &root, const std::vector<bool> &keep) {
  size_t leaf = 0;
  std::string inner;
  for (const PassNode &c : root.children) {
    std::string t = print(c, keep, leaf);
    if (!t.empty())
      inner += (inner.empty() ? "" : ",") + t;
  }
  return inner;
}

constexpr const char *kPipelinePrefix = "mlir:pipeline=";

} // namespace

Error reducePipeline(CaseOracle &oracle, BestSoFar &best, ReduceResult &result,
                     const ReduceOptions &options) {
  auto say = [&](const std::string &line) {
    if (options.log)
      options.log(line);
  };
  const std::string cut = best.current().cut;
  std::optional<NamedPipeline> spec = pipelineOfSpec(cut);
  std::string text = spec ? spec->pipeline : "";
  if (text.empty())
    return Error(); // not a pipeline we can edit (mlir-ext, ref, ...)
  auto parsed = parsePipeline(text);
  if (!parsed) {
    say("pipeline reduction skipped: " + parsed.error().message());
    return Error();
  }
  const PassNode root = *parsed;
  std::vector<std::string> leaves;
  leafNames(root, leaves);
  result.passesBefore = result.passesAfter = leaves;

  auto withPipeline = [&](const std::string &inner) {
    TestCase c = best.current();
    c.cut = std::string(kPipelinePrefix) + "builtin.module(" + inner + ")";
    return c;
  };
  oracle.pinOutputs(best.current());
  std::vector<bool> all(leaves.size(), true);
  TestCase base = withPipeline(printKept(root, all));
  if (base.cut != cut && !oracle.same(base)) {
    // A named pipeline runs at its own LLVM -O level, a textual one at -O2.
    say("pipeline reduction skipped: the failure does not show with the "
        "pipeline spelled out as mlir:pipeline=");
    return Error();
  }

  std::vector<int> items(leaves.size());
  for (size_t i = 0; i < items.size(); ++i)
    items[i] = int(i);
  auto keepMask = [&](const std::vector<int> &keep) {
    std::vector<bool> mask(leaves.size(), false);
    for (int i : keep)
      mask[size_t(i)] = true;
    return mask;
  };
  Error err;
  auto firstPassing = [&](const std::vector<std::vector<int>> &keeps) {
    std::vector<TestCase> cands;
    for (const std::vector<int> &k : keeps)
      cands.push_back(withPipeline(printKept(root, keepMask(k))));
    int k = oracle.firstSame(cands);
    if (k >= 0) {
      ++result.stats.accepted;
      say("passes: " + std::to_string(keeps[size_t(k)].size()));
      if (Error e = best.update(cands[size_t(k)]))
        err = e;
    }
    return k;
  };
  std::vector<int> kept = ddmin(
      items, firstPassing, [&] { return oracle.spent() || bool(err); }, 1);
  CC_TRY(err);
  if (kept.size() == leaves.size() && base.cut != cut && !oracle.spent())
    CC_TRY(best.update(base)); // spelled out, for the bisection below
  result.passesAfter.clear();
  for (int i : kept)
    result.passesAfter.push_back(leaves[size_t(i)]);

  // Bisection: the first k passes of the reduced pipeline, completed by the
  // straight tosa-O0 lowering (which leaves lowered IR alone). The culprit
  // is the pass whose addition makes the failure appear.
  const NamedPipeline &o0 = namedPipelines().front();
  auto o0Root = parsePipeline(o0.pipeline);
  if (!o0Root)
    return Error();
  std::vector<std::string> o0Leaves;
  leafNames(*o0Root, o0Leaves);
  std::string completion =
      printKept(*o0Root, std::vector<bool>(o0Leaves.size(), true));
  auto reducedRoot = parsePipeline(best.current().cut.substr(
      std::string(kPipelinePrefix).size()));
  if (!reducedRoot)
    return Error();
  size_t n = result.passesAfter.size();
  auto prefix = [&](size_t k) {
    std::vector<bool> mask(n, false);
    std::fill(mask.begin(), mask.begin() + long(k), true);
    std::string inner = printKept(*reducedRoot, mask);
    return withPipeline(inner.empty() ? completion : inner + "," + completion);
  };
  if (oracle.spent() || oracle.same(prefix(0)) || !oracle.same(prefix(n))) {
    say("bisection not computable: the failure does not show between the "
        "plain lowering and the reduced pipeline completed by it");
    return Error();
  }
  size_t lo = 0, hi = n; // prefix(lo) passes, prefix(hi) fails
  while (hi - lo > 1 && !oracle.spent()) {
    size_t mid = (lo + hi) / 2;
    (oracle.same(prefix(mid)) ? hi : lo) = mid;
  }
  if (hi - lo == 1)
    result.firstFailingPass = result.passesAfter[hi - 1];
  return Error();
}

} // namespace cc::reduce
