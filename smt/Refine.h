// The refinement query of a function pair, internal to cc_smt: both sides
// encoded on the same arguments, and Z3 asked for an input where the target
// does not refine the source. Refine.cpp builds and decides the query,
// RefineSolver.cpp holds the solver's strategies (probes, one output at a
// time, samples), RefineCache.cpp the disk cache of proofs and
// Counterexample.cpp what a counterexample shows and whether the JIT
// confirms it (Replay.h).
#pragma once

#include "smt/Encoder.h"
#include "smt/Replay.h"

#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace cc::smt::detail {

// The outcome of one query.
struct Attempt {
  Attempt(TvVerdict v, std::string r, std::string cex = "")
      : verdict(v), reason(std::move(r)), counterexample(std::move(cex)) {}
  TvVerdict verdict;
  std::string reason, counterexample;
  bool needsRefinement = false;
  bool vacuous = false; // the source is always undefined
  // Unconfirmed, and only the target's poison or undefined behaviour
  // differs: no value to show by execution.
  bool poisonOnly = false;
};

// ---- the solver's strategies (RefineSolver.cpp) -----------------------------

// Concrete inputs for `args`: substitutes for the argument terms.
struct Assignment {
  z3::expr_vector vars, vals;
};
// A few simple concrete inputs (edge values): a concrete formula is solved
// by propagation, so an obvious counterexample costs milliseconds instead
// of a search. Returns the first input that makes `bad` true.
std::optional<Assignment> probe(z3::context &c, const std::vector<SVal> &args,
                                const z3::expr &bad);
// Inputs of ordinary values, distinct per element: set t of 0 to 7.
std::optional<Assignment> ordinaryInputs(z3::context &c,
                                         const std::vector<SVal> &args, int t);
// Edge value k < kEdgeValues of sort `so`: -Inf, +Inf, NaN and the lowest
// finite value of a float; 0, -1, the minimum and the maximum of a
// bit-vector. Nothing for other sorts.
constexpr int kEdgeValues = 4;
std::optional<z3::expr> edgeValue(z3::context &c, const z3::sort &so, int k);
// The probes' inputs themselves (those of sorts with edge values).
std::vector<Assignment> probeSet(z3::context &c, const std::vector<SVal> &args);
// Whether application `x` is float or bit-vector arithmetic (rounding,
// products, quotients): what makes a formula costly to bit-blast, unlike
// comparisons and selections.
bool arithmetic(const z3::expr &x);
// Whether `f` is small and compares and selects only: there Z3 bit-blasts
// it at once, a step that does not heed the time limit.
bool smallAndFlat(const z3::expr &f);
// A solver's limits: milliseconds, and Z3's resource limit (0: none).
struct Limits {
  unsigned ms = 0, rlimit = 0;
};
// One check of `f` in a solver of its own: a solver with scopes is
// incremental, and Z3 then bit-blasts floats while asserting, outside the
// time limit (seconds past it on a few hundred float operations). A small
// formula that only compares and selects is solved in a context of its
// own: in the query's context, large from the encoding, Z3 was slower (a
// one-variable query took 300 ms there and 20 ms alone).
z3::check_result checkAlone(z3::context &c, const z3::expr &f, Limits lim,
                            std::optional<z3::model> &model,
                            std::string &unknownWhy);
// One output element's disjunct !ps && (pt || sv != tv), as
// Query::refinementViolation builds it: the source's value and poison, the
// target's.
struct Sides {
  z3::expr sv, tv, ps, pt;
  z3::expr violation() const { return !ps && (pt || sv != tv); }
};
std::optional<Sides> sidesOf(const z3::expr &d);
// The conjuncts of a precondition that one output element can depend on:
// those joined to it by a shared input or uninterpreted function. Another
// element's definedness is usually one of the rest, and bit-blasting it
// costs as much as the element itself. Without them a query is weaker:
// unsat still proves the element; a model must be completed (decompose).
class PreSlicer {
public:
  explicit PreSlicer(const z3::expr &pre);
  // `pre` without the conjuncts independent of `d`; `dropped` says
  // whether any were left out.
  z3::expr slice(const z3::expr &d, bool &dropped);

private:
  unsigned find(unsigned s);
  int symbol(const z3::expr &x, bool add);
  int join(const z3::expr &root);

