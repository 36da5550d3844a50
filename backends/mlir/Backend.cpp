// The MLIR backend: spec parsing, emission, the external *-opt mode, and
// the hand-off to the in-process lowering and JIT (Jit.cpp).
#include "backends/mlir/Internal.h"
#include "backends/mlir/MlirBackend.h"
#include "process/Process.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
#include <regex>

namespace cc {

namespace {
using mlirbackend::LowerRequest;
using mlirbackend::Origin;

std::vector<TensorType> outputTypes(const Graph &g) {
  std::vector<TensorType> types;
  for (ValueId v : g.outputs)
    types.push_back(g.typeOf(v));
  return types;
}

std::string tail(const std::string &s, size_t n = 2000) {
  return s.size() <= n ? s : "..." + s.substr(s.size() - n);
}

class MlirBackend : public Backend {
public:
  std::string spec;
  std::string pipeline; // in-process pipeline (completion in ext mode)
  int llvmOptLevel = 0;
  std::string command; // external command, empty in-process
  int syntaxVersion = 22;

  std::string name() const override { return spec; }

  Support supports(const Graph &g) const override {
    auto text = emitModule(g, syntaxVersion);
    if (!text && text.error().code() == ErrorCode::Unsupported)
      return Support::no(text.error().message());
    return Support::yes();
  }

  Expected<Outputs> run(const Graph &g, const Inputs &inputs,
                        const RunOptions &options) override {
    return std::move(runSets(g, {&inputs}, options).front());
  }

  // Emits (and runs the external command) once for every set.
  std::vector<Expected<Outputs>> runSets(const Graph &g, const InputSets &sets,
                                         const RunOptions &options) override {
    auto start = std::chrono::steady_clock::now();
    auto text = emitModule(g, syntaxVersion);
    if (!text)
      return everySet(sets, text.error());
    addStageTime(options.times, "emit", start);
    return runText(*text, "emitted module", g.name, outputTypes(g), pipeline,
                   sets, options);
  }

  // An external compiler's output is completed by the straight lowering,
  // the programs' reference (no arith-expand, which rewrites maxnumf and
  // maximumf). An older release gets the program in its syntax; one it
  // still cannot parse is unsupported, not a finding (an op it lacks).
  std::vector<Expected<Outputs>>
  runProgramSets(const MlirProgram &p, const InputSets &sets,
                 const RunOptions &options) override {
    if (command.empty())
      return runText(p.mlir, "program", p.name, p.results, pipeline, sets,
                     options);
    std::string text = toOlderSyntax(p.mlir, syntaxVersion);
    if (Error e = checkExternalParses(text, options))
      return everySet(sets, std::move(e));
    return runText(text, "program", p.name, p.results,
                   straightLowering().pipeline, sets, options);
  }

private:
  static std::vector<Expected<Outputs>> everySet(const InputSets &sets,
                                                 Error e) {
    return std::vector<Expected<Outputs>>(sets.size(), std::move(e));
  }

  // Runs `text` through the external command (if any), then `lowering`.
  std::vector<Expected<Outputs>>
  runText(const std::string &text, const char *what, const std::string &func,
          const std::vector<TensorType> &resultTypes,
          const std::string &lowering, const InputSets &sets,
          const RunOptions &options) {
    LowerRequest req{&text, Origin::Crosscheck, what,
                     func,  lowering,           llvmOptLevel};
    if (command.empty())
      return mlirbackend::lowerAndRunSets(req, resultTypes, sets, options);

    auto start = std::chrono::steady_clock::now();
    auto external = runExternal(text, options);
    if (!external)
      return everySet(sets, external.error());
    double took = addStageTime(options.times, "external", start);
    // Read in MLIR 22's syntax; the tool is asked about what it printed.
    std::string output = fromOlderSyntax(*external, syntaxVersion);
    req.module = &output;
    req.origin = Origin::External;
    req.originName = "output of '" + command + "'";
    // The time limit covers the whole run.
    RunOptions rest = options;
    rest.limits.timeoutSeconds =
        std::max(options.limits.timeoutSeconds - took, 0.001);
    auto results = mlirbackend::lowerAndRunSets(req, resultTypes, sets, rest);
    if (syntaxVersion != 22)
      excuseOlderSyntax(results, *external, options);
    return results;
  }

  // What MLIR said, without where: "'tosa.const' op requires attribute
  // 'values'" of "... loc(...): error: 'tosa.const' op ... note: ...".
  static std::string diagnosticOf(const std::string &message) {
    size_t at = message.find("error: ");
    std::string d = at == std::string::npos ? message : message.substr(at + 7);
    d = d.substr(0, std::min(d.find(" note: "), d.find('\n')));
    return d.substr(0, 300);
  }

