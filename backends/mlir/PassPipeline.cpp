// The textual pass-pipeline parser shared by the reducer and bug bundles.
#include "backends/mlir/PassPipeline.h"

#include <cctype>
#include <string_view>

namespace cc {

namespace {

// Recursive descent over `element (',' element)*`, where an element is
// `name{options}(list)`.
class Parser {
public:
  explicit Parser(const std::string &text) : s(text) {}

  Expected<std::vector<PassNode>> all() {
    skipSpace();
    if (at == s.size())
      return std::vector<PassNode>{};
    CC_ASSIGN(nodes, list());
    if (at != s.size())
      return makeError("pipeline: trailing text");
    return std::move(nodes);
  }

private:
  Expected<std::vector<PassNode>> list() {
    std::vector<PassNode> out;
    do {
      CC_ASSIGN(n, element());
      out.push_back(std::move(n));
    } while (take(','));
    return out;
  }

  Expected<PassNode> element() {
    PassNode n;
    for (; at < s.size() &&
           std::string_view(",(){}").find(s[at]) == std::string_view::npos;
         ++at)
      if (!std::isspace(uint8_t(s[at])))
        n.name += s[at];
    if (n.name.empty())
      return makeError("pipeline: expected a pass name at offset " +
                       std::to_string(at));
    if (at < s.size() && s[at] == '{') {
      CC_ASSIGN(options, braced());
      n.options = options;
    }
    if (take('(')) {
      n.nested = true;
      if (!take(')')) {
        CC_ASSIGN(children, list());
        n.children = std::move(children);
        if (!take(')'))
          return makeError("pipeline: expected ')'");
      }
    }
    skipSpace();
    return n;
  }

  // Options, copied with their nested braces.
  Expected<std::string> braced() {
    size_t begin = at;
    int depth = 0;
    do
      depth += s[at] == '{' ? 1 : s[at] == '}' ? -1 : 0;
    while (++at < s.size() && depth > 0);
    if (depth != 0)
      return makeError("pipeline: unbalanced '{'");
    return s.substr(begin, at - begin);
  }

  // Consumes `c` (and the whitespace around it) when it comes next.
  bool take(char c) {
    skipSpace();
    if (at == s.size() || s[at] != c)
      return false;
    ++at;
    skipSpace();
    return true;
  }

  void skipSpace() {
    while (at < s.size() && std::isspace(uint8_t(s[at])))
      ++at;
  }

  const std::string &s;
  size_t at = 0;
};

void collectLeaves(const PassNode &n, std::vector<std::string> &anchors,
                   std::vector<PipelineLeaf> &out) {
  if (!n.nested) {
    out.push_back({anchors, n.name, n.options});
    return;
  }
  anchors.push_back(n.name + n.options);
  for (const PassNode &c : n.children)
    collectLeaves(c, anchors, out);
  anchors.pop_back();
}

} // namespace

Expected<std::vector<PassNode>> parsePassPipeline(const std::string &text) {
  return Parser(text).all();
}

std::string onModule(const std::string &pipeline) {
  constexpr std::string_view kModule = "builtin.module(";
  return pipeline.starts_with(kModule) ? pipeline
                                       : std::string(kModule) + pipeline + ")";
}

std::vector<PipelineLeaf> pipelineLeaves(const std::vector<PassNode> &nodes) {
  std::vector<PipelineLeaf> out;
  std::vector<std::string> anchors;
  for (const PassNode &n : nodes)
    collectLeaves(n, anchors, out);
  return out;
}

Expected<std::vector<PipelineLeaf>> splitPipeline(const std::string &text) {
  CC_ASSIGN(nodes, parsePassPipeline(text));
  return pipelineLeaves(nodes);
}

std::string joinPipeline(const std::vector<PipelineLeaf> &leaves) {
  std::string s;
  std::vector<std::string> open;
  for (const PipelineLeaf &l : leaves) {
    size_t common = 0;
    while (common < open.size() && common < l.anchors.size() &&
           open[common] == l.anchors[common])
      ++common;
    for (; open.size() > common; open.pop_back())
      s += ")";
    if (&l != &leaves.front())
      s += ",";
    for (size_t a = common; a < l.anchors.size(); ++a) {
      s += l.anchors[a] + "(";
      open.push_back(l.anchors[a]);
    }
    s += l.text();
  }
  for (; !open.empty(); open.pop_back())
    s += ")";
  return s;
}

} // namespace cc
