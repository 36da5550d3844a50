// The fuzz input and its structure-aware mutations: every byte string is a
// valid graph, and every mutation and crossover yields one.
#include "harness/fuzz/FuzzCase.h"

#include "core/Json.h"
#include "core/Rng.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

namespace cc::fuzz {
namespace {

std::string opsOf(const Graph &g) {
  std::string s;
  for (const Node &n : g.nodes)
    s += std::string(opName(n.op)) + ":" + g.typeOf(n.results.at(0)).mlir() +
         " ";
  return s;
}

size_t opCount(const Graph &g) {
  size_t n = 0;
  for (const Node &node : g.nodes)
    n += node.op != OpId::Const;
  return n;
}

// Constants of two or more elements that are all the same.
size_t splatConsts(const Graph &g) {
  size_t n = 0;
  for (const Node &node : g.nodes)
    if (node.op == OpId::Const) {
      const Tensor &t = node.attrs.getTensor("value");
      n += t.size() > 1 && t == Tensor::splat(t.type(), t.asDouble(0));
    }
  return n;
}

FuzzCase fromBytes(const std::string &bytes) {
  return decodeCase(reinterpret_cast<const uint8_t *>(bytes.data()),
                    bytes.size());
}

TEST(FuzzCaseTest, AnyBytesDecodeToAnAcceptableGraph) {
  Rng rng(1);
  std::vector<std::string> inputs = {"", "{", "{\"graph\": 3}", "\xff\x00\x01",
                                     "{\"graph\":{\"nodes\":[]}}"};
  for (int i = 0; i < 100; ++i) {
    std::string bytes(size_t(rng.uniformInt(0, 64)), '\0');
    for (char &c : bytes)
      c = char(rng.uniformInt(0, 255));
    inputs.push_back(bytes);
  }
  // A valid encoding cut short or with a flipped byte.
  std::string valid = encodeCase(fromBytes("seed"));
  inputs.push_back(valid.substr(0, valid.size() / 2));
  std::string flipped = valid;
  flipped[flipped.size() / 3] ^= 0x20;
  inputs.push_back(flipped);
  for (const std::string &bytes : inputs) {
    FuzzCase c = fromBytes(bytes);
    std::string why;
    EXPECT_TRUE(acceptableGraph(c.graph, &why)) << why;
  }
}

TEST(FuzzCaseTest, EncodingRoundTrips) {
  for (int i = 0; i < 20; ++i) {
    FuzzCase c = fromBytes("round trip " + std::to_string(i));
    c.inputSeed = 1234567 + uint64_t(i);
    c.cut = uint32_t(i);
    FuzzCase d = fromBytes(encodeCase(c));
    EXPECT_EQ(printGraph(d.graph), printGraph(c.graph));
    EXPECT_EQ(d.inputSeed, c.inputSeed);
    EXPECT_EQ(d.cut, c.cut);
  }
}

// Chains of mutations from many starting graphs: each step is acceptable,
// survives encoding, and the steps change ops, dtypes and shapes.
TEST(FuzzCaseTest, MutationsAlwaysYieldValidGraphs) {
  int grew = 0, grewMany = 0, shrank = 0, changedOps = 0, unchanged = 0,
      splatted = 0;
  std::set<std::string> dtypes;
  for (int start = 0; start < 40; ++start) {
    FuzzCase c = fromBytes("start " + std::to_string(start));
    for (int step = 0; step < 25; ++step) {
      uint64_t seed = uint64_t(start) * 1000 + uint64_t(step);
      FuzzCase m = mutateCase(c, seed);
      std::string why;
      ASSERT_TRUE(acceptableGraph(m.graph, &why))
          << why << "\nafter mutation " << seed << " of\n"
          << printGraph(c.graph);
      FuzzCase back = fromBytes(encodeCase(m));
      ASSERT_EQ(printGraph(back.graph), printGraph(m.graph));
      grew += m.graph.nodes.size() > c.graph.nodes.size();
      grewMany += m.graph.nodes.size() >= c.graph.nodes.size() + 3;
      shrank += m.graph.nodes.size() < c.graph.nodes.size();
      changedOps += opsOf(m.graph) != opsOf(c.graph);
      unchanged += m.graph == c.graph;
      splatted += splatConsts(m.graph) > splatConsts(c.graph);
      for (const ValueInfo &v : m.graph.values)
        dtypes.insert(std::string(dtypeName(v.type.dtype)));
      c = std::move(m);
    }
  }
  EXPECT_GT(grew, 50);
  EXPECT_GT(grewMany, 20); // whole family blocks and stacked edits
  EXPECT_GT(shrank, 20);
  EXPECT_GT(changedOps, 300);
  EXPECT_LT(unchanged, 400); // only the input seed or the compiler changed
  EXPECT_GT(splatted, 20);   // edge-value splats for the folders
  EXPECT_GE(dtypes.size(), 5u);
}

// Edits of one graph set clamp bounds at infinity or the largest finite
// value (the full range: a no-op), which sampleAttrs does not draw.
TEST(FuzzCaseTest, EdgeAttributesReachNoOpForms) {
  auto g = parseGraph(R"({"format": "crosscheck-graph", "version": 1,
    "name": "edges", "inputs": [{"name": "x", "type": "f32[2,3]"}],
    "nodes": [
      {"op": "clamp", "operands": ["x"], "results": ["c"],
       "attrs": {"min": -1.0, "max": 1.0}},
      {"op": "transpose", "operands": ["c"], "results": ["t"],
       "attrs": {"perms": [1, 0]}}],
    "outputs": ["t"]})");
  ASSERT_TRUE(g) << g.error().message();
  FuzzCase c;
  c.graph = *g;
  auto fullRange = [&](MutationOptions o) {
    int n = 0;
    for (uint64_t seed = 0; seed < 5000; ++seed) {
      FuzzCase m = mutateCase(c, seed, Strategy::Edit, nullptr, o);
      EXPECT_TRUE(acceptableGraph(m.graph));
      for (const Node &node : m.graph.nodes)
        if (node.op == OpId::Clamp)
          for (const char *bound : {"min", "max"})
            n += std::fabs(node.attrs.getFloat(bound)) >= maxFinite(DType::f32);
    }
    return n;
  };
  EXPECT_GT(fullRange({}), 20);
  EXPECT_EQ(fullRange({.edges = false}), 0); // CC_FUZZ_EDGES=0
}

// Edits of one graph make the pairs canonical forms match and random DAGs
// rarely do: both operands of an add from a negate (twins), and a select
// whose true branch is a select on the same condition (a shared operand).
TEST(FuzzCaseTest, EditsMakeTwinAndSharedOperands) {
  auto g = parseGraph(R"({"format": "crosscheck-graph", "version": 1,
    "name": "pairs", "inputs": [{"name": "x", "type": "f32[2,3]"},
      {"name": "y", "type": "f32[2,3]"}, {"name": "p", "type": "i1[2,3]"},
      {"name": "q", "type": "i1[2,3]"}],
    "nodes": [
      {"op": "negate", "operands": ["x"], "results": ["n"]},
      {"op": "add", "operands": ["n", "y"], "results": ["a"]},
      {"op": "select", "operands": ["p", "a", "y"], "results": ["s"]},
      {"op": "select", "operands": ["q", "s", "x"], "results": ["t"]}],
    "outputs": ["t"]})");
  ASSERT_TRUE(g) << g.error().message();
  FuzzCase c;
  c.graph = *g;
  auto producer = [](const Graph &h, ValueId v) -> const Node * {
    int32_t p = h.values[size_t(v)].producer;
    return p < 0 ? nullptr : &h.nodes[size_t(p)];
  };
  int twins = 0, shared = 0;
  for (uint64_t seed = 0; seed < 2000; ++seed) {
    FuzzCase m = mutateCase(c, seed, Strategy::Edit);
    ASSERT_TRUE(acceptableGraph(m.graph));
    for (const Node &n : m.graph.nodes) {
      if (n.op == OpId::Add) {
        const Node *l = producer(m.graph, n.operands[0]),
                   *r = producer(m.graph, n.operands[1]);
        twins += l && r && l->op == OpId::Negate && r->op == OpId::Negate;
      }
      if (n.op == OpId::Select)
        if (const Node *inner = producer(m.graph, n.operands[1]))
          shared +=
              inner->op == OpId::Select && inner->operands[0] == n.operands[0];
    }
  }
  EXPECT_GT(twins, 20);
  EXPECT_GT(shared, 20);
}

