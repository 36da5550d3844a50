// crosscheck gen: random valid graphs with their inputs.
#include "core/Json.h"
#include "core/Npy.h"
#include "generators/Inputs.h"
#include "generators/Precision.h"
#include "generators/Topology.h"
#include "tools/crosscheck/Commands.h"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>

namespace cc::cli {

namespace {
std::string familyList() {
  std::string s;
  for (const std::string &n : familyNames())
    s += (s.empty() ? "" : ", ") + n;
  return s;
}

const Command kGen{
    "gen",
    "crosscheck gen --seed S --count N [--ops MIN..MAX] [--family NAME] "
    "[--dtype LIST] [--include OPS] [--exclude OPS] [--precision KIND] "
    "[--stats] -o DIR",
    "Writes N random graphs, valid by construction, as DIR/gen_<seed>.json\n"
    "with one .npy per input in DIR/gen_<seed>.inputs/ (for crosscheck run\n"
    "--inputs). Graph i uses seed S+i; the same seed and flags give the same\n"
    "bytes on every machine.",
    {
        {"--seed", "", "S", "seed of the first graph (default 0)"},
        {"--count", "", "N", "number of graphs (default 1)"},
        {"--ops", "", "MIN..MAX", "op nodes per graph, constants not counted (default 5..10)"},
        {"--family", "", "NAME", "topology family: " + familyList() + " (default mixed)"},
        {"--dtype", "", "LIST", "comma-separated dtypes every value must have (default all)"},
        {"--include", "", "OPS", "comma-separated ops to place (default all)", true},
        {"--exclude", "", "OPS", "comma-separated ops never to place", true},
        {"--ranks", "", "MIN..MAX", "tensor ranks (default 1..4)"},
        {"--max-elements", "", "N", "largest tensor size in elements (default 256)"},
        {"--precision", "", "KIND",
         "derive a precision variant of each graph: f16, bf16, mixed (f32 "
         "accumulations, casts between regions), int8 or int16 (quantized with "
         "rescale); graphs without float values are kept as they are"},
        {"--stats", "", "", "print how often each op occurs per dtype"},
        {"--output", "-o", "DIR", "directory for the graphs (created)"},
    },
    ""};

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

Expected<std::pair<int, int>> parseRange(const std::string &flag, const std::string &text) {
  size_t dots = text.find("..");
  if (dots == std::string::npos)
    return makeError("flag '" + flag + "': expected MIN..MAX, got '" + text + "'");
  CC_ASSIGN(lo, parseUnsigned(flag, text.substr(0, dots)));
  CC_ASSIGN(hi, parseUnsigned(flag, text.substr(dots + 2)));
  return std::pair<int, int>{int(lo), int(hi)};
}

Expected<GenOptions> options(const Args &args) {
  GenOptions o;
  if (args.has("--ops")) {
    CC_ASSIGN(r, parseRange("--ops", args.get("--ops")));
    o.minOps = r.first, o.maxOps = r.second;
  }
  if (args.has("--ranks")) {
    CC_ASSIGN(r, parseRange("--ranks", args.get("--ranks")));
    o.minRank = r.first, o.maxRank = r.second;
  }
  if (args.has("--max-elements")) {
    CC_ASSIGN(n, parseUnsigned("--max-elements", args.get("--max-elements")));
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

Error writeCase(const std::string &dir, const Graph &g, uint64_t seed) {
  CC_TRY(writeFile(dir + "/" + g.name + ".json", printGraph(g)));
  std::string inputDir = dir + "/" + g.name + ".inputs";
  std::error_code ec;
  std::filesystem::create_directories(inputDir, ec);
  if (ec)
    return makeError("cannot create '" + inputDir + "': " + ec.message());
  Inputs inputs = makeInputs(g, seed);
  for (size_t i = 0; i < inputs.size(); ++i)
    CC_TRY(writeNpy(inputDir + "/" + g.values[size_t(g.inputs[i])].name + ".npy",
                    inputs[i]));
  return Error();
}
} // namespace

int genCommand(const Argv &argv) {
  auto args = parseArgs(kGen, argv);
  if (!args)
    return fail(args.error());
  if (args->has("--help"))
    return std::cout << helpText(kGen), kExitPass;
  if (!args->positional.empty())
    return fail("gen takes no positional arguments (see crosscheck gen --help)");
  auto o = options(*args);
  if (!o)
    return fail(o.error());
  auto seed = parseUnsigned("--seed", args->get("--seed", "0"));
  auto count = parseUnsigned("--count", args->get("--count", "1"));
  if (!seed || !count)
    return fail(!seed ? seed.error() : count.error());
  std::string dir = args->get("--output");
  if (dir.empty() && !args->has("--stats"))
    return fail("gen needs -o DIR (or --stats)");
  std::error_code ec;
  if (!dir.empty() && (std::filesystem::create_directories(dir, ec), ec))
    return fail("cannot create '" + dir + "': " + ec.message());
  std::optional<PrecisionKind> precision;
  if (args->has("--precision")) {
    auto k = parsePrecisionKind(args->get("--precision"));
    if (!k)
      return fail(k.error().withContext("flag '--precision'"));
    precision = *k;
  }
  OpStats stats;
  for (uint64_t i = 0; i < *count; ++i) {
    auto g = generateGraph(*o, *seed + i);
    if (!g)
      return fail(g.error());
    if (precision && hasFloatValues(*g)) {
      std::string name = g->name;
      auto v = makePrecisionVariant(*g, *precision, *seed + i);
      if (!v)
        return fail(v.error().withContext(name));
      *g = std::move(*v);
      g->name = name;
    }
    if (!dir.empty())
      if (Error e = writeCase(dir, *g, *seed + i))
        return fail(e);
    addOpStats(*g, stats);
  }
  if (args->has("--stats"))
    for (const auto &[op, perType] : stats)
      for (const auto &[dtype, n] : perType)
        std::printf("%-24s %-5s %lld\n", op.c_str(),
                    std::string(dtypeName(dtype)).c_str(), (long long)n);
  return kExitPass;
}

} // namespace cc::cli
