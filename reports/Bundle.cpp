// Bug bundles: writeBundle runs the pieces of BundleInternal.h in order.
#include "reports/BundleInternal.h"

#include "backends/Registry.h"
#include "backends/mlir/MlirBackend.h"
#include "backends/mlir/PassPipeline.h"
#include "backends/ref/Interpreter.h"
#include "core/File.h"
#include "core/Json.h"
#include "core/Npy.h"
#include "oracles/Program.h"
#include "reducers/Reduce.h"

#include <filesystem>

namespace cc {

using namespace bundle;

namespace {

// The in-process pipeline of an MLIR cut and its LLVM -O level; no
// pipeline for other cuts.
struct Lowering {
  std::string pipeline;
  int optLevel = 0;
};

Lowering cutPipeline(const std::string &cut) {
  std::optional<NamedPipeline> p = pipelineOfSpec(cut);
  if (!p)
    return {};
  return {onModule(p->pipeline), p->llvmOptLevel};
}

// A program's pipeline with upstream passes for the straight lowering's
// own (backends/mlir/Straight.cpp): no TOSA to convert; for
// cc-replay-expand, arith-expand (ceildiv/floordiv, bf16 casts; it also
// rewrites maximumf/minimumf) and lower-vector-multi-reduction, each when
// the program has what it lowers.
Expected<std::string> upstreamPipeline(const std::string &pipeline,
                                       const std::string &program) {
  CC_ASSIGN(leaves, splitPipeline(pipeline));
  auto has = [&](const char *word) {
    return program.find(word) != std::string::npos;
  };
  std::vector<PipelineLeaf> out;
  for (const PipelineLeaf &l : leaves) {
    if (l.name == "cc-replay-expand") {
      if (has("ceildiv") || has("floordiv") || has("bf16"))
        out.push_back({l.anchors, "arith-expand", "{include-bf16=true}"});
      if (has("vector.multi_reduction"))
        out.push_back({l.anchors, "lower-vector-multi-reduction", ""});
    }
    if (!l.name.starts_with("cc-"))
      out.push_back(l);
  }
  return joinPipeline(out);
}

// The reference outputs, in f64 (with the magnitudes of their terms) and
// in the target precision; none when the reference cannot run the case.
struct References {
  Outputs ref, target, magnitudes;
  bool ok = false;
};

// One bundle, written step by step; the README's facts gather on the way.
class Writer {
public:
  Writer(const FindingRecord &original, const std::string &dir,
         const BundleOptions &options)
      : original(original), sig(original.finding.signature), dir(dir),
        options(options), f(original) {
    facts.original = &original;
    facts.options = &options;
    facts.result = &result;
    facts.dir = dir;
  }
  Expected<BundleResult> write();

private:
  Expected<BundleResult> writeProgram();
  Expected<Expectation> programExpectation();
  Error finish();
  void bisect();
  Expected<References> writeCaseFiles();
  Error writeRepros(const ReproSpec &spec);
  Error verifyRepro(const ReproSpec &spec);
  Error traceCulprit();
  void rerun(const References &refs, const Expectation &expect);

