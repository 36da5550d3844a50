// The disk cache of proofs: a query found unsatisfiable (the target
// refines the source) is remembered as a file named by a hash of its float
// mode and its SMT-LIB text.
#include "smt/Refine.h"

#include "core/File.h"

#include <cstdio>
#include <filesystem>
#include <functional>

namespace cc::smt::detail {

QueryCache::QueryCache(const TvOptions &o, FMode mode, z3::solver &s) {
  if (o.cacheDir.empty())
    return;
  std::string query =
      std::string(mode == FMode::Abstract ? "A" : "I") + s.to_smt2();
  char buf[32];
  std::snprintf(buf, sizeof buf, "%016zx", std::hash<std::string>{}(query));
  path = o.cacheDir + "/" + buf + ".unsat";
}

bool QueryCache::holdsProof() const {
  return !path.empty() && std::filesystem::exists(path);
}

void QueryCache::storeProof() const {
  if (!path.empty())
    (void)writeFile(path, "unsat\n"); // a cache that cannot be written: none
}

} // namespace cc::smt::detail
