// The refinement query's open choices (Refine.cpp): what TOSA leaves open
// in the source (the sign of a zero) is universally quantified. A
// counterexample found under one choice is checked again under every other;
// the disjuncts are searched in groups that read common choices.
#include "smt/Refine.h"

namespace cc::smt::detail {

using namespace mlir;

// Bounded CEGIS on the disjuncts `g`: sat with `point` a counterexample
// that no choice explains; unsat when another choice explains each one
// found; unknown with the solver's reason, or kOpenChoices when the rounds
// run out.
z3::check_result Query::refuteGroup(const std::vector<z3::expr> &g,
                                    const z3::params &prm,
                                    std::string &unknownWhy) {
  z3::expr pre = under(noChoice(), withinBound(!es.ub));
  std::vector<z3::expr> d = under(noChoice(), g);
  for (int round = 1; round <= kChoiceRounds; ++round) {
    z3::solver s(c);
    s.set(prm);
    s.add(pre && anyOf(d));
    std::vector<std::string> notes;
    z3::check_result r = search(s, pre, d, nullptr, notes, unknownWhy);
    if (r != z3::sat)
      return r;
    std::optional<z3::expr_vector> other = explain(prm, g);
    if (!other)
      return z3::sat;
    // The next counterexample must differ under this choice too.
    pre = pre && under(*other, !es.ub && anyOf(g));
  }
  unknownWhy = kOpenChoices;
  return z3::unknown;
}

// refuteGroup on each group of disjuncts that read common choices: for
// disjoint choices, "for every choice, one of the disjuncts holds" is "one
// of them holds for every choice of its own".
z3::check_result Query::underEveryChoice(const z3::params &prm,
                                         std::string &unknownWhy) {
  z3::check_result res = z3::unsat;
  for (const std::vector<z3::expr> &g : choiceGroups()) {
    std::string why;
    z3::check_result r = refuteGroup(g, prm, why);
    if (r == z3::sat)
      return r;
    if (r == z3::unknown) {
      res = r;
      unknownWhy = why;
    }
  }
  return res;
}

// The disjuncts grouped by the open choices they read: connected by a
// common choice; one group where the source's undefinedness reads one.
std::vector<std::vector<z3::expr>> Query::choiceGroups() {
  std::unordered_map<unsigned, size_t> choiceOf;
  for (unsigned k = 0; k < choices.size(); ++k)
    choiceOf[choices[int(k)].id()] = k;
  auto reads = [&](const z3::expr &e) {
    std::vector<size_t> found;
    forEachNode(e, [&](const z3::expr &x) {
      if (auto it = choiceOf.find(x.id()); it != choiceOf.end())
        found.push_back(it->second);
      return true;
    });
    return found;
  };
  if (!reads(es.ub).empty())
    return {disj};
  // Union-find over the disjuncts; owner: the first disjunct of a choice.
  std::vector<size_t> parent(disj.size()), owner(choices.size(), SIZE_MAX);
  std::iota(parent.begin(), parent.end(), 0);
  auto root = [&](size_t i) {
    while (parent[i] != i)
      i = parent[i] = parent[parent[i]];
    return i;
  };
  for (size_t i = 0; i < disj.size(); ++i)
    for (size_t k : reads(disj[i])) {
      if (owner[k] == SIZE_MAX)
        owner[k] = i;
      parent[root(i)] = root(owner[k]);
    }
  std::map<size_t, std::vector<z3::expr>> groups;
  for (size_t i = 0; i < disj.size(); ++i)
    groups[root(i)].push_back(disj[i]);
  std::vector<std::vector<z3::expr>> r;
  for (auto &[k, g] : groups)
    r.push_back(std::move(g));
  return r;
}

z3::expr_vector Query::noChoice() {
  z3::expr_vector none(c);
  for (unsigned k = 0; k < choices.size(); ++k)
    none.push_back(c.bool_val(false));
  return none;
}

// One search for inputs where `pre` holds and a disjunct of `d`; `point`
// holds them (in IEEE mode).
z3::check_result Query::search(z3::solver &s, const z3::expr &pre,
                               const std::vector<z3::expr> &d,
                               const QueryCache *cache,
                               std::vector<std::string> &found,
                               std::string &unknownWhy) {
  point.reset();
  // The time left (an rlimit bounds the work instead, on every machine).
  TvOptions left = o;
  if (!o.rlimit) {
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                  deadline - std::chrono::steady_clock::now())
                  .count();
    if (ms <= 0) {
      unknownWhy = "timeout";
      return z3::unknown;
    }
    left.timeoutMs = unsigned(std::min<int64_t>(ms, o.timeoutMs));
  }
  if (mode == FMode::Ieee)
    if (std::optional<Assignment> hit = probe(c, args, pre && anyOf(d))) {
      // A probe input is a counterexample: no search needed.
      point = Point{*hit, std::nullopt};
      return z3::sat;
    }
  z3::check_result res;
  if (cache && cache->holdsProof()) {
    found.push_back("cached");
    return z3::unsat;
  }
  std::optional<z3::model> model;
  if (d.size() <= 1024) {
    // Queries are much faster one output element at a time, IEEE and
    // abstract ones alike (an element alike to a proved one is proved):
    // the disjunction is unsatisfiable iff each disjunct is.
    res = decompose(c, pre, d, args, left, unknownWhy, model);
  } else if (d.size() > 1024 && sampleDisjuncts(c, pre, d, left, model)) {
    res = z3::sat;
  } else {
    z3::params limited(c);
    limited.set("timeout", left.timeoutMs);
    if (o.rlimit)
      limited.set("rlimit", o.rlimit);
    s.set(limited);
    res = s.check();
    if (res == z3::unknown)
      unknownWhy = s.reason_unknown();
    if (res == z3::sat)
      model = s.get_model();
  }
  if (res != z3::sat || mode != FMode::Ieee)
    return res;
  z3::model m = *model;
  Assignment in{z3::expr_vector(c), z3::expr_vector(c)};
  for (const SVal &a : args) {
    if (a.array) {
      in.vars.push_back(*a.array);
      in.vals.push_back(m.eval(*a.array, true));
      continue;
    }
    for (const z3::expr &x : a.v) {
      in.vars.push_back(x);
      in.vals.push_back(m.eval(x, true));
    }
  }
  point = Point{in, m};
  return res;
}

