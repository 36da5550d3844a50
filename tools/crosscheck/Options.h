// A small MLIR-style command-line parser: "--flag=value", "--flag value",
// "-o FILE", boolean "--flag"; the values' parsers, and how --help writes
// defaults. The commands' flag tables (FlagTable.h) build on it.
#pragma once

#include "core/Error.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cc::cli {

// The syntax of one flag and its line of --help.
struct Flag {
  std::string name;      // "--cut"
  std::string shortName; // "-o", or empty
  std::string metavar;   // "SPEC"; empty for a boolean flag
  std::string help;
  bool repeatable = false;
};

class Args {
public:
  std::vector<std::string> positional;
  bool has(const std::string &flag) const { return values.count(flag) != 0; }
  // Every value of a flag in order ("" for each use of a boolean flag).
  const std::vector<std::string> &all(const std::string &flag) const;

private:
  friend Expected<Args> parseArgs(const std::vector<Flag> &,
                                  const std::vector<std::string> &);
  std::map<std::string, std::vector<std::string>> values;
};

// `--help` is always accepted and recorded as a boolean flag.
Expected<Args> parseArgs(const std::vector<Flag> &flags,
                         const std::vector<std::string> &argv);
std::string helpText(const std::string &usage, const std::string &description,
                     const std::vector<Flag> &flags, const std::string &epilog);

// Values, with messages that name the flag.
Expected<std::string> parseText(const std::string &flag,
                                const std::string &text); // any text
Expected<double> parseNumber(const std::string &flag, const std::string &text);
Expected<uint64_t> parseUnsigned(const std::string &flag,
                                 const std::string &text);
// Within [min, max].
Expected<uint64_t> parseCount(const std::string &flag, const std::string &text,
                              uint64_t min, uint64_t max);
Expected<double> parsePositive(const std::string &flag,
                               const std::string &text);
// A share in [0, 1].
Expected<double> parseShare(const std::string &flag, const std::string &text);
// Positive seconds with an optional unit: 90, 30s, 10m, 2h.
Expected<double> parseDuration(const std::string &flag,
                               const std::string &text);
// A byte count with an optional unit: 512M, 4G, 64k.
Expected<uint64_t> parseSize(const std::string &flag, const std::string &text);
// --memory-limit of the compiler under test (run, fuzz): at least 64M.
Expected<uint64_t> parseMemoryLimit(const std::string &flag,
                                    const std::string &text);
// One of `choices`.
Expected<std::string> parseChoice(const std::string &flag,
                                  const std::string &text,
                                  const std::vector<std::string> &choices);

// "a,b,,c" -> a, b, c.
std::vector<std::string> splitList(const std::string &text);

// Defaults as --help writes them: 0.15, 30; 20s, 10m; 4G.
std::string showNumber(double v);
std::string showDuration(double seconds);
std::string showSize(uint64_t bytes);

} // namespace cc::cli
