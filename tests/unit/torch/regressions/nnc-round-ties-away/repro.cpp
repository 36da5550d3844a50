// NNC (TensorExpr fuser, CPU, IR evaluator) rounds ties away from zero where
// aten::round rounds half to even. LibTorch 1.13 (Debian libtorch-dev).
#include <iostream>
#include <torch/csrc/jit/api/module.h>
#include <torch/csrc/jit/passes/tensorexpr_fuser.h>
#include <torch/csrc/jit/tensorexpr/kernel.h>
#include <torch/jit.h>
#include <torch/script.h>
namespace torch::jit {
TORCH_API void overrideCanFuseOnCPU(bool);
}
int main(int argc, char **) {
  bool fuse = argc < 2;
  torch::jit::setTensorExprFuserEnabled(fuse);
  torch::jit::overrideCanFuseOnCPU(fuse);
  torch::jit::tensorexpr::getTEMustUseLLVMOnCPU() = false;
  auto cu = torch::jit::compile(R"(
def f(x):
    return x.double().round().clamp(-100.0, 100.0).long().int()
)");
  torch::NoGradGuard g;
  auto x = torch::tensor({0.5f, 1.5f, 2.5f, -0.5f, -2.5f});
  for (int i = 0; i < 3; ++i)
    std::cout << "run " << i << ": "
              << cu->run_method("f", x).toTensor().view({-1}) << "\n";
  std::cout << "eager: " << x.to(torch::kDouble).round().to(torch::kInt)
            << "\n";
}
