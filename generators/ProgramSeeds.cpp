// Mutation of seed programs (MLIR's lit tests, a user's suite): their
// constants set to the edge values where folds go wrong. The text is as
// MLIR prints it (backends/mlir seedPrograms), so a constant is one line
// `%name = arith.constant LITERAL : TYPE` (or a splat `dense<LITERAL>`).
#include "generators/Edges.h"
#include "generators/Program.h"

#include "core/Rng.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <regex>
#include <sstream>

namespace cc {

namespace {
struct Constant {
  size_t line;
  std::string name, literal, type; // type: "i32", "index", "f16", ...
  size_t at;                       // the literal's offset in its line
};

const std::regex &constantLine() {
  static const std::regex re(
      R"(^\s*(%[\w$.]+) = (?:arith\.constant (?:dense<)?|index\.constant )()"
      R"(-?[0-9][0-9.e+-]*|0x[0-9A-Fa-f]+|true|false)>?(?: : )"
      R"((?:(?:tensor|vector)<(?:\d+x)*)?(i\d+|index|f16|bf16|f32|f64))?)");
  return re;
}

// The op a line defines or runs ("scf.for"), or "".
std::string opOf(const std::string &line) {
  static const std::regex re(R"(^\s*(?:%[^=]*= )?"?([a-z_]+\.[a-z_.]+))");
  std::smatch m;
  return std::regex_search(line, m, re) ? m[1].str() : "";
}

bool uses(const std::string &line, const std::string &name) {
  for (size_t at = line.find(name); at != std::string::npos;
       at = line.find(name, at + 1)) {
    char next = at + name.size() < line.size() ? line[at + name.size()] : ' ';
    if (!std::isalnum(static_cast<unsigned char>(next)) && next != '_' &&
        next != '$' && next != '.')
      return true;
  }
  return false;
}

// A constant may change when every use is arithmetic (arith, index, math):
// one that sizes a tensor, bounds a loop or indexes an access would turn
// into a hang or an out-of-bounds access rather than a fold to check.
bool onlyArithmetic(const std::vector<std::string> &lines, const Constant &c) {
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i == c.line || !uses(lines[i], c.name))
      continue;
    std::string op = opOf(lines[i]);
    if (op.rfind("arith.", 0) && op.rfind("index.", 0) && op.rfind("math.", 0))
      return false;
  }
  return true;
}

int widthOf(const std::string &type) {
  return type == "index" ? 64 : std::atoi(type.c_str() + 1);
}

template <typename Bits> std::string hexOf(Bits bits) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%0*llX", int(2 * sizeof(Bits)),
                static_cast<unsigned long long>(bits));
  return buf;
}

std::string floatLiteral(double v, const std::string &type) {
  if (type == "f16")
    return hexOf(f64ToF16Bits(v));
  if (type == "bf16")
    return hexOf(f64ToBF16Bits(v));
  if (type == "f32") {
    float f = float(v);
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    return hexOf(bits);
  }
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return hexOf(bits);
}

// An edge value of the constant's type, as a literal of it.
std::string edgeLiteral(const Constant &c, Rng &rng) {
  if (c.literal == "true" || c.literal == "false")
    return c.literal == "true" ? "false" : "true";
  if (c.type == "f16" || c.type == "bf16" || c.type == "f32" ||
      c.type == "f64") {
    DType d = *parseDType(c.type);
    std::vector<double> values = floatEdges(d, EdgeUse::Splat);
    for (double v : floatSpecials(d, EdgeUse::Splat))
      values.push_back(v);
    return floatLiteral(rng.pick(values), c.type);
  }
  int w = std::clamp(widthOf(c.type), 1, 64);
  int64_t lo = w == 64 ? INT64_MIN : -(int64_t(1) << (w - 1));
  int64_t hi = w == 64 ? INT64_MAX : (int64_t(1) << (w - 1)) - 1;
  // The shift amounts just inside and at the width, besides the extremes.
  std::vector<int64_t> values{0, 1, -1, 2, lo, hi, w - 1, w};
  int64_t v = rng.pick(values);
  return std::to_string(std::clamp(v, lo, hi));
}
} // namespace

MlirProgram mutateSeedConstants(const MlirProgram &p, uint64_t seed,
                                int count) {
  std::vector<std::string> lines;
  std::istringstream in(p.mlir);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  std::vector<Constant> constants;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::smatch m;
    if (!std::regex_search(lines[i], m, constantLine()))
      continue;
    Constant c{i, m[1], m[2], m[3], size_t(m.position(2))};
    if (c.type.empty() && lines[i].find("index.constant") != std::string::npos)
      c.type = "index";
    if ((!c.type.empty() || c.literal == "true" || c.literal == "false") &&
        onlyArithmetic(lines, c))
      constants.push_back(std::move(c));
  }
  MlirProgram out = p;
  if (constants.empty())
    return out;
  Rng rng(seed);
  for (int k = 0; k < count; ++k) {
    const Constant &c = rng.pick(constants);
    std::string &line = lines[c.line];
    size_t end = line.find_first_of(" >", c.at);
    line.replace(c.at, end - c.at, edgeLiteral(c, rng));
  }
  out.mlir.clear();
  for (const std::string &line : lines)
    out.mlir += line + "\n";
  return out;
}

} // namespace cc
