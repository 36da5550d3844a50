// The crosscheck subcommands and what they share.
#pragma once

#include "core/Error.h"
#include "tools/crosscheck/Options.h"

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

// Parses a subcommand's flags expecting one positional GRAPH.json. Returns
// the exit status to leave with (after --help or an error), or nullopt when
// the command should go on with `args`.
std::optional<int> parseCommand(const Command &cmd, const Argv &argv,
                                Args &args);
int runCommand(const Argv &args);      // crosscheck run
int emitMlirCommand(const Argv &args); // crosscheck emit-mlir
int genCommand(const Argv &args);      // crosscheck gen
int fuzzCommand(const Argv &args);     // crosscheck fuzz
int mergeCommand(const Argv &args);    // crosscheck merge
int exportOnnxCommand(const Argv &args);      // crosscheck export-onnx
int onnxConformanceCommand(const Argv &args); // crosscheck onnx-conformance
int tvCommand(const Argv &args);         // crosscheck tv
int verifyPassCommand(const Argv &args); // crosscheck verify-pass
int reduceCommand(const Argv &args);
int reportCommand(const Argv &args); // crosscheck report

} // namespace cc::cli
