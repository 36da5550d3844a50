// crosscheck: differential testing of deep-learning compilers.
#include "tools/crosscheck/Commands.h"

#include "core/Quote.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>

namespace cc::cli {

int fail(const std::string &message) {
  // One line, whatever the message carries (diagnostics, stderr tails),
  // and no escape sequence a terminal would obey.
  std::string line;
  for (char c : message)
    line += (c == '\n' || c == '\r') ? ' ' : c;
  std::cerr << "crosscheck: error: " << terminalText(line) << "\n";
  return kExitError;
}

std::optional<int> parseCommandLine(const std::string &name,
                                    const Positional &positional,
                                    const std::vector<Flag> &flags,
                                    const std::string &help, const Argv &argv,
                                    Args &args) {
  auto parsed = parseArgs(flags, argv);
  if (!parsed)
    return fail(parsed.error());
  if (parsed->has("--help"))
    return std::cout << help, kExitPass;
  size_t n = parsed->positional.size();
  if (n < positional.min || n > positional.max)
    return fail(name + " " + positional.problem + " (see crosscheck " + name +
                " --help)");
  args = std::move(*parsed);
  return std::nullopt;
}

std::string withDefault(std::string help, const std::string &value) {
  if (size_t at = help.find("{}"); at != std::string::npos)
    help.replace(at, 2, value);
  return help;
}

namespace {
struct Subcommand {
  const char *name;
  const char *summary;
  int (*main)(const Argv &);
};

const Subcommand kSubcommands[] = {
    {"run",
     "run a graph through a compiler and the reference; judge the outputs",
     runCommand},
    {"emit-mlir", "print the TOSA module of a graph", emitMlirCommand},
    {"fuzz", "run a fuzz campaign: generate, run, judge, deduplicate, record",
     fuzzCommand},
    {"merge", "merge the campaign directories of shards", mergeCommand},
    {"gen", "write random valid graphs with their inputs", genCommand},
    {"export-onnx", "write a graph with inputs and expected outputs as ONNX",
     exportOnnxCommand},
    {"onnx-conformance", "run ONNX's node tests through import, ref and MLIR",
     onnxConformanceCommand},
    {"tv", "prove with Z3 that a target MLIR function refines its source",
     tvCommand},
    {"verify-pass", "run a pass pipeline and validate every pass (and rewrite)",
     verifyPassCommand},
    {"reduce", "shrink a finding to a minimal case with the same failure",
     reduceCommand},
    {"report", "write the campaign dashboard and a bug bundle per finding",
     reportCommand},
    {"ops", "list the ops of the graph IR (--markdown: docs/OPS.md's)",
     opsCommand},
};

// Output that never reached its file (a full disk, a closed pipe) must not
// pass for success: the command's status stands only if stdout flushes.
int finish(int status) {
  std::cout.flush();
  if (std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout) {
    int err = errno;
    return fail(std::string("cannot write to standard output: ") +
                std::strerror(err ? err : EIO));
  }
  return status;
}

void printHelp() {
  std::cout << "USAGE: crosscheck <command> [flags]\n\n"
               "Differential testing of deep-learning compilers: runs graphs "
               "through a compiler\nunder test and a reference interpreter "
               "and judges the results.\n\nCOMMANDS:\n";
  for (const Subcommand &s : kSubcommands)
    std::printf("  %-18s%s\n", s.name, s.summary);
  std::cout << "\n'crosscheck <command> --help' documents the flags of a "
               "command.\nExit status: 0 pass, 1 finding (a compiler bug), 2 "
               "error (bad input or usage).\n";
}
} // namespace

} // namespace cc::cli

int main(int argc, char **argv) {
  using namespace cc::cli;
  Argv args(argv + 1, argv + argc);
  if (args.empty())
    return printHelp(), finish(kExitError);
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help")
    return printHelp(), finish(kExitPass);
  for (const Subcommand &s : kSubcommands)
    if (args[0] == s.name) {
      // The readers of documents from anyone check every field they use;
      // one they miss is still an error, never an abort.
      try {
        return finish(s.main(Argv(args.begin() + 1, args.end())));
      } catch (const nlohmann::json::exception &e) {
        return fail(std::string("malformed JSON input: ") + e.what());
      }
    }
  if (args[0].starts_with("-"))
    return fail("unknown flag '" + args[0] + "' (see crosscheck --help)");
  return fail("unknown command '" + args[0] + "' (see crosscheck --help)");
}
