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
struct GenerateFlags {
  GenOptions gen;
  uint64_t seed = 0, count = 1;
  std::optional<PrecisionKind> precision;
  bool stats = false;
  std::string output;
};
using F = GenerateFlags;

const Command<F> kGen{
    "gen",
    "crosscheck gen --seed S --count N [--ops MIN..MAX] [--family NAME] "
    "[--dtype LIST] [--include OPS] [--exclude OPS] [--precision KIND] "
    "[--stats] -o DIR",
    {0, 0, "takes no positional arguments"},
    "Writes N random graphs, valid by construction, as DIR/gen_<seed>.json\n"
    "with one .npy per input in DIR/gen_<seed>.inputs/ (for crosscheck run\n"
    "--inputs). Graph i uses seed S+i; the same seed and flags give the same\n"
    "bytes on every machine.",
    concat(
        FlagTable<F>{
            {"--seed", "", "S", "seed of the first graph (default {})",
             count(&F::seed)},
            {"--count", "", "N", "number of graphs (default {})",
             count(&F::count)},
        },
        within(&F::gen, generatorFlags()),
        FlagTable<F>{
            {"--precision", "", "KIND",
             "derive a precision variant of each graph: f16, bf16, mixed "
             "(f32 accumulations, casts between regions), int8 or int16 "
             "(quantized with rescale); graphs without float values are "
             "kept as they are",
             value(&F::precision, parsePrecision)},
            {"--stats", "", "", "print how often each op occurs per dtype",
             on(&F::stats)},
            {"--output", "-o", "DIR", "directory for the graphs (created)",
             text(&F::output)},
        }),
    ""};

Error writeCase(const std::string &dir, const Graph &g, uint64_t seed) {
  CC_TRY(writeFile(dir + "/" + g.name + ".json", printGraph(g)));
  std::string inputDir = dir + "/" + g.name + ".inputs";
  std::error_code ec;
  std::filesystem::create_directories(inputDir, ec);
  if (ec)
    return makeError("cannot create '" + inputDir + "': " + ec.message());
  Inputs inputs = makeInputs(g, seed);
  for (size_t i = 0; i < inputs.size(); ++i)
    CC_TRY(
        writeNpy(inputDir + "/" + g.values[size_t(g.inputs[i])].name + ".npy",
                 inputs[i]));
  return Error();
}
int generate(F &o, const Args &args) {
  const std::string &dir = o.output;
  if (dir.empty() && !o.stats)
    return fail("gen needs -o DIR (or --stats)");
  std::error_code ec;
  if (!dir.empty() && (std::filesystem::create_directories(dir, ec), ec))
    return fail("cannot create '" + dir + "': " + ec.message());
  OpStats stats;
  for (uint64_t i = 0; i < o.count; ++i) {
    auto g = generateGraph(o.gen, o.seed + i);
    if (!g)
      return fail(g.error());
    if (o.precision && hasFloatValues(*g)) {
      std::string name = g->name;
      auto v = makePrecisionVariant(*g, *o.precision, o.seed + i);
      if (!v)
        return fail(v.error().withContext(name));
      *g = std::move(*v);
      g->name = name;
    }
    if (!dir.empty())
      if (Error e = writeCase(dir, *g, o.seed + i))
        return fail(e);
    addOpStats(*g, stats);
  }
  if (o.stats)
    for (const auto &[op, perType] : stats)
      for (const auto &[dtype, n] : perType)
        std::printf("%-24s %-5s %lld\n", op.c_str(),
                    std::string(dtypeName(dtype)).c_str(), (long long)n);
  return kExitPass;
}

} // namespace

int genCommand(const Argv &argv) { return parseAndRun(kGen, argv, generate); }

} // namespace cc::cli
