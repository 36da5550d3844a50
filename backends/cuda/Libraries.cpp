// The "cudnn" reference: graphs of matmul and conv2d (and constants) run by
// the vendor's libraries, cuBLAS (batched GEMM) and cuDNN (NHWC forward
// convolution), an implementation independent of MLIR's for the two ops
// most of a model's time goes to. Both libraries are opened at run time;
// without a GPU, or without them, a run is ErrorCode::Unsupported, so a
// campaign drops this reference and goes on. Runs are isolated in a forked
// worker like the GPU backend's: CUDA is never initialised in a process
// that forks others.
#include "backends/cuda/Internal.h"

#include <chrono>
#include <cstring>
#include <dlfcn.h>

namespace cc {

namespace cudabackend {
ErrorCode cublasErrorCode(int status) {
  constexpr int kCublasNotSupported = 15;
  return status == kCublasNotSupported ? ErrorCode::Unsupported
                                       : ErrorCode::None;
}

ErrorCode cudnnErrorCode(int status, size_t version) {
  // cuDNN 9 groups NOT_SUPPORTED and its sub-codes in the 3000s
  // (CUDNN_STATUS_CATEGORY); cuDNN 8 had the single code 9.
  constexpr int kNotSupported8 = 9, kNotSupported9 = 3000;
  bool notSupported = version < 90000 ? status == kNotSupported8
                                      : status / 1000 * 1000 == kNotSupported9;
  return notSupported ? ErrorCode::Unsupported : ErrorCode::None;
}
} // namespace cudabackend

namespace {
using namespace cudabackend;

// Library ABI values (cublas_api.h, library_types.h, cudnn_*.h).
constexpr int kCublasOpN = 0;
constexpr int kCudaR32F = 0, kCudaR16F = 2, kCudaR16BF = 14;
// Pedantic: no TF32 and no reduced-precision reductions.
constexpr int kCublasCompute32FPedantic = 69;
constexpr int kCublasGemmDefault = -1;
constexpr int kCudnnNhwc = 1;
constexpr int kCudnnFloat = 0, kCudnnHalf = 2, kCudnnBf16 = 9;
constexpr int kCudnnCrossCorrelation = 1;
constexpr int kCudnnFmaMath = 3; // no tensor cores (TF32) for f32
constexpr int kCudnnImplicitGemm = 0;

struct Libraries {
  int (*cublasCreate)(void **);
  int (*cublasDestroy)(void *);
  int (*gemm)(void *, int, int, int, int, int, const void *, const void *, int,
              int, long long, const void *, int, int, long long, const void *,
              void *, int, int, long long, int, int, int);
  int (*cudnnCreate)(void **);
  int (*cudnnDestroy)(void *);
  int (*createTensor)(void **);
  int (*setTensor4d)(void *, int, int, int, int, int, int);
  int (*destroyTensor)(void *);
  int (*createFilter)(void **);
  int (*setFilter4d)(void *, int, int, int, int, int, int);
  int (*destroyFilter)(void *);
  int (*createConv)(void **);
  int (*setConv2d)(void *, int, int, int, int, int, int, int, int);
  int (*setConvMath)(void *, int);
  int (*destroyConv)(void *);
  int (*workspaceSize)(void *, void *, void *, void *, void *, int, size_t *);
  int (*convForward)(void *, const void *, void *, const void *, void *,
                     const void *, void *, int, void *, size_t, const void *,
                     void *, void *);
  size_t (*cudnnGetVersion)();
  size_t dnnVersion = 0;
  std::string error;
};

void *openFirst(std::initializer_list<const char *> names) {
  for (const char *n : names)
    if (void *lib = dlopen(n, RTLD_NOW | RTLD_LOCAL))
      return lib;
  return nullptr;
}

Libraries loadLibraries() {
  Libraries l{};
  void *blas = openFirst({"libcublas.so.13", "libcublas.so"});
  void *dnn = openFirst({"libcudnn.so.9", "libcudnn.so"});
  if (!blas || !dnn) {
    l.error = std::string("no ") + (blas ? "cuDNN" : "cuBLAS") +
              " library (libcublas.so.13, libcudnn.so.9)";
    return l;
  }
  bool ok =
      bind(blas, "cublasCreate_v2", l.cublasCreate) &&
      bind(blas, "cublasDestroy_v2", l.cublasDestroy) &&
      bind(blas, "cublasGemmStridedBatchedEx", l.gemm) &&
      bind(dnn, "cudnnGetVersion", l.cudnnGetVersion) &&
      bind(dnn, "cudnnCreate", l.cudnnCreate) &&
      bind(dnn, "cudnnDestroy", l.cudnnDestroy) &&
      bind(dnn, "cudnnCreateTensorDescriptor", l.createTensor) &&
      bind(dnn, "cudnnSetTensor4dDescriptor", l.setTensor4d) &&
      bind(dnn, "cudnnDestroyTensorDescriptor", l.destroyTensor) &&
      bind(dnn, "cudnnCreateFilterDescriptor", l.createFilter) &&
      bind(dnn, "cudnnSetFilter4dDescriptor", l.setFilter4d) &&
      bind(dnn, "cudnnDestroyFilterDescriptor", l.destroyFilter) &&
      bind(dnn, "cudnnCreateConvolutionDescriptor", l.createConv) &&
      bind(dnn, "cudnnSetConvolution2dDescriptor", l.setConv2d) &&
      bind(dnn, "cudnnSetConvolutionMathType", l.setConvMath) &&
      bind(dnn, "cudnnDestroyConvolutionDescriptor", l.destroyConv) &&
      bind(dnn, "cudnnGetConvolutionForwardWorkspaceSize", l.workspaceSize) &&
      bind(dnn, "cudnnConvolutionForward", l.convForward);
  if (!ok)
    l.error = "cuBLAS or cuDNN lacks an entry point crosscheck uses";
  else
    l.dnnVersion = l.cudnnGetVersion();
  return l;
}

Libraries &libraries() {
  static Libraries l = loadLibraries();
  return l;
}

int blasType(DType d) {
  return d == DType::f16    ? kCudaR16F
         : d == DType::bf16 ? kCudaR16BF
                            : kCudaR32F;
}
int dnnType(DType d) {
  return d == DType::f16    ? kCudnnHalf
         : d == DType::bf16 ? kCudnnBf16
                            : kCudnnFloat;
}

// A configuration the library does not implement is not a finding.
Error blasError(int status, const std::string &what) {
  if (status == 0)
    return Error::success();
  return Error::failure(what + " failed with status " + std::to_string(status),
                        cublasErrorCode(status));
}
Error dnnError(const Libraries &l, int status, const std::string &what) {
  if (status == 0)
    return Error::success();
  return Error::failure(what + " failed with status " + std::to_string(status),
                        cudnnErrorCode(status, l.dnnVersion));
}

// TOSA's asymmetric padding, applied on the host: cuDNN pads symmetrically.
Tensor padNhwc(const Tensor &x, const std::vector<int64_t> &pad) {
  const Shape &s = x.shape();
  Shape p = {s[0], s[1] + pad[0] + pad[1], s[2] + pad[2] + pad[3], s[3]};
  Tensor out(x.dtype(), p);
  int64_t width = int64_t(x.byteCount()) / x.size();
  for (int64_t n = 0; n < s[0]; ++n)
    for (int64_t h = 0; h < s[1]; ++h)
      for (int64_t w = 0; w < s[2]; ++w) {
        int64_t from = ((n * s[1] + h) * s[2] + w) * s[3];
        int64_t to = ((n * p[1] + h + pad[0]) * p[2] + w + pad[2]) * p[3];
        std::memcpy(out.data() + to * width, x.data() + from * width,
                    size_t(s[3] * width));
      }
  return out;
}

class LibraryReference : public Backend {
public:
  std::string name() const override { return "cudnn"; }

