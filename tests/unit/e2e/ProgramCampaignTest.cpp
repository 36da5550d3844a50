// A seeded wrong pass in each layer below the graph (an arith fold, an scf
// loop rewrite, a vector transfer lowering) is found by a short campaign of
// generated mid-level programs and reduced to at most 5 ops (counted as the
// generator counts them: no constants, tensor.empty or terminators).
#include "backends/mlir/MlirBackend.h"
#include "generators/Program.h"
#include "harness/Campaign.h"
#include "tests/mutants/Mutants.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace cc;

namespace {

class ProgramMutant : public testing::TestWithParam<std::string> {};

TEST_P(ProgramMutant, FoundAndReduced) {
  registerMutantPasses();
  std::string mutant = GetParam();
  // The mutant runs on the program as generated, then the straight lowering.
  std::string cut =
      "mlir:pipeline-O0=" + straightLowering({mutant, "", "", ""}).pipeline;
  std::string dir = testing::TempDir() + "/program-campaign-" + mutant;
  std::filesystem::remove_all(dir);
  CampaignOptions o;
  o.generator = CampaignOptions::Generator::Mlir;
  o.cuts = {cut};
  o.outDir = dir;
  o.seed = 1;
  o.maxCases = 800;
  o.inputSets = 4;
  o.timeBudgetSeconds = 1e9; // the cases end it, never the clock
  // Each new miscompile is reduced as the campaign goes, bounded by case
  // runs (never by the clock).
  o.triageCalls = 200;
  o.triageSeconds = 1e9;
  auto s = runCampaign(o);
  ASSERT_TRUE(s) << s.error().message();
  // The bug shows as a few signatures (the dtype and kind of the first
  // wrong element); each is triaged, and one at least comes down to 5 ops.
  int smallest = -1;
  for (const SignatureSummary &sig : s->signatures)
    if (sig.signature.kind == Kind::Miscompile &&
        sig.signature.backend == cut && sig.reducedOps >= 1 &&
        (smallest < 0 || sig.reducedOps < smallest))
      smallest = sig.reducedOps;
  ASSERT_GE(smallest, 1) << mutant << " was not found (and reduced) in "
                         << s->cases << " cases";
  EXPECT_LE(smallest, 5) << mutant;
}

INSTANTIATE_TEST_SUITE_P(Layers, ProgramMutant,
                         testing::Values("cc-mutant-minmax-unsigned",
                                         "cc-mutant-for-drop-last",
                                         "cc-mutant-transfer-unmask"),
                         [](const auto &info) {
                           std::string n = info.param.substr(10);
                           for (char &c : n)
                             if (c == '-')
                               c = '_';
                           return n;
                         });

} // namespace
