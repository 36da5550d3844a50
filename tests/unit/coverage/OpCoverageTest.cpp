// Every op of the op table has an entry in every table that keys on ops:
// its TOSA emission (MLIR 22 and 19), the LibTorch lowering, the ONNX
// export and translation validation's encoding. A missing entry fails here,
// never as a silent "unsupported" in a campaign. The ops an entry refuses
// (ONNX has no equivalent, MLIR 19 cannot express it) are listed in the
// test's output, each with its reason.
#include "backends/mlir/MlirBackend.h"
#include "backends/onnx/Onnx.h"
#include "backends/torch/Torch.h"
#include "core/OpTable.h"
#include "generators/Inputs.h"
#ifdef CC_HAVE_SMT
#include "smt/Evaluate.h"
#endif

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>

using namespace cc;

namespace {

// The dtype an op's coverage is checked in: its first, as the table lists
// them (f32 for most float ops).
DType firstDType(const OpDef &op) { return op.dtypes.front(); }

TEST(OpCoverage, EveryOpHasItsCoreEntries) {
  ASSERT_EQ(allOps().size(), kOpCount);
  for (size_t i = 0; i < kOpCount; ++i) {
    const OpDef &op = allOps()[i];
    EXPECT_EQ(size_t(op.id), i);
    EXPECT_EQ(op.name, kOpNames[i]);
    EXPECT_FALSE(op.summary.empty()) << op.name;
    EXPECT_FALSE(op.dtypes.empty()) << op.name;
    EXPECT_TRUE(op.infer && op.eval && op.emit) << op.name;
    for (DType d : op.dtypes) {
      auto g = exampleGraph(op, d, 1);
      EXPECT_TRUE(bool(g)) << op.name << " " << dtypeName(d) << ": "
                           << (g ? "" : g.error().message());
    }
  }
}

TEST(OpCoverage, EveryOpEmitsTosaForMlir22And19) {
  for (const OpDef &op : allOps())
    for (DType d : op.dtypes) {
      auto g = exampleGraph(op, d, 1);
      ASSERT_TRUE(bool(g)) << op.name;
      auto text = emitModule(*g, 22);
      EXPECT_TRUE(bool(text)) << op.name << " " << dtypeName(d) << ": "
                              << (text ? "" : text.error().message());
      auto old = emitModule(*g, 19);
      if (!old) {
        EXPECT_EQ(old.error().code(), ErrorCode::Unsupported)
            << op.name << ": " << old.error().message();
        std::cout << "MLIR 19: " << op.name << " " << dtypeName(d) << ": "
                  << old.error().message() << "\n";
      }
    }
}

TEST(OpCoverage, EveryOpHasALibTorchLowering) {
  auto ops = torchOps();
  ASSERT_TRUE(bool(ops)) << ops.error().message();
  for (const OpDef &op : allOps())
    EXPECT_NE(std::find(ops->begin(), ops->end(), op.id), ops->end())
        << op.name << " has no LibTorch lowering (backends/torch/Eager.cpp)";
}

TEST(OpCoverage, EveryOpHasAnOnnxExportRule) {
  for (const OpDef &op : allOps()) {
    std::string gap = onnxExportGap(op.id);
    EXPECT_NE(gap, "no export rule")
        << op.name << " has no rule in backends/onnx/Export.cpp";
    if (!gap.empty())
      std::cout << "ONNX export: " << op.name << ": " << gap << "\n";
    // A rule that exports must export the op's example, for some of its
    // sampled attributes (a node may still refuse one: nan_mode IGNORE);
    // an op ONNX cannot express is refused whatever its attributes.
    bool exported = false;
    std::string refusal;
    for (uint64_t seed = 1; seed <= 16; ++seed) {
      auto g = exampleGraph(op, firstDType(op), seed);
      ASSERT_TRUE(bool(g));
      auto model = exportOnnxModel(*g);
      exported |= bool(model);
      if (!model)
        refusal = model.error().message();
    }
    if (gap.empty())
      EXPECT_TRUE(exported) << op.name << ": " << refusal;
    else
      EXPECT_FALSE(exported) << op.name;
  }
}

#ifdef CC_HAVE_SMT
TEST(OpCoverage, EveryOpIsEncodedForTranslationValidation) {
  for (const OpDef &op : allOps()) {
    auto g = exampleGraph(op, firstDType(op), 1);
    ASSERT_TRUE(bool(g));
    auto text = emitModule(*g);
    ASSERT_TRUE(bool(text)) << text.error().message();
    MlirProgram p{g->name, *text, {}, {}};
    for (ValueId v : g->inputs)
      p.args.push_back(g->typeOf(v));
    for (ValueId v : g->outputs)
      p.results.push_back(g->typeOf(v));
    Inputs in = makeInputs(*g, 1);
    auto r = std::move(smt::evaluateProgram(p, {&in}).front());
    EXPECT_TRUE(r || r.error().code() != ErrorCode::Unsupported)
        << op.name
        << " is not encoded (smt/EncodeTosa.cpp): " << r.error().message();
  }
}
#endif

} // namespace
