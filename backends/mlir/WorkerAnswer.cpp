// The isolated worker's answer to the process that forked it, as bytes.
#include "backends/mlir/WorkerAnswer.h"

#include "process/Wire.h"

#include <optional>
#include <string_view>

namespace cc::mlirbackend {

namespace {

using process::WireReader;
using process::WireWriter;

// A failure's CompilerFault, when it carries one.
void encodeFault(WireWriter &e, const CompilerFault *f) {
  e.u64(f != nullptr);
  if (!f)
    return;
  e.u64(uint64_t(f->kind));
  e.str(f->stage);
  e.u64(uint64_t(f->signal));
  e.u64(f->frames.size());
  for (const std::string &frame : f->frames)
    e.str(frame);
  e.str(f->diagnostic);
}

std::optional<CompilerFault> decodeFault(WireReader &d) {
  if (!d.u64())
    return std::nullopt;
  CompilerFault f;
  f.kind = CompilerFault::Kind(d.u64());
  f.stage = d.str();
  f.signal = int(d.u64());
  for (uint64_t i = 0, n = d.u64(); d.ok() && i < n; ++i)
    f.frames.push_back(d.str());
  f.diagnostic = d.str();
  return f;
}

} // namespace

std::string encodeResult(const Expected<Outputs> &out, double workerSeconds,
                         const StageTimes &times,
                         const PassCoverage &coverage) {
  WireWriter e;
  e.u64(bool(out));
  e.f64(workerSeconds);
  e.u64(times.size());
  for (const auto &[stage, seconds] : times) {
    e.str(stage);
    e.f64(seconds);
  }
  e.u64(coverage.size());
  for (const auto &[key, count] : coverage) {
    e.str(key.first);
    e.str(key.second);
    e.u64(uint64_t(count));
  }
  if (!out) {
    e.u64(uint64_t(out.error().code()));
    e.str(out.error().message());
    encodeFault(e, out.error().detail<CompilerFault>());
    return e.take();
  }
  e.u64(out->size());
  for (const Tensor &t : *out)
    e.u64(t.byteCount()).raw(t.data(), t.byteCount());
  return e.take();
}

Expected<Outputs> decodeResult(const std::string &bytes,
                               const std::vector<TensorType> &resultTypes,
                               double &workerSeconds, StageTimes &times,
                               PassCoverage &coverage) {
  Error malformed = makeError("the isolated worker sent a malformed result");
  WireReader d(bytes);
  bool ok = d.u64();
  workerSeconds = d.f64();
  for (uint64_t i = 0, n = d.u64(); d.ok() && i < n; ++i) {
    std::string stage = d.str();
    times[stage] += d.f64();
  }
  for (uint64_t i = 0, n = d.u64(); d.ok() && i < n; ++i) {
    std::string kind = d.str();
    std::string name = d.str();
    coverage[{kind, name}] += int64_t(d.u64());
  }
  if (!ok) {
    auto code = ErrorCode(d.u64());
    std::string message = d.str();
    std::optional<CompilerFault> fault = decodeFault(d);
    if (!d.done())
      return malformed;
    return fault ? Error::failure(message, code, std::move(*fault))
                 : Error::failure(message, code);
  }
  if (d.u64() != resultTypes.size())
    return malformed;
  Outputs outputs;
  for (const TensorType &t : resultTypes) {
    Tensor out(t);
    if (d.u64() != out.byteCount())
      return malformed;
    d.raw(out.data(), out.byteCount());
    outputs.push_back(std::move(out));
  }
  return d.done() ? Expected<Outputs>(std::move(outputs)) : malformed;
}

} // namespace cc::mlirbackend
