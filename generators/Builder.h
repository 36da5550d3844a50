// Internal to the topology generator: grows one graph op by op. Every
// placement samples operand types from the op's entry (sampleOperands),
// attributes (sampleAttrs) and checks them with the type rule before the node
// is added, so the graph is valid by construction.
#pragma once

#include "core/OpTable.h"
#include "generators/Topology.h"

#include <optional>

namespace cc::gen {

// --- tuning of the generator (one place) ------------------------------------
// Every value shapes the graph each seed gives: changing one changes them.

// An operand is an existing value rather than a fresh leaf (step, and a
// family's source value).
constexpr double kReuseChance = 0.7;
// A step without a hint starts from an existing value the op accepts.
constexpr double kHintChance = 0.85;
// pickValue prefers a value nothing uses yet, so fewer results end as
// outputs.
constexpr double kUnusedChance = 0.75;
// A fresh leaf is an existing input of the same type.
constexpr double kShareInputChance = 0.3;
// Dimensions of fresh shapes are in [1, kMaxDim].
constexpr int64_t kMaxDim = 5;
// Elements of a constant: a float edge value; in an untamed constant, a
// float special or an integer edge value.
constexpr double kConstEdgeChance = 0.2;
constexpr double kConstSpecialChance = 0.05;
constexpr double kConstIntEdgeChance = 0.1;
// Draws of a weighted random op before a step gives up; blocks that place
// nothing before the whole graph does.
constexpr int kStepAttempts = 8;
constexpr int kMaxStalls = 100;
// Families: a merge is a concat rather than an elementwise op, tried this
// many times; a pooling follows a convolution.
constexpr double kConcatMergeChance = 0.3;
constexpr int kMergeAttempts = 4;
constexpr double kPoolChance = 0.6;

class Builder {
public:
  Builder(const GenOptions &options, uint64_t seed);
  // Error when the options name unknown ops or leave none to place.
  Error init();
  // Starts from `base` instead of an empty graph: run() then adds the op
  // count the options draw to it (base's values are fair operands; its
  // constants count as untamed, its inputs as tame).
  void adopt(const Graph &base);
  Expected<Graph> run();

  // --- used by the families ---
  Rng &random() { return rng; }
  const Graph &graph() const { return g; }
  bool room() const { return placed < target; }
  // The entry of an enabled op, or nullptr.
  const OpDef *enabled(OpId op) const;
  bool allowsDType(DType d) const { return dtypeMask & (1u << unsigned(d)); }
  // One node of `op` whose operand 0 is `hint` (-1: an existing value the
  // op accepts, or fresh operands); with `sameType` only if the result has
  // the hint's type. Returns the first result, nullopt when it did not fit.
  std::optional<ValueId> step(const OpDef &op, ValueId hint = -1,
                              bool sameType = false);
  // A weighted random op placed on `hint` (a few attempts).
  std::optional<ValueId> randomStep(ValueId hint = -1, bool sameType = false);
  // One node of `op` on exactly these operands, attributes sampled unless
  // given; nullopt when the types, dtypes or leaf requirements do not fit.
  std::optional<ValueId> placeOn(const OpDef &op, std::vector<ValueId> operands,
                                 std::optional<Attrs> attrs = std::nullopt);
  // A fresh graph input or constant of type t; `tame` keeps its values in a
  // range no op is undefined on (see OperandSample::leafMask).
  std::optional<ValueId> leaf(const TensorType &t, bool tame = true,
                              Domain dom = Domain::Any);
  // A random existing value that satisfies `pred`, preferring unused ones;
  // -1 if none.
  template <typename Pred> ValueId pickValue(Pred pred);
  // Whether t may appear in the graph (dtype, rank, size knobs).
  bool allowedType(const TensorType &t) const;
  // Attributes for a node of `op` on operands of `types` (sampled, with
  // defaults) that o.mlirSyntax can express: drawn again a few times when
  // not; nullopt when no draw can be written there (float argmax in 19).
  std::optional<Attrs> drawAttrs(const OpDef &op,
                                 const std::vector<TensorType> &types);
  // A fresh shape within the rank and size knobs.
  Shape freshShape(int rank = -1);

private:
  struct Meta {
    bool input = false, tameConst = false;
    int uses = 0;
  };
  ValueId commit(const OpDef &op, std::vector<ValueId> operands, Attrs attrs,
                 std::vector<TensorType> results);
  bool leafFits(ValueId v, Domain dom) const;
  // Whether v may feed operand `i` of `op` (operand types `types`) that the
  // op wants a leaf for: a fitting leaf, or a value whose range meets the
  // operand's domain.
  bool mayFeed(const OpDef &op, size_t i, ValueId v,
               const std::vector<TensorType> &types) const;
  // Whether op on these operands (-1: a fresh leaf, tame where leafMask
  // says) has integer results that cannot overflow.
  bool cannotOverflow(const OpDef &op, const std::vector<ValueId> &operands,
                      const std::vector<TensorType> &types, uint32_t leafMask,
                      const Attrs &attrs, DType result) const;
  Tensor constValues(const TensorType &t, bool tame, Domain dom);
  void block();

  const GenOptions &o;
  Rng rng;
  Graph g;
  std::vector<Meta> meta;
  // Value ranges with tame inputs (the input generator narrows inputs
  // upstream of any op that needs it to these ranges or below).
  std::vector<Interval> ranges;
  std::vector<const OpDef *> ops; // placeable, in table order
  std::vector<double> weights;
  std::vector<bool> enabledMask; // by OpId
  uint32_t dtypeMask = 0;
  int placed = 0, target = 0, inputCount = 0;
};

template <typename Pred> ValueId Builder::pickValue(Pred pred) {
  std::vector<ValueId> unused, used;
  for (ValueId v = 0; v < ValueId(g.values.size()); ++v)
    if (pred(g.values[size_t(v)].type, v))
      (meta[size_t(v)].uses == 0 ? unused : used).push_back(v);
  if (!unused.empty() && (used.empty() || rng.chance(kUnusedChance)))
    return rng.pick(unused);
  return used.empty() ? -1 : rng.pick(used);
}

// The family blocks (Families.cpp): each places a few ops of one structure
// while the builder has room, or nothing when it does not fit.
void chainBlock(Builder &b);
void residualBlock(Builder &b);
void branchBlock(Builder &b);
void attentionBlock(Builder &b);
void convStackBlock(Builder &b);
void mlpBlock(Builder &b);

} // namespace cc::gen
