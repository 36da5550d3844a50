#include "harness/CaseStream.h"

#include "backends/mlir/MlirBackend.h"
#include "backends/onnx/Onnx.h"
#include "core/File.h"
#include "core/Rng.h"

#include <algorithm>
#include <filesystem>

namespace cc {

using nlohmann::json;

namespace {
// The MLIR release whose TOSA every compiler under test reads: 19 when each
// is an external MLIR 19 tool (mlir-ext[19]:, mlir-opt-19), else 22.
int syntaxOfCuts(const CampaignOptions &o) {
  if (o.cuts.empty() || !o.cutBackends.empty())
    return 22;
  for (const std::string &spec : o.cuts) {
    auto ext = externalOfSpec(spec);
    if (!ext || ext->syntaxVersion >= 22)
      return 22;
  }
  return 19;
}
} // namespace

Expected<CaseStream> CaseStream::make(const CampaignOptions &options) {
  CaseStream s;
  s.options = options;
  s.options.gen.mlirSyntax = syntaxOfCuts(options);
  s.options.program.mlirSyntax =
      std::min(options.program.mlirSyntax, s.options.gen.mlirSyntax);
  if (options.seedCorpus.empty())
    return s;
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(options.seedCorpus, ec))
    return makeError("seed corpus '" + options.seedCorpus +
                     "' is not a directory");
  std::vector<std::string> files;
  for (const auto &e :
       fs::recursive_directory_iterator(options.seedCorpus, ec)) {
    std::string ext = e.path().extension().string();
    if (e.is_regular_file() &&
        (ext == ".json" || ext == ".onnx" || ext == ".mlir"))
      files.push_back(e.path().string());
  }
  if (ec)
    return makeError("cannot read seed corpus '" + options.seedCorpus +
                     "': " + ec.message());
  std::sort(files.begin(), files.end());
  for (const std::string &f : files) {
    std::string name = fs::relative(f, options.seedCorpus).string();
    if (fs::path(f).extension() == ".mlir") {
      CC_ASSIGN(text, readFile(f));
      for (MlirProgram &p : seedPrograms(text, name))
        s.programCorpus.push_back(std::move(p));
    } else {
      auto g = loadAnyGraph(f);
      if (!g)
        return g.error().withContext("seed corpus");
      s.corpus.push_back(std::move(*g));
    }
    s.corpusNames.push_back(name);
  }
  using Generator = CampaignOptions::Generator;
  bool programs = options.generator != Generator::Graph;
  if (s.corpus.empty() && (!programs || s.programCorpus.empty()))
    return makeError("seed corpus '" + options.seedCorpus + "' holds no " +
                     (programs ? ".json or .onnx graph and no .mlir "
                                 "function a program can call"
                               : ".json or .onnx graph"));
  return s;
}

// Program slot `slot` (the how-manieth program case): first each seed
// program as it is, then every other one a seed program with 1 to 3
// constants set to edge values, the others generated.
MlirProgram CaseStream::programAt(uint64_t slot, uint64_t caseSeed) const {
  if (slot < programCorpus.size())
    return programCorpus[slot];
  if (!programCorpus.empty() && caseSeed % 2 == 0)
    return mutateSeedConstants(
        programCorpus[(caseSeed >> 1) % programCorpus.size()], caseSeed,
        1 + int((caseSeed >> 8) % 3));
  Program p = generateProgram(options.program, caseSeed);
  return MlirProgram{p.name, p.mlir, p.args, p.results};
}

