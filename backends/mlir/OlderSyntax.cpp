// Mid-level MLIR between MLIR 22's syntax and MLIR 19's, both ways, for the
// two ops whose spelling changed in what crosscheck's programs use:
//   bufferization.to_tensor %m ... : memref<4xf32> to tensor<4xf32>  (22)
//   bufferization.to_tensor %m ... : memref<4xf32>                   (19)
// and linalg.map, whose payload block has an argument for the init's
// element in 22 (never read by crosscheck's programs) and none in 19:
//   linalg.map ins(%a : tensor<4xf16>) outs(%i : tensor<4xf32>)
//     (%in: f16, %init: f32) {                                        (22)
//     (%in: f16) {                                                    (19)
// Text only, line by line, in the printed form of both releases (the region
// header on the line after the op); other text passes unchanged.
#include "backends/mlir/MlirBackend.h"

#include <algorithm>
#include <cctype>
#include <optional>

namespace cc {

namespace {

std::vector<std::string> split(const std::string &s, const std::string &sep) {
  std::vector<std::string> parts;
  size_t from = 0;
  for (size_t at; (at = s.find(sep, from)) != std::string::npos;
       from = at + sep.size())
    parts.push_back(s.substr(from, at - from));
  parts.push_back(s.substr(from));
  return parts;
}

std::string join(const std::vector<std::string> &parts,
                 const std::string &sep) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i)
    s += (i ? sep : "") + parts[i];
  return s;
}

// The index just past the '>' that closes the '<' at `open`, or npos.
size_t pastClosingAngle(const std::string &s, size_t open) {
  int depth = 0;
  for (size_t i = open; i < s.size(); ++i) {
    depth += s[i] == '<' ? 1 : s[i] == '>' ? -1 : 0;
    if (depth == 0)
      return i + 1;
  }
  return std::string::npos;
}

bool isToTensor(const std::string &line) {
  return line.find("= bufferization.to_tensor ") != std::string::npos;
}

// MLIR 22 -> 19: drop " to tensor<...>".
std::string dropTensorType(const std::string &line) {
  size_t at = line.rfind(" to tensor<");
  if (at == std::string::npos)
    return line;
  size_t end = pastClosingAngle(line, at + 10);
  return end == std::string::npos ? line
                                  : line.substr(0, at) + line.substr(end);
}

// MLIR 19 -> 22: " to tensor<shape x elt>" after a memref type without one.
std::string addTensorType(const std::string &line) {
  size_t at = line.rfind(": memref<");
  if (at == std::string::npos ||
      line.find(" to tensor<", at) != std::string::npos)
    return line;
  size_t open = at + 8, end = pastClosingAngle(line, open);
  if (end == std::string::npos)
    return line;
  // The shape and element type: up to the layout's comma, if any.
  std::string inner = line.substr(open + 1, end - open - 2);
  int depth = 0;
  size_t cut = inner.size();
  for (size_t i = 0; i < inner.size() && cut == inner.size(); ++i) {
    depth += inner[i] == '<' || inner[i] == '[' ? 1 : 0;
    depth -= inner[i] == '>' || inner[i] == ']' ? 1 : 0;
    if (inner[i] == ',' && depth == 0)
      cut = i;
  }
  return line.substr(0, end) + " to tensor<" + inner.substr(0, cut) + ">" +
         line.substr(end);
}

// "linalg.map ins(...) outs(%i : tensor<2x3xbf16>)" (not the short form
// "linalg.map { op } ins(...)"): the number of ins operands and the init's
// element type, or nothing.
struct MapHead {
  size_t ins = 0;
  std::string initElt;
};
std::optional<MapHead> mapHead(const std::string &line) {
  size_t ins = line.find("= linalg.map ins(");
  size_t outs = line.find(") outs(", ins);
  if (ins == std::string::npos || outs == std::string::npos)
    return std::nullopt;
  MapHead h;
  std::string operands = line.substr(ins, outs - ins);
  operands = operands.substr(0, operands.find(" : "));
  h.ins = size_t(std::count(operands.begin(), operands.end(), '%'));
  size_t t = line.find(": tensor<", outs);
  size_t end = t == std::string::npos ? t : pastClosingAngle(line, t + 8);
  if (end == std::string::npos)
    return std::nullopt;
  // The element type follows the last dimension's 'x' ("4xindex").
  std::string inner = line.substr(t + 9, end - t - 10);
  size_t x = inner.size();
  while (x > 1 && !(inner[x - 1] == 'x' &&
                    (std::isdigit(inner[x - 2]) || inner[x - 2] == '?')))
    --x;
  h.initElt = x > 1 ? inner.substr(x) : inner;
  return h;
}

// The block arguments of a region header "  (%a: f16, %b: f32) {".
std::optional<std::vector<std::string>> headerArgs(const std::string &line) {
  size_t open = line.find_first_not_of(' ');
  if (open == std::string::npos || line[open] != '(' || !line.ends_with(") {"))
    return std::nullopt;
  std::string inner = line.substr(open + 1, line.size() - open - 4);
  return split(inner, ", ");
}

std::string withArgs(const std::string &line,
                     const std::vector<std::string> &args) {
  return line.substr(0, line.find('(')) + "(" + join(args, ", ") + ") {";
}

// Both directions, line by line: to_tensor's result type dropped (toOlder)
// or added, and a map header with the init argument (ins + 1 arguments)
// made one without it, or the reverse.
std::string rewrite(const std::string &text, bool toOlder) {
  std::vector<std::string> lines = split(text, "\n");
  int fresh = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (isToTensor(lines[i]))
      lines[i] = toOlder ? dropTensorType(lines[i]) : addTensorType(lines[i]);
    auto head = mapHead(lines[i]);
    if (!head || i + 1 == lines.size())
      continue;
    auto args = headerArgs(lines[i + 1]);
    if (!args || args->size() != head->ins + (toOlder ? 1 : 0))
      continue;
    if (toOlder)
      args->pop_back();
    else
      args->push_back("%cc_init" + std::to_string(fresh++) + ": " +
                      head->initElt);
    lines[i + 1] = withArgs(lines[i + 1], *args);
  }
  return join(lines, "\n");
}

} // namespace

std::string toOlderSyntax(const std::string &text, int version) {
  return version >= 22 ? text : rewrite(text, true);
}

std::string fromOlderSyntax(const std::string &text, int version) {
  return version >= 22 ? text : rewrite(text, false);
}

} // namespace cc