  z3::expr whole;
  std::vector<std::pair<z3::expr, int>> conjuncts; // with their symbol
  std::unordered_map<unsigned, int> rep; // node id -> a symbol under it
  std::unordered_map<unsigned, unsigned> symbols; // decl id -> index
  std::vector<unsigned> parent;                   // union-find of symbols
};
// Whether `pre && d` is unsatisfiable with the terms both sides of the
// element compute, where one side goes on alone, as free variables: a
// weaker query (any input gives the cut terms some value), often much
// smaller (what is below a cut is left out). false when not shown within
// `ms` (or `rlimit`, when set), or, with `flatOnly`, when the cut query
// still has arithmetic (smallAndFlat).
bool provedByCuts(z3::context &c, const z3::expr &pre, const z3::expr &d,
                  unsigned ms, unsigned rlimit, bool flatOnly = false);
// Checks `pre && d` for each disjunct d within o.timeoutMs in all and
// o.rlimit each, with provedByDifferences where a brief search does not
// settle one; `model` gets the satisfiable one's model.
z3::check_result decompose(z3::context &c, const z3::expr &pre,
                           const std::vector<z3::expr> &disj,
                           const std::vector<SVal> &args, const TvOptions &o,
                           std::string &unknownWhy,
                           std::optional<z3::model> &model);
// What provedByDifferences learnt of subterm pairs, kept over the elements
// of one query: under `pre`, pair (a, b) never differs, or differs only
// at one value of its frontier, or neither is known.
struct PairFacts {
  struct Fact {
    bool never = false;
    std::optional<Assignment> at;
  };
  std::map<std::tuple<unsigned, unsigned, unsigned>, Fact> known;
  // Facts of a pair's query with its frontier renamed by position: pairs
  // alike but for their frontier (each row of a softmax) are solved once.
  // Keyed by the query's text and its variables' sorts: terms built apart
  // may be alike but not one term. `at` holds the frontier's values by
  // position.
  struct Shaped {
    bool never;
    std::vector<z3::expr> at;
  };
  std::map<std::string, Shaped> byShape;
  // Those queries that ran out of time, with the time (or resource limit)
  // they had.
  std::map<std::string, unsigned> undecided;
  // Whether a term's value forces its value leaves, by the query that
  // shows it, with the leaves renamed by position.
  std::map<std::string, bool> forced;
  // The subterms met, by id: they recur in every element of a row.
  struct Subterm {
    z3::expr e;
    std::set<unsigned> inputs; // the inputs it reads
    size_t size = 1;           // nodes, counted as a tree (to a bound)
    // Its sort, inputs and values at the samples, numbered (in
    // `signatures`); -1: none (no inputs; not a float or bit-vector),
    // -2: not yet computed.
    int signature = -2;
    std::vector<z3::expr> values; // at the samples, once computed
  };
  std::unordered_map<unsigned, Subterm> terms;
  // The inputs the signatures are taken at (ordinaryInputs), as models.
  std::vector<z3::model> samples;
  std::map<std::string, int> signatures;
};
// Whether `pre && d` is unsatisfiable for an output element's disjunct
// (RefineSplit.cpp): the sides are one term but for a few subterm pairs,
// and each pair either never differs or differs only at one value of its
// frontier (the subterms it shares with the other side, or its inputs of
// `args`), at which the element is the same on both sides.
// false when not shown within `ms` (or `rlimit` per check, when set);
// `cex` gets a model of `pre && d` where one turned up on the way (the
// element at a pair's point of difference).
bool provedByDifferences(z3::context &c, const z3::expr &pre, const z3::expr &d,
                         const std::vector<SVal> &args, unsigned ms,
                         unsigned rlimit, PairFacts &facts,
                         std::optional<z3::model> &cex);
