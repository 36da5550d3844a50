// The TorchScript compiler under test: the eager lowering (Eager.cpp) is
// traced into the `forward` method of a fresh module, whose graph constants
// become TorchScript constants; the module is frozen, run through
// optimize_for_inference, and executed by the profiling executor with the
// TensorExpr fuser (NNC) on CPU. The first run profiles, the second runs the
// optimized (fused) graph, whose outputs are the result.
#include "backends/torch/Internal.h"
#include "core/File.h"

#include <ATen/Parallel.h>
#include <torch/csrc/jit/frontend/tracer.h>
#include <torch/csrc/jit/passes/tensorexpr_fuser.h>
#include <torch/csrc/jit/tensorexpr/kernel.h>
#include <torch/script.h>
#include <torch/serialize.h>

#include <sstream>

namespace torch::jit {
// Defined in libtorch_cpu but declared in a header Debian does not ship
// (torch/csrc/jit/codegen/fuser/interface.h).
TORCH_API void overrideCanFuseOnCPU(bool value);
} // namespace torch::jit

namespace cc::torchbackend {

namespace {

// NNC on CPU: Debian's LibTorch has no LLVM code generator, so fused
// kernels run in NNC's IR evaluator.
void enableFusers() {
  static bool done = [] {
    torch::jit::setTensorExprFuserEnabled(true);
    torch::jit::overrideCanFuseOnCPU(true);
    torch::jit::tensorexpr::getTEMustUseLLVMOnCPU() = false;
    return true;
  }();
  (void)done;
}

using Clock = std::chrono::steady_clock;

} // namespace

void prepareForkedWorker() { at::set_num_threads(1); }

void warmUpScripting() {
  static bool done = [] {
    Graph g;
    TensorType t{DType::f32, {2}};
    ValueId a = g.addInput("a", t), b = g.addInput("b", t);
    if (auto s = g.add(OpId::Add, {a, b}))
      g.addOutput(*s);
    (void)runScripted(g, {Tensor(t), Tensor(t)}, nullptr, nullptr);
    return true;
  }();
  (void)done;
}

namespace {

// Traces the eager lowering of `g` on `in` into the `forward` method of
// `module`. Tracing runs our lowering: its failures are ours, not the
// compiler's (plain errors).
Error traceInto(torch::jit::Module &module, const Graph &g,
                const std::vector<at::Tensor> &in) {
  try {
    torch::jit::Stack stack(in.begin(), in.end());
    Error lowerErr;
    // One output, or a tuple: a method returns a single value.
    auto fn = [&](torch::jit::Stack s) -> torch::jit::Stack {
      std::vector<at::Tensor> args;
      for (const c10::IValue &v : s)
        args.push_back(v.toTensor());
      auto outs = lowerGraph(g, args);
      if (!outs) {
        lowerErr = outs.error();
        return {at::zeros({})};
      }
      if (outs->size() == 1)
        return {outs->front()};
      std::vector<c10::IValue> elems(outs->begin(), outs->end());
      return {c10::ivalue::Tuple::create(std::move(elems))};
    };
    auto state =
        torch::jit::tracer::trace(
            stack, fn, [](const at::Tensor &) { return std::string(); },
            /*strict=*/true, /*force_outplace=*/false, &module)
            .first;
    CC_TRY(lowerErr);
    auto method = module._ivalue()->compilation_unit()->create_function(
        c10::QualifiedName(*module.type()->name(), "forward"), state->graph);
    module.type()->addMethod(method);
    return Error::success();
  } catch (const c10::Error &e) {
    return makeError(std::string("tracing the LibTorch lowering failed: ") +
                     e.what_without_backtrace());
  } catch (const std::exception &e) {
    return makeError(std::string("tracing the LibTorch lowering failed: ") +
                     e.what());
  }
}

std::vector<at::Tensor> toTorchAll(const Inputs &inputs) {
  std::vector<at::Tensor> in;
  for (const Tensor &t : inputs)
    in.push_back(toTorch(t));
  return in;
}

} // namespace

Error saveScripted(const Graph &g, const Inputs &inputs,
                   const std::string &modelPath,
                   const std::string &inputsPath) {
  at::NoGradGuard noGrad;
  std::vector<at::Tensor> in = toTorchAll(inputs);
  torch::jit::Module module("__torch__.crosscheck." + g.name);
  CC_TRY(traceInto(module, g, in));
  try {
    // Written by writeFile, which never follows a link.
    std::ostringstream model;
    module.save(model);
    CC_TRY(writeFile(modelPath, model.str()));
    std::vector<c10::IValue> elems(in.begin(), in.end());
    std::vector<char> bytes =
        torch::pickle_save(c10::ivalue::Tuple::create(std::move(elems)));
    CC_TRY(writeFile(inputsPath, std::string(bytes.begin(), bytes.end())));
  } catch (const c10::Error &e) {
    return makeError(std::string("saving the TorchScript module failed: ") +
                     e.what_without_backtrace());
  }
  return Error::success();
}

Expected<Outputs> runScripted(const Graph &g, const Inputs &inputs,
                              StageTimes *times,
                              void (*onStage)(const char *)) {
  auto stage = [&](const char *name) {
    if (onStage)
      onStage(name);
  };
  enableFusers();
  at::NoGradGuard noGrad;
  torch::jit::Module module("__torch__.crosscheck." + g.name);
  stage("trace");
  auto start = Clock::now();
  std::vector<at::Tensor> in = toTorchAll(inputs);
  CC_TRY(traceInto(module, g, in));
  addStageTime(times, "trace", start);
  try {
    stage("freeze");
    start = Clock::now();
    module.eval();
    torch::jit::Module frozen = torch::jit::freeze(module);
    stage("optimize_for_inference");
    torch::jit::Module optimized = torch::jit::optimize_for_inference(frozen);
    addStageTime(times, "lower", start);
    start = Clock::now();
    c10::IValue result;
    for (int run = 0; run < 2; ++run) { // profile, then optimized
      stage(run == 0 ? "profiling run" : "optimized run");
      std::vector<c10::IValue> args;
      for (const at::Tensor &t : in)
        args.emplace_back(
            t.clone()); // a run may not alias the next one's inputs
      result = optimized.forward(args);
    }
    addStageTime(times, "execute", start);
    std::vector<at::Tensor> outs;
    if (g.outputs.size() == 1 && result.isTensor())
      outs.push_back(result.toTensor());
    else
      for (const c10::IValue &v : result.toTupleRef().elements())
        outs.push_back(v.toTensor());
    if (outs.size() != g.outputs.size())
      return Error::failure(
          "TorchScript returned " + std::to_string(outs.size()) +
              " outputs instead of " + std::to_string(g.outputs.size()),
          ErrorCode::CompilerFailure);
    Outputs outputs;
    for (size_t i = 0; i < outs.size(); ++i) {
      auto t = fromTorch(outs[i], g.typeOf(g.outputs[i]));
      if (!t)
        return Error::failure("TorchScript: " + t.error().message(),
                              ErrorCode::CompilerFailure);
      outputs.push_back(std::move(*t));
    }
    return outputs;
  } catch (const c10::Error &e) {
    return Error::failure(std::string("TorchScript failed: ") +
                              e.what_without_backtrace(),
                          ErrorCode::CompilerFailure);
  } catch (const std::exception &e) {
    return Error::failure(std::string("TorchScript failed: ") + e.what(),
                          ErrorCode::CompilerFailure);
  }
}

} // namespace cc::torchbackend