  const FindingRecord &original;
  const Signature &sig;
  const std::string dir;
  const BundleOptions &options;
  // verifyRepro may fall back to the whole pipeline (graphs).
  bool fallBack = true;
  FindingRecord f;   // the finding, its case reduced by the bisection
  Lowering lowering; // of f's cut
  BundleResult result;
  Repro repro;
  ReadmeFacts facts;
};

Expected<BundleResult> Writer::write() {
  if (f.testCase.program)
    return writeProgram();
  CC_TRY(verify(f.testCase.graph).withContext("finding graph"));
  lowering = cutPipeline(f.testCase.cut);
  if (!lowering.pipeline.empty() && options.bisect &&
      sig.kind != Kind::RefDisagreement)
    bisect();
  if (result.culprit.empty() && !sig.stage.empty())
    result.culprit = sig.stage;
  const Graph &g = f.testCase.graph;
  CC_ASSIGN(refs, writeCaseFiles());
  CC_TRY(writeText(dir + "/graph.dot", graphDot(g)));
  facts.svg = renderSvg(dir);
  if (!facts.svg)
    result.notes.push_back("Graphviz 'dot' is not installed: no graph.svg");

  CC_ASSIGN(texts, programText(g, f.testCase.inputs));
  facts.tosa = texts.tosa;
  CC_TRY(writeText(dir + "/input.mlir", texts.program));
  bool passesComplete = sig.kind == Kind::Miscompile ||
                        sig.kind == Kind::TvIncorrect ||
                        sig.kind == Kind::RefDisagreement;
  Expectation expect;
  if (refs.ok)
    expect = expectations(g, refs.ref, refs.target, refs.magnitudes);
  std::string title = std::string(kindName(sig.kind)) + ": " + sig.str();
  ReproSpec spec{dir,          title,   texts.program,
                 expect.table, refs.ok, passesComplete};
  CC_TRY(writeRepros(spec));
  CC_TRY(verifyRepro(spec));
  if (passesComplete)
    CC_TRY(traceCulprit());
  if (refs.ok && options.notRun.empty())
    rerun(refs, expect);
  CC_TRY(finish());
  return result;
}

// The README and ISSUE.md, from the facts gathered.
Error Writer::finish() {
  facts.cut = f.testCase.cut;
  facts.pipeline = lowering.pipeline;
  facts.optLevel = lowering.optLevel;
  facts.splitNote = repro.splitNote;
  CC_TRY(writeText(dir + "/README.md", readmeText(facts)));
  return writeText(dir + "/ISSUE.md", issueText(facts));
}

// A mid-level program's bundle: the program with @repro_main, its expected
// values (the straight lowering's, compared exactly) and repro.sh for the
// pipeline that bisection reduced (upstream passes only, as a rule: the
// straight lowering's own passes are rarely needed to show a failure).
Expected<BundleResult> Writer::writeProgram() {
  if (sig.kind == Kind::RefDisagreement)
    return Error::failure("a disagreement of crosscheck's own references "
                          "(the straight lowering and the program's "
                          "encoding) is no upstream bug: no bundle; the "
                          "finding file holds the program and its inputs",
                          ErrorCode::Unsupported);
  facts.program = true;
  lowering = cutPipeline(f.testCase.cut);
  if (!lowering.pipeline.empty() && options.bisect)
    bisect();
  if (result.culprit.empty() && !sig.stage.empty())
    result.culprit = sig.stage;
  // repro.sh runs the whole pipeline: a reduced one need not lower
  // @repro_main, and its own passes would run here, culprit included.
  if (!lowering.pipeline.empty()) {
    CC_ASSIGN(whole,
              upstreamPipeline(cutPipeline(original.testCase.cut).pipeline,
                               f.testCase.program->mlir));
    lowering.pipeline = whole;
    lowering.optLevel = cutPipeline(original.testCase.cut).optLevel;
    fallBack = false;
  }
  const MlirProgram &p = *f.testCase.program;
  CC_TRY(saveFinding(dir + "/finding.json", original));
  CC_TRY(writeText(dir + "/input.mlir", p.mlir));
  facts.tosa = p.mlir;
  bool wrongValues = sig.kind == Kind::Miscompile;
  Expectation expect;
  if (wrongValues) {
    CC_ASSIGN(e, programExpectation());
    expect = e;
  }
  std::string title = std::string(kindName(sig.kind)) + ": " + sig.str();
  ReproSpec spec{dir,          title,       programText(p, f.testCase.inputs),
                 expect.table, wrongValues, wrongValues};
  CC_TRY(writeRepros(spec));
  CC_TRY(verifyRepro(spec));
  if (wrongValues)
    CC_TRY(traceCulprit());
  CC_TRY(finish());
  return result;
}

// The straight lowering's outputs: what the program computes.
Expected<Expectation> Writer::programExpectation() {
  CC_ASSIGN(straight, makeBackend(kProgramReference));
  RunOptions ro;
  ro.limits = f.testCase.limits;
  const Inputs &in = f.testCase.inputs;
  auto out = std::move(
      straight->runProgramSets(*f.testCase.program, {&in}, ro).front());
  if (!out)
    return out.error().withContext("the straight lowering");
  return exactExpectations(*out, zeroSignOpen(*f.testCase.program));
}

// The culprit: bisect the pipeline (this also shrinks it to the passes
// the failure needs, checked by re-running every candidate), unless the
// case's reduction did already.
void Writer::bisect() {
  if (f.reduction && f.reduction->bisected) {
    result.culprit = f.reduction->culprit;
    if (result.culprit.empty())
      result.notes.push_back("the bisection did not isolate one pass");
    return;
  }
  ReduceOptions ro;
  ro.reduceGraph = false;
  ro.budgetSeconds = options.bisectBudgetSeconds;
  ro.jobs = options.jobs;
  auto reduced = reduceFinding(f, ro);
  if (!reduced) {
    result.notes.push_back("bisection: " + reduced.error().message());
    return;
  }
  result.culprit = reduced->firstFailingPass;
  f.testCase = reduced->reduced.testCase;
  lowering = cutPipeline(f.testCase.cut);
  if (result.culprit.empty())
    result.notes.push_back("the bisection did not isolate one pass");
}

// finding.json (the original), graph.json, the inputs (inputs/<name>.npy,
// as `crosscheck run --inputs` reads them) and the expected outputs.
Expected<References> Writer::writeCaseFiles() {
  const Graph &g = f.testCase.graph;
  const Inputs &inputs = f.testCase.inputs;
  CC_TRY(saveFinding(dir + "/finding.json", original));
  CC_TRY(writeText(dir + "/graph.json", printGraph(g)));
  CC_TRY(makeDirectory(dir + "/inputs"));
  for (size_t i = 0; i < inputs.size() && i < g.inputs.size(); ++i)
    CC_TRY(writeNpy(inputFile(dir, g, i), inputs[i]));
  References r;
  auto ref = interpret(g, inputs, Precision::F64, &r.magnitudes);
  auto target = interpret(g, inputs, Precision::Target);
  if (!ref || !target) {
    result.notes.push_back("no expected values: " +
                           (ref ? target.error() : ref.error()).message());
    return r;
  }
  for (size_t i = 0; i < ref->size(); ++i)
    CC_TRY(
        writeNpy(dir + "/expected_" + std::to_string(i) + ".npy", (*ref)[i]));
  r.ref = std::move(*ref);
  r.target = std::move(*target);
  r.ok = true;
  return r;
}

Error Writer::writeRepros(const ReproSpec &spec) {
  CC_ASSIGN(written, writeRepro(spec, lowering.pipeline, lowering.optLevel,
                                result.notes));
  repro = written;
  if (!lowering.pipeline.empty())
    return Error::success();
  // How a compiler that is not an MLIR pipeline reproduces (README words).
  const TestCase &c = f.testCase;
  if (c.program && !c.cut.starts_with("mlir-ext")) {
    result.notes.push_back("the compiler under test '" + c.cut +
                           "' is not an MLIR pass pipeline nor an external "
                           "*-opt command: repro.sh does not rerun it on a "
                           "program");
    return Error::success();
  }
  std::string how;
  if (c.program) {
    // Completed as the campaign completed it: the straight lowering, in
    // upstream passes.
    CC_ASSIGN(completion,
              upstreamPipeline(onModule(straightLowering().pipeline),
                               c.program->mlir));
    CC_ASSIGN(text, writeExternalProgramRepro(spec, c.cut, *c.program, c.inputs,
                                              completion));
    how = text;
  } else {
    CC_ASSIGN(text, writeOtherRepro(spec, c.cut, c.graph, c.inputs));
    how = text;
  }
  facts.otherHow = how;
  if (how.empty())
    result.notes.push_back("the compiler under test '" + c.cut +
                           "' is neither an MLIR pass pipeline, an external "
                           "*-opt command nor TorchScript: repro.sh cannot "
                           "reproduce it with upstream tools");
  return Error::success();
}

// Checked with the upstream tools: a pipeline that bisection reduced may
// fail in crosscheck's JIT but not in mlir-runner (other LLVM options);
// then the bundle falls back to the whole pipeline.
Error Writer::verifyRepro(const ReproSpec &spec) {
  int &status = facts.status;
  Lowering whole = cutPipeline(original.testCase.cut);
  if (!options.notRun.empty()) {
    result.notes.push_back(options.notRun);
  } else if (!repro.pipeline.empty() && options.verify) {
    status = runRepro(dir, sig.kind);
    if (status != 1 && fallBack && lowering.pipeline != whole.pipeline) {
      result.notes.push_back(
          "the reduced pipeline does not reproduce with upstream mlir-opt and "
          "mlir-runner (repro.sh exit status " +
          std::to_string(status) +
          "): repro.sh runs the whole pipeline of the finding" +
          (result.culprit.empty() || result.culprit == sig.stage
               ? std::string()
               : ", and the bisection's culprit (" + result.culprit +
                     ") is not trusted"));
      result.culprit = sig.stage;
      lowering = whole;
      CC_ASSIGN(again,
                writeRepro(spec, whole.pipeline, whole.optLevel, result.notes));
      repro = again;
      status = runRepro(dir, sig.kind);
    }
  } else if (!facts.otherHow.empty() && options.verify) {
    status = runRepro(dir, sig.kind);
  }
  if (status >= 0 && status != 1)
    result.notes.push_back(
        "repro.sh does not show the bug with the upstream tools here (" +
        (status == 3 ? std::string("it fails, but not in the way the finding "
                                   "does")
                     : "exit status " + std::to_string(status)) +
        ", see repro.out)");
  result.pipeline = repro.pipeline;
  return Error::success();
}

// The IR before and after the culprit pass (culprit-before.mlir,
// culprit-after.mlir).
Error Writer::traceCulprit() {
  if (lowering.pipeline.empty() || result.culprit.empty())
    return Error::success();
  auto steps = tracePipeline(facts.tosa, lowering.pipeline);
  if (!steps) {
    result.notes.push_back("cannot trace the pipeline: " +
                           steps.error().message());
    return Error::success();
  }
  std::string pass = result.culprit.substr(0, result.culprit.find('{'));
  for (const PassStep &s : *steps)
    if (s.pass == pass) {
      facts.culprit = s;
      CC_TRY(writeText(dir + "/culprit-before.mlir", s.before));
      return writeText(dir + "/culprit-after.mlir", s.after);
    }
  return Error::success();
}

// The actual outputs now, for the first mismatching elements.
void Writer::rerun(const References &refs, const Expectation &expect) {
  auto backend = makeBackend(f.testCase.cut);
  if (!backend) {
    facts.runNote = backend.error().message();
    return;
  }
  RunOptions ro;
  ro.limits = f.testCase.limits;
  auto actual = (*backend)->run(f.testCase.graph, f.testCase.inputs, ro);
  if (actual)
    facts.wrong = mismatches(f.testCase.graph, *actual, refs.ref, refs.target,
                             expect.allowed);
  else
    facts.runNote = actual.error().message();
}

} // namespace

std::string inputFile(const std::string &dir, const Graph &g, size_t i) {
  return dir + "/inputs/" + g.values.at(g.inputs.at(i)).name + ".npy";
}

Expected<BundleResult> writeBundle(const FindingRecord &original,
                                   const std::string &dir,
                                   const BundleOptions &options) {
  CC_TRY(makeDirectory(dir));
  return Writer(original, dir, options).write();
}

} // namespace cc
