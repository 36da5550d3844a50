// crosscheck gen: random valid graphs with their inputs.
#include "core/Json.h"
#include "core/Npy.h"
#include "generators/Inputs.h"
#include "generators/Precision.h"
#include "generators/Topology.h"
#include "tools/crosscheck/Commands.h"
#include "tools/crosscheck/GenFlags.h"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>

namespace cc::cli {

namespace {
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
        {"--precision", "", "KIND",
         "derive a precision variant of each graph: f16, bf16, mixed (f32 "
         "accumulations, casts between regions), int8 or int16 (quantized with "
         "rescale); graphs without float values are kept as they are"},
        {"--stats", "", "", "print how often each op occurs per dtype"},
        {"--output", "-o", "DIR", "directory for the graphs (created)"},
    },
    ""};

// The generator flags join the command's own.
const Command &genCommandSpec() {
  static const Command cmd = [] {
    Command c = kGen;
    std::vector<Flag> flags = generatorFlags();
    c.flags.insert(c.flags.begin() + 2, flags.begin(), flags.end());
    return c;
  }();
  return cmd;
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
  auto args = parseArgs(genCommandSpec(), argv);
  if (!args)
    return fail(args.error());
  if (args->has("--help"))
    return std::cout << helpText(genCommandSpec()), kExitPass;
  if (!args->positional.empty())
    return fail("gen takes no positional arguments (see crosscheck gen --help)");
  auto o = generatorOptions(*args);
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
