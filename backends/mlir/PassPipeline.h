// Textual pass pipelines as data, for the tools that edit them (the
// pipeline reducer, bug bundles): "builtin.module(func.func(a,b{x=1}),c)"
// as a tree of anchors and passes, and leaf passes joined back into text.
// No MLIR here: a pipeline is checked against the registered passes where
// it runs.
#pragma once

#include "core/Error.h"

#include <string>
#include <vector>

namespace cc {

// One element of a pipeline: `name{options}(children)`.
struct PassNode {
  std::string name;    // "func.func", "canonicalize"
  std::string options; // with its braces ("{max-iterations=2}"), or empty
  bool nested = false; // an anchor with a (children) list, possibly empty
  std::vector<PassNode> children;
};

// The elements of `text`, in order; whitespace outside options is ignored.
// A missing pass name or an unbalanced bracket is an error.
Expected<std::vector<PassNode>> parsePassPipeline(const std::string &text);

// `pipeline` inside "builtin.module(...)" unless it already is: pipelines
// may omit the outer anchor.
std::string onModule(const std::string &pipeline);

// A leaf pass with the anchors it is nested in, outermost first.
struct PipelineLeaf {
  std::vector<std::string> anchors; // "builtin.module", "func.func"
  std::string name;                 // "canonicalize"
  std::string options;              // as in PassNode
  std::string text() const { return name + options; }
};

// The leaf passes of `nodes` in the order they run; an anchor keeps its
// options.
std::vector<PipelineLeaf> pipelineLeaves(const std::vector<PassNode> &nodes);
// The leaf passes of a textual pipeline.
Expected<std::vector<PipelineLeaf>> splitPipeline(const std::string &text);
// The pipeline that runs `leaves` in order, each in its anchors; a run of
// leaves in the same anchors shares their brackets.
std::string joinPipeline(const std::vector<PipelineLeaf> &leaves);

} // namespace cc
