// Merging the stores of a campaign's shards (fuzz --shard I/N) into one.
#include "harness/CampaignSteps.h"

namespace cc {

using nlohmann::json;

Expected<CampaignSummary> mergeCampaigns(const std::vector<std::string> &dirs,
                                         const std::string &outDir,
                                         const std::string &baseline,
                                         const std::string &knownBugs) {
  if (auto k = loadKnownBugsIfAny(knownBugs); !k)
    return k.error();
  if (dirs.empty())
    return makeError("merge needs at least one campaign directory");
  std::vector<std::unique_ptr<Store>> inputs;
  json identity;
  for (const std::string &d : dirs) {
    CC_ASSIGN(s, Store::open(Store::dbPath(d)));
    CC_ASSIGN(id, s->identity());
    // Shards of one campaign differ only in their shard.
    id.erase("shard");
    if (identity.is_null())
      identity = id;
    else if (id != identity)
      return makeError("'" + d +
                       "' is a different campaign (its seed, compilers or "
                       "generator options differ) and cannot be merged");
    inputs.push_back(std::move(s));
  }
  identity["shard"] = "merged";
  CC_ASSIGN(out, Store::create(outDir, identity,
                               "merge writes a new campaign directory: "
                               "choose another -o"));
  if (!baseline.empty()) {
    CC_ASSIGN(known, loadBaseline(baseline));
    out->setKnown(std::move(known));
  }
  for (auto &in : inputs)
    CC_TRY(out->mergeFrom(*in));
  CampaignSummary summary;
  return writeOutputs(*out, outDir, summary, knownBugs);
}

} // namespace cc
