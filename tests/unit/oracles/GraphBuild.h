// Small helpers that build graphs node by node in the oracle tests.
#pragma once

#include "core/Graph.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cc::test {

// Adds one node; a rejected node fails the test (and yields value 0).
inline ValueId add(Graph &g, const std::string &op,
                   std::vector<ValueId> operands, Attrs attrs = {}) {
  Expected<ValueId> v = g.add(op, std::move(operands), std::move(attrs));
  EXPECT_TRUE(bool(v)) << op << ": " << v.error().message();
  return v ? *v : ValueId(0);
}

inline Attrs axis(int64_t a) {
  Attrs at;
  at.set("axis", a);
  return at;
}

} // namespace cc::test
