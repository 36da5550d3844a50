// crosscheck report: the campaign dashboard and bug bundles.
#include "backends/Registry.h"
#include "core/File.h"
#include "core/Json.h"
#include "harness/Store.h"
#include "reports/Bundle.h"
#include "reports/Dashboard.h"
#include "tools/crosscheck/Commands.h"

#include <filesystem>
#include <iostream>

namespace cc::cli {

namespace {

namespace fs = std::filesystem;

// report's options: the bundles', and what to write.
struct ReportFlags : BundleOptions {
  std::string output, finding, cut;
  uint64_t maxBundles = 20;
  bool trustCommands = false;

  // The user's --cut, the one command they named.
  std::vector<std::string> named() const {
    return cut.empty() ? std::vector<std::string>{}
                       : std::vector<std::string>{cut};
  }
};
using F = ReportFlags;

const Command<F> kReport{
    "report",
    "crosscheck report DIR [-o OUT] [--max-bundles N] [--no-bisect] "
    "[--bisect-budget S] [--jobs N] [--cut SPEC] [--trust-commands]\n"
    "       crosscheck report --finding FINDING.json -o OUT [--cut SPEC]",
    {0, SIZE_MAX, ""}, // a campaign DIR, or none with --finding
    "Writes the report of a campaign directory (what crosscheck fuzz -o DIR\n"
    "wrote): OUT/index.html, a self-contained dashboard (inline CSS and SVG,\n"
    "no network) with cases over time, cases/s, findings over time (new\n"
    "versus known), the op x dtype coverage heat map, pass and pattern\n"
    "coverage and the table of findings; OUT/summary.md for a CI job summary;\n"
    "and one bug bundle per finding under OUT/bundles/NAME/ (its reduced case\n"
    "when the campaign reduced it). OUT defaults to DIR/report.\n\n"
    "A bug bundle holds README.md (expected versus actual, the graph as SVG\n"
    "beside its TOSA module, the culprit pass with the IR before and after\n"
    "it, the numeric evidence, versions), repro.sh, repro.mlir, input.mlir,\n"
    "graph.json, graph.svg, finding.json, input_<i>.npy and expected_<i>.npy.\n"
    "repro.sh needs only upstream mlir-opt and mlir-runner (MLIR_OPT,\n"
    "MLIR_RUNNER, MLIR_C_RUNNER_UTILS, REPRO_PIPELINE, REPRO_MLIR override\n"
    "them); it prints expected versus actual and exits 1 while the bug is\n"
    "present, 0 once it is fixed. It is run once when the bundle is written\n"
    "(its output in repro.out); when the bisected, reduced pipeline does not\n"
    "reproduce with the upstream tools, the bundle uses the whole pipeline.\n\n"
    "With --finding, writes the bundle of one finding file into OUT.\n\n"
    "A compiler that is a command (mlir-ext:CMD) runs only when named on\n"
    "the command line: a finding whose compiler is a command is refused\n"
    "unless --cut names it (or another compiler to run it with) or\n"
    "--trust-commands is given; a campaign's such findings are bundled\n"
    "without rerunning their compiler or repro.sh (docs/SECURITY.md).",
    {
        {"--output", "-o", "OUT", "where the report (or the bundle) goes",
         text(&F::output)},
        {"--finding", "", "FILE",
         "bundle this finding file (or a directory holding finding.json)",
         text(&F::finding)},
        {"--cut", "", "SPEC",
         "the compiler to run findings with: replaces a --finding's own; "
         "for DIR, the one command its findings may run",
         text(&F::cut)},
        {"--trust-commands", "", "",
         "run the commands that findings name as their compiler",
         on(&F::trustCommands)},
        {"--max-bundles", "", "N",
         "bundle at most the first N findings (default {}; 0: none)",
         count(&F::maxBundles)},
        {"--no-bisect", "", "",
         "do not bisect the pipeline for the culprit pass (faster)",
         off(&F::bisect)},
        {"--no-verify", "", "",
         "do not run repro.sh when writing a bundle (no upstream tools)",
         off(&F::verify)},
        {"--bisect-budget", "", "S",
         "seconds to bisect one finding's pipeline (default {})",
         positive(&F::bisectBudgetSeconds)},
        {"--jobs", "-j", "N", "candidates judged in parallel while bisecting",
         count(&F::jobs, 1, 256)},
        {"--load-mutants", "", "",
         "testing only: register the deliberately wrong cc-mutant-* passes",
         loadMutants<F>()},
    },
    "Exit status: 0 written, 2 error (not a campaign directory, unreadable\n"
    "store or finding, unwritable output)."};

std::string oneLine(const nlohmann::json &identity) {
  std::string s;
  for (const auto &[k, v] : identity.items())
    s += (s.empty() ? "" : " ") + k + "=" +
         (v.is_string() ? v.get<std::string>() : jsonText(v));
  return s;
}

void printNotes(const std::string &name, const BundleResult &r) {
  for (const std::string &n : r.notes)
    std::cerr << "report: " << name << ": " << n << "\n";
}

int bundleOne(const ReportFlags &o, const Args &args) {
  if (!args.has("--output"))
    return fail("report --finding needs an output directory (-o OUT)");
  auto finding = loadFinding(o.finding);
  if (!finding)
    return fail(finding.error());
  if (args.has("--cut"))
    finding->testCase.cut = o.cut;
  if (Error e =
          checkTrustedSpec(finding->testCase.cut, "finding '" + o.finding + "'",
                           o.named(), o.trustCommands))
    return fail(e);
  auto r = writeBundle(*finding, o.output, o);
  if (!r)
    return fail(r.error());
  printNotes(o.output, *r);
  std::cout << "bundle: " << o.output << "\n"
            << "culprit: " << (r->culprit.empty() ? "-" : r->culprit) << "\n";
  return kExitPass;
}

Expected<DashboardData> readCampaign(Store &store, const std::string &dir) {
  DashboardData d;
  fs::path base = fs::path(dir).lexically_normal();
  if (!base.has_filename())
    base = base.parent_path(); // "dir/"
  d.title = "crosscheck campaign " + base.filename().string();
  CC_ASSIGN(identity, store.identity());
  d.identity = oneLine(identity);
  CC_ASSIGN(times, store.caseTimeline());
  for (const Store::CaseTime &t : times) {
    d.caseTimes.push_back(t.at);
    d.skippedCases += t.skipped;
  }
  d.totalCases = times.size();
  CC_ASSIGN(coverage, store.opCoverage());
  for (const Store::OpCoverage &c : coverage)
    d.coverage.push_back({c.op, c.dtype, c.count});
  CC_ASSIGN(passes, store.passCoverage());
  for (const Store::PassCoverage &p : passes)
    d.passCoverage.push_back(
        {p.kind, p.name, p.count, p.firstCase, p.firstSeen});
  return d;
}

// The dashboard's row of a stored finding, with its bundle written to
// OUT/bundles/NAME when `name` is not empty.
Expected<DashboardData::Finding>
dashboardRow(const Store::Stored &s,
             const std::map<std::string, Store::FindingTimes> &seen,
             const std::string &out, const std::string &name,
             const ReportFlags &flags) {
  DashboardData::Finding f;
  f.signature = s.summary.signature;
  f.message = s.summary.message;
  f.count = s.summary.count;
  f.known = s.summary.known;
  f.reducedOps = s.summary.reducedOps;
  if (auto it = seen.find(f.signature.str()); it != seen.end())
    f.firstSeen = it->second.firstSeen, f.lastSeen = it->second.lastSeen;
  if (name.empty())
    return f;
  const FindingRecord &record = s.reduced ? *s.reduced : s.record;
  BundleOptions options = flags;
  if (Error e = checkTrustedSpec(record.testCase.cut, "this stored finding",
                                 flags.named(), flags.trustCommands))
    options.notRun = e.message();
  auto r = writeBundle(record, out + "/bundles/" + name, options);
  if (!r && r.error().code() == ErrorCode::Unsupported) {
    std::fprintf(stderr, "note: %s: %s\n", name.c_str(),
                 r.error().message().c_str());
    return f;
  }
  if (!r)
    return r.error().withContext("bundle " + name);
  printNotes(name, *r);
  f.bundle = "bundles/" + name;
  f.culprit = r->culprit;
  return f;
}

// The root cause of each stored finding, as the campaign grouped them in
// DIR/findings.json (same order as the store): its label and whether it is
// known. Empty when the file has no grouping (an older campaign).
struct RootLabel {
  std::string label;
  bool known = false, first = false; // first: its root cause's first finding
};
std::vector<RootLabel> rootLabels(const std::string &dir, size_t n) {
  std::vector<RootLabel> out;
  auto text = readFile(dir + "/findings.json");
  auto parsed =
      text ? parseJson(*text) : Expected<nlohmann::json>(text.error());
  nlohmann::json j = parsed ? *parsed : nlohmann::json();
  if (!j.is_object() || !j["root_causes"].is_array())
    return out;
  out.resize(n);
  size_t k = 0;
  for (const nlohmann::json &c : j["root_causes"]) {
    ++k;
    // A field of the wrong type (a file from anyone) counts as absent.
    auto bugField = jsonField<std::string>(c, "known_bug", "");
    auto knownField = jsonField(c, "known", false);
    std::string bug = bugField ? *bugField : "";
    bool first = true;
    nlohmann::json members = c.is_object()
                                 ? c.value("findings", nlohmann::json())
                                 : nlohmann::json();
    if (!members.is_array())
      continue;
    for (const nlohmann::json &i : members)
      if (i.is_number_unsigned() && i.get<size_t>() < n) {
        out[i.get<size_t>()] = {bug.empty() ? "#" + std::to_string(k)
                                            : "known bug " + bug,
                                knownField && *knownField, first};
        first = false;
      }
  }
  return out;
}

// Writes OUT/index.html, OUT/summary.md and the bundles of campaign DIR.
int reportCampaign(const ReportFlags &o, const std::string &dir,
                   const std::string &out) {
  auto store = Store::open(Store::dbPath(dir));
  if (!store)
    return fail(store.error());
  auto data = readCampaign(**store, dir);
  if (!data)
    return fail(data.error());
  auto findings = (*store)->findings();
  if (!findings)
    return fail(findings.error());
  auto seen = (*store)->findingTimes();
  if (!seen)
    return fail(seen.error());
  // Each directory the report writes into is checked to be no link (a
  // downloaded campaign may plant one).
  for (const std::string &d : {out, out + "/bundles"})
    if (Error e = makeDirectory(d))
      return fail(e);
  // Two reports writing one directory would mix their bundles.
  auto lock = DirLock::acquire(out);
  if (!lock)
    return fail(lock.error());
  std::vector<RootLabel> roots = rootLabels(dir, findings->size());
  size_t bundles = 0, written = 0;
  for (size_t i = 0; i < findings->size(); ++i) {
    const Store::Stored &s = (*findings)[i];
    RootLabel root = roots.empty() ? RootLabel{"", false, true} : roots[i];
    // One bundle per root cause: its first finding's.
    std::string name = root.first && bundles < o.maxBundles
                           ? std::to_string(++bundles) + "-" +
                                 std::string(kindName(s.summary.signature.kind))
                           : "";
    auto row = dashboardRow(s, *seen, out, name, o);
    if (!row)
      return fail(row.error());
    written += !row->bundle.empty();
    row->rootCause = root.label;
    row->known |= root.known;
    data->rootCauses += root.first;
    data->newRootCauses += root.first && !row->known;
    data->findings.push_back(std::move(*row));
  }
  if (Error e = writeFile(out + "/index.html", dashboardHtml(*data)))
    return fail(e);
  if (Error e = writeFile(out + "/summary.md", summaryMarkdown(*data)))
    return fail(e);
  std::cout << data->totalCases << " cases, " << data->rootCauses
            << " root causes (" << data->newRootCauses << " new) of "
            << data->findings.size() << " distinct signatures, " << written
            << " bundles\nwrote " << out << "/index.html and " << out
            << "/summary.md\n";
  return kExitPass;
}

int report(ReportFlags &o, const Args &args) {
  if (args.has("--finding")) {
    if (!args.positional.empty())
      return fail("report --finding takes no campaign directory");
    return bundleOne(o, args);
  }
  if (args.positional.size() != 1)
    return fail("report expects one campaign directory (see crosscheck report "
                "--help)");
  const std::string dir = args.positional[0];
  if (!fs::is_directory(dir))
    return fail("'" + dir + "' is not a directory");
  if (!fs::exists(Store::dbPath(dir)))
    return fail("'" + dir +
                "' is not a campaign directory: it has no "
                "campaign.db (write one with crosscheck fuzz -o DIR)");
  return reportCampaign(o, dir,
                        args.has("--output") ? o.output : dir + "/report");
}

} // namespace

int reportCommand(const Argv &argv) {
  return parseAndRun(kReport, argv, report);
}

} // namespace cc::cli
