// libFuzzer target cc_fuzz_store: any bytes as a campaign's campaign.db
// (what `report DIR`, `merge` and `--baseline` read from a downloaded
// campaign). Opening it and every read of the reports must give data or
// one error, never crash, throw or run without end.
#include "harness/Store.h"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace {
// A folder of this process for the database file.
const std::string &scratch() {
  static const std::string dir = [] {
    std::string d = (std::filesystem::temp_directory_path() /
                     ("cc-fuzz-store-" + std::to_string(getpid())))
                        .string();
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

void readEverything(cc::Store &s) {
  (void)s.identity();
  (void)s.caseCount();
  (void)s.stageTimes();
  (void)s.signatures();
  (void)s.passCoverage();
  (void)s.tvChecks();
  (void)s.caseTimeline();
  (void)s.opCoverage();
  (void)s.findingTimes();
  (void)s.findings();
  (void)s.recordedCases();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string db = cc::Store::dbPath(scratch());
  for (const char *suffix : {"", "-wal", "-shm", "-journal"})
    std::filesystem::remove(db + suffix);
  std::ofstream(db, std::ios::binary)
      .write(reinterpret_cast<const char *>(data), std::streamsize(size));
  if (auto store = cc::Store::open(db))
    readEverything(**store);
  (void)cc::loadBaseline(db);
  return 0;
}
