// The topology generator: deterministic, valid by construction (our verifier,
// MLIR's verifier, no undefined behaviour in the reference), knobs respected,
// every op x dtype reached, and each family builds its structure.
#include "generators/Topology.h"
#include "backends/mlir/MlirBackend.h"
#include "backends/ref/Interpreter.h"
#include "core/Json.h"
#include "core/OpTable.h"
#include "generators/Inputs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

using namespace cc;

namespace {

Graph gen(const GenOptions &o, uint64_t seed) {
  auto g = generateGraph(o, seed);
  EXPECT_TRUE(g) << "seed " << seed << ": " << g.error().message();
  return g ? *g : Graph();
}

std::set<std::string> opsOf(const Graph &g) {
  std::set<std::string> s;
  for (const Node &n : g.nodes)
    s.insert(std::string(opName(n.op)));
  return s;
}

TEST(Topology, SameSeedSameBytes) {
  GenOptions o;
  for (uint64_t seed : {0, 1, 42, 1234567}) {
    std::string a = printGraph(gen(o, seed)), b = printGraph(gen(o, seed));
    EXPECT_EQ(a, b) << "seed " << seed;
  }
  EXPECT_NE(printGraph(gen(o, 1)), printGraph(gen(o, 2)));
}

// 1,000 consecutive seeds: our verifier, MLIR's verifier on the emitted TOSA
// and the reference interpreter on generated inputs all accept the graph.
TEST(Topology, ThousandSeedsValid) {
  GenOptions o;
  o.minOps = 3;
  o.maxOps = 15;
  for (uint64_t seed = 0; seed < 1000; ++seed) {
    Graph g = gen(o, seed);
    ASSERT_FALSE(g.nodes.empty());
    Error e = verify(g);
    ASSERT_FALSE(e) << "seed " << seed << ": " << e.message();
    auto text = emitModule(g);
    ASSERT_TRUE(text) << "seed " << seed << ": " << text.error().message();
    Error m = verifyMlir(*text);
    ASSERT_FALSE(m) << "seed " << seed << ": " << m.message() << "\n" << *text;
    auto out = interpret(g, makeInputs(g, seed));
    ASSERT_TRUE(out) << "seed " << seed << ": " << out.error().message() << "\n"
                     << printGraph(g);
  }
}

TEST(Topology, OpCountRange) {
  GenOptions o;
  o.minOps = 7;
  o.maxOps = 9;
  std::set<size_t> seen;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    Graph g = gen(o, seed);
    size_t ops = 0;
    for (const Node &n : g.nodes)
      ops += n.op != OpId::Const;
    EXPECT_GE(ops, 7u);
    EXPECT_LE(ops, 9u);
    seen.insert(ops);
  }
  EXPECT_EQ(seen.size(), 3u); // the whole range is used
}

// Growing a graph keeps it as a prefix (nodes, inputs, outputs), adds the
// op count asked for on its values as well as new ones, and stays valid for
// MLIR and the reference.
TEST(Topology, ExtendGraphGrowsOnTheBase) {
  GenOptions base;
  base.minOps = 3;
  base.maxOps = 6;
  GenOptions more;
  more.minOps = 2;
  more.maxOps = 4;
  int usesBase = 0;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    Graph g = gen(base, seed);
    auto x = extendGraph(g, more, seed + 1000);
    ASSERT_TRUE(x) << x.error().message();
    ASSERT_FALSE(verify(*x)) << verify(*x).message();
    ASSERT_GE(x->nodes.size(), g.nodes.size());
    for (size_t i = 0; i < g.nodes.size(); ++i)
      ASSERT_EQ(x->nodes[i], g.nodes[i]) << "seed " << seed;
    for (size_t i = 0; i < g.inputs.size(); ++i)
      ASSERT_EQ(x->values[size_t(x->inputs[i])].name,
                g.values[size_t(g.inputs[i])].name);
    for (ValueId v : g.outputs)
      EXPECT_NE(std::find(x->outputs.begin(), x->outputs.end(), v),
                x->outputs.end());
    size_t added = 0;
    bool onBase = false;
    for (size_t i = g.nodes.size(); i < x->nodes.size(); ++i) {
      const Node &n = x->nodes[i];
      added += n.op != OpId::Const;
      for (ValueId v : n.operands)
        onBase |= size_t(v) < g.values.size();
    }
    EXPECT_GE(added, 2u);
    EXPECT_LE(added, 4u);
    usesBase += onBase;
    auto text = emitModule(*x);
    ASSERT_TRUE(text) << text.error().message();
    ASSERT_FALSE(verifyMlir(*text)) << *text;
    auto out = interpret(*x, makeInputs(*x, seed));
    ASSERT_TRUE(out) << "seed " << seed << ": " << out.error().message() << "\n"
                     << printGraph(*x);
  }
  EXPECT_GT(usesBase, 100); // new ops mostly consume the base's values
}

// A campaign against MLIR 19 alone draws graphs that MLIR 19's TOSA can
// express: without mlirSyntax a third of the clamp and max_pool2d graphs
// use nan_mode IGNORE, which MLIR 19 does not have.
TEST(Topology, GraphsForMlir19AreExpressibleInIt) {
  GenOptions o;
  o.include = {"clamp", "max_pool2d", "maximum", "argmax"};
  o.dtypes = {DType::f32};
  int unexpressible = 0;
  for (uint64_t seed = 0; seed < 60; ++seed) {
    Graph latest = gen(o, seed);
    if (!latest.nodes.empty() && !emitModule(latest, 19))
      ++unexpressible;
    GenOptions old = o;
    old.mlirSyntax = 19;
    Graph g = gen(old, seed);
    auto text = emitModule(g, 19);
    EXPECT_TRUE(bool(text))
        << "seed " << seed << ": " << text.error().message();
    EXPECT_EQ(g.name, latest.name); // named after the case's seed
  }
  EXPECT_GT(unexpressible, 10);
}

