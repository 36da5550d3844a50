// The tv front end on mutated inputs: every pair of mlir-tv's suite,
// mutated (ops swapped, types changed, operands permuted), gives a verdict
// or one clear error, never a crash. Each check runs in a forked child so
// that a crash names its mutant.
#include "core/Rng.h"
#include "process/Process.h"
#include "smt/Validate.h"
#include "tests/unit/smt/Limits.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

namespace cc::smt {
namespace {

const std::string kPeerDir =
    std::string(CC_SOURCE_DIR) + "/tests/lit/Inputs/tv/mlir-tv-opts/";

std::string slurp(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Replacements that keep most of the text parseable but change its
// meaning or typing: op for op, type for type.
const std::vector<std::pair<std::string, std::string>> kSwaps = {
    {"arith.addi", "arith.subi"},
    {"arith.addf", "arith.mulf"},
    {"arith.maximumf", "arith.minimumf"},
    {"arith.muli", "arith.divsi"},
    {"arith.andi", "arith.shli"},
    {"arith.select", "arith.addi"},
    {"linalg.matmul", "linalg.batch_matmul"},
    {"memref.load", "memref.store"},
    {"tensor.extract", "tensor.insert"},
    {"f32", "f16"},
    {"i32", "i8"},
    {"i32", "index"},
    {"f32", "i32"},
    {"tensor<", "memref<"},
    {"memref<", "tensor<"},
    {"index", "i64"},
    {"?", "2"},
    {"2", "?"},
    {"parallel", "reduction"},
    {"d0", "d1"}};

std::string swapOne(Rng &rng, std::string t) {
  auto [a, b] = rng.pick(kSwaps);
  if (rng.chance(0.5))
    std::swap(a, b);
  std::vector<size_t> at;
  for (size_t p = t.find(a); p != std::string::npos; p = t.find(a, p + 1))
    at.push_back(p);
  if (!at.empty())
    t.replace(rng.pick(at), a.size(), b);
  return t;
}

// Exchanges two SSA operands on one line (after its `=`).
std::string permuteOperands(Rng &rng, std::string t) {
  std::vector<std::string> lines;
  std::stringstream ss(t);
  for (std::string l; std::getline(ss, l);)
    lines.push_back(l);
  static const std::regex kName("%[A-Za-z0-9_]+");
  std::vector<size_t> cand;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string rhs = lines[i].substr(lines[i].find('=') + 1);
    if (std::distance(std::sregex_iterator(rhs.begin(), rhs.end(), kName),
                      std::sregex_iterator()) >= 2)
      cand.push_back(i);
  }
  if (cand.empty())
    return t;
  std::string &l = lines[rng.pick(cand)];
  size_t eq = l.find('=') == std::string::npos ? 0 : l.find('=') + 1;
  std::string rhs = l.substr(eq);
  std::vector<std::string> names;
  for (auto it = std::sregex_iterator(rhs.begin(), rhs.end(), kName);
       it != std::sregex_iterator(); ++it)
    names.push_back(it->str());
  std::string a = rng.pick(names), b = rng.pick(names);
  std::string out;
  for (auto it = std::sregex_iterator(rhs.begin(), rhs.end(), kName);
       it != std::sregex_iterator(); ++it) {
    out += it->prefix().str();
    out += it->str() == a ? b : it->str() == b ? a : it->str();
    rhs = it->suffix().str();
  }
  l = l.substr(0, eq) + out + rhs;
  std::string r;
  for (const std::string &x : lines)
    r += x + "\n";
  return r;
}

std::string mutate(Rng &rng, std::string t) {
  for (int64_t k = rng.uniformInt(1, 3); k > 0; --k)
    t = rng.chance(0.6) ? swapOne(rng, t) : permuteOperands(rng, t);
  return t;
}

// How a check in a child ended: "ok" (a verdict or an error) or the
// signal that killed it.
std::string checkInChild(const std::string &src, const std::string &tgt) {
  auto check = [&](int) {
    TvOptions o = deterministicOptions();
    o.rlimit = 200'000;
    o.confirm = false; // the replay runs in a child of its own anyway
    (void)checkRefinement(src, tgt, o);
    return 0;
  };
  process::ChildOptions co;
  co.keepStderr = true;
  co.limits = RunLimits::timeOnly(1e9); // the solver's rlimit bounds it
  auto r = process::runChild(check, co);
  if (!r)
    return r.error().message();
  if (r->signal)
    return "signal " + std::to_string(r->signal);
  return r->exitCode == 0 ? "ok" : "exit " + std::to_string(r->exitCode);
}

TEST(TvFuzz, MutatedPeerPairsGiveAVerdictOrAnError) {
  std::ifstream tsv(kPeerDir + "expected.tsv");
  std::vector<std::string> pairs;
  for (std::string line; std::getline(tsv, line);)
    pairs.push_back(line.substr(0, line.find('\t')));
  ASSERT_EQ(pairs.size(), 48u);
  int checked = 0;
  for (size_t p = 0; p < pairs.size(); ++p) {
    std::string src = slurp(kPeerDir + pairs[p] + ".src.mlir");
    std::string tgt = slurp(kPeerDir + pairs[p] + ".tgt.mlir");
    for (uint64_t m = 0; m < 2; ++m) {
      Rng rng = Rng::forStream(2026, p * 2 + m);
      std::string s = src, t = tgt;
      int64_t side = rng.uniformInt(0, 2);
      if (side != 1)
        s = mutate(rng, s);
      if (side != 0)
        t = mutate(rng, t);
      std::string end = checkInChild(s, t);
      EXPECT_EQ(end, "ok") << pairs[p] << " mutant " << m << "\n--- source\n"
                           << s << "\n--- target\n"
                           << t;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 96);
}

// The crash this test was written for: arith.select of two buffers.
TEST(TvFuzz, SelectOfMemrefsIsUnsupportedNotACrash) {
  const char *src = R"(
func.func @f(%c: i1, %a: memref<4xf32>, %b: memref<4xf32>) -> f32 {
  %m = arith.select %c, %a, %b : memref<4xf32>
  %i = arith.constant 0 : index
  %v = memref.load %m[%i] : memref<4xf32>
  return %v : f32
})";
  std::string tgt = src;
  tgt.replace(tgt.find("%a, %b :"), 8, "%b, %a :");
  auto r = checkRefinement(src, tgt, deterministicOptions());
  ASSERT_TRUE(r) << r.error().message();
  EXPECT_EQ((*r)[0].verdict, TvVerdict::Unknown);
  EXPECT_NE((*r)[0].reason.find("'arith.select' on memref values"),
            std::string::npos)
      << (*r)[0].reason;
}

} // namespace
} // namespace cc::smt
