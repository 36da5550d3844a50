// The generator's knobs as flags, shared by gen and fuzz.
#include "tools/crosscheck/GenFlags.h"
#include "core/Limits.h"

namespace cc::cli {

namespace {
// Generating a graph takes time linear in its ops; far beyond this it takes
// minutes and gives nothing a compiler test needs.
constexpr int kMaxGenOps = 100000;

std::string familyList() {
  std::string s;
  for (const std::string &n : familyNames())
    s += (s.empty() ? "" : ", ") + n;
  return s;
}

} // namespace

std::vector<Flag> generatorFlags() {
  return {
      {"--ops", "", "MIN..MAX", "op nodes per graph, constants not counted (default 5..10)"},
      {"--family", "", "NAME", "topology family: " + familyList() + " (default mixed)"},
      {"--dtype", "", "LIST", "comma-separated dtypes every value must have (default all)"},
      {"--include", "", "OPS", "comma-separated ops to place (default all)", true},
      {"--exclude", "", "OPS", "comma-separated ops never to place", true},
      {"--ranks", "", "MIN..MAX", "tensor ranks (default 1..4)"},
      {"--max-elements", "", "N", "largest tensor size in elements (default 256)"},
  };
}

std::vector<std::string> splitList(const std::string &text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string item = text.substr(start, comma - start);
    if (!item.empty())
      out.push_back(item);
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  return out;
}

Expected<std::pair<int, int>> parseRange(const std::string &flag,
                                         const std::string &text, int max) {
  size_t dots = text.find("..");
  if (dots == std::string::npos)
    return makeError("flag '" + flag + "': expected MIN..MAX, got '" + text + "'");
  CC_ASSIGN(lo, parseUnsigned(flag, text.substr(0, dots)));
  CC_ASSIGN(hi, parseUnsigned(flag, text.substr(dots + 2)));
  if (lo > uint64_t(max) || hi > uint64_t(max))
    return makeError("flag '" + flag + "': '" + text + "' exceeds the limit of " +
                     std::to_string(max));
  return std::pair<int, int>{int(lo), int(hi)};
}

Expected<GenOptions> generatorOptions(const Args &args) {
  GenOptions o;
  if (args.has("--ops")) {
    CC_ASSIGN(r, parseRange("--ops", args.get("--ops"), kMaxGenOps));
    o.minOps = r.first, o.maxOps = r.second;
  }
  if (args.has("--ranks")) {
    CC_ASSIGN(r, parseRange("--ranks", args.get("--ranks"), int(kMaxTensorRank)));
    o.minRank = r.first, o.maxRank = r.second;
  }
  if (args.has("--max-elements")) {
    CC_ASSIGN(n, parseUnsigned("--max-elements", args.get("--max-elements")));
    if (n > uint64_t(kMaxTensorElements))
      return makeError("flag '--max-elements': " + std::to_string(n) +
                       " exceeds the limit of " + std::to_string(kMaxTensorElements));
    o.maxElements = int64_t(n);
  }
  if (args.has("--family")) {
    CC_ASSIGN(f, parseFamily(args.get("--family")));
    o.family = f;
  }
  for (const std::string &d : splitList(args.get("--dtype"))) {
    auto t = parseDType(d);
    if (!t || *t == DType::i64 || *t == DType::f64)
      return makeError("flag '--dtype': unknown graph dtype '" + d + "'");
    o.dtypes.push_back(*t);
  }
  for (const std::string &v : args.all("--include"))
    for (const std::string &n : splitList(v))
      o.include.push_back(n);
  for (const std::string &v : args.all("--exclude"))
    for (const std::string &n : splitList(v))
      o.exclude.push_back(n);
  return o;
}

} // namespace cc::cli