// A term at the counterexample's inputs (and uninterpreted functions as
// its model interprets them): only the source's open choices stay free.
z3::expr Query::pin(z3::expr e) {
  e = e.substitute(point->inputs.vars, point->inputs.vals);
  return point->model ? point->model->eval(e, false) : e.simplify();
}

// A choice of the source's open results under which none of the disjuncts
// `d` holds at the counterexample's inputs; nothing when no choice does
// (the counterexample is genuine).
std::optional<z3::expr_vector> Query::explain(const z3::params &prm,
                                              const std::vector<z3::expr> &d) {
  if (choices.empty())
    return std::nullopt;
  z3::solver s(c);
  s.set(prm);
  s.add(pin(es.ub || !anyOf(d)));
  if (s.check() != z3::sat)
    return std::nullopt;
  z3::model m = s.get_model();
  z3::expr_vector choice(c);
  for (const z3::expr &x : choices)
    choice.push_back(m.eval(x, true));
  return choice;
}

z3::expr Query::under(const z3::expr_vector &choice, z3::expr e) {
  return choices.empty() ? e : e.substitute(choices, choice);
}

std::vector<z3::expr> Query::under(const z3::expr_vector &choice,
                                   std::vector<z3::expr> xs) {
  for (z3::expr &x : xs)
    x = under(choice, x);
  return xs;
}

// One flat disjunction: a nested chain of 2-ary ors costs Z3 quadratic
// time on large outputs.
z3::expr Query::anyOf(const std::vector<z3::expr> &xs) {
  z3::expr_vector v(c);
  for (const z3::expr &x : xs)
    v.push_back(x);
  return z3::mk_or(v);
}

} // namespace cc::smt::detail