// Checks a few disjuncts alone, briefly (200 ms, or a 50th of o.rlimit when
// set); `model` gets a satisfiable one's model.
bool sampleDisjuncts(z3::context &c, const z3::expr &pre,
                     const std::vector<z3::expr> &disj, const TvOptions &o,
                     std::optional<z3::model> &model);

// ---- aliasing (RefineAlias.cpp)
// ----------------------------------------------

// The ways memref arguments of `f` may share buffers, besides none: those
// of one type (identity layout; a static shape unless `dynamicShapes`, at
// instantiated sizes two such arguments need not have one size), unless
// marked llvm.noalias. Each is an aliasOf for Query: per argument, the
// earlier argument whose buffer it is, or -1.
std::vector<std::vector<int>> aliasings(mlir::func::FuncOp f,
                                        bool dynamicShapes = false);
// "%arg1 the same buffer as %arg0, ..."
std::string describeAliasing(const std::vector<int> &aliasOf);
// What a `correct` verdict assumes of several memref arguments.
std::string aliasNote();

// ---- symbolic sizes (RefineSymbolic.cpp) -----------------------------------

// A pair whose arguments (or values inside) have dynamic dimensions,
// checked at every size at once: `proved` where no size has a
// counterexample; else `why` says what stopped it (empty: nothing to note,
// no dynamic arguments) and `sizes` holds a
// counterexample's sizes of the arguments' dynamic dimensions, in order
// (TvOptions::argDimSizes), and its index arguments, where it found one.
struct SymbolicCheck {
  std::optional<Attempt> proved;
  std::vector<int64_t> sizes;
  std::string why;
  std::map<unsigned, int64_t> indexArgs = {};
  bool posed = false;            // the query reached the solver
  bool counterexample = false;   // `sizes` and `indexArgs` hold one
  std::vector<int> aliasOf = {}; // the buffers shared where it failed
};
bool hasFloats(mlir::func::FuncOp src, mlir::func::FuncOp tgt);
SymbolicCheck checkSymbolic(mlir::func::FuncOp src, mlir::func::FuncOp tgt,
                            const TvOptions &o);

// ---- the disk cache (RefineCache.cpp) ---------------------------------------

// Proofs (unsatisfiable queries) cached in TvOptions::cacheDir, one file
// per query named by a hash of its text. Without a directory it holds
// nothing and the query is not printed (costly on large functions).
class QueryCache {
public:
  QueryCache(const TvOptions &o, FMode mode, z3::solver &s);
  bool holdsProof() const;
  void storeProof() const;

private:
  std::string path; // empty: no cache
};

// ---- the query --------------------------------------------------------------

// What a proof is up to, from the encodings of both sides: float sums
// reassociated, math functions uninterpreted (encodingNotes); the ops
// encoded as uninterpreted functions (opaqueNote, "" where none). A
// verdict's reason joins notes with "; ".
std::vector<std::string> encodingNotes(const Encoder &es, const Encoder &et);
std::string opaqueNote(const Encoder &es, const Encoder &et);
std::string joinNotes(const std::vector<std::string> &notes);

// The value of a term under a counterexample.
using Eval = std::function<z3::expr(const z3::expr &)>;
struct Shown; // what a counterexample shows (Counterexample.cpp)

// The concrete value of a model term: a double (floats), or an exact
// integer (`i`, also as a double); nothing where the term is not concrete
// (a probe's inputs leave an uninterpreted function open).
struct ModelNum {
  double d = 0;
  std::optional<int64_t> i = std::nullopt;
};
std::optional<ModelNum> modelValue(const Eval &eval, const z3::expr &e,
                                   mlir::Type elt, z3::context &c);

// Rounds of CEGIS per group of disjuncts, and the reason when they run out.
inline constexpr int kChoiceRounds = 8;
// Searches for a value difference after a poison-only counterexample.
inline constexpr int kValueRounds = 4;
inline constexpr const char *kOpenChoices =
    "open choices: each counterexample of 8 rounds is explained by another "
    "choice of what the source leaves open";

