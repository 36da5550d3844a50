// The generic ddmin engine on synthetic predicates (no compiler involved).
#include "reducers/Reduce.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

using namespace cc;

namespace {

// A FirstPassing that accepts keep-sets satisfying `fails`, counting calls.
FirstPassing predicate(std::function<bool(const std::set<int> &)> fails,
                       int *calls) {
  return [fails, calls](const std::vector<std::vector<int>> &cands) {
    for (size_t i = 0; i < cands.size(); ++i) {
      ++*calls;
      if (fails(std::set<int>(cands[i].begin(), cands[i].end())))
        return int(i);
    }
    return -1;
  };
}

std::vector<int> iota(int n) {
  std::vector<int> v(size_t(n), 0);
  for (int i = 0; i < n; ++i)
    v[size_t(i)] = i;
  return v;
}

TEST(DeltaDebug, FindsTheTwoItemsThatMatter) {
  int calls = 0;
  auto fails = [](const std::set<int> &s) { return s.count(3) && s.count(17); };
  std::vector<int> out =
      ddmin(iota(40), predicate(fails, &calls), [] { return false; });
  EXPECT_EQ(out, (std::vector<int>{3, 17}));
  EXPECT_LT(calls, 120);
}

TEST(DeltaDebug, ResultIsOneMinimal) {
  // Fails when at least three even numbers are kept: many minimal answers,
  // and any answer must lose the failure when one item is dropped.
  int calls = 0;
  auto fails = [](const std::set<int> &s) {
    return std::count_if(s.begin(), s.end(),
                         [](int x) { return x % 2 == 0; }) >= 3;
  };
  std::vector<int> out =
      ddmin(iota(25), predicate(fails, &calls), [] { return false; });
  std::set<int> kept(out.begin(), out.end());
  ASSERT_TRUE(fails(kept));
  for (int x : out) {
    std::set<int> less = kept;
    less.erase(x);
    EXPECT_FALSE(fails(less)) << "item " << x << " is not needed";
  }
  EXPECT_EQ(out.size(), 3u);
}

TEST(DeltaDebug, EmptyResultWhenNothingIsNeeded) {
  int calls = 0;
  std::vector<int> out = ddmin(
      iota(9), predicate([](const std::set<int> &) { return true; }, &calls),
      [] { return false; });
  EXPECT_TRUE(out.empty());
}

TEST(DeltaDebug, KeepsAtLeastMinKeep) {
  int calls = 0;
  std::vector<int> out = ddmin(
      iota(9), predicate([](const std::set<int> &) { return true; }, &calls),
      [] { return false; }, 1);
  EXPECT_EQ(out.size(), 1u);
}

TEST(DeltaDebug, StopsWhenTheBudgetIsSpent) {
  int calls = 0;
  auto fails = [](const std::set<int> &s) { return s.count(5) != 0; };
  std::vector<int> out =
      ddmin(iota(64), predicate(fails, &calls), [&] { return calls >= 4; });
  EXPECT_LE(calls, 4 + 64); // one batch may finish after the limit
  EXPECT_TRUE(std::count(out.begin(), out.end(), 5));
  EXPECT_GT(out.size(), 1u); // not finished
}

} // namespace
