// A bundle's picture of the graph: Graphviz source, rendered to SVG when
// Graphviz is installed.
#include "reports/BundleInternal.h"

#include "core/Format.h"
#include "process/Process.h"

#include <filesystem>
#include <sstream>

namespace cc {

namespace {

std::string label(const std::string &s) {
  std::string out;
  for (char c : s)
    out += c == '"' ? std::string("\\\"") : std::string(1, c);
  return out;
}

std::string attrText(const AttrValue &v) {
  if (auto *i = std::get_if<int64_t>(&v))
    return std::to_string(*i);
  if (auto *f = std::get_if<double>(&v))
    return formatDouble("%.6g", *f);
  if (auto *b = std::get_if<bool>(&v))
    return *b ? "true" : "false";
  if (auto *s = std::get_if<std::string>(&v))
    return *s;
  if (auto *t = std::get_if<DType>(&v))
    return std::string(dtypeName(*t));
  return "...";
}

// The node that defines `v`: the op, or the input itself.
std::string source(const Graph &g, ValueId v) {
  int producer = g.values.at(v).producer;
  return producer < 0 ? "v" + std::to_string(v)
                      : "n" + std::to_string(producer);
}

} // namespace

std::string graphDot(const Graph &g) {
  std::ostringstream os;
  os << "digraph graph_ {\n  rankdir=TB;\n  node [fontname=\"monospace\" "
        "fontsize=11];\n  edge [fontname=\"monospace\" fontsize=9];\n";
  for (size_t i = 0; i < g.inputs.size(); ++i) {
    const ValueInfo &v = g.values.at(g.inputs[i]);
    os << "  v" << g.inputs[i] << " [shape=ellipse label=\"" << label(v.name)
       << "\\n"
       << v.type.str() << "\"];\n";
  }
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const Node &node = g.nodes[n];
    std::string attrs;
    for (const auto &[k, v] : node.attrs.all())
      attrs += "\\n" + k + "=" + attrText(v);
    bool constant = node.op == OpId::Const;
    os << "  n" << n << " [shape=" << (constant ? "note" : "box")
       << " style=filled fillcolor=\"" << (constant ? "#eeeeee" : "#dbe9f6")
       << "\" label=\"" << label(std::string(opName(node.op))) << label(attrs)
       << "\"];\n";
    for (ValueId operand : node.operands)
      os << "  " << source(g, operand) << " -> n" << n << " [label=\""
         << g.values.at(operand).type.str() << "\"];\n";
  }
  for (size_t i = 0; i < g.outputs.size(); ++i) {
    const ValueInfo &v = g.values.at(g.outputs[i]);
    os << "  out" << i << " [shape=doubleoctagon label=\"output "
       << label(v.name) << "\"];\n  " << source(g, g.outputs[i]) << " -> out"
       << i << " [label=\"" << v.type.str() << "\"];\n";
  }
  os << "}\n";
  return os.str();
}

namespace bundle {

bool renderSvg(const std::string &dir) {
  process::ChildOptions o;
  o.outputPath = "/dev/null";
  auto r = process::runProgram(
      {"dot", "-Tsvg", dir + "/graph.dot", "-o", dir + "/graph.svg"}, o);
  return r && r->succeeded() && std::filesystem::exists(dir + "/graph.svg");
}

} // namespace bundle

} // namespace cc