// Edits of an integer graph make chains of ops with splat constants, such
// as (x + 3) - 5, which arith's canonical forms reassociate; the generator
// feeds i32 arithmetic only from leaves, so no other mutation makes them.
TEST(FuzzCaseTest, EditsMakeConstantChains) {
  auto g = parseGraph(R"({"format": "crosscheck-graph", "version": 1,
    "name": "ints", "inputs": [{"name": "x", "type": "i32[2,3]"},
      {"name": "y", "type": "i32[2,3]"}],
    "nodes": [{"op": "add", "operands": ["x", "y"], "results": ["a"]}],
    "outputs": ["a"]})");
  ASSERT_TRUE(g) << g.error().message();
  FuzzCase c;
  c.graph = *g;
  // An i32 add or sub with a splat constant operand.
  auto withSplat = [](const Graph &h, const Node *n) {
    if (!n || (n->op != OpId::Add && n->op != OpId::Sub) ||
        h.typeOf(n->results[0]).dtype != DType::i32)
      return false;
    for (ValueId v : n->operands) {
      int32_t p = h.values[size_t(v)].producer;
      if (p < 0 || h.nodes[size_t(p)].op != OpId::Const)
        continue;
      const Tensor &t = h.nodes[size_t(p)].attrs.getTensor("value");
      if (t == Tensor::splat(t.type(), t.asDouble(0)))
        return true;
    }
    return false;
  };
  auto chains = [&](MutationOptions o) {
    int n = 0;
    FuzzCase m = c;
    for (uint64_t seed = 0; seed < 2000; ++seed) {
      m = mutateCase(seed % 20 == 0 ? c : m, seed, Strategy::Edit, nullptr, o);
      EXPECT_TRUE(acceptableGraph(m.graph));
      for (const Node &node : m.graph.nodes)
        if (withSplat(m.graph, &node))
          for (ValueId v : node.operands) {
            int32_t p = m.graph.values[size_t(v)].producer;
            n += p >= 0 && withSplat(m.graph, &m.graph.nodes[size_t(p)]);
          }
    }
    return n;
  };
  EXPECT_GT(chains({}), 100);
  EXPECT_EQ(chains({.edges = false}), 0); // CC_FUZZ_EDGES=0: no chains at all
}