  Support supports(const Graph &g) const override {
    for (const Node &n : g.nodes) {
      if (n.op != OpId::Const && n.op != OpId::MatMul && n.op != OpId::Conv2d)
        return Support::no("runs matmul and conv2d only, not " +
                           std::string(opName(n.op)));
      for (ValueId v : n.results)
        if (!isFloat(g.typeOf(v).dtype))
          return Support::no("float graphs only");
    }
    return Support::yes();
  }

  Expected<Outputs> run(const Graph &g, const Inputs &inputs,
                        const RunOptions &options) override {
    return std::move(runSets(g, {&inputs}, options).at(0));
  }

  // Every set in one worker: CUDA and the libraries start once.
  std::vector<Expected<Outputs>> runSets(const Graph &g, const InputSets &sets,
                                         const RunOptions &options) override {
    if (Support s = supports(g); !s.ok)
      return std::vector<Expected<Outputs>>(
          sets.size(), Error::failure(s.reason, ErrorCode::Unsupported));
    mlirbackend::LowerRequest req;
    req.originName = "graph given to the cudnn reference";
    req.funcName = g.name;
    req.inProcess = runInProcess;
    std::vector<TensorType> types;
    for (ValueId v : g.outputs)
      types.push_back(g.typeOf(v));
    // CUDA reserves more address space than a memory limit allows.
    RunOptions isolated = options;
    isolated.limits.memoryBytes = 0;
    currentGraph = &g;
    auto out = mlirbackend::lowerAndRunSets(req, types, sets, isolated);
    currentGraph = nullptr;
    return out;
  }

private:
  // The graph of the run in progress: a LowerRequest carries none, and the
  // forked worker inherits this thread's copy of the pointer.
  static thread_local const Graph *currentGraph;

