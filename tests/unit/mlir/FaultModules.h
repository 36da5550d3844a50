// Hand-written MLIR modules whose compiled code crashes or hangs, for the
// tests of the isolated worker and of the crash/timeout oracle.
#pragma once

#include "backends/mlir/MlirBackend.h"

namespace cc::test {

// @f(x, y) = x / y elementwise (tosa.intdiv); y = 0 traps (SIGFPE on x86).
inline const char *const kIntDivModule = R"(
func.func @f(%x: tensor<2xi32>, %y: tensor<2xi32>) -> tensor<2xi32> {
  %0 = tosa.intdiv %x, %y : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
})";

// @f(x) calls libc's abort() (SIGABRT) before returning x.
inline const char *const kAbortModule = R"(
func.func private @abort()
func.func @f(%x: tensor<1xf32>) -> tensor<1xf32> {
  func.call @abort() : () -> ()
  return %x : tensor<1xf32>
})";

// @f(x) counts up from x[0] while the counter is >= x[0]: it only stops
// after 2^63 steps, i.e. never.
inline const char *const kEndlessLoopModule = R"(
func.func @f(%x: tensor<1xi64>) -> tensor<1xi64> {
  %c0 = arith.constant 0 : index
  %start = tensor.extract %x[%c0] : tensor<1xi64>
  %end = scf.while (%i = %start) : (i64) -> i64 {
    %go = arith.cmpi sge, %i, %start : i64
    scf.condition(%go) %i : i64
  } do {
  ^bb0(%j: i64):
    %one = arith.constant 1 : i64
    %next = arith.addi %j, %one : i64
    scf.yield %next : i64
  }
  %out = tensor.from_elements %end : tensor<1xi64>
  return %out : tensor<1xi64>
})";

// Runs a fault module with tosa-O0 (LLVM -O0, nothing optimized away).
inline Expected<Outputs> runFaultModule(const char *module,
                                        const std::vector<TensorType> &results,
                                        const Inputs &inputs,
                                        const RunOptions &options = {}) {
  return runMlirModule(module, "f", results, inputs,
                       namedPipelines().front().pipeline,
                       namedPipelines().front().llvmOptLevel, options);
}

} // namespace cc::test
