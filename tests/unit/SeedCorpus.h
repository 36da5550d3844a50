// The seed corpus as the tests see it: the graph files of corpus/seeds in a
// stable order.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace cc::test {

inline std::vector<std::string> seedFiles() {
  std::vector<std::string> files;
  for (const auto &e : std::filesystem::directory_iterator(
           std::string(CC_SOURCE_DIR) + "/corpus/seeds"))
    if (e.path().extension() == ".json")
      files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

} // namespace cc::test