  // The command's first word when it is an *-opt tool (mlir-opt-19), which
  // may be run alone to read text back; other commands are not run without
  // their arguments.
  std::string optTool() const {
    size_t begin = command.find_first_not_of(" \t");
    std::string tool = command.substr(begin, command.find(' ', begin) - begin);
    static const std::regex opt(R"((^|.*/)[A-Za-z0-9_.-]*-opt(-[0-9]+)?$)");
    return std::regex_match(tool, opt) ? tool : "";
  }

  // Whether the *-opt tool reads `text` back (empty: no such tool).
  Expected<std::optional<std::string>> toolRejects(const std::string &text,
                                                   const RunOptions &options) {
    std::string tool = optTool();
    if (tool.empty())
      return std::optional<std::string>();
    CC_ASSIGN(r, process::runShell(tool, text, options.limits));
    if (r.exitCode == 0 && !r.signal && !r.timedOut)
      return std::optional<std::string>();
    // Its first error without where it was: one missing feature, one
    // reason however many cases show it.
    if (r.err.find("error: ") == std::string::npos)
      return std::optional<std::string>(tail(r.err, 300));
    return std::optional<std::string>("error: " + diagnosticOf(r.err));
  }

  Error checkExternalParses(const std::string &text,
                            const RunOptions &options) {
    CC_ASSIGN(rejects, toolRejects(text, options));
    if (!rejects)
      return Error::success();
    return Error::failure("'" + optTool() +
                              "' cannot read the program: " + *rejects,
                          ErrorCode::Unsupported);
  }

  // An older release's output (MLIR 19) that crosscheck's MLIR 22 cannot
  // parse or verify where the syntaxes differ (tosa.const's `value` became
  // `values`) is crosscheck's limit, not the compiler's finding, when the
  // compiler's own tool reads it back; when the tool rejects it too, or
  // there is no tool to ask, it stays the finding.
  void excuseOlderSyntax(std::vector<Expected<Outputs>> &results,
                         const std::string &output, const RunOptions &options) {
    auto unreadable = [](const Expected<Outputs> &r) {
      if (r)
        return false;
      const std::string &m = r.error().message();
      return m.starts_with("cannot parse the ") ||
             m.find(" fails the verifier: ") != std::string::npos;
    };
    std::string tool = optTool();
    if (tool.empty() ||
        std::none_of(results.begin(), results.end(), unreadable))
      return;
    auto rejects = toolRejects(output, options);
    if (!rejects || *rejects)
      return;
    for (Expected<Outputs> &r : results)
      if (unreadable(r))
        r = Error::failure("not read: '" + tool +
                               "' reads its own output, but "
                               "crosscheck's MLIR 22 cannot (MLIR " +
                               std::to_string(syntaxVersion) +
                               " syntax): " + diagnosticOf(r.error().message()),
                           ErrorCode::Unsupported);
  }