TEST(FuzzCaseTest, MutationIsDeterministicInItsSeed) {
  FuzzCase c = fromBytes("deterministic");
  for (uint64_t seed = 0; seed < 10; ++seed)
    EXPECT_EQ(encodeCase(mutateCase(c, seed)), encodeCase(mutateCase(c, seed)));
}

TEST(FuzzCaseTest, CrossOverSplicesValidGraphs) {
  int spliced = 0;
  for (int i = 0; i < 60; ++i) {
    FuzzCase a = fromBytes("a" + std::to_string(i));
    FuzzCase b = fromBytes("b" + std::to_string(i));
    FuzzCase x = crossOver(a, b, uint64_t(i));
    std::string why;
    ASSERT_TRUE(acceptableGraph(x.graph, &why)) << why;
    spliced += x.graph.nodes.size() > a.graph.nodes.size();
    // A window of at most four of b's ops, with the constants they read.
    EXPECT_LE(opCount(x.graph), opCount(a.graph) + 4);
  }
  EXPECT_GT(spliced, 20);
}

// libFuzzer runs whatever the cross-over returns: never the first parent
// again, even when it has no room for a splice.
TEST(FuzzCaseTest, CrossOverBytesNeverRepeatsTheFirstParent) {
  int full = 0;
  for (int i = 0; i < 60; ++i) {
    std::string a = encodeCase(fromBytes("first " + std::to_string(i)));
    std::string b = encodeCase(fromBytes("second " + std::to_string(i)));
    full += opCount(fromBytes(a).graph) >= 8;
    std::vector<uint8_t> out(a.size() + b.size() + 4096);
    size_t n =
        crossOverBytes(reinterpret_cast<const uint8_t *>(a.data()), a.size(),
                       reinterpret_cast<const uint8_t *>(b.data()), b.size(),
                       out.data(), out.size(), uint64_t(i));
    ASSERT_GT(n, 0u);
    EXPECT_NE(std::string(out.begin(), out.begin() + long(n)), a);
  }
  EXPECT_GT(full, 5); // parents with no room to grow were among them
}

// libFuzzer stacks mutations and cross-overs on its mutants (and keeps
// those that grew); the mutator pulls graphs back towards the generator's
// size, so executions stay fast.
TEST(FuzzCaseTest, StackedMutationsKeepGraphsSmall) {
  size_t ops = 0, steps = 0;
  for (int start = 0; start < 20; ++start) {
    FuzzCase c = fromBytes("small " + std::to_string(start));
    for (int step = 0; step < 40; ++step, ++steps) {
      uint64_t seed = uint64_t(start) * 1000 + uint64_t(step);
      FuzzCase other = fromBytes("other " + std::to_string(seed));
      c = step % 2 ? crossOver(c, other, seed) : mutateCase(c, seed);
      ops += opCount(c.graph);
    }
  }
  EXPECT_LT(double(ops) / double(steps), 10.0);
}

TEST(FuzzCaseTest, ByteMutatorRespectsMaxSize) {
  FuzzCase c = fromBytes("bytes");
  std::string bytes = encodeCase(c);
  for (uint64_t seed = 0; seed < 30; ++seed) {
    std::vector<uint8_t> buf(bytes.begin(), bytes.end());
    size_t maxSize = bytes.size() + 2000;
    buf.resize(maxSize);
    size_t n = mutateBytes(buf.data(), bytes.size(), maxSize, seed);
    ASSERT_LE(n, maxSize);
    ASSERT_TRUE(acceptableGraph(decodeCase(buf.data(), n).graph));
    // A limit below the input's own size still gives a valid input.
    std::vector<uint8_t> tiny(bytes.begin(), bytes.end());
    size_t m = mutateBytes(tiny.data(), bytes.size(), 64, seed);
    ASSERT_LE(m, 64u);
    ASSERT_TRUE(acceptableGraph(decodeCase(tiny.data(), m).graph));
  }
}

} // namespace
} // namespace cc::fuzz
