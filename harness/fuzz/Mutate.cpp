// mutateCase: the strategy dispatch of the custom mutator (see FuzzCase.h,
// Schedule.h).
#include "harness/fuzz/FuzzCase.h"

#include "generators/Topology.h"
#include "harness/fuzz/Mutations.h"

namespace cc::fuzz {
namespace {

// A graph as the generator campaign draws one: the default options, and
// mostly a precision variant of it.
std::optional<Graph> freshGraph(Rng &rng) {
  auto g = generateGraph(GenOptions{}, rng.next());
  if (!g || !acceptableGraph(*g))
    return std::nullopt;
  g->name = "fuzz";
  if (rng.chance(0.75))
    if (auto v = precisionVariant(*g, rng); v && acceptableGraph(*v))
      return v;
  return std::move(*g);
}

// The strategies that replace one part of c (its input seed, its compiler,
// its graph or a window of it); nullopt when s does not apply.
std::optional<FuzzCase> replacePart(const FuzzCase &c, Strategy s, Rng &rng) {
  FuzzCase out = c;
  switch (s) {
  case Strategy::InputSeed: // cheap, never fails
    out.inputSeed = rng.next();
    return out;
  case Strategy::Cut:
    out.cut = uint32_t(rng.next());
    return out;
  case Strategy::Fresh: // a whole new graph, as the unguided campaign runs
    if (auto g = freshGraph(rng)) {
      out.graph = std::move(*g);
      out.inputSeed = rng.next();
      return out;
    }
    return std::nullopt;
  case Strategy::Splice: {
    // A window of a freshly generated graph: the generator's families
    // (attention, conv stacks, ...) are far from where mutations of a small
    // graph go.
    FuzzCase fresh;
    uint64_t bytes = rng.next();
    fresh.graph = generatedFromBytes(reinterpret_cast<const uint8_t *>(&bytes),
                                     sizeof bytes);
    FuzzCase spliced = crossOver(c, fresh, rng.next());
    if (!(spliced.graph == c.graph))
      return spliced;
    return std::nullopt;
  }
  case Strategy::Edit:
  case Strategy::CrossOver: // needs a second parent: edits instead
    return std::nullopt;
  }
  return std::nullopt;
}

// A few edits at once (1 + a geometric number, at most kMaxEdits): one
// execution of the pipeline costs far more than mutating, and a single
// edit adds one or two new def-use pairs where a generated graph brings
// ten. *used: Edit, or InputSeed when the edits left the graph as it was.
FuzzCase edited(const FuzzCase &c, Rng &rng, bool edges, Strategy *used) {
  FuzzCase out = c;
  int edits = 1;
  while (edits < kMaxEdits && rng.chance(kMoreEditsChance))
    ++edits;
  if (int(opNodes(out.graph).size()) > kGrowLimit) {
    Graph e = out.graph;
    if (removeOp(e, rng))
      if (auto g = finish(e, rng))
        out.graph = std::move(*g);
  }
  for (int i = 0; i < edits; ++i)
    if (auto g = editOnce(out.graph, rng, edges))
      out.graph = std::move(*g);
  // Edits may undo each other (an input made a constant and back).
  *used = Strategy::Edit;
  if (out.graph == c.graph) {
    out.inputSeed = rng.next();
    *used = Strategy::InputSeed;
  }
  return out;
}
} // namespace

FuzzCase mutateCase(const FuzzCase &c, uint64_t seed,
                    const MutationOptions &options) {
  Rng rng(seed);
  return mutateCase(c, rng.next(), Schedule().pick(rng, false), nullptr,
                    options);
}

FuzzCase mutateCase(const FuzzCase &c, uint64_t seed, Strategy strategy,
                    Strategy *used, const MutationOptions &options) {
  Rng rng(seed);
  Strategy ran = strategy;
  std::optional<FuzzCase> out = replacePart(c, strategy, rng);
  if (!out)
    out = edited(c, rng, options.edges, &ran);
  if (used)
    *used = ran;
  return std::move(*out);
}

} // namespace cc::fuzz
