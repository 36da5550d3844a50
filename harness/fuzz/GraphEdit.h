// Editing a copy of a fuzz graph (internal to the mutator). A mutation
// edits the node list, operands, input types and attributes of a copy `e`;
// new results get placeholder types until rebuild derives every type again
// from the op table, in node order, so an edit that does not fit (a shape
// no longer broadcasts, an attribute no longer matches) fails there.
#pragma once

#include "core/Graph.h"
#include "core/OpTable.h"
#include "core/Rng.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace cc::fuzz {

// Re-derives every result type from the op table, in node order; outputs
// are deduplicated, never graph inputs, and every result that nothing uses
// becomes an output (so that every op is observed).
Expected<Graph> rebuild(const Graph &e);

// The edited copy rebuilt (its constants re-drawn with rng where asked),
// nullopt unless the result is acceptable (acceptableGraph).
std::optional<Graph> finish(const Graph &edited, Rng &rng,
                            bool redrawConstants = false);

// A new input of type t, named after no other value.
ValueId freshInput(Graph &e, const TensorType &t);
// A new result (its type comes from rebuild).
ValueId freshResult(Graph &e);
// Uses of `from` in nodes at index >= firstNode, and in the outputs, now
// use `to`.
void replaceUses(Graph &e, ValueId from, ValueId to, size_t firstNode);
// Graph input x gives way to n, placed first with a new result that every
// use of x reads instead.
void replaceInput(Graph &e, ValueId x, Node n);
// A new op's result r on v in the middle of a chain: users of v from node
// `first` on read r instead, where they accept any value (the types are
// checked by rebuild).
void intoChain(Graph &e, ValueId v, ValueId r, size_t first);

// A graph input or a constant.
bool isLeaf(const Graph &g, ValueId v);
// Index of the node that produces v, -1 for a graph input.
int producerIndex(const Graph &e, ValueId v);
// Indices of the nodes that are not constants.
std::vector<size_t> opNodes(const Graph &g);
// The ops an edit may place: every op with an operand but const.
std::vector<const OpDef *> placeableOps();
std::vector<TensorType> typesOf(const Graph &e, const Node &n);
// Values defined before node `before` (graph inputs and results of earlier
// nodes) of type t.
std::vector<ValueId> valuesBefore(const Graph &e, size_t before,
                                  const TensorType &t);

} // namespace cc::fuzz
