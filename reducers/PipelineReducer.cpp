// The pass-pipeline reducer: ddmin over the leaf passes of a textual
// pipeline (keeping its nesting), then opt-bisect-style search for the
// first pass after which the failure shows.
//
// A candidate pipeline that no longer lowers to LLVM fails differently (a
// pass or JIT failure), so the signature check rejects it by itself.
#include "reducers/Internal.h"

#include "backends/mlir/MlirBackend.h"
#include "backends/mlir/PassPipeline.h"

#include <algorithm>
#include <numeric>

namespace cc::reduce {

namespace {

void say(const ReduceOptions &options, const std::string &line) {
  if (options.log)
    options.log(line);
}

// A pipeline as its builtin.module(...) node; the text may omit it.
Expected<PassNode> parseModulePipeline(const std::string &text) {
  CC_ASSIGN(nodes, parsePassPipeline(onModule(text)));
  if (nodes.size() != 1)
    return makeError("pipeline: trailing text");
  return std::move(nodes.front());
}

std::vector<std::string> leafNames(const PassNode &root) {
  std::vector<std::string> out;
  for (const PipelineLeaf &l : pipelineLeaves({root}))
    out.push_back(l.text());
  return out;
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

// The case compiled by the pipeline `inner` at LLVM -O`llvmLevel` (a
// named pipeline's own level, so that spelling it out changes nothing).
TestCase withPipeline(TestCase c, const std::string &inner, int llvmLevel) {
  std::string level = llvmLevel == 2 ? "" : "-O" + std::to_string(llvmLevel);
  c.cut = "mlir:pipeline" + level + "=builtin.module(" + inner + ")";
  return c;
}

int llvmLevelOf(const TestCase &c) {
  std::optional<NamedPipeline> p = pipelineOfSpec(c.cut);
  return p ? p->llvmOptLevel : 2;
}

// ddmin over the `n` leaf passes of `root`: the indices of those kept.
Expected<std::vector<int>> dropPasses(CaseOracle &oracle, BestSoFar &best,
                                      ReduceResult &result,
                                      const PassNode &root, size_t n,
                                      const ReduceOptions &options) {
  std::vector<int> items(n);
  std::iota(items.begin(), items.end(), 0);
  auto keepMask = [&](const std::vector<int> &keep) {
    std::vector<bool> mask(n, false);
    for (int i : keep)
      mask[size_t(i)] = true;
    return mask;
  };
  Error err;
  auto firstPassing = [&](const std::vector<std::vector<int>> &keeps) {
    std::vector<TestCase> cands;
    for (const std::vector<int> &k : keeps)
      cands.push_back(withPipeline(best.current(), printKept(root, keepMask(k)),
                                   llvmLevelOf(best.current())));
    int k = oracle.firstSame(cands);
    if (k >= 0) {
      ++result.stats.accepted;
      say(options, "passes: " + std::to_string(keeps[size_t(k)].size()));
      if (Error e = best.update(cands[size_t(k)]))
        err = e;
    }
    return k;
  };
  std::vector<int> kept = ddmin(
      items, firstPassing, [&] { return oracle.spent() || bool(err); }, 1);
  CC_TRY(err);
  return kept;
}

// The case compiled by the passes of `root` that `keep` selects, then the
// plain lowering `completion`.
TestCase keptThenCompleted(const TestCase &c, const PassNode &root,
                           const std::vector<bool> &keep,
                           const std::string &completion, int llvmLevel) {
  std::string inner = printKept(root, keep);
  return withPipeline(c, inner.empty() ? completion : inner + "," + completion,
                      llvmLevel);
}

// The pass among the first `hi` of the reduced pipeline whose removal makes
// the failure vanish, the case still running clean: `hi - 1` (the one the
// prefixes named) when that holds, else the latest one before it. A prefix
// completed by the plain lowering is no compiler of its own: after
// buffer-deallocation-pipeline, say, the completion's own deallocation
// rejects the IR until memref.dealloc is lowered, so a prefix search alone
// blames the pass that lowers it. -1 when no removal makes it vanish (or
// the budget is spent).
int confirmByRemoval(CaseOracle &oracle, const BestSoFar &best,
                     const PassNode &reducedRoot, size_t n, size_t hi,
                     const std::string &completion, int level) {
  std::vector<TestCase> without;
  for (size_t k = hi; k-- > 0;) {
    std::vector<bool> mask(n, true);
    mask[k] = false;
    without.push_back(keptThenCompleted(best.current(), reducedRoot, mask,
                                        completion, level));
  }
  int i = oracle.firstWith(without, Outcome::Clean);
  return i < 0 ? -1 : int(hi) - 1 - i;
}

// Bisection: the first k passes of the reduced pipeline, completed by the
// completing lowering (which leaves lowered IR alone), or for a program by
// the straight lowering (its reference). The culprit
// is the pass whose addition makes the failure appear, confirmed by
// removing it (confirmByRemoval); or LLVM's back end when the failure
// needs its optimizer (gone at LLVM -O0).
void bisectPasses(CaseOracle &oracle, const BestSoFar &best,
                  ReduceResult &result, const ReduceOptions &options) {
  const NamedPipeline o0 =
      best.current().program ? straightLowering() : completionLowering();
  auto o0Root = parseModulePipeline(o0.pipeline);
  if (!o0Root)
    return;
  std::string completion =
      printKept(*o0Root, std::vector<bool>(leafNames(*o0Root).size(), true));
  // The cut is still named (mlir:tosa-O3) when the budget ran out before
  // the pipeline was spelled out.
  std::optional<NamedPipeline> reduced = pipelineOfSpec(best.current().cut);
  if (!reduced)
    return;
  auto reducedRoot = parseModulePipeline(reduced->pipeline);
  if (!reducedRoot)
    return;
  size_t n = result.passesAfter.size();
  int level = reduced->llvmOptLevel;
  auto prefix = [&](size_t k, int llvmLevel) {
    std::vector<bool> mask(n, false);
    std::fill(mask.begin(), mask.begin() + long(k), true);
    return keptThenCompleted(best.current(), *reducedRoot, mask, completion,
                             llvmLevel);
  };
  if (oracle.spent() || !oracle.same(prefix(n, level))) {
    say(options, "bisection not computable: the failure does not show with "
                 "the reduced pipeline completed by the plain lowering");
    return;
  }
  std::string backEnd = "LLVM back end at -O" + std::to_string(level);
  bool needsLlvmOpt =
      level > 0 && !oracle.spent() && !oracle.same(prefix(n, 0));
  if (oracle.same(prefix(0, level))) {
    if (needsLlvmOpt)
      result.firstFailingPass = backEnd;
    else
      say(options, "bisection not computable: the failure shows with the "
                   "plain lowering alone");
    return;
  }
  size_t lo = 0, hi = n; // prefix(lo) passes, prefix(hi) fails
  while (hi - lo > 1 && !oracle.spent()) {
    size_t mid = (lo + hi) / 2;
    (oracle.same(prefix(mid, level)) ? hi : lo) = mid;
  }
  if (hi - lo != 1)
    return;
  int k =
      confirmByRemoval(oracle, best, *reducedRoot, n, hi, completion, level);
  if (k < 0) {
    say(options, "bisection not confirmed: removing no single pass makes "
                 "the failure vanish; named: the pass after which it shows");
    k = int(hi) - 1;
  }
  const std::string &pass = result.passesAfter[size_t(k)];
  if (size_t(k) != hi - 1)
    say(options, "bisection: the failure shows after " +
                     result.passesAfter[hi - 1] + ", and vanishes without " +
                     pass);
  // A failure gone at LLVM -O0 is the back end's (or IR whose undefined
  // behaviour only its optimizer exploits): named so, with the pass after
  // which it shows, however small the pipeline was made first.
  result.firstFailingPass =
      needsLlvmOpt ? backEnd + " (shows after " + pass + ")" : pass;
}

} // namespace

Error reducePipeline(CaseOracle &oracle, BestSoFar &best, ReduceResult &result,
                     const ReduceOptions &options) {
  const std::string cut = best.current().cut;
  std::optional<NamedPipeline> spec = pipelineOfSpec(cut);
  std::string text = spec ? spec->pipeline : "";
  if (text.empty())
    return Error(); // not a pipeline we can edit (mlir-ext, ref, ...)
  auto root = parseModulePipeline(text);
  if (!root) {
    say(options, "pipeline reduction skipped: " + root.error().message());
    return Error();
  }
  std::vector<std::string> leaves = leafNames(*root);
  result.passesBefore = result.passesAfter = leaves;

  oracle.pinOutputs(best.current());
  TestCase base = withPipeline(
      best.current(), printKept(*root, std::vector<bool>(leaves.size(), true)),
      spec->llvmOptLevel);
  if (base.cut != cut && !oracle.same(base)) {
    say(options, "pipeline reduction skipped: the failure does not show "
                 "with the pipeline spelled out as mlir:pipeline-O" +
                     std::to_string(spec->llvmOptLevel) + "=");
    return Error();
  }
  std::vector<int> kept(leaves.size());
  std::iota(kept.begin(), kept.end(), 0);
  if (!options.quick) {
    CC_ASSIGN(smallest,
              dropPasses(oracle, best, result, *root, leaves.size(), options));
    kept = smallest;
  }
  if (kept.size() == leaves.size() && base.cut != cut && !oracle.spent())
    CC_TRY(best.update(base)); // spelled out, for the bisection below
  result.passesAfter.clear();
  for (int i : kept)
    result.passesAfter.push_back(leaves[size_t(i)]);
  bisectPasses(oracle, best, result, options);
  // Whether or not it isolated a pass, what a bisection can learn is known.
  result.bisected = !oracle.spent();
  return Error();
}

} // namespace cc::reduce
