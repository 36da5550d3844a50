// A bundle's ISSUE.md: the text of an upstream issue, with nothing of the
// tool that found the bug in it: a title, the pass, the input, the one
// command, expected versus actual, a line the maintainer fills with the
// sentence of the specification, and the versions.
#include "reports/BundleInternal.h"

#include "core/File.h"
#include "core/Format.h"
#include "core/Json.h"
#include "core/Quote.h"

#include <sstream>

namespace cc::bundle {

namespace {

size_t lineCount(const std::string &text) {
  size_t n = 0;
  for (char c : text)
    n += c == '\n';
  return n + (!text.empty() && text.back() != '\n');
}

// The first `maxLines` lines of `text`.
std::string firstLines(const std::string &text, size_t maxLines) {
  std::istringstream is(text);
  std::string line, out;
  for (size_t n = 0; n < maxLines && std::getline(is, line); ++n)
    out += line + "\n";
  return out;
}

// What repro.sh printed after its header lines (which name the tools'
// paths on the machine that wrote the bundle).
std::string reproFindings(const std::string &dir) {
  auto out = readFile(dir + "/repro.out");
  if (!out)
    return "";
  std::istringstream is(*out);
  std::string line, kept;
  for (size_t n = 0; std::getline(is, line) && n < 24;) {
    if (line.starts_with("input:") || line.starts_with("mlir-opt:") ||
        line.starts_with("mlir-runner:") || line.starts_with("pipeline:") ||
        line.starts_with("compiler:") || line.starts_with("model:"))
      continue;
    kept += line + "\n";
    ++n;
  }
  return kept;
}

// The culprit when upstream has it; the tool's own test passes (cc-*) are
// not named.
std::string upstreamCulprit(const ReadmeFacts &r) {
  const std::string &c = r.result->culprit;
  return c.starts_with("cc-") ? std::string() : c;
}

std::string title(const ReadmeFacts &r) {
  std::string culprit = upstreamCulprit(r);
  std::string who = culprit.empty() ? std::string("the pass pipeline")
                    : culprit.starts_with("LLVM back end")
                        ? culprit
                        : "`" + culprit + "`";
  switch (r.original->finding.signature.kind) {
  case Kind::Crash:
    return who + " crashes";
  case Kind::Timeout:
    return who + " does not terminate";
  case Kind::Verifier:
    return who + " produces IR that fails verification";
  case Kind::PassFailure:
    return who + " fails on valid input";
  case Kind::RefDisagreement:
    return "the reference implementations disagree";
  default:
    return who + " changes the result of the program";
  }
}

bool computesWrong(Kind k) {
  return k == Kind::Miscompile || k == Kind::TvIncorrect ||
         k == Kind::RefDisagreement;
}

void command(std::ostream &md, const ReadmeFacts &r) {
  md << "## Command\n\n";
  const std::string &pipeline = r.result->pipeline;
  if (!r.otherHow.empty()) {
    md << r.otherHow;
    return;
  }
  if (pipeline.empty()) {
    md << "Not reproducible with upstream tools alone: " << markdownCode(r.cut)
       << "\n\n";
    return;
  }
  Kind k = r.original->finding.signature.kind;
  std::string line =
      "mlir-opt repro.mlir --pass-pipeline=" + shellWord(pipeline);
  if (computesWrong(k))
    line += " |\n  mlir-runner -e repro_main -entry-point-result=void -O" +
            std::to_string(r.optLevel) +
            " -shared-libs=libmlir_c_runner_utils.so";
  md << markdownBlock(line, "sh") << "\n`./repro.sh` runs "
     << (computesWrong(k) ? "both and compares the printed values with "
                            "`expected.txt` (`compare.awk`)"
                          : "it")
     << "; it exits with status 1 while the bug is present and 0 once it is "
        "fixed.\n\n";
  if (!r.splitNote.empty())
    md << "`repro.mlir` is the program after test-only rewrites that "
          "upstream `mlir-opt` does not have; `input.mlir` is the program "
          "before them.\n\n";
}

void expectedVersusActual(std::ostream &md, const ReadmeFacts &r) {
  md << "## Expected versus actual\n\n";
  Kind k = r.original->finding.signature.kind;
  if (computesWrong(k) && r.program)
    md << "**Expected:** the values of `expected.txt` (one line per output "
          "element), exactly: what the program computes when lowered by "
          "direct conversions only (one-shot-bufferize, "
          "convert-linalg-to-loops, convert-*-to-llvm, none of the passes "
          "under test). The program has no undefined behaviour on these "
          "inputs.\n\n";
  else if (computesWrong(k))
    md << "**Expected:** the values of `expected.txt` (one line per output "
          "element, with the error allowed; also `expected_<i>.npy`), "
          "computed from the TOSA 1.0 semantics of the input in double "
          "precision.\n\n";
  else
    md << "**Expected:** `mlir-opt` lowers the input and the program runs "
          "to completion.\n\n";
  md << "**Actual:**\n\n";
  std::string printed = r.status >= 0 ? reproFindings(r.dir) : "";
  if (!printed.empty()) {
    md << "```\n" << printed << "```\n\n";
  } else if (!r.wrong.empty()) {
    md << "| output | element | expected | actual |\n|---|---|---|---|\n";
    for (size_t i = 0; i < r.wrong.size() && i < 10; ++i)
      md << "| " << r.wrong[i].output << " | " << r.wrong[i].index << " | "
         << formatDouble("%.9g", r.wrong[i].expected) << " | "
         << formatDouble("%.9g", r.wrong[i].actual) << " |\n";
    md << "\n";
  } else {
    md << "```\n" << firstLines(r.original->finding.message, 10) << "\n```\n\n";
  }
}

} // namespace

std::string issueText(const ReadmeFacts &r) {
  std::ostringstream md;
  md << "# [mlir] " << title(r) << "\n\n";
  std::string culprit = upstreamCulprit(r);
  md << "**Pass:** "
     << (culprit != r.result->culprit
             ? std::string("a test-only rewrite that upstream `mlir-opt` "
                           "does not have, applied to `repro.mlir` already")
         : culprit.empty()
             ? std::string("not isolated to one pass; the pipeline of the "
                           "command below shows it")
         : culprit.starts_with("LLVM back end")
             ? culprit + ": the failure needs LLVM's optimizer (it is gone "
                         "at -O0) and shows with the MLIR lowering alone"
             : "`" + culprit + "`" +
                   (r.options->bisect && !r.pipeline.empty()
                        ? " (the first pass of the pipeline after which the "
                          "failure shows)"
                        : ""))
     << "\n\n";

  auto program = readFile(r.dir + "/repro.mlir");
  std::string input = program ? *program : r.tosa;
  size_t lines = lineCount(input);
  md << "## Input\n\n`repro.mlir` (" << lines
     << " lines): the function under test"
     << (program ? " and `@repro_main`, which calls it on the inputs and "
                   "prints every output element (floats as their bit "
                   "patterns)"
                 : "")
     << ".\n\n```mlir\n"
     << firstLines(input, 60) << (lines > 60 ? "// ...\n" : "") << "```\n\n";
  command(md, r);
  expectedVersusActual(md, r);
  md << "## Why it is a bug\n\n"
     << (r.program
             ? "TODO (maintainer): quote the sentence of the dialect's "
               "documentation that the rewrite violates; the expected "
               "values are the program's own semantics, computed by "
               "direct conversions.\n\n"
             : "TODO (maintainer): quote the sentence of the TOSA "
               "specification or of the dialect's documentation that the "
               "actual output contradicts. The expected values come from "
               "an executable reading of TOSA 1.0; which sentence applies "
               "cannot be known without reading it.\n\n")
     << "## Versions\n\n- MLIR/LLVM " << CC_LLVM_VERSION
     << " (`repro.sh` prints the version of the `mlir-opt` it runs)\n";
  return md.str();
}

} // namespace cc::bundle
