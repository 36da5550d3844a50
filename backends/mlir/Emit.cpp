// TOSA emission of a graph: the func.func wrapper around the op table's
// per-node emission. No MLIR headers, so `crosscheck emit-mlir` stays cheap.
#include "backends/mlir/MlirBackend.h"
#include "core/OpTable.h"

#include <cctype>

namespace cc {

namespace {
// `@name`, quoted when it is not a bare MLIR identifier.
std::string symbolRef(const std::string &name) {
  bool bare =
      !name.empty() && (std::isalpha((unsigned char)name[0]) || name[0] == '_');
  for (char c : name)
    bare = bare &&
           (std::isalnum((unsigned char)c) || c == '_' || c == '$' || c == '.');
  if (bare)
    return "@" + name;
  std::string quoted = "@\"";
  for (char c : name) {
    if (c == '"' || c == '\\')
      quoted += '\\';
    quoted += c;
  }
  return quoted + "\"";
}

std::string joinTypes(const Graph &g, const std::vector<ValueId> &vs) {
  std::string s;
  for (size_t i = 0; i < vs.size(); ++i)
    s += (i ? ", " : "") + g.typeOf(vs[i]).mlir();
  return s;
}
} // namespace

Expected<std::string> emitModule(const Graph &g, int syntaxVersion) {
  if (syntaxVersion != 22 && syntaxVersion != 19)
    return makeError("unsupported TOSA syntax version " +
                     std::to_string(syntaxVersion) + " (expected 22 or 19)");
  CC_TRY(verify(g));
  EmitContext ctx(g, syntaxVersion);
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const Node &node = g.nodes[n];
    const OpDef *def = &opDef(node.op);
    std::string where = "node " + std::to_string(n) + " (" + def->name + ")";
    if (!def->emit)
      return Error::failure(where + ": op has no TOSA emission",
                            ErrorCode::Unsupported);
    CC_TRY(def->emit(ctx, node).withContext(where));
  }

  std::string args;
  for (size_t i = 0; i < g.inputs.size(); ++i)
    args +=
        (i ? ", " : "") + ctx.name(g.inputs[i]) + ": " + ctx.type(g.inputs[i]);
  std::string results;
  for (size_t i = 0; i < g.outputs.size(); ++i)
    results += (i ? ", " : "") + ctx.name(g.outputs[i]);

  std::string text = "module {\n  func.func " + symbolRef(g.name) + "(" + args +
                     ") -> (" + joinTypes(g, g.outputs) + ") {\n";
  text += ctx.body();
  text += "    return";
  if (!g.outputs.empty())
    text += " " + results + " : " + joinTypes(g, g.outputs);
  text += "\n  }\n}\n";
  return text;
}

} // namespace cc
