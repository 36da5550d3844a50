// The steps a campaign engine shares with the others (the generator's case
// stream in Campaign.cpp, libFuzzer in fuzz/Engine.cpp): one store, one
// reducer pass, one set of CI outputs. Internal to harness/.
#pragma once

#include "harness/Campaign.h"
#include "harness/Store.h"

#include <memory>
#include <string>

namespace cc {

// Creates (or resumes) the campaign's store with the baseline's signatures
// known.
Expected<std::unique_ptr<Store>> openCampaignStore(const CampaignOptions &options,
                                                   const nlohmann::json &identity);
// Reduces every new, not yet reduced finding that replays on its own.
Error reduceNewFindings(Store &store, const CampaignOptions &options);
// Writes the per-finding files and the CI outputs from the store.
Expected<CampaignSummary> writeOutputs(Store &store, const std::string &dir,
                                       CampaignSummary summary);

} // namespace cc
