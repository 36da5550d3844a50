// Root causes: findings grouped by the bug behind them, known bugs matched
// by their patterns, and the CI outputs counting root causes.
#include "reports/RootCause.h"
#include "reports/CiOutputs.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace cc;

namespace {

FindingRecord finding(Kind kind, const std::string &cut,
                      const std::string &stage, const std::string &detail,
                      DType graphType = DType::f32) {
  FindingRecord f;
  f.finding = {Signature{kind, cut, stage, detail}, "message of " + detail};
  Graph &g = f.testCase.graph;
  g.addOutput(g.addInput("x", {graphType, {2}}));
  return f;
}

// A reduced case: one `op` node over `t`, its first failing pass `culprit`.
FindingRecord reducedTo(const FindingRecord &f, const std::string &op, DType t,
                        const std::string &culprit) {
  FindingRecord r = f;
  r.testCase.graph = Graph();
  Graph &g = r.testCase.graph;
  ValueId x = g.addInput("x", {t, {4}});
  auto y = g.add(op, {x});
  EXPECT_TRUE(bool(y)) << op << " on " << dtypeName(t);
  g.addOutput(y ? *y : x);
  r.reduction = Reduction{};
  r.reduction->bisected = true;
  r.reduction->culprit = culprit;
  return r;
}

std::string writeTemp(const std::string &name, const std::string &text) {
  std::string path =
      (std::filesystem::temp_directory_path() / ("cc-" + name)).string();
  std::ofstream(path) << text;
  return path;
}

const char *kKnown = R"({"format": "crosscheck-known-bugs", "bugs": [
  {"name": "i1-memory", "title": "i1 vectors", "upstream": "",
   "status": "open",
   "match": [{"kind": "miscompile", "cut": "O3$", "graph_has": ["i1"]}]},
  {"name": "abs-nan", "title": "NaN from an abs", "upstream": "",
   "status": "open",
   "match": [{"kind": "miscompile", "detail": ":nan-inf$",
              "graph_ops": ["abs"]}]},
  {"name": "pass-crash", "title": "a crash",
   "upstream": "https://example.org/1", "status": "fixed",
   "match": [{"kind": "crash", "stage": "^some-pass$"}]}]})";

} // namespace

TEST(RootCause, KnownBugsMatchByTheirPatterns) {
  auto known = loadKnownBugs(writeTemp("known.json", kKnown));
  ASSERT_TRUE(bool(known)) << known.error().message();
  ASSERT_EQ(known->size(), 3u);
  FindingRecord i1 = finding(Kind::Miscompile, "mlir:tosa-O3", "",
                             "select:bf16:value", DType::i1);
  FindingRecord f32 =
      finding(Kind::Miscompile, "mlir:tosa-O3", "", "select:f32:value");
  FindingRecord o0 = finding(Kind::Miscompile, "mlir:tosa-O0", "",
                             "select:i1:exact", DType::i1);
  ASSERT_NE(matchKnownBug(*known, i1), nullptr);
  EXPECT_EQ(matchKnownBug(*known, i1)->name, "i1-memory");
  EXPECT_EQ(matchKnownBug(*known, f32), nullptr); // no i1 in its graph
  EXPECT_EQ(matchKnownBug(*known, o0), nullptr);  // another compiler
  // A reduced case must still carry i1.
  FindingRecord r = reducedTo(i1, "negate", DType::f32, "x");
  EXPECT_EQ(matchKnownBug(*known, i1, &r), nullptr);
  // An op's NaN shows at the output of whatever consumes it: the match
  // names the op the graph must contain, not the signature's op.
  FindingRecord nan =
      finding(Kind::Miscompile, "mlir:tosa-O0", "", "negate:f32:nan-inf");
  EXPECT_EQ(matchKnownBug(*known, nan), nullptr); // no abs in its graph
  FindingRecord viaAbs = reducedTo(nan, "abs", DType::f32, "x");
  ASSERT_NE(matchKnownBug(*known, nan, &viaAbs), nullptr);
  EXPECT_EQ(matchKnownBug(*known, nan, &viaAbs)->name, "abs-nan");
}

// A program miscompile is named by its culprit and its reduced program:
// the signature (compiler, dtype, kind of difference) cannot tell bugs
// apart.
TEST(RootCause, ProgramFindingsMatchByCulpritAndProgramText) {
  auto known = loadKnownBugs(writeTemp("known-programs.json", R"({
    "format": "crosscheck-known-bugs", "bugs": [
    {"name": "narrowing", "title": "remui narrowed", "upstream": "",
     "status": "open",
     "match": [{"kind": "miscompile", "culprit": "^arith-int-range-narrowing",
                "program": "arith\\.index_cast [^\\n]*to index[\\s\\S]*arith\\.remui "}]}]})"));
  ASSERT_TRUE(bool(known)) << known.error().message();
  FindingRecord f;
  f.finding.signature = {Kind::Miscompile, "mlir:mid-intrange", "",
                         "i32:value"};
  f.testCase.program = MlirProgram{"main",
                                   "%0 = arith.index_cast %x : i32 to index\n"
                                   "%1 = arith.remui %0, %c9 : index\n",
                                   {},
                                   {}};
  // Not bisected yet: no culprit, no match.
  EXPECT_EQ(matchKnownBug(*known, f), nullptr);
  FindingRecord r = f;
  r.reduction.emplace().culprit =
      "arith-int-range-narrowing{int-bitwidths-supported=8,16,32}";
  ASSERT_NE(matchKnownBug(*known, f, &r), nullptr);
  EXPECT_EQ(matchKnownBug(*known, f, &r)->name, "narrowing");
  // The reduced program decides: without the remui it is another bug.
  r.testCase.program->mlir = "%0 = arith.index_cast %x : i32 to index\n"
                             "%1 = arith.shrsi %0, %c9 : index\n";
  EXPECT_EQ(matchKnownBug(*known, f, &r), nullptr);
  r.reduction.emplace().culprit = "canonicalize";
  r.testCase.program = f.testCase.program;
  EXPECT_EQ(matchKnownBug(*known, f, &r), nullptr);
}