// One refinement query: `tgt` against `src` in one float mode. The outputs
// are the results, then the final contents of memref arguments.
class Query {
public:
  // `aliasOf`: per argument, the earlier memref argument it is the same
  // buffer as (-1: a buffer of its own).
  Query(mlir::func::FuncOp src, mlir::func::FuncOp tgt, FMode mode,
        const TvOptions &o, std::vector<int> aliasOf = {});
  Attempt run();

private:
  // Refine.cpp
  std::optional<Attempt> encode();
  void addMemoryOutputs();
  std::string outName(size_t r) const;
  void refinementViolation();
  z3::expr anyOf(const std::vector<z3::expr> &xs);
  // Terms with the source's open choices (Encoder::choices) replaced by
  // the values of `choice`.
  z3::expr under(const z3::expr_vector &choice, z3::expr e);
  std::vector<z3::expr> under(const z3::expr_vector &choice,
                              std::vector<z3::expr> xs);
  z3::expr_vector noChoice();
  z3::check_result search(z3::solver &s, const z3::expr &pre,
                          const std::vector<z3::expr> &d,
                          const QueryCache *cache,
                          std::vector<std::string> &found,
                          std::string &unknownWhy);
  z3::check_result underEveryChoice(const z3::params &prm,
                                    std::string &unknownWhy);
  z3::check_result refuteGroup(const std::vector<z3::expr> &g,
                               const z3::params &prm, std::string &unknownWhy);
  std::vector<std::vector<z3::expr>> choiceGroups();
  z3::expr pin(z3::expr e);
  std::optional<z3::expr_vector> explain(const z3::params &prm,
                                         const std::vector<z3::expr> &d);
  std::vector<std::string> notes() const;
  std::string opaqueNote() const;
  Attempt proved(const z3::params &prm, std::vector<std::string> notes,
                 const QueryCache &cache);
  Attempt undecided(const std::string &unknownWhy) const;
  Attempt abstractCounterexample();
  Attempt atPoint();
  z3::expr withinBound(const z3::expr &pre);
  Attempt valueDifference(const Attempt &poisonOnly);
  std::vector<z3::expr> valueDisjuncts() const;
  // Counterexample.cpp
  Attempt counterexample(const Eval &eval);
  Attempt confirm(const Shown &x, bool targetUb);
  Shown show(const Eval &eval);
  std::vector<Shown> definedProbes();
  std::optional<Attempt> probeExecution();
  std::optional<Attempt> againstSource(const Replay &rp, const Shown &x);
  std::vector<std::string> replacedMathFns() const;
  std::optional<Attempt> approximation(const Shown *x, bool differs);
  Shapes outputShapes() const; // of os
  std::optional<Attempt> measuredApproximation();
  bool allowed(const Replay &rp, const Shown &x);

  mlir::func::FuncOp src, tgt;
  FMode mode;
  const TvOptions &o;
  std::vector<int> aliasOf;
  z3::context c;
  Encoder es, et;
  std::vector<SVal> args, os, ot;
  size_t numResults = 0;
  std::vector<unsigned> memArgs; // the memref arguments among the outputs
  // The disjuncts of the refinement violation; a note when an output's
  // shapes differ.
  std::vector<z3::expr> disj;
  std::string shapeNote;
  z3::expr_vector choices{c}; // the source's open choices (es.choices)
  // A counterexample's inputs, and from a solver the model that also
  // interprets uninterpreted functions there.
  struct Point {
    Assignment inputs;
    std::optional<z3::model> model;
  };
  std::optional<Point> point;
  // The searches after the first (rounds over open choices, re-queries for
  // a value difference) share one more time limit: without a resource
  // limit, a check ends within about twice --timeout-ms.
  std::chrono::steady_clock::time_point deadline;
};

} // namespace cc::smt::detail