  // Runs the external command; its failures are findings.
  Expected<std::string> runExternal(const std::string &text,
                                    const RunOptions &options) {
    double timeoutSeconds = options.limits.timeoutSeconds;
    CC_ASSIGN(r, process::runShell(command, text, options.limits));
    std::string who = "'" + command + "'" +
                      process::memoryNote(r, options.limits.memoryBytes);
    using K = CompilerFault::Kind;
    if (r.outputOverflow)
      return compilerFault(
          who + " wrote more than " +
              std::to_string(process::kMaxExternalOutputBytes >> 20) +
              " MiB to standard output",
          K::Failed);
    if (r.timedOut)
      return compilerFault(who + " timed out after " +
                               std::to_string(timeoutSeconds) + " s",
                           K::TimedOut);
    // A shell reports a child killed by signal N as exit status 128+N.
    int sig = r.signal ? r.signal
                       : (r.exitCode > 128 && r.exitCode < 128 + NSIG
                              ? r.exitCode - 128
                              : 0);
    CompilerFault fault;
    fault.kind = r.outOfMemory ? K::OutOfMemory : K::Failed;
    fault.diagnostic = tail(r.err);
    if (sig) {
      fault.kind = r.outOfMemory ? K::OutOfMemory : K::Crashed;
      fault.signal = sig;
      return compilerFault(who + " crashed with signal " + std::to_string(sig) +
                               " (" + strsignal(sig) +
                               "); stderr: " + tail(r.err),
                           std::move(fault));
    }
    // The shell's "command not found" (127) and "not executable" (126) are
    // a setup error of the user, not a bug of the compiler under test.
    if (r.exitCode == 126 || r.exitCode == 127)
      return makeError(
          who + " could not be run (" +
          (r.exitCode == 127 ? "command not found" : "not executable") +
          "): " + tail(r.err));
    if (r.exitCode != 0)
      return compilerFault(who + " failed with exit status " +
                               std::to_string(r.exitCode) +
                               "; stderr: " + tail(r.err),
                           std::move(fault));
    return std::move(r.out);
  }
};

bool startsWith(const std::string &s, const std::string &prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

Expected<std::unique_ptr<Backend>> makeExternal(const std::string &spec) {
  CC_ASSIGN(ext, externalOfSpec(spec));
  auto b = std::make_unique<MlirBackend>();
  b->spec = spec;
  b->command = ext.command;
  b->syntaxVersion = ext.syntaxVersion;
  b->pipeline = ext.completion.pipeline;
  b->llvmOptLevel = ext.completion.llvmOptLevel;
  return std::unique_ptr<Backend>(std::move(b));
}

std::string pipelineNames() {
  std::string names;
  for (const NamedPipeline &p : namedPipelines())
    names += (names.empty() ? "" : ", ") + p.name;
  return names;
}
} // namespace

Expected<ExternalCompiler> externalOfSpec(const std::string &spec) {
  if (!startsWith(spec, "mlir-ext"))
    return makeError("bad spec '" + spec + "': expected mlir-ext:COMMAND");
  std::string rest = spec.substr(std::strlen("mlir-ext"));
  int version = 0;
  if (startsWith(rest, "[")) {
    size_t close = rest.find(']');
    std::string v = close == std::string::npos ? "" : rest.substr(1, close - 1);
    if (v != "19" && v != "22")
      return makeError("bad spec '" + spec +
                       "': expected mlir-ext[19]:CMD or mlir-ext[22]:CMD");
    version = std::stoi(v);
    rest = rest.substr(close + 1);
  }
  if (!startsWith(rest, ":") || rest.size() == 1)
    return makeError("bad spec '" + spec + "': expected mlir-ext:COMMAND");
  std::string command = rest.substr(1);
  size_t begin = command.find_first_not_of(" \t");
  if (begin == std::string::npos)
    return makeError("bad spec '" + spec + "': the command is empty");
  if (!version) {
    std::string first = command.substr(begin);
    first = first.substr(0, first.find(' '));
    version =
        first.size() >= 3 && first.substr(first.size() - 3) == "-19" ? 19 : 22;
  }
  return ExternalCompiler{command, version, completionLowering()};
}

std::optional<NamedPipeline> pipelineOfSpec(const std::string &spec) {
  if (!startsWith(spec, "mlir:"))
    return std::nullopt;
  std::string what = spec.substr(5);
  // User pipelines run at LLVM -O2, a typical production setting, or at
  // the level they name (pipeline-O3=...).
  if (startsWith(what, "pipeline="))
    return NamedPipeline{"", "", what.substr(9), 2};
  if (what.size() > 12 && startsWith(what, "pipeline-O") && what[10] >= '0' &&
      what[10] <= '3' && what[11] == '=')
    return NamedPipeline{"", "", what.substr(12), what[10] - '0'};
  for (const NamedPipeline &p : namedPipelines())
    if (p.name == what)
      return p;
  return std::nullopt;
}

Expected<std::unique_ptr<Backend>> makeMlirBackend(const std::string &spec) {
  if (startsWith(spec, "mlir-ext"))
    return makeExternal(spec);
  if (!startsWith(spec, "mlir:"))
    return makeError("bad backend spec '" + spec +
                     "': expected mlir:NAME, mlir:pipeline[-O0..3]=TEXT or "
                     "mlir-ext:COMMAND");
  std::optional<NamedPipeline> p = pipelineOfSpec(spec);
  if (!p)
    return makeError("unknown pipeline '" + spec.substr(5) + "' (known: " +
                     pipelineNames() + "; or mlir:pipeline=TEXT)");
  if (p->name.empty()) // a textual pipeline, not a named one
    CC_TRY(mlirbackend::checkPipeline(p->pipeline));
  auto b = std::make_unique<MlirBackend>();
  b->spec = spec;
  b->pipeline = p->pipeline;
  b->llvmOptLevel = p->llvmOptLevel;
  return std::unique_ptr<Backend>(std::move(b));
}

Expected<Outputs> runMlirModule(const std::string &module,
                                const std::string &funcName,
                                const std::vector<TensorType> &resultTypes,
                                const Inputs &inputs,
                                const std::string &pipeline, int llvmOptLevel,
                                const RunOptions &options) {
  LowerRequest req{&module,  Origin::Crosscheck, "input module",
                   funcName, pipeline,           llvmOptLevel};
  return mlirbackend::lowerAndRun(req, resultTypes, inputs, options);
}

std::vector<Expected<Outputs>>
runMlirModuleSets(const std::string &module, const std::string &funcName,
                  const std::vector<TensorType> &resultTypes,
                  const InputSets &sets, const std::string &pipeline,
                  int llvmOptLevel, const RunOptions &options) {
  LowerRequest req{&module,  Origin::Crosscheck, "input module",
                   funcName, pipeline,           llvmOptLevel};
  return mlirbackend::lowerAndRunSets(req, resultTypes, sets, options);
}

} // namespace cc
