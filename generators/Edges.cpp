#include "generators/Edges.h"

#include <cmath>

namespace cc {

std::vector<double> floatEdges(DType d, EdgeUse use) {
  // Signed zeros and units: what folds key on (x + 0, x * 1).
  std::vector<double> e = {0.0, -0.0, 1.0, -1.0, 0.5};
  switch (use) {
  case EdgeUse::Input: {
    // The value just below 0.5 rounds to 0 where a naive round(x) =
    // floor(x + 0.5) gives 1; x.5 are ties of round-to-even.
    const double belowHalf = 0.5 - epsilon(d) / 4;
    e.insert(e.end(),
             {-0.5, 2.0, -2.0, 1.5, -1.5, 2.5, -2.5, belowHalf, -belowHalf});
    break;
  }
  case EdgeUse::Constant:
    e.insert(e.end(), {-0.5, 2.5, -1.5});
    break;
  case EdgeUse::Splat:
    e.push_back(2.0);
    break;
  }
  return e;
}

std::vector<double> floatSpecials(DType d, EdgeUse use) {
  const double denormal = minNormal(d) / 4;
  return {INFINITY, -INFINITY, NAN, denormal,
          use == EdgeUse::Constant ? maxFinite(d) : -denormal};
}

std::vector<int64_t> intEdges(DType d, EdgeUse use, bool extremes) {
  switch (use) {
  case EdgeUse::Input: {
    std::vector<int64_t> e = {0, 1, -1, 2, -2};
    if (extremes)
      e.insert(e.end(), {intMin(d), intMax(d), intMin(d) + 1, intMax(d) - 1});
    return e;
  }
  case EdgeUse::Constant:
    return {wrapInt(d, intMin(d)), wrapInt(d, intMax(d)), wrapInt(d, -1), 0,
            wrapInt(d, 1)};
  case EdgeUse::Splat:
    if (isBool(d))
      return {0, 1};
    return {0, 1, -1, 2, intMin(d), intMax(d)};
  }
  return {};
}

std::vector<double> edgeValues(DType d, EdgeUse use) {
  if (isFloat(d))
    return floatEdges(d, use);
  std::vector<double> e;
  for (int64_t x : intEdges(d, use))
    e.push_back(double(x));
  return e;
}

} // namespace cc