TEST(RootCause, MalformedKnownBugsAreClearErrors) {
  for (auto [text, why] :
       {std::pair{"{}", "not a crosscheck-known-bugs file"},
        {R"({"format": "crosscheck-known-bugs", "bugs": [{"name": "a"}]})",
         "\"match\" array"},
        {R"({"format": "crosscheck-known-bugs", "bugs": [{"name": "a",
            "match": [{"detail": "("}]}]})",
         "not a valid regex"},
        {R"({"format": "crosscheck-known-bugs", "bugs": [{"name": "a",
            "match": [{"kind": "bug"}]}]})",
         "unknown kind"},
        {R"({"format": "crosscheck-known-bugs", "bugs": [{"name": "a",
            "match": [{"op": "add"}]}]})",
         "unknown match field 'op'"},
        {R"({"format": "crosscheck-known-bugs", "bugs": [{"name": "a",
            "match": [{"graph_ops": ["addd"]}]}]})",
         "unknown op \"addd\""}}) {
    auto k = loadKnownBugs(writeTemp("bad.json", text));
    ASSERT_FALSE(bool(k)) << text;
    EXPECT_NE(k.error().message().find(why), std::string::npos)
        << k.error().message();
  }
  EXPECT_FALSE(bool(loadKnownBugs("/nonexistent/known.json")));
}

// A stored program is anyone's text: a regex over 4 MiB of it matches in
// linear time and constant stack (std::regex recursed per character and
// overflowed the stack here).
TEST(RootCause, KnownBugRegexesScanHugeProgramsInLinearTime) {
  auto known = loadKnownBugs(writeTemp("known-huge.json", R"({
    "format": "crosscheck-known-bugs", "bugs": [
    {"name": "big", "match": [{"program": "(a|b)*c"}]}]})"));
  ASSERT_TRUE(bool(known)) << known.error().message();
  FindingRecord f;
  f.finding.signature = {Kind::Miscompile, "mlir:mid-O1", "", "i32:value"};
  f.testCase.program = MlirProgram{"main", std::string(4 << 20, 'a'), {}, {}};
  EXPECT_EQ(matchKnownBug(*known, f), nullptr);
  f.testCase.program->mlir += "c";
  ASSERT_NE(matchKnownBug(*known, f), nullptr);
  // Backreferences would need backtracking: refused when the file is read.
  auto back = loadKnownBugs(writeTemp("known-back.json", R"({
    "format": "crosscheck-known-bugs", "bugs": [
    {"name": "b", "match": [{"detail": "(a)\\1"}]}]})"));
  ASSERT_FALSE(bool(back));
  EXPECT_NE(back.error().message().find("not a valid regex"),
            std::string::npos);
}

