// The crosscheck subcommands and what they share.
#pragma once

#include "core/Error.h"
#include "tools/crosscheck/FlagTable.h"

#include <cstddef>
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace cc::cli {

// Exit statuses of every subcommand.
inline constexpr int kExitPass = 0;
inline constexpr int kExitFinding = 1;
inline constexpr int kExitError = 2;

// Prints "crosscheck: error: <message>" as exactly one line on stderr and
// returns kExitError.
int fail(const std::string &message);
inline int fail(const Error &e) { return fail(e.message()); }

using Argv = std::vector<std::string>;

// The compiler under test when none is named (run, fuzz, reduce).
inline constexpr const char *kDefaultCut = "mlir:tosa-O3";

// How many positional arguments a command takes; outside [min, max] the
// error is "<command> <problem> (see crosscheck <command> --help)".
struct Positional {
  size_t min = 0, max = SIZE_MAX;
  std::string problem;
};

// A subcommand: its --help text and its table of flags, which read into its
// options O (default-constructed: the defaults).
template <class O> struct Command {
  std::string name;  // "run"
  std::string usage; // "crosscheck run GRAPH.json [flags]"
  Positional positional;
  std::string description; // a paragraph
  FlagTable<O> flags;
  std::string epilog; // extra notes after the flag list
};

// Parses the syntax of a command line; prints the help or an error. Returns
// the exit status to leave with, or nullopt when the command should go on.
std::optional<int> parseCommandLine(const std::string &name,
                                    const Positional &positional,
                                    const std::vector<Flag> &flags,
                                    const std::string &help, const Argv &argv,
                                    Args &args);
// A flag's help with "{}" replaced by its default.
std::string withDefault(std::string help, const std::string &value);

// Runs a subcommand: parses its arguments, the flags into options that keep
// their defaults where a flag is not given, the rest into args.positional,
// and unless that ends the command (--help, an error) returns what `body`
// makes of them.
template <class O>
int parseAndRun(const Command<O> &cmd, const Argv &argv,
                int (*body)(O &options, const Args &args)) {
  const O defaults{};
  std::vector<Flag> flags;
  for (const FlagSpec<O> &f : cmd.flags) {
    if (!f.bind.set)
      continue; // not in this build
    flags.push_back(f.flag);
    if (f.bind.show)
      flags.back().help = withDefault(f.flag.help, f.bind.show(defaults));
  }
  std::string help = helpText(cmd.usage, cmd.description, flags, cmd.epilog);
  Args args;
  if (std::optional<int> status =
          parseCommandLine(cmd.name, cmd.positional, flags, help, argv, args))
    return *status;
  O options;
  for (const FlagSpec<O> &f : cmd.flags)
    if (f.bind.set && args.has(f.flag.name))
      if (Error e = f.bind.set(options, f.flag.name, args.all(f.flag.name)))
        return fail(e);
  return body(options, args);
}

int runCommand(const Argv &args);             // crosscheck run
int emitMlirCommand(const Argv &args);        // crosscheck emit-mlir
int genCommand(const Argv &args);             // crosscheck gen
int fuzzCommand(const Argv &args);            // crosscheck fuzz
int mergeCommand(const Argv &args);           // crosscheck merge
int exportOnnxCommand(const Argv &args);      // crosscheck export-onnx
int onnxConformanceCommand(const Argv &args); // crosscheck onnx-conformance
int tvCommand(const Argv &args);              // crosscheck tv
int verifyPassCommand(const Argv &args);      // crosscheck verify-pass
int reduceCommand(const Argv &args);
int reportCommand(const Argv &args); // crosscheck report
int opsCommand(const Argv &args);    // crosscheck ops

} // namespace cc::cli
