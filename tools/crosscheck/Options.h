// A small MLIR-style command-line parser: "--flag=value", "--flag value",
// "-o FILE", boolean "--flag". One table of flags serves both parsing and
// --help, so every flag is documented where it is declared.
#pragma once

#include "core/Error.h"

#include <map>
#include <string>
#include <vector>

namespace cc::cli {

struct Flag {
  std::string name;      // "--cut"
  std::string shortName; // "-o", or empty
  std::string metavar;   // "SPEC"; empty for a boolean flag
  std::string help;
  bool repeatable = false;
};

struct Command {
  std::string name;        // "run"
  std::string usage;       // "crosscheck run GRAPH.json [flags]"
  std::string description; // a paragraph
  std::vector<Flag> flags;
  std::string epilog;      // extra notes after the flag list
};

class Args {
public:
  std::vector<std::string> positional;
  bool has(const std::string &flag) const { return values.count(flag) != 0; }
  // The last value of a flag, or `fallback`.
  std::string get(const std::string &flag, const std::string &fallback = "") const;
  const std::vector<std::string> &all(const std::string &flag) const;

private:
  friend Expected<Args> parseArgs(const Command &, const std::vector<std::string> &);
  std::map<std::string, std::vector<std::string>> values;
};

// `--help` is always accepted and recorded as a boolean flag.
Expected<Args> parseArgs(const Command &cmd, const std::vector<std::string> &argv);
std::string helpText(const Command &cmd);

// Number parsing with a message naming the flag.
Expected<double> parseNumber(const std::string &flag, const std::string &text);
Expected<uint64_t> parseUnsigned(const std::string &flag, const std::string &text);
// A byte count with an optional unit: 512M, 4G, 64k.
Expected<uint64_t> parseSize(const std::string &flag, const std::string &text);
// --memory-limit of the compiler under test (run, fuzz): at least 64M.
Expected<uint64_t> parseMemoryLimit(const std::string &text);

} // namespace cc::cli
