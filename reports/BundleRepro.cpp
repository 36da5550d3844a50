// A bundle's repro.sh and the files it runs on, for in-process MLIR
// pipelines, external *-opt commands and TorchScript; and one run of it.
#include "reports/BundleInternal.h"

#include "backends/mlir/MlirBackend.h"
#include "backends/mlir/PassPipeline.h"
#include "backends/torch/Torch.h"
#include "core/File.h"
#include "core/Json.h"
#include "core/Quote.h"
#include "process/Process.h"
#include "reports/ReproScript.h"

#include <filesystem>

namespace cc::bundle {

namespace fs = std::filesystem;

namespace {

// crosscheck's own passes (test mutants, crash-on-purpose) are named cc-*;
// upstream mlir-opt cannot run them.
bool isUpstreamPass(const std::string &pass) {
  return !pass.starts_with("cc-");
}

// Writes an executable script.
Error writeScript(const std::string &path, const std::string &text) {
  CC_TRY(writeText(path, text));
  std::error_code ec;
  fs::permissions(path,
                  fs::perms::owner_exec | fs::perms::group_exec |
                      fs::perms::others_exec,
                  fs::perm_options::add, ec);
  return Error::success();
}

// compare.awk and expected.txt beside a repro.sh that compares outputs.
Error writeCheckFiles(const ReproSpec &spec) {
  if (!spec.compare)
    return Error::success();
  CC_TRY(writeText(spec.dir + "/compare.awk", repro::compareProgram()));
  return writeText(spec.dir + "/expected.txt",
                   repro::expectedHeader() + spec.table);
}

// Runs crosscheck's own passes at the head of `leaves` here: repro.mlir is
// the program after them, repro.sh runs the rest (r.pipeline).
std::string runOwnPasses(const ReproSpec &spec,
                         const std::vector<PipelineLeaf> &leaves, size_t cut,
                         Repro &r, std::vector<std::string> &notes) {
  std::vector<PipelineLeaf> head(leaves.begin(), leaves.begin() + long(cut));
  std::vector<PipelineLeaf> rest(leaves.begin() + long(cut), leaves.end());
  if (!spec.passesComplete) {
    // They fail here (a crash, a hang): nothing upstream can show.
    notes.push_back("the failure is in crosscheck's own passes (" +
                    joinPipeline(head) +
                    "), which upstream mlir-opt "
                    "does not have: repro.sh cannot reproduce it");
    r.pipeline.clear();
    return spec.program;
  }
  auto steps = tracePipeline(spec.program, joinPipeline(head));
  if (!steps || steps->empty()) {
    notes.push_back(
        "cannot run crosscheck's own passes: " +
        (steps ? std::string("no pass ran") : steps.error().message()));
    return spec.program;
  }
  r.pipeline = joinPipeline(rest);
  r.splitNote = "The pipeline names crosscheck's own test passes (`" +
                joinPipeline(head) +
                "`), which upstream mlir-opt does not have: `repro.mlir` "
                "is the program after them, and repro.sh runs the rest "
                "of the pipeline. `REPRO_MLIR=input.mlir ./repro.sh` "
                "runs that same rest on the program before them.";
  return steps->back().after;
}

// What an external compiler reads (tosa.mlir or program.mlir) and the
// @repro_main that is added to its output.
struct ExternalInput {
  std::string file, text, driver;
  std::string what; // README words: "tosa.mlir in MLIR 22's TOSA syntax"
};

Expected<std::string> writeExternalRepro(const ReproSpec &spec,
                                         const ExternalCompiler &ext,
                                         const ExternalInput &in,
                                         const NamedPipeline &completion) {
  repro::Check check{spec.title, spec.table, spec.compare};
  CC_TRY(writeText(spec.dir + "/" + in.file, in.text));
  CC_TRY(writeText(spec.dir + "/driver.mlir", in.driver));
  CC_TRY(writeCheckFiles(spec));
  CC_TRY(writeScript(spec.dir + "/repro.sh",
                     repro::externalScript(check, ext.command, in.file,
                                           onModule(completion.pipeline),
                                           completion.llvmOptLevel,
                                           ext.syntaxVersion)));
  return std::string(
             "```sh\n./repro.sh            # exit 1: the bug is present; 0: "
             "fixed\n```\n\nNeeds the compiler under test, mlir-opt and "
             "mlir-runner from MLIR 22 (override with `REPRO_COMPILER`, "
             "`MLIR_OPT`, `MLIR_RUNNER`, `MLIR_C_RUNNER_UTILS`). It "
             "runs\n\n") +
         markdownBlock(ext.command + " < " + in.file + " > compiled.mlir",
                       "sh") +
         "\n(" + in.what +
         "), adds `@repro_main` (driver.mlir) to the "
         "compiled module, lowers the rest of the way with upstream "
         "`mlir-opt` (the pipeline `REPRO_PIPELINE` of repro.sh), runs it "
         "with mlir-runner and compares what `@repro_main` prints with "
         "the expected values.\n\n";
}

Expected<std::string> writeTorchRepro(const ReproSpec &spec, const Graph &g,
                                      const Inputs &inputs) {
  repro::Check check{spec.title, spec.table, spec.compare};
  CC_TRY(saveTorchScript(g, inputs, spec.dir + "/model.pt",
                         spec.dir + "/inputs.pt"));
  CC_TRY(writeText(spec.dir + "/repro.cpp", repro::torchProgram()));
  CC_TRY(writeCheckFiles(spec));
  CC_TRY(writeScript(spec.dir + "/repro.sh", repro::torchScript(check)));
  return std::string(
      "```sh\n./repro.sh            # exit 1: the bug is present; 0: "
      "fixed\n```\n\nNeeds only LibTorch (Debian's `libtorch-dev`; "
      "override with `CXX`, `TORCH_INCLUDE`, `TORCH_LIBS`). It builds "
      "`repro.cpp`, which loads the traced module `model.pt` "
      "(`torch::jit::load`), freezes it, runs `optimize_for_inference` and "
      "executes it twice on `inputs.pt` with the TensorExpr fuser on CPU "
      "(the profiling executor runs the fused graph the second time), and "
      "compares the printed outputs with the expected values.\n\n");
}

} // namespace

Error writeText(const std::string &path, const std::string &text) {
  return writeFile(path, text);
}

Expected<Repro> writeRepro(const ReproSpec &spec, const std::string &pipeline,
                           int optLevel, std::vector<std::string> &notes) {
  Repro r{pipeline, ""};
  std::string reproMlir = spec.program;
  if (!pipeline.empty()) {
    CC_ASSIGN(leaves, splitPipeline(pipeline));
    size_t cut = 0;
    for (size_t i = 0; i < leaves.size(); ++i)
      if (!isUpstreamPass(leaves[i].name))
        cut = i + 1;
    if (cut > 0)
      reproMlir = runOwnPasses(spec, leaves, cut, r, notes);
  }
  CC_TRY(writeText(spec.dir + "/repro.mlir", reproMlir));
  if (!r.pipeline.empty())
    CC_TRY(writeCheckFiles(spec));
  std::string script =
      r.pipeline.empty()
          ? "#!/bin/sh\n# " + shellComment(spec.title) +
                "\necho 'not reproducible with upstream mlir-opt and "
                "mlir-runner (see README.md)' >&2\nexit 2\n"
          : repro::mlirScript({spec.title, spec.table, spec.compare},
                              r.pipeline, optLevel);
  CC_TRY(writeScript(spec.dir + "/repro.sh", script));
  return r;
}

Expected<std::string> writeOtherRepro(const ReproSpec &spec,
                                      const std::string &cut, const Graph &g,
                                      const Inputs &inputs) {
  if (cut.starts_with("mlir-ext")) {
    CC_ASSIGN(ext, externalOfSpec(cut));
    CC_ASSIGN(tosa, emitModule(g, ext.syntaxVersion));
    CC_ASSIGN(func, functionName(tosa));
    return writeExternalRepro(spec, ext,
                              {"tosa.mlir", tosa, driverText(g, inputs, func),
                               "tosa.mlir in MLIR " +
                                   std::to_string(ext.syntaxVersion) +
                                   "'s TOSA syntax"},
                              ext.completion);
  }
  if (cut == "torchscript")
    return writeTorchRepro(spec, g, inputs);
  return std::string();
}

Expected<std::string> writeExternalProgramRepro(const ReproSpec &spec,
                                                const std::string &cut,
                                                const MlirProgram &p,
                                                const Inputs &inputs,
                                                const std::string &completion) {
  CC_ASSIGN(ext, externalOfSpec(cut));
  return writeExternalRepro(
      spec, ext,
      {"program.mlir", toOlderSyntax(p.mlir, ext.syntaxVersion),
       driverText(p.args, p.results, inputs, p.name),
       ext.syntaxVersion < 22
           ? "program.mlir, the program as the campaign "
             "gave it, in MLIR " +
                 std::to_string(ext.syntaxVersion) + "'s syntax"
           : "program.mlir, the program as the campaign "
             "gave it"},
      {"straight", "", completion, 0});
}

int runRepro(const std::string &dir, Kind kind) {
  // Each tool in the script is bounded by its own REPRO_TIMEOUT (120 s);
  // this bounds the script as a whole.
  process::ChildOptions o;
  o.outputPath = dir + "/repro.out";
  o.limits = RunLimits::timeOnly(600);
  auto r = process::runProgram({"/bin/sh", dir + "/repro.sh"}, o);
  int status = r && !r->timedOut && !r->signal ? r->exitCode : -1;
  if (status != 1)
    return status;
  auto out = readFile(dir + "/repro.out");
  auto shows = [&](const char *what) {
    return out && out->find(what) != std::string::npos;
  };
  switch (kind) {
  case Kind::Miscompile:
  case Kind::TvIncorrect:
  case Kind::RefDisagreement:
    return shows("output elements differ") ? 1 : 3;
  case Kind::Crash:
    return shows(" crashed (signal") ? 1 : 3;
  case Kind::Timeout:
    return shows(" hung (killed") ? 1 : 3;
  default:
    return 1;
  }
}

} // namespace cc::bundle
