// crosscheck gen: random valid graphs with their inputs.
#include "core/File.h"
#include "core/Json.h"
#include "core/Npy.h"
#include "generators/Inputs.h"
#include "generators/Precision.h"
#include "generators/Program.h"
#include "generators/Topology.h"
#include "tools/crosscheck/Commands.h"
#include "tools/crosscheck/GenFlags.h"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>

namespace cc::cli {

namespace {
struct GenerateFlags {
  std::string generator = "graph";
  GenOptions gen;
  ProgramOptions program;
  uint64_t seed = 0, count = 1;
  std::optional<PrecisionKind> precision;
  bool stats = false;
  std::string output;
};
using F = GenerateFlags;

const Command<F> kGen{
    "gen",
    "crosscheck gen [--generator mlir] --seed S --count N [--ops MIN..MAX] "
    "[--family NAME] "
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
        FlagTable<F>{
            {"--generator", "", "NAME",
             "graph (TOSA graphs as .json) or mlir (mid-level MLIR "
             "programs as DIR/prog_<seed>.mlir, free of undefined "
             "behaviour by construction; see docs/PROGRAMS.md) "
             "(default {})",
             choice(&F::generator, {"graph", "mlir"})},
        },
        within(&F::gen, generatorFlags()), within(&F::program, programFlags()),
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

Error writeNpys(const std::string &dir, const Inputs &inputs,
                const std::vector<std::string> &names) {
  CC_TRY(makeDirectory(dir));
  for (size_t i = 0; i < inputs.size(); ++i)
    CC_TRY(writeNpy(dir + "/" + names[i] + ".npy", inputs[i]));
  return Error();
}

Error writeCase(const std::string &dir, const Graph &g, uint64_t seed) {
  CC_TRY(writeFile(dir + "/" + g.name + ".json", printGraph(g)));
  std::vector<std::string> names;
  for (ValueId v : g.inputs)
    names.push_back(g.values[size_t(v)].name);
  return writeNpys(dir + "/" + g.name + ".inputs", makeInputs(g, seed), names);
}

// --generator mlir: DIR/prog_<seed>.mlir and one .npy per argument.
int generatePrograms(F &o) {
  std::map<std::string, int> families;
  for (uint64_t i = 0; i < o.count; ++i) {
    uint64_t seed = o.seed + i;
    Program p = generateProgram(o.program, seed);
    for (const auto &[family, n] : p.families)
      families[family] += n;
    if (o.output.empty())
      continue;
    std::string base = o.output + "/prog_" + std::to_string(seed);
    if (Error e = writeFile(base + ".mlir", p.mlir))
      return fail(e);
    std::vector<std::string> names;
    for (size_t a = 0; a < p.args.size(); ++a)
      names.push_back("arg" + std::to_string(a));
    if (Error e = writeNpys(base + ".inputs", programInputs(p, seed), names))
      return fail(e);
  }
  if (o.stats)
    for (const auto &[family, n] : families)
      std::printf("%-24s %d\n", family.c_str(), n);
  return kExitPass;
}

int generate(F &o, const Args &args) {
  const std::string &dir = o.output;
  if (dir.empty() && !o.stats)
    return fail("gen needs -o DIR (or --stats)");
  if (!dir.empty())
    if (Error e = makeDirectory(dir))
      return fail(e);
  if (o.generator == "mlir")
    return generatePrograms(o);
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