Expected<TestCase> CaseStream::at(uint64_t index) const {
  uint64_t graphIndex = index / options.inputSets,
           set = index % options.inputSets;
  uint64_t caseSeed = Rng::forStream(options.seed, graphIndex).next();
  TestCase c;
  c.seed = options.seed;
  c.index = index;
  c.limits = options.caseLimits;
  using Generator = CampaignOptions::Generator;
  if (graphIndex >= corpus.size() &&
      (options.generator == Generator::Mlir ||
       (options.generator == Generator::Mixed && graphIndex % 2))) {
    uint64_t slot = options.generator == Generator::Mlir
                        ? graphIndex - corpus.size()
                        : graphIndex / 2;
    c.program = programAt(slot, caseSeed);
    c.inputs = programInputs(
        c.program->args, set ? Rng::forStream(caseSeed, set).next() : caseSeed);
    return c;
  }
  if (graphIndex < corpus.size()) {
    c.graph = corpus[graphIndex];
  } else if (!corpus.empty() && caseSeed % 2 == 0) {
    // A seed topology (a real network) grown by a few generated ops that
    // read its values, so later cases mutate it rather than replay it.
    const Graph &base = corpus[(caseSeed >> 1) % corpus.size()];
    GenOptions grow = options.gen;
    grow.minOps = 1;
    grow.maxOps = std::max(1, std::min(4, options.gen.maxOps));
    auto g = extendGraph(base, grow, caseSeed);
    if (!g)
      return g.error().withContext("growing seed graph '" + base.name +
                                   "' for case " + std::to_string(index));
    c.graph = std::move(*g);
    c.graph.name = base.name + "_grown_" + std::to_string(graphIndex);
  } else {
    auto g = generateGraph(options.gen, caseSeed);
    if (!g)
      return g.error().withContext("generating case " + std::to_string(index));
    c.graph = std::move(*g);
    // In turn: the graph as generated, then each precision variant.
    size_t variant = caseSeed % (options.precisions.size() + 1);
    if (variant > 0 && hasFloatValues(c.graph)) {
      std::string name = c.graph.name;
      auto v = makePrecisionVariant(c.graph, options.precisions[variant - 1],
                                    caseSeed);
      if (!v)
        return v.error().withContext("case " + std::to_string(index));
      c.graph = std::move(*v);
      c.graph.name =
          name + "_" +
          std::string(precisionKindName(options.precisions[variant - 1]));
    }
  }
  // Set 0 is drawn from the graph's own seed (as with one set per graph).
  uint64_t inputSeed = set ? Rng::forStream(caseSeed, set).next() : caseSeed;
  c.inputs = makeInputs(c.graph, inputSeed, options.inputs);
  return c;
}

json CaseStream::identity() const {
  const GenOptions &g = options.gen;
  json precisions = json::array();
  for (PrecisionKind k : options.precisions)
    precisions.push_back(precisionKindName(k));
  json dtypes = json::array();
  for (DType d : g.dtypes)
    dtypes.push_back(dtypeName(d));
  json weights = json::object();
  for (const auto &[op, w] : g.weights)
    weights[op] = w;
  json cuts = options.cuts;
  for (const auto &b : options.cutBackends)
    cuts.push_back(b->name());
  json refs = options.refs;
  for (const auto &b : options.refBackends)
    refs.push_back(b->name());
  json id = {{"seed", options.seed},
             {"shard", std::to_string(options.shardIndex) + "/" +
                           std::to_string(options.shardCount)},
             {"cuts", cuts},
             {"refs", refs},
             {"corpus", corpusNames},
             {"generator",
              {{"ops", {g.minOps, g.maxOps}},
               {"family", familyNames()[size_t(g.family)]},
               {"include", g.include},
               {"exclude", g.exclude},
               {"weights", weights},
               {"dtypes", dtypes},
               {"ranks", {g.minRank, g.maxRank}},
               {"max_elements", g.maxElements},
               {"const_rate", g.constRate}}},
             {"precisions", precisions},
             {"inputs",
              {{"edge_rate", options.inputs.edgeRate},
               {"special_rate", options.inputs.specialRate}}}};
  // Only where not the default, so that older campaigns keep their identity.
  if (g.mlirSyntax != 22)
    id["generator"]["mlir_syntax"] = g.mlirSyntax;
  if (options.inputSets != 1)
    id["input_sets"] = options.inputSets;
  // Only for programs, so that graph campaigns keep their identity.
  if (options.generator != CampaignOptions::Generator::Graph) {
    const ProgramOptions &p = options.program;
    json pdtypes = json::array();
    for (DType d : p.dtypes)
      pdtypes.push_back(dtypeName(d));
    id["programs"] = {
        {"mixed", options.generator == CampaignOptions::Generator::Mixed},
        {"ops", p.ops},
        {"dtypes", pdtypes},
        {"weights", {p.linalg, p.tensor, p.scalar, p.scf, p.vector}}};
    if (p.mlirSyntax != 22)
      id["programs"]["mlir_syntax"] = p.mlirSyntax;
  }
  // Only when on, so that campaigns without --tv keep their identity.
  if (options.tv)
    id["tv"] = {{"per_rewrite", options.tvPerRewrite},
                {"timeout_ms", options.tvTimeoutMs},
                {"budget_s", options.tvBudgetSeconds}};
  return id;
}

} // namespace cc
