// The generator's knobs as flags, shared by gen and fuzz.
#include "tools/crosscheck/GenFlags.h"
#include "core/Limits.h"
#include "tools/crosscheck/Options.h"

namespace cc::cli {

namespace {
using G = GenOptions;

// Generating a graph takes time linear in its ops; far beyond this it takes
// minutes and gives nothing a compiler test needs.
constexpr int kMaxGenOps = 100000;

std::string familyList() {
  std::string s;
  for (const std::string &n : familyNames())
    s += (s.empty() ? "" : ", ") + n;
  return s;
}

// MIN..MAX, each at most `max`.
Expected<std::pair<int, int>> parseRange(const std::string &flag,
                                         const std::string &text, int max) {
  size_t dots = text.find("..");
  if (dots == std::string::npos)
    return makeError("flag '" + flag + "': expected MIN..MAX, got '" + text +
                     "'");
  CC_ASSIGN(lo, parseUnsigned(flag, text.substr(0, dots)));
  CC_ASSIGN(hi, parseUnsigned(flag, text.substr(dots + 2)));
  if (lo > uint64_t(max) || hi > uint64_t(max))
    return makeError("flag '" + flag + "': '" + text +
                     "' exceeds the limit of " + std::to_string(max));
  return std::pair<int, int>{int(lo), int(hi)};
}

// The fields lo and hi as MIN..MAX.
Binding<G> range(int G::*lo, int G::*hi, int max) {
  return {[=](G &o, const std::string &flag,
              const std::vector<std::string> &values) -> Error {
            CC_ASSIGN(r, parseRange(flag, values.back(), max));
            o.*lo = r.first, o.*hi = r.second;
            return Error::success();
          },
          [=](const G &o) {
            return std::to_string(o.*lo) + ".." + std::to_string(o.*hi);
          }};
}

Expected<Family> family(const std::string &, const std::string &text) {
  return parseFamily(text);
}

Expected<DType> graphDType(const std::string &flag, const std::string &text) {
  auto t = parseDType(text);
  if (!t || *t == DType::i64 || *t == DType::f64)
    return makeError("flag '" + flag + "': unknown graph dtype '" + text + "'");
  return *t;
}
} // namespace

FlagTable<GenOptions> generatorFlags() {
  auto familyName = [](const Family &f) { return familyNames()[size_t(f)]; };
  return {
      {"--ops", "", "MIN..MAX",
       "op nodes per graph, constants not counted (default {})",
       range(&G::minOps, &G::maxOps, kMaxGenOps)},
      {"--family", "", "NAME",
       "topology family: " + familyList() + " (default {})",
       value(&G::family, family, familyName)},
      {"--dtype", "", "LIST",
       "comma-separated dtypes every value must have (default all)",
       list(&G::dtypes, graphDType)},
      {"--include", "", "OPS", "comma-separated ops to place (default all)",
       repeatable(list(&G::include, parseText))},
      {"--exclude", "", "OPS", "comma-separated ops never to place",
       repeatable(list(&G::exclude, parseText))},
      {"--ranks", "", "MIN..MAX", "tensor ranks (default {})",
       range(&G::minRank, &G::maxRank, int(kMaxTensorRank))},
      {"--max-elements", "", "N",
       "largest tensor size in elements (default {})",
       count(&G::maxElements, 0, uint64_t(kMaxTensorElements))},
  };
}

namespace {
using P = ProgramOptions;

Expected<DType> programDType(const std::string &flag, const std::string &text) {
  auto t = parseDType(text);
  if (!t)
    return makeError("flag '" + flag + "': unknown dtype '" + text + "'");
  return *t;
}

// FAMILY=W,...: the families' weights (the ones named; the others keep
// theirs).
std::string familyNames() {
  std::string names;
  for (const ProgramFamily &f : programFamilies())
    names += (names.empty() ? "" : ", ") + std::string(f.name);
  return names;
}

Error setWeights(P &o, const std::string &flag,
                 const std::vector<std::string> &values) {
  std::string text = values.back();
  for (size_t at = 0; at <= text.size();) {
    size_t end = std::min(text.find(',', at), text.size());
    std::string item = text.substr(at, end - at);
    size_t eq = item.find('=');
    double P::*field = nullptr;
    for (const ProgramFamily &f : programFamilies())
      if (eq != std::string::npos && item.substr(0, eq) == f.name)
        field = f.weight;
    if (!field)
      return makeError("flag '" + flag +
                       "': expected FAMILY=W with FAMILY one of " +
                       familyNames() + "; got '" + item + "'");
    CC_ASSIGN(w, parseNumber(flag, item.substr(eq + 1)));
    if (w < 0)
      return makeError("flag '" + flag + "': weights must not be negative");
    o.*field = w;
    at = end + 1;
  }
  double sum = 0;
  for (const ProgramFamily &f : programFamilies())
    sum += o.*f.weight;
  if (sum <= 0)
    return makeError("flag '" + flag + "': some family needs a weight");
  return Error::success();
}

std::string showWeights(const P &o) {
  std::string text;
  for (const ProgramFamily &f : programFamilies())
    text += (text.empty() ? "" : ",") + std::string(f.name) + "=" +
            showNumber(o.*f.weight);
  return text;
}
Expected<int> parseSyntax(const std::string &flag, const std::string &text) {
  CC_ASSIGN(name, parseChoice(flag, text, {"22", "19"}));
  return std::stoi(name);
}
} // namespace

FlagTable<ProgramOptions> programFlags() {
  return {
      {"--program-ops", "", "N",
       "mlir generator: ops per program, constants not counted (default {})",
       count(&P::ops, 1, 1000)},
      {"--program-dtype", "", "LIST",
       "mlir generator: comma-separated element types to draw from (i1, "
       "i8, i16, i32, i64, f16, bf16, f32, f64; default all)",
       list(&P::dtypes, programDType)},
      {"--program-weights",
       "",
       "FAMILY=W,...",
       "mlir generator: weights of the families linalg, tensor, scalar, "
       "scf, vector, memref (default {})",
       {setWeights, showWeights}},
      {"--program-syntax", "", "N",
       "mlir generator: the oldest MLIR release the programs must be "
       "expressible in, {} (default) or 19 (leaves out the ops MLIR 19 "
       "lacks; fuzz uses 19 when every compiler under test is MLIR 19's)",
       value(&P::mlirSyntax, parseSyntax,
             [](const int &v) { return std::to_string(v); })},
  };
}

Expected<PrecisionKind> parsePrecision(const std::string &flag,
                                       const std::string &text) {
  auto k = parsePrecisionKind(text);
  if (!k)
    return k.error().withContext("flag '" + flag + "'");
  return *k;
}

} // namespace cc::cli
