// The steps a campaign engine shares with the others (the generator's case
// stream in Campaign.cpp, libFuzzer in fuzz/Engine.cpp): one store, one
// reducer pass, one set of CI outputs. Internal to harness/.
#pragma once

#include "harness/Campaign.h"
#include "harness/Store.h"
#include "reports/RootCause.h"

#include <memory>
#include <string>

namespace cc {

// Creates (or resumes) the campaign's store with the baseline's signatures
// known.
Expected<std::unique_ptr<Store>>
openCampaignStore(const CampaignOptions &options,
                  const nlohmann::json &identity);
// The known bugs of a corpus/known/*.json file; none for "".
Expected<std::vector<KnownBug>> loadKnownBugsIfAny(const std::string &path);
// Reduces every new, not yet reduced finding that replays on its own.
Error reduceNewFindings(Store &store, const CampaignOptions &options);
// Writes the per-finding files and the CI outputs from the store, its
// findings grouped by root cause and matched against the known bugs of
// `knownBugs` (a corpus/known/*.json file, or "").
Expected<CampaignSummary> writeOutputs(Store &store, const std::string &dir,
                                       CampaignSummary summary,
                                       const std::string &knownBugs);

} // namespace cc
