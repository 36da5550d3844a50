#include "reducers/Reduce.h"

#include <algorithm>

namespace cc {

std::vector<int> ddmin(std::vector<int> items, const FirstPassing &firstPassing,
                       const std::function<bool()> &stop, size_t minKeep) {
  size_t n = 2;
  while (items.size() > minKeep && !stop()) {
    if (items.size() == 1) {
      if (firstPassing({{}}) == 0)
        items.clear();
      break;
    }
    n = std::min(n, items.size());
    std::vector<std::vector<int>> chunks(n);
    for (size_t i = 0; i < items.size(); ++i)
      chunks[i * n / items.size()].push_back(items[i]);
    // Subsets first (they jump furthest), then complements; with two
    // chunks the subsets are the complements.
    std::vector<std::vector<int>> candidates;
    size_t numSubsets = 0;
    if (n > 2) {
      for (const std::vector<int> &c : chunks)
        if (c.size() >= minKeep)
          candidates.push_back(c);
      numSubsets = candidates.size();
    }
    for (size_t c = 0; c < n; ++c) {
      std::vector<int> rest;
      for (size_t d = 0; d < n; ++d)
        if (d != c)
          rest.insert(rest.end(), chunks[d].begin(), chunks[d].end());
      if (rest.size() >= minKeep)
        candidates.push_back(std::move(rest));
    }
    int k = candidates.empty() ? -1 : firstPassing(candidates);
    if (k >= 0) {
      items = std::move(candidates[size_t(k)]);
      n = size_t(k) < numSubsets ? 2 : std::max<size_t>(n - 1, 2);
      continue;
    }
    if (n >= items.size())
      break; // every single removal failed: 1-minimal
    n = std::min(n * 2, items.size());
  }
  return items;
}

} // namespace cc