TEST(RootCause, OneCrashOnTwoCompilersIsOneRootCause) {
  FindingRecord a = finding(Kind::Crash, "mlir:tosa-O0", "a-pass", "signal 11");
  FindingRecord b = finding(Kind::Crash, "mlir:tosa-O3", "a-pass", "signal 11");
  FindingRecord c = finding(Kind::Crash, "mlir:tosa-O3", "b-pass", "signal 11");
  auto roots = groupRootCauses({{&a}, {&b}, {&c}}, {});
  ASSERT_EQ(roots.size(), 2u);
  EXPECT_EQ(roots[0].members, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(roots[0].culprit, "a-pass");
  // The outer frames of a stack vary with how the pass ran; the signal and
  // the innermost two frames name the crash.
  std::string at = "signal 11 (Segmentation fault) at walk < promote";
  FindingRecord d =
      finding(Kind::Crash, "mlir:tosa-O3", "a-pass", at + " < run");
  FindingRecord e =
      finding(Kind::Crash, "mlir:tosa-O0", "a-pass", at + " < act");
  FindingRecord g = finding(Kind::Crash, "mlir:tosa-O0", "a-pass",
                            "signal 11 (Segmentation fault) at walk < other");
  EXPECT_EQ(groupRootCauses({{&d}, {&e}, {&g}}, {}).size(), 2u);
}

TEST(RootCause, ReducedMiscompilesGroupByCulpritAndForm) {
  FindingRecord a =
      finding(Kind::Miscompile, "mlir:tosa-O3", "", "add:f32:value");
  FindingRecord b =
      finding(Kind::Miscompile, "mlir:tosa-O0", "", "mul:f32:value");
  FindingRecord c =
      finding(Kind::Miscompile, "mlir:tosa-O3", "", "sub:f32:value");
  FindingRecord d =
      finding(Kind::Miscompile, "mlir:tosa-O3", "", "abs:f32:value");
  // a and b reduce to the same form with the same culprit: one bug. c has
  // the same form but another culprit, d another form.
  FindingRecord ra = reducedTo(a, "negate", DType::i8, "canonicalize");
  FindingRecord rb = reducedTo(b, "negate", DType::i8, "canonicalize");
  FindingRecord rc = reducedTo(c, "negate", DType::i8, "tosa-to-linalg");
  FindingRecord rd = reducedTo(d, "negate", DType::i16, "canonicalize");
  auto roots =
      groupRootCauses({{&a, &ra}, {&b, &rb}, {&c, &rc}, {&d, &rd}}, {});
  ASSERT_EQ(roots.size(), 3u);
  EXPECT_EQ(roots[0].members, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(roots[0].culprit, "canonicalize");
  // Unreduced, each op x dtype is its own row.
  EXPECT_EQ(groupRootCauses({{&a}, {&b}}, {}).size(), 2u);
}

TEST(RootCause, ABackEndFailureIsOneRootCauseWhereverItShows) {
  FindingRecord a =
      finding(Kind::Miscompile, "mlir:tosa-O3", "", "cast:i8:exact");
  FindingRecord b =
      finding(Kind::Miscompile, "mlir:pipeline-O3=X", "", "cast:i8:exact");
  // A triage bisects the whole pipeline, a full reduction the smallest one:
  // the same back-end bug shows after different passes.
  FindingRecord ra =
      reducedTo(a, "negate", DType::i8,
                "LLVM back end at -O3 (shows after lower-affine)");
  FindingRecord rb =
      reducedTo(b, "negate", DType::i8,
                "LLVM back end at -O3 (shows after convert-to-llvm)");
  EXPECT_EQ(groupRootCauses({{&a, &ra}, {&b, &rb}}, {}).size(), 1u);
  // The same form with the pass itself to blame is another root cause.
  FindingRecord rc = reducedTo(b, "negate", DType::i8, "lower-affine");
  EXPECT_EQ(groupRootCauses({{&a, &ra}, {&b, &rc}}, {}).size(), 2u);
}

TEST(RootCause, CiOutputsCountRootCauses) {
  auto known = loadKnownBugs(writeTemp("known2.json", kKnown));
  ASSERT_TRUE(bool(known));
  CiRun run{"crosscheck fuzz", 10, 1.0, {}, {}};
  for (const char *d : {"select:i1:exact", "concat:i1:exact"})
    run.findings.push_back(
        {finding(Kind::Miscompile, "mlir:tosa-O3", "", d, DType::i1), 2, false,
         "f.json", "", -1, std::nullopt});
  run.findings.push_back(
      {finding(Kind::Crash, "mlir:tosa-O3", "other-pass", "signal 6"), 1, false,
       "g.json", "", -1, std::nullopt});
  groupFindings(run, *known);
  ASSERT_EQ(run.rootCauses.size(), 2u);
  EXPECT_TRUE(run.rootCauses[0].known);
  EXPECT_FALSE(run.rootCauses[1].known);
  EXPECT_TRUE(run.findings[0].known && run.findings[1].known);
  std::string junit = junitXml(run);
  EXPECT_NE(junit.find("tests=\"3\" failures=\"1\""), std::string::npos)
      << junit;
  EXPECT_NE(junit.find("known bug i1-memory"), std::string::npos);
  auto sarif = nlohmann::json::parse(sarifJson(run));
  ASSERT_EQ(sarif["runs"][0]["results"].size(), 2u);
  EXPECT_EQ(sarif["runs"][0]["results"][0]["properties"]["signatures"].size(),
            2u);
  auto list = nlohmann::json::parse(findingsJson(run));
  EXPECT_EQ(list["findings"].size(), 3u);
  EXPECT_EQ(list["root_causes"].size(), 2u);
}

// The shipped list: it loads, and every bug has its reproducer under
// corpus/regressions/ (whose tests say when upstream fixes it).
TEST(RootCause, TheShippedKnownBugsHaveTheirReproducers) {
  std::string root = CC_SOURCE_DIR;
  auto known = loadKnownBugs(root + "/corpus/known/mlir-22.json");
  ASSERT_TRUE(bool(known)) << known.error().message();
  EXPECT_GE(known->size(), 10u);
  for (const KnownBug &b : *known) {
    EXPECT_TRUE(
        std::filesystem::is_directory(root + "/corpus/regressions/" + b.name))
        << b.name;
    EXPECT_FALSE(b.title.empty() || b.status.empty() || b.matches.empty())
        << b.name;
    EXPECT_TRUE(b.upstream.empty() || b.upstream.starts_with("https://"))
        << b.name;
  }
}
