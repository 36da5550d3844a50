// The campaign's deterministic case stream: case i is a function of the
// campaign's options, its seed and i alone, so that any worker, shard or
// resumed run builds the same case, and a finding names (seed, i).
#pragma once

#include "harness/Campaign.h"
#include "oracles/FindingFile.h"

#include <nlohmann/json.hpp>

namespace cc {

class CaseStream {
public:
  // Loads the seed corpus, if any (.json and .onnx graphs, .mlir files whose
  // functions become seed programs: backends/mlir seedPrograms), sorted by
  // name.
  static Expected<CaseStream> make(const CampaignOptions &options);

  // Case `index` (its `cut` is left empty: every compiler runs it). The
  // first cases are the seed corpus' graphs, then generated graphs, each
  // as generated or as a precision variant; with a seed corpus, every
  // other generated graph is instead a seed graph grown by 1 to 4 ops.
  // Program cases likewise: the seed programs, then generated programs
  // and (every other one) seed programs with mutated constants.
  Expected<TestCase> at(uint64_t index) const;
  size_t corpusSize() const { return corpus.size(); }

  // What defines the stream (and the campaign): resuming needs the same.
  nlohmann::json identity() const;

private:
  MlirProgram programAt(uint64_t slot, uint64_t caseSeed) const;

  CampaignOptions options;
  std::vector<Graph> corpus;
  std::vector<MlirProgram> programCorpus;
  std::vector<std::string> corpusNames;
};

} // namespace cc