  // The run itself, in the isolated worker (or here when not isolated).
  static Expected<Outputs> runInProcess(const mlirbackend::LowerRequest &req,
                                        const std::vector<TensorType> &,
                                        const InputSets &sets,
                                        StageTimes *times, PassCoverage *) {
    auto start = std::chrono::steady_clock::now();
    Driver &d = driver();
    Libraries &l = libraries();
    for (const std::string &why : {d.error, l.error})
      if (!why.empty())
        return Error::failure(why, ErrorCode::Unsupported);
    DeviceScope device(d);
    CC_TRY(device.enter());
    Outputs all;
    for (const Inputs *inputs : sets) {
      CC_ASSIGN(outs, runGraph(req, device, l, *inputs));
      for (Tensor &t : outs)
        all.push_back(std::move(t));
    }
    addStageTime(times, "reference", start);
    return all;
  }

  // The graph on one input set, op by op.
  static Expected<Outputs> runGraph(const mlirbackend::LowerRequest &req,
                                    DeviceScope &device, Libraries &l,
                                    const Inputs &inputs) {
    const Graph &g = *currentGraph;
    std::vector<Tensor> values(g.values.size());
    for (size_t i = 0; i < inputs.size(); ++i)
      values[size_t(g.inputs[i])] = inputs[i];
    for (const Node &n : g.nodes) {
      TensorType type = g.typeOf(n.results[0]);
      if (n.op == OpId::Const) {
        values[size_t(n.results[0])] = n.attrs.getTensor("value");
        continue;
      }
      std::vector<const Tensor *> in;
      for (ValueId v : n.operands)
        in.push_back(&values[size_t(v)]);
      mlirbackend::reportStage(req, n.op == OpId::MatMul
                                        ? "launch cuBLAS matmul"
                                        : "launch cuDNN conv2d");
      auto out = n.op == OpId::MatMul ? matmul(device, l, in, type)
                                      : conv2d(device, l, n, in, type);
      if (!out)
        return out.error().withContext("cudnn " + std::string(opName(n.op)));
      values[size_t(n.results[0])] = std::move(*out);
    }
    Outputs outs;
    for (ValueId v : g.outputs)
      outs.push_back(values[size_t(v)]);
    return outs;
  }

private:
  // Row-major C[H,W] = A[H,C] B[C,W] is column-major C^T = B^T A^T: cuBLAS
  // gets B first.
  static Expected<Tensor> matmul(DeviceScope &device, Libraries &l,
                                 const std::vector<const Tensor *> &in,
                                 const TensorType &type) {
    const Tensor &a = *in[0], &b = *in[1];
    int64_t n = a.shape()[0], h = a.shape()[1], c = a.shape()[2],
            w = b.shape()[2];
    Tensor out(type);
    CC_ASSIGN(da, device.upload(a.data(), a.byteCount()));
    CC_ASSIGN(db, device.upload(b.data(), b.byteCount()));
    CC_ASSIGN(dc, device.allocate(out.byteCount()));
    void *handle = nullptr;
    CC_TRY(blasError(l.cublasCreate(&handle), "cublasCreate"));
    float one = 1, zero = 0;
    int status = l.gemm(
        handle, kCublasOpN, kCublasOpN, int(w), int(h), int(c), &one,
        reinterpret_cast<void *>(db), blasType(b.dtype()), int(w), c * w,
        reinterpret_cast<void *>(da), blasType(a.dtype()), int(c), h * c, &zero,
        reinterpret_cast<void *>(dc), blasType(type.dtype), int(w), h * w,
        int(n), kCublasCompute32FPedantic, kCublasGemmDefault);
    l.cublasDestroy(handle);
    CC_TRY(blasError(status, "cublasGemmStridedBatchedEx"));
    CC_TRY(device.download(out.data(), dc, out.byteCount()));
    return out;
  }

