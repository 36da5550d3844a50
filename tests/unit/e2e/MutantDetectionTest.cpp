// Every mutant pass is caught by the numeric oracle on at least one graph of
// the seed corpus, or of a few small graphs below for bug shapes the corpus
// lacks: proof that the oracle fires on each class of wrong rewrite. The
// mutant runs first, then the plain tosa-O0 lowering.
#include "backends/mlir/MlirBackend.h"
#include "core/Json.h"
#include "generators/Inputs.h"
#include "oracles/Differential.h"
#include "tests/mutants/Mutants.h"

#include "tests/unit/SeedCorpus.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>

using namespace cc;

namespace {

std::vector<Graph> seedGraphs() {
  std::vector<Graph> graphs;
  for (const std::string &f : test::seedFiles()) {
    auto g = loadGraph(f);
    EXPECT_TRUE(g) << g.error().message();
    if (g)
      graphs.push_back(std::move(*g));
  }
  return graphs;
}

// A graph with inputs of its own (others get generated ones).
struct ExtraGraph {
  Graph graph;
  std::optional<Inputs> inputs;
};

Tensor f32Tensor(Shape shape, std::vector<double> values) {
  Tensor t(DType::f32, std::move(shape));
  for (int64_t i = 0; i < t.size(); ++i)
    t.setF(i, values[size_t(i)]);
  return t;
}

// Bug shapes the seed corpus lacks: x - x (the NaN-unsafe fold needs the
// same value twice) and an f32 -> bf16 cast of values just below a power
// of two (the only ones whose rounding carries into the exponent).
std::vector<ExtraGraph> extraGraphs() {
  std::vector<ExtraGraph> extra;
  {
    Graph g;
    g.name = "sub_self_f32";
    ValueId x = g.addInput("x", {DType::f32, {2, 3}});
    auto d = g.add("sub", {x, x});
    EXPECT_TRUE(d) << d.error().message();
    g.addOutput(*d);
    extra.push_back({std::move(g), std::nullopt});
  }
  {
    Graph g;
    g.name = "cast_bf16_near_pow2";
    ValueId x = g.addInput("x", {DType::f32, {4}});
    Attrs to;
    to.set("to", DType::bf16);
    auto c = g.add("cast", {x}, to);
    EXPECT_TRUE(c) << c.error().message();
    g.addOutput(*c);
    extra.push_back(
        {std::move(g), Inputs{f32Tensor({4}, {0.49999997, 3, -1.9999999, 7})}});
  }
  return extra;
}

// tosa-O0 with `mutant` run on the TOSA input first.
std::string mutantPipeline(const std::string &mutant) {
  const std::string &o0 =
      std::find_if(namedPipelines().begin(), namedPipelines().end(),
                   [](const NamedPipeline &p) { return p.name == "tosa-O0"; })
          ->pipeline;
  const std::string prefix = "builtin.module(";
  EXPECT_EQ(o0.rfind(prefix, 0), 0u) << o0;
  return prefix + "func.func(" + mutant + ")," + o0.substr(prefix.size());
}

class Mutant : public testing::TestWithParam<std::string> {};

// Outputs the numeric oracle rejects; empty when the case was not judged.
std::vector<std::string> failingOutputs(const Expected<CaseResult> &r) {
  std::vector<std::string> names;
  if (r && r->report)
    for (const OutputReport &o : r->report->outputs)
      if (!o.ok)
        names.push_back(o.name);
  return names;
}

// Mutants that do what upstream MLIR 22 already does on its own. They are
// caught too, but so is the unmutated pipeline on the same output: the test
// checks exactly that, so it notices when upstream is fixed.
const std::map<std::string, std::string> kSameAsUpstream = {
    {"cc-mutant-mul-zero",
     "MLIR 22's tosa.mul folder already folds float x * 0.0 to 0.0"},
};

TEST_P(Mutant, IsCaughtByTheNumericOracleOnASeedGraph) {
  registerMutantPasses();
  auto mutant = makeMlirBackend("mlir:pipeline=" + mutantPipeline(GetParam()));
  ASSERT_TRUE(mutant) << mutant.error().message();
  auto plainO0 = makeMlirBackend("mlir:tosa-O0");
  ASSERT_TRUE(plainO0) << plainO0.error().message();
  bool sameAsUpstream = kSameAsUpstream.count(GetParam()) != 0;
  // NaN-unsafe folds only show with NaN or Inf among the inputs.
  const InputOptions plain, special{0.15, 0.1};
  std::vector<ExtraGraph> graphs;
  for (Graph &g : seedGraphs())
    graphs.push_back({std::move(g), std::nullopt});
  for (ExtraGraph &e : extraGraphs())
    graphs.push_back(std::move(e));
  for (const InputOptions *options : {&plain, &special}) {
    for (const auto &[g, fixedInputs] : graphs) {
      for (uint64_t seed = 1; seed <= (fixedInputs ? 1 : 3); ++seed) {
        Inputs inputs =
            fixedInputs ? *fixedInputs : makeInputs(g, seed, *options);
        std::vector<std::string> caught =
            failingOutputs(runDifferential(g, inputs, **mutant));
        if (caught.empty())
          continue; // passed, or undefined behaviour in these inputs
        // The mutant must be what breaks the output: the unmutated pipeline
        // passes it (unless the mutant is known to copy upstream).
        std::vector<std::string> upstream =
            failingOutputs(runDifferential(g, inputs, **plainO0));
        for (const std::string &out : caught) {
          bool upstreamFails =
              std::count(upstream.begin(), upstream.end(), out);
          if (upstreamFails != sameAsUpstream)
            continue;
          std::cout << GetParam() << " caught on output '" << out << "' of '"
                    << g.name << "' (input seed " << seed << ")\n";
          return;
        }
      }
    }
  }
  ADD_FAILURE() << GetParam() << " was not caught on any seed graph"
                << (sameAsUpstream ? " together with upstream MLIR (" +
                                         kSameAsUpstream.at(GetParam()) + ")"
                                   : "");
}

std::vector<std::string> mutantNames() {
  std::vector<std::string> names;
  for (const MutantInfo &m : mutantPasses())
    names.push_back(m.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(AllMutants, Mutant, testing::ValuesIn(mutantNames()),
                         [](const testing::TestParamInfo<std::string> &info) {
                           std::string n = info.param;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

} // namespace
