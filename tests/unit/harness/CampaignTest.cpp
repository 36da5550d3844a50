// The campaign harness: dedup, shards and merge, SIGKILL + resume, dying
// workers, baselines, blame across compilers, and failing external
// compilers. Most tests use an in-process fake compiler (the reference in
// target precision, deliberately wrong on graphs with a chosen op) so that
// they exercise the harness, not the JIT.
#include "backends/ref/Interpreter.h"
#include "core/File.h"
#include "core/Json.h"
#include "harness/CaseStream.h"
#include "harness/Store.h"
#include "process/Process.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <linux/fs.h>
#include <map>
#include <set>
#include <sqlite3.h>
#include <sys/ioctl.h>
#include <thread>
#include <unistd.h>

namespace cc {
namespace {

namespace fs = std::filesystem;

// The reference in target precision (what a faithful compiler computes),
// except on graphs that contain `brokenOp`: then its first float output is
// off by one (a planted miscompile). On graphs with `crashOp` it crashes
// the process it runs in.
class FakeCompiler : public Backend {
public:
  FakeCompiler(std::string name, std::string brokenOp, std::string crashOp = "",
               double delaySeconds = 0)
      : id(std::move(name)), broken(std::move(brokenOp)),
        crash(std::move(crashOp)), delay(delaySeconds) {}
  std::string name() const override { return id; }
  Support supports(const Graph &) const override { return Support::yes(); }
  Expected<Outputs> run(const Graph &g, const Inputs &inputs,
                        const RunOptions &) override {
    if (delay > 0)
      std::this_thread::sleep_for(std::chrono::duration<double>(delay));
    CC_ASSIGN(out, interpret(g, inputs, Precision::Target));
    if (has(g, crash))
      raise(SIGSEGV);
    if (has(g, broken))
      for (Tensor &t : out)
        if (isFloat(t.dtype()) && t.size() > 0) {
          t.setF(0, t.getF(0) + 1.0);
          break;
        }
    return out;
  }
  static bool has(const Graph &g, const std::string &op) {
    for (const Node &n : g.nodes)
      if (opName(n.op) == op)
        return true;
    return false;
  }

private:
  std::string id, broken, crash;
  double delay;
};

std::string tempDir(const std::string &name) {
  std::string dir = (fs::temp_directory_path() /
                     ("cc-harness-" + name + "-" + std::to_string(getpid())))
                        .string();
  fs::remove_all(dir);
  return dir;
}

CampaignOptions fakeCampaign(const std::string &dir,
                             const std::string &brokenOp, uint64_t cases) {
  CampaignOptions o;
  o.cutBackends = {std::make_shared<FakeCompiler>("fake", brokenOp)};
  o.outDir = dir;
  o.maxCases = cases;
  // Never the limit, however loaded the machine: maxCases ends a campaign,
  // and nothing here hangs.
  o.timeBudgetSeconds = 1e9;
  o.caseLimits.timeoutSeconds = 3600;
  o.jobs = 2;
  o.seed = 11;
  o.gen.minOps = 3;
  o.gen.maxOps = 8;
  // Few op kinds: the same bug shows under the same signature again.
  o.gen.include = {"add", "mul", "sub", "abs", "negate"};
  o.gen.dtypes = {DType::f32};
  return o;
}

// SELECTs one integer.
int64_t queryInt(const std::string &dir, const std::string &sql) {
  sqlite3 *db = nullptr;
  EXPECT_EQ(sqlite3_open_v2(Store::dbPath(dir).c_str(), &db,
                            SQLITE_OPEN_READONLY, nullptr),
            SQLITE_OK);
  sqlite3_stmt *st = nullptr;
  int64_t v = -1;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW)
    v = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  sqlite3_close(db);
  return v;
}

std::vector<uint64_t> recordedIndices(const std::string &dir) {
  auto store = Store::open(Store::dbPath(dir));
  EXPECT_TRUE(bool(store)) << (store ? "" : store.error().message());
  auto done = (*store)->recordedCases();
  std::vector<uint64_t> v(done->begin(), done->end());
  std::sort(v.begin(), v.end());
  return v;
}

std::map<std::string, uint64_t> counts(const std::string &dir) {
  auto store = Store::open(Store::dbPath(dir));
  std::map<std::string, uint64_t> m;
  auto sigs = (*store)->signatures();
  for (const SignatureSummary &s : *sigs)
    m[s.signature.str()] = s.count;
  return m;
}

std::vector<Store::Stored> storedFindings(const std::string &dir) {
  auto store = Store::open(Store::dbPath(dir));
  EXPECT_TRUE(bool(store)) << (store ? "" : store.error().message());
  auto all = (*store)->findings();
  EXPECT_TRUE(bool(all)) << (all ? "" : all.error().message());
  return *all;
}

// Every signature's count is the number of distinct cases linked to it.
void expectCountsMatchLinks(const std::string &dir) {
  EXPECT_EQ(queryInt(dir, "SELECT COUNT(*) FROM findings f WHERE f.count != "
                          "(SELECT COUNT(*) FROM case_findings c WHERE "
                          "c.finding_id = f.id)"),
            0);
}

std::vector<uint64_t> iota(uint64_t n) {
  std::vector<uint64_t> v(n);
  for (uint64_t i = 0; i < n; ++i)
    v[i] = i;
  return v;
}

TEST(Campaign, IdenticalSignaturesMergeAndEveryCaseIsRecordedOnce) {
  std::string dir = tempDir("dedup");
  CampaignOptions o = fakeCampaign(dir, "add", 30);
  auto s = runCampaign(o);
  ASSERT_TRUE(bool(s)) << s.error().message();
  EXPECT_EQ(s->cases, 30u);
  EXPECT_EQ(recordedIndices(dir), iota(30));
  // Only cases with an add have findings; every finding case is counted
  // once, under one signature or another.
  auto stream = CaseStream::make(o);
  int64_t findingCases =
      queryInt(dir, "SELECT COUNT(*) FROM cases WHERE status = 'finding'");
  ASSERT_GT(findingCases, 1);
  for (uint64_t i = 0; i < 30; ++i)
    if (queryInt(dir, "SELECT COUNT(*) FROM cases WHERE status = 'finding' "
                      "AND idx = " +
                          std::to_string(i))) {
      EXPECT_TRUE(FakeCompiler::has(stream->at(i)->graph, "add")) << i;
    }
  uint64_t total = 0;
  for (const SignatureSummary &sig : s->signatures) {
    EXPECT_EQ(sig.signature.kind, Kind::Miscompile);
    EXPECT_EQ(sig.signature.backend, "fake");
    total += sig.count;
  }
  EXPECT_EQ(total, uint64_t(findingCases));
  // Fewer signatures than findings: occurrences merged.
  EXPECT_LT(s->signatures.size(), size_t(findingCases));
  expectCountsMatchLinks(dir);
  // CI outputs and one reproducer per signature.
  for (const char *f :
       {"junit.xml", "findings.sarif", "findings.json", "summary.txt"})
    EXPECT_TRUE(fs::exists(dir + "/" + f)) << f;
  size_t files = 0;
  for (const auto &e : fs::directory_iterator(dir + "/findings")) {
    auto f = loadFinding(e.path().string());
    ASSERT_TRUE(bool(f)) << f.error().message();
    EXPECT_EQ(f->testCase.cut, "fake");
    EXPECT_TRUE(FakeCompiler::has(f->testCase.graph, "add"));
    ++files;
  }
  EXPECT_EQ(files, s->signatures.size());
  fs::remove_all(dir);
}

TEST(Campaign, ShardsCoverTheStreamExactlyOnceAndMergeAddsCounts) {
  std::vector<std::string> dirs;
  std::map<std::string, uint64_t> summed;
  std::vector<uint64_t> all;
  for (uint32_t i = 0; i < 3; ++i) {
    dirs.push_back(tempDir("shard" + std::to_string(i)));
    CampaignOptions o = fakeCampaign(dirs.back(), "add", 24);
    o.shardIndex = i;
    o.shardCount = 3;
    auto s = runCampaign(o);
    ASSERT_TRUE(bool(s)) << s.error().message();
    EXPECT_EQ(s->cases, 8u);
    for (uint64_t idx : recordedIndices(dirs.back())) {
      EXPECT_EQ(idx / o.inputSets % 3, i); // shards split the graphs
      all.push_back(idx);
    }
    for (const auto &[sig, n] : counts(dirs.back()))
      summed[sig] += n;
  }
  std::sort(all.begin(), all.end());
  EXPECT_EQ(all, iota(24));
  std::string merged = tempDir("merged");
  auto m = mergeCampaigns(dirs, merged);
  ASSERT_TRUE(bool(m)) << m.error().message();
  EXPECT_EQ(m->totalCases, 24u);
  EXPECT_EQ(recordedIndices(merged), iota(24));
  EXPECT_EQ(counts(merged), summed);
  expectCountsMatchLinks(merged);
  // Merging a shard twice adds nothing.
  std::string twice = tempDir("twice");
  auto t = mergeCampaigns({dirs[0], dirs[0], dirs[1], dirs[2]}, twice);
  ASSERT_TRUE(bool(t)) << t.error().message();
  EXPECT_EQ(counts(twice), summed);
  // A different campaign does not merge.
  std::string other = tempDir("other");
  CampaignOptions o = fakeCampaign(other, "add", 3);
  o.seed = 99;
  ASSERT_TRUE(bool(runCampaign(o)));
  std::string bad = tempDir("bad");
  auto b = mergeCampaigns({dirs[0], other}, bad);
  ASSERT_FALSE(bool(b));
  EXPECT_NE(b.error().message().find("different campaign"), std::string::npos);
  for (const std::string &d : dirs)
    fs::remove_all(d);
  for (const std::string &d : {merged, twice, other, bad})
    fs::remove_all(d);
}

TEST(Campaign, SigkillThenResumeLosesNothingAndCountsNothingTwice) {
  std::string dir = tempDir("resume");
  auto options = [&] {
    CampaignOptions o = fakeCampaign(dir, "add", 0);
    // Slow enough that the kill lands while cases are in flight.
    o.cutBackends = {std::make_shared<FakeCompiler>("fake", "add", "", 0.02)};
    return o;
  };
  auto child = process::Background::start([&] {
    CampaignOptions o = options();
    o.maxCases = 100000;
    return runCampaign(o) ? 0 : 3;
  });
  ASSERT_TRUE(bool(child)) << child.error().message();
  // Kill it once it has recorded some cases and some findings, however
  // long that takes (no deadline: a loaded machine is only slower).
  while (!(fs::exists(Store::dbPath(dir)) &&
           queryInt(dir, "SELECT COUNT(*) FROM cases") >= 15 &&
           queryInt(dir, "SELECT COUNT(*) FROM findings") >= 1)) {
    ASSERT_TRUE(child->running()) << "the campaign ended";
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  child->kill(SIGKILL);
  ASSERT_EQ(child->wait(), 128 + SIGKILL);
  std::vector<uint64_t> before = recordedIndices(dir);
  std::map<std::string, uint64_t> countsBefore = counts(dir);
  ASSERT_GE(before.size(), 15u);
  ASSERT_FALSE(countsBefore.empty());
  expectCountsMatchLinks(dir);

  CampaignOptions o = options();
  uint64_t upTo = before.back() + 10;
  o.maxCases = upTo;
  o.resume = true;
  auto s = runCampaign(o);
  ASSERT_TRUE(bool(s)) << s.error().message();
  // Only the cases not recorded before ran.
  EXPECT_EQ(s->cases, upTo - before.size());
  EXPECT_EQ(recordedIndices(dir), iota(upTo));
  expectCountsMatchLinks(dir);
  for (const auto &[sig, n] : countsBefore)
    EXPECT_GE(counts(dir)[sig], n) << sig;
  // Every case with a finding is counted exactly once across both runs.
  uint64_t total = 0;
  for (const auto &[sig, n] : counts(dir))
    total += n;
  EXPECT_EQ(
      int64_t(total),
      queryInt(dir, "SELECT COUNT(*) FROM cases WHERE status = 'finding'"));

  // Resuming with other flags is refused; so is a fresh run in the dir.
  CampaignOptions other = options();
  other.resume = true;
  other.seed = 12;
  auto r = runCampaign(other);
  ASSERT_FALSE(bool(r));
  EXPECT_NE(r.error().message().find("same flags"), std::string::npos);
  auto fresh = runCampaign(options());
  ASSERT_FALSE(bool(fresh));
  EXPECT_NE(fresh.error().message().find("--resume"), std::string::npos);
  fs::remove_all(dir);
}

TEST(Campaign, AWorkerThatDiesIsRecordedAndReplaced) {
  std::string dir = tempDir("crash");
  CampaignOptions o = fakeCampaign(dir, "", 16);
  o.cutBackends = {std::make_shared<FakeCompiler>("fake", "", "mul")};
  auto s = runCampaign(o);
  ASSERT_TRUE(bool(s)) << s.error().message();
  EXPECT_EQ(recordedIndices(dir), iota(16));
  auto stream = CaseStream::make(o);
  uint64_t withMul = 0;
  for (uint64_t i = 0; i < 16; ++i)
    withMul += FakeCompiler::has(stream->at(i)->graph, "mul");
  ASSERT_GT(withMul, 0u);
  ASSERT_LT(withMul, 16u); // cases after a crash still ran
  ASSERT_EQ(s->signatures.size(), 1u);
  const SignatureSummary &sig = s->signatures[0];
  EXPECT_EQ(sig.signature.kind, Kind::Crash);
  EXPECT_EQ(sig.signature.backend, "crosscheck-worker");
  EXPECT_NE(sig.signature.detail.find("signal 11"), std::string::npos);
  EXPECT_EQ(sig.count, withMul);
  fs::remove_all(dir);
}

TEST(Campaign, InputSetsShareAGraphAndAWorkerFailureNamesEachCase) {
  std::string dir = tempDir("sets");
  CampaignOptions o = fakeCampaign(dir, "", 16);
  o.inputSets = 4;
  o.cutBackends = {std::make_shared<FakeCompiler>("fake", "", "mul")};
  auto stream = CaseStream::make(o);
  CampaignOptions one = o;
  one.inputSets = 1;
  auto single = CaseStream::make(one);
  uint64_t withMul = 0;
  for (uint64_t g = 0; g < 4; ++g) {
    auto first = stream->at(4 * g);
    // Input set 0 of graph g is case g of a stream of one set per graph.
    EXPECT_EQ(first->inputs, single->at(g)->inputs);
    for (uint64_t k = 1; k < 4; ++k) {
      auto c = stream->at(4 * g + k);
      EXPECT_EQ(graphToJson(c->graph), graphToJson(first->graph));
      EXPECT_NE(c->inputs, first->inputs) << "case " << 4 * g + k;
    }
    withMul += 4 * FakeCompiler::has(first->graph, "mul");
  }
  ASSERT_GT(withMul, 0u);
  ASSERT_LT(withMul, 16u);
  EXPECT_NE(stream->identity(), single->identity());

  auto s = runCampaign(o);
  ASSERT_TRUE(bool(s)) << s.error().message();
  EXPECT_EQ(s->cases, 16u);
  EXPECT_EQ(s->graphs, 4u);
  EXPECT_EQ(recordedIndices(dir), iota(16));
  // The worker died on each graph with mul: every one of its cases, run
  // again alone, is recorded with the crash.
  ASSERT_EQ(s->signatures.size(), 1u);
  EXPECT_EQ(s->signatures[0].signature.backend, "crosscheck-worker");
  EXPECT_EQ(s->signatures[0].count, withMul);
  fs::remove_all(dir);
}

TEST(Campaign, BaselineMarksKnownFindings) {
  std::string first = tempDir("base1"), second = tempDir("base2"),
              third = tempDir("base3");
  auto a = runCampaign(fakeCampaign(first, "add", 12));
  ASSERT_TRUE(bool(a)) << a.error().message();
  ASSERT_GT(a->newSignatures(), 0u);
  for (const std::string &baseline : {first, first + "/findings.json"}) {
    fs::remove_all(second);
    CampaignOptions o = fakeCampaign(second, "add", 12);
    o.baseline = baseline;
    auto b = runCampaign(o);
    ASSERT_TRUE(bool(b)) << b.error().message();
    EXPECT_EQ(b->signatures.size(), a->signatures.size());
    EXPECT_EQ(b->newSignatures(), 0u) << baseline;
  }
  // A different compiler's bugs are new against the same baseline.
  CampaignOptions o = fakeCampaign(third, "add", 12);
  o.cutBackends = {std::make_shared<FakeCompiler>("other", "add")};
  o.baseline = first;
  auto c = runCampaign(o);
  ASSERT_TRUE(bool(c)) << c.error().message();
  EXPECT_GT(c->newSignatures(), 0u);
  for (const std::string &d : {first, second, third})
    fs::remove_all(d);
}

TEST(Campaign, TheOtherCompilersSettleWhichSideIsWrong) {
  std::string dir = tempDir("blame");
  CampaignOptions o = fakeCampaign(dir, "add", 10);
  o.cutBackends = {std::make_shared<FakeCompiler>("wrong", "add"),
                   std::make_shared<FakeCompiler>("right", "")};
  auto s = runCampaign(o);
  ASSERT_TRUE(bool(s)) << s.error().message();
  ASSERT_FALSE(s->signatures.empty());
  for (auto &[record, sig, reduced] : storedFindings(dir)) {
    EXPECT_EQ(sig.signature.backend, "wrong");
    EXPECT_EQ(record.evidence["blame"]["agree_with_reference"],
              nlohmann::json::array({"right"}));
    EXPECT_NE(record.finding.message.find(
                  "right agrees with the reference: the fault is in wrong"),
              std::string::npos)
        << record.finding.message;
  }
  fs::remove_all(dir);
  // Two compilers wrong in the same way: a shared lowering step.
  o.outDir = dir;
  o.cutBackends = {std::make_shared<FakeCompiler>("a", "add"),
                   std::make_shared<FakeCompiler>("b", "add")};
  auto t = runCampaign(o);
  ASSERT_TRUE(bool(t)) << t.error().message();
  std::vector<Store::Stored> findings = storedFindings(dir);
  ASSERT_FALSE(findings.empty());
  for (auto &[record, sig, reduced] : findings)
    EXPECT_NE(record.finding.message.find("a lowering step they share"),
              std::string::npos)
        << record.finding.message;
  fs::remove_all(dir);
}

// A second reference that disagrees with the interpreter is a bug in one of
// the references, never blamed on the compiler; the compilers vote.
TEST(Campaign, DisagreeingReferencesAreReferenceDisagreements) {
  std::string dir = tempDir("refs");
  CampaignOptions o = fakeCampaign(dir, "", 10);
  o.refBackends = {std::make_shared<FakeCompiler>("second-ref", "add")};
  auto s = runCampaign(o);
  ASSERT_TRUE(bool(s)) << s.error().message();
  ASSERT_FALSE(s->signatures.empty());
  for (auto &[record, sig, reduced] : storedFindings(dir)) {
    EXPECT_EQ(sig.signature.kind, Kind::RefDisagreement);
    EXPECT_EQ(sig.signature.backend, "ref~second-ref");
    EXPECT_NE(record.finding.message.find(
                  "the compilers under test side with our interpreter: "
                  "second-ref is likely wrong"),
              std::string::npos)
        << record.finding.message;
  }
  fs::remove_all(dir);
}

// External compilers that segfault, hang and allocate without bound: each
// is caught and recorded while the campaign goes on. No outcome depends on
// the machine's speed: the crash and the allocation (past the limit in one
// request) fail at once and have all the time they want; the hang never
// ends and is given little.
TEST(Campaign, FailingExternalCompilersAreFindingsAndTheCampaignGoesOn) {
  std::string dir = tempDir("ext");
  auto campaign = [&](std::vector<std::string> cuts, double timeout) {
    fs::remove_all(dir);
    CampaignOptions o;
    o.cuts = std::move(cuts);
    o.outDir = dir;
    o.maxCases = 3;
    o.timeBudgetSeconds = 1e9;
    o.jobs = 2;
    o.caseLimits = {timeout, uint64_t(512) << 20};
    o.gen.minOps = 2;
    o.gen.maxOps = 4;
    auto s = runCampaign(o);
    EXPECT_TRUE(bool(s)) << s.error().message();
    EXPECT_EQ(recordedIndices(dir), iota(3));
    std::map<std::string, SignatureSummary> byBackend;
    for (const SignatureSummary &sig :
         s ? s->signatures : std::vector<SignatureSummary>{}) {
      EXPECT_EQ(sig.count, 3u) << sig.signature.str();
      byBackend[sig.signature.backend] = sig;
    }
    return byBackend;
  };
  std::string segv = "mlir-ext:kill -SEGV $$",
              oom = "mlir-ext:python3 -c 'bytearray(1 << 40)'";
  auto failing = campaign({segv, oom}, 3600);
  ASSERT_EQ(failing.size(), 2u);
  EXPECT_EQ(failing[segv].signature.kind, Kind::Crash);
  EXPECT_NE(failing[segv].signature.detail.find("signal 11"),
            std::string::npos);
  EXPECT_EQ(failing[oom].signature.kind, Kind::Crash);
  EXPECT_EQ(failing[oom].signature.detail, "out of memory");

  std::string hang = "mlir-ext:sleep 100000";
  auto hung = campaign({hang}, 1);
  ASSERT_EQ(hung.size(), 1u);
  EXPECT_EQ(hung[hang].signature.kind, Kind::Timeout);
  fs::remove_all(dir);
}

// The fake compiler, except that each run first announces itself (creates
// `started`) and waits until `release` exists: the test acts while the
// campaign is certainly running, whatever the machine's speed.
class BlockingCompiler : public FakeCompiler {
public:
  BlockingCompiler(std::string started, std::string release)
      : FakeCompiler("blocking", "add"), started(std::move(started)),
        release(std::move(release)) {}
  Expected<Outputs> run(const Graph &g, const Inputs &inputs,
                        const RunOptions &options) override {
    std::ofstream(started).flush();
    while (!fs::exists(release))
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return FakeCompiler::run(g, inputs, options);
  }

private:
  std::string started, release;
};

TEST(Campaign, ASecondWriterOfARunningCampaignIsRefused) {
  std::string dir = tempDir("locked");
  std::string started = dir + ".started", release = dir + ".release";
  fs::remove(started);
  fs::remove(release);
  auto options = [&] {
    CampaignOptions o = fakeCampaign(dir, "add", 6);
    o.cutBackends = {std::make_shared<BlockingCompiler>(started, release)};
    return o;
  };
  auto child = process::Background::start(
      [&] { return runCampaign(options()) ? 0 : 3; });
  ASSERT_TRUE(bool(child)) << child.error().message();
  while (!fs::exists(started)) {
    ASSERT_TRUE(child->running()) << "the campaign ended";
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  // A resume, a fresh campaign and a merge into the directory are refused
  // as such (not as "already holds a campaign"); reading it is fine.
  std::string inUse = "is in use by another crosscheck process (pid " +
                      std::to_string(child->pid()) + ")";
  CampaignOptions fresh = options(), resume = options();
  // These would run (and fail) rather than block, were they let in.
  fresh.cutBackends = {std::make_shared<FakeCompiler>("blocking", "add")};
  resume.cutBackends = fresh.cutBackends;
  resume.resume = true;
  for (auto r :
       {runCampaign(resume), runCampaign(fresh), mergeCampaigns({dir}, dir)}) {
    ASSERT_FALSE(bool(r));
    EXPECT_NE(r.error().message().find(inUse), std::string::npos)
        << r.error().message();
  }
  EXPECT_TRUE(bool(Store::open(Store::dbPath(dir))));
  // The running campaign is unaffected.
  std::ofstream(release).flush();
  ASSERT_EQ(child->wait(), 0);
  EXPECT_EQ(recordedIndices(dir), iota(6));
  expectCountsMatchLinks(dir);
  // Its lock ended with it.
  resume.maxCases = 8;
  auto more = runCampaign(resume);
  ASSERT_TRUE(bool(more)) << more.error().message();
  EXPECT_EQ(more->cases, 2u);
  for (const std::string &f : {dir, started, release})
    fs::remove_all(f);
}

// A summary of many findings of one compiler with a long name (a pass
// pipeline) names it once and every finding by its number.
TEST(Campaign, TheSummaryNamesALongCompilerOnce) {
  std::string dir = tempDir("legend");
  std::string name = "mlir:pipeline=" + std::string(200, 'p');
  CampaignOptions o = fakeCampaign(dir, "", 30);
  o.cutBackends = {std::make_shared<FakeCompiler>(name, "add")};
  auto s = runCampaign(o);
  ASSERT_TRUE(bool(s)) << s.error().message();
  ASSERT_GE(s->signatures.size(), 2u);
  auto text = readFile(dir + "/summary.txt");
  ASSERT_TRUE(bool(text));
  size_t at = text->find(name), lines = 0;
  ASSERT_NE(at, std::string::npos) << *text;
  EXPECT_EQ(text->find(name, at + 1), std::string::npos) << *text;
  EXPECT_NE(text->find("compilers:\n  [1] " + name + "\n"), std::string::npos);
  for (size_t i = text->find("x miscompile|[1]|"); i != std::string::npos;
       i = text->find("x miscompile|[1]|", i + 1))
    ++lines;
  EXPECT_EQ(lines, s->signatures.size()) << *text;
  fs::remove_all(dir);
}

bool canCreateFileIn(const std::string &dir) {
  std::string probe = dir + "/.probe";
  int fd = ::open(probe.c_str(), O_CREAT | O_WRONLY, 0644);
  if (fd < 0)
    return false;
  ::close(fd);
  ::unlink(probe.c_str());
  return true;
}

void setImmutable(const std::string &dir, bool on) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  int flags = 0;
  if (fd >= 0 && ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0) {
    flags = on ? flags | FS_IMMUTABLE_FL : flags & ~FS_IMMUTABLE_FL;
    ioctl(fd, FS_IOC_SETFLAGS, &flags);
  }
  if (fd >= 0)
    ::close(fd);
}

// A directory nobody may write, as a downloaded CI artifact: chmod, and
// where that does not stop us (root) the immutable attribute. `frozen` is
// false where neither can (root without CAP_LINUX_IMMUTABLE, tmpfs).
struct ReadOnlyDir {
  explicit ReadOnlyDir(std::string d) : dir(std::move(d)) {
    fs::permissions(dir, fs::perms::all, fs::perm_options::remove);
    fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec,
                    fs::perm_options::add);
    if (canCreateFileIn(dir))
      setImmutable(dir, true);
    frozen = !canCreateFileIn(dir);
  }
  ~ReadOnlyDir() {
    setImmutable(dir, false);
    fs::permissions(dir, fs::perms::owner_all, fs::perm_options::add);
  }
  std::string dir;
  bool frozen = false;
};

std::set<std::string> listing(const std::string &dir) {
  std::set<std::string> names;
  for (const auto &e : fs::directory_iterator(dir))
    names.insert(e.path().filename().string());
  return names;
}

TEST(Campaign, AReadOnlyCampaignIsReadMergedAndABaseline) {
  std::string dir = tempDir("frozen"), merged = tempDir("frozen-merged"),
              next = tempDir("frozen-next");
  auto a = runCampaign(fakeCampaign(dir, "add", 12));
  ASSERT_TRUE(bool(a)) << a.error().message();
  ASSERT_GT(a->newSignatures(), 0u);
  std::set<std::string> before = listing(dir);
  {
    ReadOnlyDir readOnly(dir);
    if (!readOnly.frozen)
      GTEST_SKIP() << "no way to make a directory read-only here (root, "
                      "and no immutable attribute on this file system)";
    auto store = Store::open(Store::dbPath(dir));
    ASSERT_TRUE(bool(store)) << store.error().message();
    EXPECT_EQ(*(*store)->caseCount(), 12u);
    auto m = mergeCampaigns({dir}, merged);
    ASSERT_TRUE(bool(m)) << m.error().message();
    EXPECT_EQ(m->totalCases, 12u);
    CampaignOptions o = fakeCampaign(next, "add", 12);
    o.baseline = dir;
    auto b = runCampaign(o);
    ASSERT_TRUE(bool(b)) << b.error().message();
    EXPECT_EQ(b->newSignatures(), 0u);
  }
  EXPECT_EQ(listing(dir), before);
  for (const std::string &d : {dir, merged, next})
    fs::remove_all(d);
}

TEST(Campaign, BadOptionsAreClearErrors) {
  CampaignOptions o;
  o.outDir = tempDir("bad-options");
  auto none = runCampaign(o);
  ASSERT_FALSE(bool(none));
  EXPECT_NE(none.error().message().find("--cut"), std::string::npos);
  o.cuts = {"mlir:no-such-pipeline"};
  auto bad = runCampaign(o);
  ASSERT_FALSE(bool(bad));
  EXPECT_NE(bad.error().message().find("no-such-pipeline"), std::string::npos);
  EXPECT_FALSE(fs::exists(o.outDir)) << "nothing is created for bad options";
  auto resume = Store::resume(o.outDir, nlohmann::json::object());
  ASSERT_FALSE(bool(resume));
  EXPECT_NE(resume.error().message().find("nothing to resume"),
            std::string::npos);
  EXPECT_FALSE(bool(loadBaseline(o.outDir + "/missing.json")));
}

} // namespace
} // namespace cc
