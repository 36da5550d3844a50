// A bundle's driver: @repro_main, MLIR that runs the function under test on
// the case's inputs and prints its outputs exactly.
#include "reports/BundleInternal.h"

#include "backends/mlir/MlirBackend.h"
#include "core/OpTable.h"

#include <cstring>
#include <sstream>

namespace cc::bundle {

namespace {

constexpr const char *kDriver = "repro_main";

// The integer type a printed element goes through: floats by their bits.
std::string bitsType(DType t) {
  switch (t) {
  case DType::f16:
  case DType::bf16:
    return "i16";
  case DType::f32:
    return "i32";
  case DType::f64:
    return "i64";
  default:
    return std::string(dtypeName(t));
  }
}

std::string memrefType(const TensorType &t) {
  std::string m = t.mlir();
  return m.replace(0, strlen("tensor"), "memref");
}

// Loops over the elements of output `o` and prints each as an integer;
// `tmp` numbers the SSA values.
void printOutput(std::ostringstream &os, const TensorType &t, size_t o,
                 int &tmp) {
  std::string ind = "  ", idx;
  for (size_t d = 0; d < t.shape.size(); ++d) {
    std::string n = "%n" + std::to_string(tmp++);
    std::string iv = "%i" + std::to_string(tmp++);
    os << ind << n << " = arith.constant " << t.shape[d] << " : index\n"
       << ind << "scf.for " << iv << " = %c0 to " << n << " step %c1 {\n";
    idx += (d ? ", " : "") + iv;
    ind += "  ";
  }
  std::string v = "%v" + std::to_string(tmp++);
  os << ind << v << " = tensor.extract %out" << o << "[" << idx
     << "] : " << t.mlir() << "\n";
  std::string cur = v, it = bitsType(t.dtype);
  if (isFloat(t.dtype)) {
    std::string b = "%b" + std::to_string(tmp++);
    os << ind << b << " = arith.bitcast " << v << " : " << dtypeName(t.dtype)
       << " to " << it << "\n";
    cur = b;
  }
  if (it != "i64") {
    std::string w = "%w" + std::to_string(tmp++);
    bool unsignedBits = isFloat(t.dtype) || isBool(t.dtype);
    os << ind << w << " = arith." << (unsignedBits ? "extui " : "extsi ") << cur
       << " : " << it << " to i64\n";
    cur = w;
  }
  if (t.dtype == DType::f64) {
    std::string hi = "%h" + std::to_string(tmp++);
    std::string lo = "%l" + std::to_string(tmp++);
    std::string l32 = "%t" + std::to_string(tmp++);
    os << ind << hi << " = arith.shrui " << cur << ", %c32 : i64\n"
       << ind << l32 << " = arith.trunci " << cur << " : i64 to i32\n"
       << ind << lo << " = arith.extui " << l32 << " : i32 to i64\n"
       << ind << "vector.print " << hi << " : i64\n"
       << ind << "vector.print " << lo << " : i64\n";
  } else {
    os << ind << "vector.print " << cur << " : i64\n";
  }
  for (size_t d = t.shape.size(); d-- > 0;) {
    ind.resize(ind.size() - 2);
    os << ind << "}\n";
  }
}

} // namespace

std::string driverText(const Graph &g, const Inputs &inputs,
                       const std::string &func) {
  std::vector<TensorType> args, results;
  for (ValueId v : g.inputs)
    args.push_back(g.typeOf(v));
  for (ValueId v : g.outputs)
    results.push_back(g.typeOf(v));
  return driverText(args, results, inputs, func);
}

std::string driverText(const std::vector<TensorType> &ins,
                       const std::vector<TensorType> &results,
                       const Inputs &inputs, const std::string &func) {
  std::ostringstream os;
  std::string argTypes, args, resTypes;
  // The inputs live in mutable public globals, so that LLVM cannot fold
  // them into the function once it inlines it: the function computes on
  // runtime values, as in crosscheck's JIT.
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string dense = denseLiteral(inputs[i]);
    os << "memref.global @repro_in" << i << " : " << memrefType(ins[i]) << " = "
       << dense.substr(0, dense.rfind(" : ")) << "\n";
  }
  os << "func.func @" << kDriver << "() {\n";
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorType &t = ins[i];
    std::string m = memrefType(t);
    os << "  %m" << i << " = memref.get_global @repro_in" << i << " : " << m
       << "\n  %in" << i << " = bufferization.to_tensor %m" << i
       << " restrict : " << m << " to " << t.mlir() << "\n";
    argTypes += (i ? ", " : "") + t.mlir();
    args += (i ? ", %in" : "%in") + std::to_string(i);
  }
  for (size_t i = 0; i < results.size(); ++i)
    resTypes += (i ? ", " : "") + results[i].mlir();
  os << "  ";
  for (size_t i = 0; i < results.size(); ++i)
    os << (i ? ", %out" : "%out") << i;
  os << (results.empty() ? "" : " = ") << "func.call @" << func << "(" << args
     << ") : (" << argTypes << ") -> (" << resTypes << ")\n";
  os << "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
        "  %c32 = arith.constant 32 : i64\n";
  int tmp = 0;
  for (size_t o = 0; o < results.size(); ++o)
    printOutput(os, results[o], o, tmp);
  os << "  return\n}\n";
  return os.str();
}

Expected<std::string> functionName(const std::string &module) {
  size_t at = module.find("func.func @");
  if (at == std::string::npos)
    return makeError("the emitted module has no function");
  size_t begin = at + strlen("func.func @");
  return module.substr(begin, module.find('(', begin) - begin);
}

Expected<Program> programText(const Graph &g, const Inputs &inputs) {
  CC_ASSIGN(module, emitModule(g));
  CC_ASSIGN(func, functionName(module));
  size_t close = module.rfind('}');
  if (close == std::string::npos)
    return makeError("the emitted module has no body");
  std::string program = module.substr(0, close) + driverText(g, inputs, func) +
                        module.substr(close);
  return Program{module, program};
}

namespace {

// Whether the text's top level is a `module { ... }` (after attribute
// aliases such as `#map = ...`, which MLIR prints first).
bool inModule(const std::string &mlir) {
  size_t line = 0;
  while (line < mlir.size()) {
    size_t start = mlir.find_first_not_of(" \t", line);
    if (start != std::string::npos &&
        mlir.compare(start, strlen("module"), "module") == 0)
      return true;
    if (start != std::string::npos && mlir[start] != '#' &&
        mlir[start] != '\n' && mlir.compare(start, 2, "//") != 0)
      return false;
    size_t end = mlir.find('\n', line);
    line = end == std::string::npos ? mlir.size() : end + 1;
  }
  return false;
}

} // namespace

std::string programText(const MlirProgram &p, const Inputs &inputs) {
  std::string driver = driverText(p.args, p.results, inputs, p.name);
  size_t close = p.mlir.rfind('}');
  if (!inModule(p.mlir) || close == std::string::npos)
    return p.mlir + "\n" + driver;
  return p.mlir.substr(0, close) + driver + p.mlir.substr(close);
}

} // namespace cc::bundle
