// The op reference of docs/OPS.md, written from the op table itself, so
// that the documentation of an op cannot drift from its entry.
#include "core/Format.h"
#include "core/OpTable.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace cc {

namespace {

constexpr DType kMatrixDTypes[] = {DType::f32, DType::f16, DType::bf16,
                                   DType::i8,  DType::i16, DType::i32,
                                   DType::i1};

// Markdown table cells: a '|' would end the cell.
std::string cell(const std::string &s) {
  std::string out;
  for (char c : s)
    out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string join(const std::vector<std::string> &parts, const char *sep) {
  std::string s;
  for (const std::string &p : parts)
    s += (s.empty() ? "" : sep) + p;
  return s;
}

std::string valueText(const AttrValue &v) {
  switch (kindOf(v)) {
  case AttrKind::Int:
    return std::to_string(std::get<int64_t>(v));
  case AttrKind::Float:
    return formatDouble("%g", std::get<double>(v));
  case AttrKind::Bool:
    return std::get<bool>(v) ? "true" : "false";
  case AttrKind::String:
    return "\"" + std::get<std::string>(v) + "\"";
  case AttrKind::Ints: {
    std::vector<std::string> items;
    for (int64_t x : std::get<std::vector<int64_t>>(v))
      items.push_back(std::to_string(x));
    return "[" + join(items, ",") + "]";
  }
  case AttrKind::Floats: {
    std::vector<std::string> items;
    for (double x : std::get<std::vector<double>>(v))
      items.push_back(formatDouble("%g", x));
    return "[" + join(items, ",") + "]";
  }
  case AttrKind::Type:
    return std::string(dtypeName(std::get<DType>(v)));
  case AttrKind::Tensor:
    return "a tensor";
  }
  return "";
}

std::string attrsText(const OpDef &op) {
  std::vector<std::string> parts;
  for (const AttrSpec &a : op.attrs)
    parts.push_back(
        a.name + ": " + std::string(attrKindName(a.kind)) +
        (a.defaultValue ? " (" + valueText(*a.defaultValue) + ")" : ""));
  return parts.empty() ? "—" : join(parts, ", ");
}

std::string operandsText(const OpDef &op) {
  if (!op.operandDoc.empty())
    return op.operandDoc;
  static const char *const byArity[] = {"—", "x", "a, b", "a, b, c"};
  return byArity[std::clamp(op.minOperands, 0, 3)];
}

std::string reference() {
  std::string md = "| op | what it computes | operands | attributes "
                   "(default) | notes |\n|---|---|---|---|---|\n";
  for (const OpDef &op : allOps())
    md += "| " + op.name + " | " + cell(op.summary) + " | " +
          cell(operandsText(op)) + " | " + cell(attrsText(op)) + " | " +
          cell(op.notes) + " |\n";
  return md;
}

// The rounding class of an op: what its rule says at its example.
std::string roundingClass(const OpDef &op) {
  auto floatType = std::find_if(op.dtypes.begin(), op.dtypes.end(),
                                [](DType d) { return isFloat(d); });
  if (floatType == op.dtypes.end())
    return "integers only (exact)";
  if (op.accumulates)
    return "the accumulation length (see the op's notes)";
  if (!op.rounding)
    return "1";
  auto g = exampleGraph(op, *floatType, 1);
  if (!g)
    return "?";
  const Node &n = g->nodes.back();
  std::vector<TensorType> types;
  for (ValueId v : n.operands)
    types.push_back(g->typeOf(v));
  double steps = op.rounding(types, withDefaults(op, n.attrs)).steps;
  if (steps == 0)
    return "0 (exact)";
  return formatDouble("%g", steps) + (steps > 1 ? " (approximated)" : "");
}

std::string rounding() {
  std::map<std::string, std::vector<std::string>> byClass;
  std::vector<std::string> order;
  for (const OpDef &op : allOps()) {
    std::string c = roundingClass(op);
    if (!byClass.count(c))
      order.push_back(c);
    byClass[c].push_back(op.name);
  }
  std::string md = "| ulps an op adds (`OpDef::rounding`) | ops |\n|---|---|\n";
  for (const std::string &c : order)
    md += "| " + c + " | " + join(byClass[c], ", ") + " |\n";
  return md;
}

std::string freedoms() {
  std::vector<std::string> zeroSign, undefined, steps;
  for (const OpDef &op : allOps()) {
    if (op.freedoms.zeroSign)
      zeroSign.push_back(op.name);
    if (op.freedoms.undefinedAt)
      undefined.push_back(op.name);
    if (op.freedoms.openWithin)
      steps.push_back(op.name);
  }
  return "| freedom | ops |\n|---|---|\n"
         "| the sign of a zero result (`freedoms.zeroSign`) | " +
         join(zeroSign, ", ") +
         " |\n| undefined elements (`freedoms.undefinedAt`) | " +
         join(undefined, ", ") +
         " |\n| either side of a step within an operand's permitted error "
         "(`freedoms.openWithin`) | " +
         join(steps, ", ") + " |\n";
}

std::string matrix() {
  std::string md = "| op |", rule = "|---|";
  for (DType d : kMatrixDTypes) {
    md += " " + std::string(dtypeName(d)) + " |";
    rule += "---|";
  }
  md += "\n" + rule + "\n";
  for (const OpDef &op : allOps()) {
    md += "| " + op.name + " |";
    for (DType d : kMatrixDTypes)
      md += op.allows(d) ? " ✓ |" : " · |";
    md += "\n";
  }
  return md;
}

} // namespace

std::string opReferenceMarkdown() {
  return "### The ops\n\n" + reference() + "\n### Rounding by op\n\n" +
         rounding() + "\n### Freedoms by op\n\n" + freedoms() +
         "\n### Dtypes by op\n\n"
         "The dtypes each op takes as its first operand (✓); · = not a TOSA "
         "1.0\ncombination.\n\n" +
         matrix();
}

} // namespace cc
