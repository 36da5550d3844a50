// runCampaign: checks the options, makes every backend, opens the store,
// forks the workers and hands the campaign to the coordinator; then the
// optional reduction and the CI outputs. Each step lives in its own file
// (CampaignSteps.h).
#include "harness/Campaign.h"

#include "backends/Registry.h"
#include "harness/CampaignSteps.h"
#include "harness/CaseStream.h"

namespace cc {

namespace {

Error checkOptions(const CampaignOptions &options) {
  if (options.cuts.empty() && options.cutBackends.empty())
    return makeError(
        "a campaign needs at least one compiler under test (--cut)");
  if (options.jobs < 1)
    return makeError("--jobs must be at least 1");
  if (options.inputSets < 1)
    return makeError("--input-sets must be at least 1");
  if (options.shardCount < 1 || options.shardIndex >= options.shardCount)
    return makeError("bad shard " + std::to_string(options.shardIndex) + "/" +
                     std::to_string(options.shardCount));
  if (options.refs.empty() || options.refs.front() != "ref")
    return makeError("the first reference must be 'ref' (the interpreter)");
#ifndef CC_HAVE_SMT
  if (options.tv || usesSmtReference(options))
    return makeError("--tv and --ref smt need Z3: this crosscheck was built "
                     "without it");
#endif
  if (usesSmtReference(options) &&
      options.generator == CampaignOptions::Generator::Graph)
    return makeError("--ref smt judges mid-level programs: use it with "
                     "--generator mlir or mixed");
  if (options.tv && options.tvBudgetSeconds <= 0)
    return makeError("--tv-budget must be positive");
  if (auto k = loadKnownBugsIfAny(options.knownBugs); !k)
    return k.error();
  return Error();
}

// Backends are made before the workers fork: a bad spec is an error before
// anything runs, and the workers inherit them ready.
Expected<CampaignBackends> makeBackends(const CampaignOptions &options) {
  CampaignBackends r;
  auto add = [&](const std::string &spec, std::vector<Backend *> &to) -> Error {
    CC_ASSIGN(b, makeBackend(spec));
    to.push_back(b.get());
    r.owned.push_back(std::move(b));
    return Error();
  };
  for (const std::string &spec : options.cuts)
    CC_TRY(add(spec, r.cuts));
  for (const std::shared_ptr<Backend> &b : options.cutBackends)
    r.cuts.push_back(b.get());
  for (size_t i = 1; i < options.refs.size(); ++i)
    if (options.refs[i] != kSmtReference)
      CC_TRY(add(options.refs[i], r.refs));
  for (const std::shared_ptr<Backend> &b : options.refBackends)
    r.refs.push_back(b.get());
  return r;
}

} // namespace

size_t CampaignSummary::newSignatures() const {
  size_t n = 0;
  for (const SignatureSummary &s : signatures)
    n += !s.known;
  return n;
}

Expected<CampaignSummary> runCampaign(const CampaignOptions &options) {
  CC_TRY(checkOptions(options));
  CC_ASSIGN(stream, CaseStream::make(options));
  CC_ASSIGN(backends, makeBackends(options));
  CC_ASSIGN(storeOwned, openCampaignStore(options, stream.identity()));
  Store &store = *storeOwned;
  CC_ASSIGN(done, store.recordedCases());

  CC_ASSIGN(triage, Triage::make(options, store, options.jobs));
  WorkerPool pool(options.jobs, [&](const std::string &request) {
    return serveRequest(request, stream, backends, options);
  });
  CC_TRY(pool.start());
  Coordinator coordinator(options, stream,
                          backends.cuts.size() + backends.refs.size(), store,
                          pool, *triage, std::move(done));
  Error failure;
  bool stopped = false;
  {
    StopSignals signals;
    failure = coordinator.run();
    pool.stop();
    stopped = StopSignals::requested();
  }
  CC_TRY(failure);
  coordinator.stopClock();
  if (options.reduce && !stopped)
    CC_TRY(reduceNewFindings(store, options));
  CC_TRY(coordinator.finish());
  return writeOutputs(store, options.outDir, coordinator.summary,
                      options.knownBugs);
}

} // namespace cc
