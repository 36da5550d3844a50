// Internal interfaces of the MLIR backend, shared between the cheap
// translation units (emission, spec parsing, subprocesses) and the one that
// includes MLIR headers (Jit.cpp). No MLIR headers here.
#pragma once

#include "backends/Backend.h"

#include <string>
#include <vector>

namespace cc::mlirbackend {

// Who wrote the module text, which decides how a parse failure is read.
enum class Origin {
  Crosscheck, // our emitter or a user's file: a parse error is not a finding
  External,   // output of the compiler under test
};

struct LowerRequest {
  const std::string *module = nullptr; // MLIR text
  Origin origin = Origin::Crosscheck;
  std::string originName;              // "emitted module", "output of CMD"
  std::string funcName;                // function to run
  std::string pipeline;                // textual pass pipeline
  int llvmOptLevel = 0;
};

// Parses, lowers with the pipeline, JIT-compiles and runs funcName on the
// inputs; outputs are preallocated with resultTypes. Records "lower", "jit"
// and "execute" into times when non-null.
Expected<Outputs> lowerAndRun(const LowerRequest &req,
                              const std::vector<TensorType> &resultTypes,
                              const Inputs &inputs, StageTimes *times);

// Checks that a pipeline string parses against the registered passes.
Error checkPipeline(const std::string &pipeline);

// Result of a shell command run with a time limit.
struct ProcessResult {
  int exitCode = 0;  // when it exited normally
  int signal = 0;    // when it was killed by a signal (0 if not)
  bool timedOut = false;
  std::string out, err;
};

// Runs `/bin/sh -c command` with stdinText on its standard input, capturing
// stdout and stderr; kills its process group after timeoutSeconds.
Expected<ProcessResult> runShell(const std::string &command,
                                 const std::string &stdinText,
                                 double timeoutSeconds);

} // namespace cc::mlirbackend