  // NHWC input, OHWI (cuDNN's NHWC filter, KRSC) weights; the bias is added
  // on the host in f64 and rounded once.
  static Expected<Tensor> conv2d(DeviceScope &device, Libraries &l,
                                 const Node &n,
                                 const std::vector<const Tensor *> &in,
                                 const TensorType &type) {
    const Attrs &at = n.attrs;
    for (const char *zp : {"input_zp", "weight_zp"})
      if (at.has(zp) && at.getInt(zp) != 0)
        return Error::failure("a zero point", ErrorCode::Unsupported);
    std::vector<int64_t> pad =
        at.has("pad") ? at.getInts("pad") : std::vector<int64_t>{0, 0, 0, 0};
    std::vector<int64_t> stride =
        at.has("stride") ? at.getInts("stride") : std::vector<int64_t>{1, 1};
    std::vector<int64_t> dil = at.has("dilation") ? at.getInts("dilation")
                                                  : std::vector<int64_t>{1, 1};
    Tensor x = padNhwc(*in[0], pad);
    const Tensor &w = *in[1], &bias = *in[2];
    const Shape &xs = x.shape(), &ws = w.shape(), &ys = type.shape;
    Tensor y(type);
    CC_ASSIGN(dx, device.upload(x.data(), x.byteCount()));
    CC_ASSIGN(dw, device.upload(w.data(), w.byteCount()));
    CC_ASSIGN(dy, device.allocate(y.byteCount()));
    void *handle = nullptr, *xd = nullptr, *yd = nullptr, *wd = nullptr,
         *cd = nullptr;
    CC_TRY(dnnError(l, l.cudnnCreate(&handle), "cudnnCreate"));
    l.createTensor(&xd);
    l.createTensor(&yd);
    l.createFilter(&wd);
    l.createConv(&cd);
    size_t workspace = 0;
    int status = 0;
    auto step = [&](int s) {
      if (status == 0)
        status = s;
    };
    step(l.setTensor4d(xd, kCudnnNhwc, dnnType(x.dtype()), int(xs[0]),
                       int(xs[3]), int(xs[1]), int(xs[2])));
    step(l.setTensor4d(yd, kCudnnNhwc, dnnType(y.dtype()), int(ys[0]),
                       int(ys[3]), int(ys[1]), int(ys[2])));
    step(l.setFilter4d(wd, dnnType(w.dtype()), kCudnnNhwc, int(ws[0]),
                       int(ws[3]), int(ws[1]), int(ws[2])));
    step(l.setConv2d(cd, 0, 0, int(stride[0]), int(stride[1]), int(dil[0]),
                     int(dil[1]), kCudnnCrossCorrelation, kCudnnFloat));
    step(l.setConvMath(cd, kCudnnFmaMath));
    step(l.workspaceSize(handle, xd, wd, cd, yd, kCudnnImplicitGemm,
                         &workspace));
    Expected<CUdeviceptr> ws_ = device.allocate(workspace);
    float one = 1, zero = 0;
    if (status == 0 && ws_)
      status =
          l.convForward(handle, &one, xd, reinterpret_cast<void *>(dx), wd,
                        reinterpret_cast<void *>(dw), cd, kCudnnImplicitGemm,
                        reinterpret_cast<void *>(*ws_), workspace, &zero, yd,
                        reinterpret_cast<void *>(dy));
    l.destroyConv(cd);
    l.destroyFilter(wd);
    l.destroyTensor(yd);
    l.destroyTensor(xd);
    l.cudnnDestroy(handle);
    if (!ws_)
      return ws_.error();
    CC_TRY(dnnError(l, status, "cudnnConvolutionForward"));
    CC_TRY(device.download(y.data(), dy, y.byteCount()));
    // The bias is [O] or [1] (broadcast).
    int64_t channels = ys[3];
    for (int64_t i = 0, count = y.size(); i < count; ++i)
      y.setF(i, y.getF(i) + bias.getF(bias.size() == 1 ? 0 : i % channels));
    return y;
  }
};

thread_local const Graph *LibraryReference::currentGraph = nullptr;
} // namespace

std::unique_ptr<Backend> makeCudaLibraryReference() {
  return std::make_unique<LibraryReference>();
}

} // namespace cc