TEST(Topology, IncludeExclude) {
  GenOptions o;
  o.include = {"add", "exp", "transpose", "const"};
  o.exclude = {"exp"};
  for (uint64_t seed = 0; seed < 100; ++seed)
    for (const std::string &op : opsOf(gen(o, seed)))
      EXPECT_TRUE(op == "add" || op == "transpose" || op == "const") << op;
  o = GenOptions();
  o.exclude = {"const"};
  for (uint64_t seed = 0; seed < 100; ++seed)
    EXPECT_EQ(opsOf(gen(o, seed)).count("const"), 0u);
  o.include = {"no_such_op"};
  EXPECT_FALSE(generateGraph(o, 0));
}

TEST(Topology, DTypesRanksAndSize) {
  GenOptions o;
  o.dtypes = {DType::i8, DType::i32};
  o.maxElements = 40;
  o.minRank = 2;
  o.maxRank = 3;
  for (uint64_t seed = 0; seed < 200; ++seed)
    for (const ValueInfo &v : gen(o, seed).values) {
      EXPECT_TRUE(v.type.dtype == DType::i8 || v.type.dtype == DType::i32)
          << v.type.str();
      EXPECT_LE(v.type.numElements(), 40);
      EXPECT_GE(v.type.rank(), 2);
      EXPECT_LE(v.type.rank(), 3);
    }
}

// Every op of the table in every dtype it allows, within a fixed budget.
TEST(Topology, ReachesEveryOpAndDType) {
  GenOptions o;
  OpStats stats;
  for (uint64_t seed = 0; seed < 3000; ++seed)
    addOpStats(gen(o, seed), stats);
  for (const OpDef &op : allOps())
    for (DType d : op.dtypes)
      EXPECT_GT(stats[op.name][d], 0) << op.name << " " << dtypeName(d);
}

// Per family, the share of seeds whose graph shows the structure.
template <typename Pred> double share(Family f, Pred pred) {
  GenOptions o;
  o.family = f;
  o.minOps = o.maxOps = 12;
  int hits = 0;
  for (uint64_t seed = 0; seed < 50; ++seed)
    hits += pred(gen(o, seed));
  return hits / 50.0;
}

// Values consumed by two or more nodes (fan-out).
bool fansOut(const Graph &g) {
  std::map<ValueId, int> uses;
  for (const Node &n : g.nodes)
    for (ValueId v : n.operands)
      if (g.values[size_t(v)].producer >= 0 && ++uses[v] > 1)
        return true;
  return false;
}

TEST(Topology, FamiliesBuildTheirStructure) {
  EXPECT_GT(share(Family::Attention,
                  [](const Graph &g) {
                    auto s = opsOf(g);
                    return s.count("matmul") && s.count("transpose") &&
                           s.count("exp") && s.count("reduce_sum") &&
                           s.count("reciprocal");
                  }),
            0.8);
  EXPECT_GT(share(Family::ConvStack,
                  [](const Graph &g) {
                    auto s = opsOf(g);
                    return s.count("conv2d") + s.count("depthwise_conv2d") +
                               s.count("transpose_conv2d") >
                           0;
                  }),
            0.8);
  EXPECT_GT(
      share(Family::Mlp,
            [](const Graph &g) {
              for (const Node &n : g.nodes) // a weight constant feeds a matmul
                if (n.op == OpId::MatMul &&
                    g.values[size_t(n.operands[1])].producer >= 0 &&
                    g.nodes[size_t(g.values[size_t(n.operands[1])].producer)]
                            .op == OpId::Const)
                  return true;
              return false;
            }),
      0.5);
  // Chains: most ops consume the previous op's result.
  EXPECT_GT(share(Family::Chain,
                  [](const Graph &g) {
                    int linked = 0, ops = 0;
                    ValueId prev = -1;
                    for (const Node &n : g.nodes) {
                      if (n.op == OpId::Const)
                        continue;
                      ++ops;
                      linked += prev >= 0 && !n.operands.empty() &&
                                n.operands[0] == prev;
                      prev = n.results[0];
                    }
                    return linked * 2 > ops;
                  }),
            0.8);
  EXPECT_GT(share(Family::Branch, fansOut), 0.8);
  // Residual: a node consumes an op result and a value computed from it.
  EXPECT_GT(share(Family::Residual,
                  [](const Graph &g) {
                    for (const Node &n : g.nodes)
                      if (n.operands.size() == 2 &&
                          g.values[size_t(n.operands[1])].producer >= 0 &&
                          g.values[size_t(n.operands[0])].producer >
                              g.values[size_t(n.operands[1])].producer &&
                          n.operands[0] != n.operands[1] &&
                          g.typeOf(n.operands[0]) == g.typeOf(n.operands[1]))
                        return true;
                    return false;
                  }),
            0.5);
}

TEST(Topology, FamilyNames) {
  for (const std::string &n : familyNames()) {
    auto f = parseFamily(n);
    ASSERT_TRUE(f) << n;
  }
  EXPECT_FALSE(parseFamily("unet"));
}

} // namespace
