// Which memref arguments of a function may be the same buffer: a caller
// may pass one buffer twice unless the function says otherwise
// (llvm.noalias). Each way of sharing buffers among arguments of one type
// is a query of its own (Query's aliasOf).
#include "smt/Refine.h"

#include "mlir/IR/BuiltinTypes.h"

#include <algorithm>

namespace cc::smt::detail {

using namespace mlir;

namespace {

// The partitions of {0..n-1} but the one of singletons, as restricted
// growth strings: block[k] is the block of k, at most one more than any
// before it.
std::vector<std::vector<int>> partitions(int n) {
  std::vector<std::vector<int>> out;
  std::vector<int> block(size_t(n), 0);
  while (true) {
    bool singletons = true;
    for (int k = 0; k < n; ++k)
      singletons = singletons && block[size_t(k)] == k;
    if (!singletons)
      out.push_back(block);
    // The next string: bump the last position that may grow.
    int k = n - 1;
    for (; k > 0; --k) {
      int most = *std::max_element(block.begin(), block.begin() + k);
      if (block[size_t(k)] <= most) {
        ++block[size_t(k)];
        break;
      }
    }
    if (k == 0)
      return out;
    std::fill(block.begin() + k + 1, block.end(), 0);
  }
}

// Groups of four or fewer arguments share buffers in every way (at most 14
// queries); larger ones two at a time.
constexpr size_t kAllPartitions = 4;

} // namespace

std::vector<std::vector<int>> aliasings(func::FuncOp f, bool dynamicShapes) {
  // By type, in the order of the arguments.
  std::vector<std::pair<Type, std::vector<int>>> groups;
  for (auto [i, t] : llvm::enumerate(f.getArgumentTypes())) {
    auto mt = dyn_cast<MemRefType>(t);
    if (!mt || !(dynamicShapes || mt.hasStaticShape()) ||
        !mt.getLayout().isIdentity() ||
        f.getArgAttr(unsigned(i), "llvm.noalias"))
      continue;
    auto g = llvm::find_if(groups, [&](const auto &x) { return x.first == t; });
    if (g == groups.end())
      g = groups.insert(groups.end(), {t, {}});
    g->second.push_back(int(i));
  }
  std::vector<std::vector<int>> out;
  auto none = [&] { return std::vector<int>(f.getNumArguments(), -1); };
  for (const auto &[type, args] : groups) {
    if (args.size() < 2)
      continue;
    if (args.size() > kAllPartitions) {
      for (size_t a = 0; a < args.size(); ++a)
        for (size_t b = a + 1; b < args.size(); ++b) {
          out.push_back(none());
          out.back()[size_t(args[b])] = args[a];
        }
      continue;
    }
    for (const std::vector<int> &block : partitions(int(args.size()))) {
      std::vector<int> aliasOf = none();
      for (size_t k = 0; k < args.size(); ++k)
        for (size_t first = 0; first < k; ++first)
          if (block[first] == block[k]) {
            aliasOf[size_t(args[k])] = args[first];
            break;
          }
      out.push_back(aliasOf);
    }
  }
  return out;
}

std::string describeAliasing(const std::vector<int> &aliasOf) {
  std::string s;
  for (size_t j = 0; j < aliasOf.size(); ++j)
    if (aliasOf[j] >= 0)
      s += std::string(s.empty() ? "" : ", ") + "%arg" + std::to_string(j) +
           " the same buffer as %arg" + std::to_string(aliasOf[j]);
  return s;
}

std::string aliasNote() {
  return "memref arguments checked distinct, and as one buffer where of one "
         "type and not llvm.noalias (partial overlaps and arguments of "
         "different types not modelled)";
}

} // namespace cc::smt::detail
