// A bundle's README.md: what happened, how to reproduce it, the graph, the
// culprit pass, the numeric evidence and what the bundle could not do.
#include "reports/BundleInternal.h"

#include "core/File.h"
#include "core/Format.h"
#include "core/Json.h"
#include "core/Quote.h"
#include "reports/CiOutputs.h"

#include <sstream>
#include <sys/utsname.h>

namespace cc::bundle {

namespace {

using nlohmann::json;

std::string shortNum(double v) { return formatDouble("%.6g", v); }

std::string jsonNumber(const json &j) {
  if (j.is_number())
    return shortNum(j.get<double>());
  return j.is_string() ? j.get<std::string>() : jsonText(j);
}

// At most `maxLines` lines, saying how many were left out.
std::string clip(const std::string &text, size_t maxLines) {
  std::istringstream is(text);
  std::string line, out;
  size_t n = 0, total = 0;
  while (std::getline(is, line)) {
    if (n < maxLines)
      out += line + "\n", ++n;
    ++total;
  }
  if (total > n)
    out += "// ... " + std::to_string(total - n) + " more lines\n";
  return out;
}

const json *findKey(const json &j, const std::string &key) {
  if (j.is_object()) {
    if (j.contains(key))
      return &j[key];
    for (const auto &[k, v] : j.items())
      if (const json *f = findKey(v, key))
        return f;
  }
  return nullptr;
}

std::string versions() {
  std::string s = "- MLIR/LLVM (crosscheck's in-process compiler): " +
                  std::string(CC_LLVM_VERSION) + "\n";
#ifdef __VERSION__
  s += "- host C++ compiler of crosscheck: " + std::string(__VERSION__) + "\n";
#endif
  struct utsname u;
  if (uname(&u) == 0)
    s += "- system: " + std::string(u.sysname) + " " + u.release + " " +
         u.machine + "\n";
  s += "- repro.sh prints the version of the mlir-opt it runs\n";
  return s;
}

void whatHappened(std::ostream &md, const ReadmeFacts &r) {
  const FindingRecord &original = *r.original;
  const Signature &sig = original.finding.signature;
  md << "# " << kindName(sig.kind) << ": `" << sig.str() << "`\n\n"
     << "Found by crosscheck (signature fingerprint `"
     << signatureFingerprint(sig) << "`, campaign seed "
     << original.testCase.seed << ", case " << original.testCase.index
     << ") on the compiler under test `" << original.testCase.cut << "`.\n\n"
     << "## What happened\n\n";
  if (r.program && sig.kind == Kind::Miscompile)
    md << "**Expected:** the compiled program computes exactly what the "
          "straight lowering computes (`mlir:straight`: direct conversions "
          "only, none of the passes under test); the program is free of "
          "undefined behaviour by construction (crosscheck's "
          "docs/PROGRAMS.md).\n\n";
  else if (sig.kind == Kind::Miscompile || sig.kind == Kind::TvIncorrect)
    md << "**Expected:** the compiled program computes the graph's outputs "
          "as the reference interpreter does (TOSA 1.0 semantics in f64), "
          "within the tolerance below.\n\n";
  else
    md << "**Expected:** the pipeline lowers the program and it runs to "
          "completion.\n\n";
  md << "**What happened:** " << kindDescription(sig.kind) << " "
     << original.finding.message << "\n\n";
}

// What repro.sh printed when the bundle was written.
void reproStatus(std::ostream &md, const ReadmeFacts &r) {
  if (r.status < 0)
    return;
  auto out = readFile(r.dir + "/repro.out");
  md << "When this bundle was written, `./repro.sh` exited with status "
     << (r.status == 3 ? 1 : r.status)
     << (r.status == 1   ? " (the bug shows)"
         : r.status == 3 ? " (a failure other than the finding's)"
                         : "")
     << ":\n\n```\n"
     << (out ? clip(*out, 30) : std::string()) << "```\n\n";
}

void reproduce(std::ostream &md, const ReadmeFacts &r) {
  md << "## Reproduce\n\n";
  if (!r.otherHow.empty()) {
    md << r.otherHow;
    reproStatus(md, r);
  } else if (r.result->pipeline.empty()) {
    md << "Not with upstream tools alone (see *Limits of this bundle*): the "
          "compiler under test is "
       << markdownCode(r.cut)
       << ". `finding.json` replays it with crosscheck.\n\n";
  } else {
    md << "```sh\n./repro.sh            # exit 1: the bug is present; 0: "
          "fixed\n```\n\nNeeds only `mlir-opt` and `mlir-runner` from MLIR "
          "22 (override with `MLIR_OPT`, `MLIR_RUNNER`, "
          "`MLIR_C_RUNNER_UTILS`). It runs\n\n"
       << markdownBlock("mlir-opt repro.mlir --pass-pipeline=" +
                            shellWord(r.result->pipeline) +
                            " |\n  mlir-runner -e repro_main "
                            "-entry-point-result=void -O" +
                            std::to_string(r.optLevel) +
                            " -shared-libs=libmlir_c_runner_utils.so",
                        "sh")
       << "\nand compares what `@repro_main` prints with the expected "
          "values.\n\n";
    if (!r.splitNote.empty())
      md << r.splitNote << "\n\n";
    reproStatus(md, r);
  }
}

void programAndCulprit(std::ostream &md, const ReadmeFacts &r);
void culprit(std::ostream &md, const ReadmeFacts &r);

void graphAndCulprit(std::ostream &md, const ReadmeFacts &r) {
  if (r.program)
    return programAndCulprit(md, r);
  md << "## The graph\n\n";
  md << "<table><tr><td>\n\n"
     << (r.svg ? "<img src=\"graph.svg\" alt=\"the graph\">"
               : "(graph.dot: Graphviz was not installed)")
     << "\n\n</td><td>\n\n<pre>\n"
     << xmlText(clip(r.tosa, 60)) << "</pre>\n\n</td></tr></table>\n\n";
  md << "The inputs are `inputs/<name>.npy` (`crosscheck run graph.json "
        "--inputs inputs` replays the case), the f64 reference outputs "
        "`expected_<i>.npy`.\n\n";
  culprit(md, r);
}

void programAndCulprit(std::ostream &md, const ReadmeFacts &r) {
  md << "## The program\n\n`input.mlir`, as generated (crosscheck's "
        "mid-level generator) and reduced:\n\n```mlir\n"
     << clip(r.tosa, 60)
     << "```\n\nIts inputs are the globals of `@repro_main` in "
        "`repro.mlir`; `finding.json` replays the case "
        "(`crosscheck reduce finding.json`).\n\n";
  culprit(md, r);
}

void culprit(std::ostream &md, const ReadmeFacts &r) {
  md << "## Culprit\n\n";
  const BundleResult &result = *r.result;
  if (result.culprit.empty()) {
    md << "Not isolated to one pass by this bundle"
       << (result.notes.empty() ? "" : " (see *Limits of this bundle* below)")
       << "; the pipeline of *Reproduce* shows the failure.\n\n";
    return;
  }
  md << "`" << result.culprit << "`"
     << (r.options->bisect && !r.pipeline.empty()
             ? ": the first pass after which the failure shows (bisection of "
               "the pipeline, completed by the straight lowering)."
             : ": the stage named by the finding.")
     << "\n\n";
  if (r.culprit)
    md << "IR before `" << r.culprit->pass
       << "` (culprit-before.mlir):\n\n```mlir\n"
       << clip(r.culprit->before, 80) << "```\n\nIR after it "
       << "(culprit-after.mlir):\n\n```mlir\n"
       << clip(r.culprit->after, 80) << "```\n\n";
}

void numericEvidence(std::ostream &md, const ReadmeFacts &r) {
  if (r.program)
    return; // compared exactly: the message names the first difference
  md << "## Numeric evidence\n\n";
  const json *numeric = findKey(r.original->evidence, "numeric");
  if (numeric && numeric->contains("outputs") &&
      (*numeric)["outputs"].is_array()) {
    md << "| output | type | mismatches | max abs error | max rel error | "
          "max ulp | rel tolerance | abs tolerance |\n|---|---|---|---|---|---|"
          "---|---|\n";
    // Evidence from a file may hold anything: a field of any type is shown
    // as escaped text, an entry that is not an object is left out.
    auto cell = [](const json &o, const char *key) {
      if (!o.is_object() || !o.contains(key))
        return std::string();
      const json &v = o[key];
      return markdownText(v.is_number_integer()
                              ? std::to_string(v.get<int64_t>())
                              : jsonNumber(v));
    };
    for (const json &o : (*numeric)["outputs"]) {
      if (!o.is_object())
        continue;
      const json tol = o.value("tolerance", json::object());
      md << "| " << cell(o, "name") << " | " << cell(o, "type") << " | "
         << cell(o, "mismatches") << " | " << cell(o, "max_abs_error") << " | "
         << cell(o, "max_rel_error") << " | " << cell(o, "max_ulp") << " | "
         << cell(tol, "rel") << " | " << cell(tol, "abs") << " |\n";
    }
    md << "\n";
  } else {
    md << "The finding carries no numeric report.\n\n";
  }
  if (!r.wrong.empty()) {
    md << "First mismatching elements (re-run now; tolerance as the oracle's: "
          "the largest of 4 x the error of the reference evaluated in the "
          "target precision, the relative bound and the tensor's absolute "
          "floor):\n\n| output | element | expected | actual | allowed error "
          "|\n|---|---|---|---|---|\n";
    for (size_t i = 0; i < r.wrong.size() && i < 10; ++i)
      md << "| " << r.wrong[i].output << " | " << r.wrong[i].index << " | "
         << shortNum(r.wrong[i].expected) << " | "
         << shortNum(r.wrong[i].actual) << " | " << shortNum(r.wrong[i].allowed)
         << " |\n";
    md << "\n" << r.wrong.size() << " mismatching element(s) in all.\n\n";
  } else if (!r.runNote.empty()) {
    md << "Re-running the case now: " << clip(r.runNote, 5) << "\n\n";
  }
}

void limitsAndFiles(std::ostream &md, const ReadmeFacts &r) {
  const FindingRecord &original = *r.original;
  if (const json *cex = findKey(original.evidence, "counterexample"))
    md << "## SMT counterexample\n\n```\n"
       << (cex->is_string() ? cex->get<std::string>() : cex->dump(2))
       << "\n```\n\n";
  if (!original.log.empty())
    md << "## Log\n\n```\n" << clip(original.log, 40) << "```\n\n";
  if (!r.result->notes.empty()) {
    md << "## Limits of this bundle\n\n";
    for (const std::string &n : r.result->notes)
      md << "- " << n << "\n";
    md << "\n";
  }
  md << "## Versions\n\n" << versions() << "\n";
  if (r.program) {
    md << "## Files\n\n`ISSUE.md` (the text of an upstream issue), "
          "`repro.sh`, `repro.mlir`, `compare.awk`, `expected.txt`, "
          "`input.mlir`, `repro.out` (what repro.sh printed), `finding.json`"
       << (r.culprit ? ", `culprit-before.mlir`, `culprit-after.mlir`" : "")
       << ".\n";
    return;
  }
  md << "## Files\n\n`ISSUE.md` (the text of an upstream issue), `repro.sh`, "
        "`repro.mlir`, `compare.awk`, `expected.txt`, `input.mlir`, "
        "`graph.json`, `graph.dot`"
     << (r.svg ? ", `graph.svg`" : "")
     << ", `repro.out` (what repro.sh printed), `finding.json` (crosscheck's "
        "self-contained finding: `crosscheck reduce finding.json`), "
        "`inputs/<name>.npy`, `expected_<i>.npy`"
     << (r.culprit ? ", `culprit-before.mlir`, `culprit-after.mlir`" : "")
     << (r.otherHow.empty() ? ""
         : r.pipeline.empty() && r.cut == "torchscript"
             ? ", `repro.cpp`, `model.pt`, `inputs.pt`"
             : ", `tosa.mlir`, `driver.mlir`")
     << ".\n";
}

} // namespace

std::string readmeText(const ReadmeFacts &facts) {
  std::ostringstream md;
  whatHappened(md, facts);
  reproduce(md, facts);
  graphAndCulprit(md, facts);
  numericEvidence(md, facts);
  limitsAndFiles(md, facts);
  return md.str();
}

} // namespace cc::bundle
