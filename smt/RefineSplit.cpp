// Proof by differences: the two sides of an output element are usually the
// same term except at a few subterm pairs (a reduction's initial value, a
// rewritten subexpression). Where such a pair agrees, the target's subterm
// can be replaced by the source's; a pair that differs at one value of its
// frontier alone (the subterms it shares with the other side, or its
// inputs: a row of -inf against a lowest-finite start) is settled by
// substituting that value, which folds the rest of the element to
// constants.
#include "smt/Refine.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <tuple>

namespace cc::smt::detail {

namespace {
using Clock = std::chrono::steady_clock;

using Subterm = PairFacts::Subterm;
constexpr size_t kMaxNodes = 4096;

// The subterms of `root` (applications with arguments, of a float or
// bit-vector sort) into `out`, each with the inputs it reads (from the
// cache `known`, filled as met); false past kMaxNodes.
bool subterms(const z3::expr &root, const std::set<unsigned> &inputIds,
              std::unordered_map<unsigned, Subterm> &known,
              std::map<unsigned, Subterm *> &out) {
  std::vector<std::pair<z3::expr, bool>> todo{{root, false}};
  while (!todo.empty()) {
    auto [e, expanded] = todo.back();
    todo.pop_back();
    if (out.count(e.id()))
      continue;
    auto it = known.find(e.id());
    if (!expanded && it == known.end()) {
      todo.push_back({e, true});
      if (e.is_app())
        for (unsigned i = 0; i < e.num_args(); ++i)
          todo.push_back({e.arg(i), false});
      continue;
    }
    if (it == known.end()) {
      Subterm t{e, {}, 1, -2, {}};
      if (inputIds.count(e.id()))
        t.inputs.insert(e.id());
      if (e.is_app())
        for (unsigned i = 0; i < e.num_args(); ++i) {
          const Subterm &a = known.at(e.arg(i).id());
          t.inputs.insert(a.inputs.begin(), a.inputs.end());
          t.size = std::min(kMaxNodes, t.size + a.size);
        }
      it = known.emplace(e.id(), std::move(t)).first;
    } else if (e.is_app()) {
      // Met before: its subterms are known, but not yet in `out`.
      for (unsigned i = 0; i < e.num_args(); ++i)
        if (!out.count(e.arg(i).id()))
          todo.push_back({e.arg(i), false});
    }
    out.emplace(e.id(), &it->second);
    if (out.size() > kMaxNodes)
      return false;
  }
  return true;
}

// `e` with the operands of each float sum and product in the encoder's
// order (by term id, Encoder::fadd): a substitution keeps the order of the
// terms it rebuilds, and the patched target would stay apart from the very
// sum of the source.
z3::expr inIdOrder(const z3::expr &e) {
  std::unordered_map<unsigned, z3::expr> done;
  std::vector<std::pair<z3::expr, bool>> todo{{e, false}};
  while (!todo.empty()) {
    auto [x, expanded] = todo.back();
    todo.pop_back();
    if (done.count(x.id()))
      continue;
    if (!x.is_app() || x.num_args() == 0) {
      done.emplace(x.id(), x);
      continue;
    }
    if (!expanded) {
      todo.push_back({x, true});
      for (unsigned i = 0; i < x.num_args(); ++i)
        todo.push_back({x.arg(i), false});
      continue;
    }
    std::vector<z3::expr> args;
    for (unsigned i = 0; i < x.num_args(); ++i)
      args.push_back(done.at(x.arg(i).id()));
    Z3_decl_kind k = x.decl().decl_kind();
    if ((k == Z3_OP_FPA_ADD || k == Z3_OP_FPA_MUL) && args.size() == 3 &&
        args[1].id() > args[2].id())
      std::swap(args[1], args[2]);
    z3::expr_vector v(x.ctx());
    for (const z3::expr &a : args)
      v.push_back(a);
    done.emplace(x.id(), x.decl()(v));
  }
  return done.at(e.id());
}

// Pairs (a of the source, b of the target, b not in the source) of one
// sort that read the same inputs and agree at the sample points: the
// places where the sides may differ only at edge values.
class Candidates {
public:
  Candidates(const Sides &s, const std::set<unsigned> &inputIds,
             std::vector<z3::model> &samples, PairFacts &facts) {
    std::map<unsigned, Subterm *> &src = srcTerms, &tgt = tgtTerms;
    auto &known = facts.terms;
    if (!subterms(s.sv, inputIds, known, src) ||
        !subterms(s.ps, inputIds, known, src) ||
        !subterms(s.tv, inputIds, known, tgt) ||
        !subterms(s.pt, inputIds, known, tgt))
      return;
    std::unordered_map<int, std::vector<const Subterm *>> bySignature;
    for (const auto &[id, t] : src)
      if (int key = signature(*t, samples, facts); key >= 0)
        bySignature[key].push_back(t);
    for (const auto &[id, t] : tgt) {
      if (src.count(id) || !t->e.is_app() || t->e.num_args() == 0)
        continue;
      int key = signature(*t, samples, facts);
      if (key < 0)
        continue;
      // The whole elements are the query itself.
      for (const Subterm *a : bySignature[key])
        if (!z3::eq(a->e, s.sv) || !z3::eq(t->e, s.tv))
          pairs.push_back({a, t});
    }
    // Pairs where the sides meet again first: b's parent, given a for b,
    // is a term of the source (a row's maximum both sides subtract from
    // the row), not a piece of a larger difference. Then pairs over many
    // inputs (a whole row's maximum: its one point of difference fixes the
    // row at once), small ones among those.
    std::map<unsigned, std::vector<z3::expr>> parents;
    for (const auto &[id, t] : tgt)
      if (t->e.is_app())
        for (unsigned i = 0; i < t->e.num_args(); ++i)
          parents[t->e.arg(i).id()].push_back(t->e);
    // A pair whose target term holds another pair's over fewer inputs (a
    // sum over a window's maxima, each apart) is settled by patching the
    // inner ones.
    std::unordered_map<unsigned, size_t> targets; // id -> inputs
    for (const auto &[a, b] : pairs)
      targets.emplace(b->e.id(), b->inputs.size());
    auto outer = [&](const Subterm &b) {
      bool holds = false;
      forEachNode(b.e, [&](const z3::expr &x) {
        auto it = targets.find(x.id());
        holds = holds || (it != targets.end() && it->second < b.inputs.size());
        return !holds;
      });
      return holds;
    };
    auto rank = [&](const std::pair<const Subterm *, const Subterm *> &p) {
      bool meets = false;
      for (const z3::expr &up : parents[p.second->e.id()]) {
        z3::expr_vector args(up.ctx());
        for (unsigned i = 0; i < up.num_args(); ++i)
          args.push_back(z3::eq(up.arg(i), p.second->e) ? p.first->e
                                                        : up.arg(i));
        meets = meets || src.count(up.decl()(args).id());
      }
      return std::tuple{!meets, outer(*p.second),
                        -int64_t(p.second->inputs.size()),
                        p.first->size + p.second->size};
    };
    std::vector<std::pair<decltype(rank(pairs[0])), size_t>> order;
    for (size_t i = 0; i < pairs.size(); ++i)
      order.push_back({rank(pairs[i]), i});
    std::sort(order.begin(), order.end());
    // The first kRanked of those, then the smallest pairs (an operand both
    // sides write differently, under a product that hides it).
    std::vector<std::pair<const Subterm *, const Subterm *>> ranked;
    std::vector<bool> taken(pairs.size());
    for (size_t k = 0; k < order.size() && k < kRanked; ++k) {
      ranked.push_back(pairs[order[k].second]);
      taken[order[k].second] = true;
    }
    std::vector<std::pair<size_t, size_t>> bySize;
    for (size_t i = 0; i < pairs.size(); ++i)
      if (!taken[i])
        bySize.push_back({pairs[i].first->size + pairs[i].second->size, i});
    std::sort(bySize.begin(), bySize.end());
    for (const auto &[size, i] : bySize)
      ranked.push_back(pairs[i]);
    pairs = std::move(ranked);
  }
  static constexpr size_t kRanked = 6;
  std::vector<std::pair<const Subterm *, const Subterm *>> pairs;
  // Each side's subterms (in PairFacts::terms).
  std::map<unsigned, Subterm *> srcTerms, tgtTerms;

private:
  // Sort, inputs and values at the samples, as text.
  // The values of `t` at the samples, from its arguments' values (kept):
  // evaluating each subterm whole would cost the square of its size.
  static const std::vector<z3::expr> &
  valuesAt(Subterm &t, std::vector<z3::model> &samples,
           std::unordered_map<unsigned, Subterm> &known) {
    std::vector<Subterm *> todo{&t};
    while (!todo.empty()) {
      Subterm &u = *todo.back();
      if (!u.values.empty()) {
        todo.pop_back();
        continue;
      }
      unsigned n = u.e.is_app() ? u.e.num_args() : 0;
      bool ready = true;
      for (unsigned i = 0; i < n; ++i) {
        Subterm &a = known.at(u.e.arg(i).id());
        if (a.values.empty()) {
          todo.push_back(&a);
          ready = false;
        }
      }
      if (!ready)
        continue;
      for (size_t k = 0; k < samples.size(); ++k) {
        if (n == 0) {
          u.values.push_back(samples[k].eval(u.e, true));
          continue;
        }
        z3::expr_vector args(u.e.ctx());
        for (unsigned i = 0; i < n; ++i)
          args.push_back(known.at(u.e.arg(i).id()).values[k]);
        u.values.push_back(samples[k].eval(u.e.decl()(args), true));
      }
      todo.pop_back();
    }
    return t.values;
  }

  // The number of the signature of `t` (-1: none), computed once.
  static int signature(Subterm &t, std::vector<z3::model> &samples,
                       PairFacts &facts) {
    if (t.signature != -2)
      return t.signature;
    z3::sort so = t.e.get_sort();
    t.signature = -1;
    if (t.inputs.empty() || !(so.is_fpa() || so.is_bv()))
      return t.signature;
    std::string key = so.to_string();
    for (unsigned id : t.inputs)
      key += " " + std::to_string(id);
    for (const z3::expr &v : valuesAt(t, samples, facts.terms))
      key += " " + v.to_string();
    auto [it, added] =
        facts.signatures.emplace(std::move(key), int(facts.signatures.size()));
    t.signature = it->second;
    return t.signature;
  }
};

class Splitter {
public:
  Splitter(z3::context &c, const std::map<unsigned, z3::expr> &inputs,
           std::vector<z3::model> &samples, Clock::time_point end,
           unsigned rlimit, PairFacts &facts)
      : c(c), inputs(inputs), samples(samples), end(end), rlimit(rlimit),
        facts(facts), top(c), goal(c) {
    for (const auto &[id, x] : inputs)
      inputIds.insert(id);
  }

  bool proves(const z3::expr &pre, const Sides &given, int depth) {
    Sides s{inIdOrder(given.sv.simplify()), inIdOrder(given.tv.simplify()),
            inIdOrder(given.ps.simplify()), inIdOrder(given.pt.simplify())};
    if ((pre && s.violation()).simplify().is_false())
      return true;
    if (depth >= kMaxDepth)
      return false;
    // Once a pair is patched, what is left may hold of the shared terms
    // alone (the target's range check of a product the source requires).
    if (depth > 0 && cuts(pre, s))
      return true;
    Candidates cands(s, inputIds, samples, facts);
    size_t tried = 0;
    for (const auto &[a, b] : cands.pairs) {
      if (++tried > kMaxTries || Clock::now() >= end)
        return false;
      PairFacts::Fact f = settle(pre, *a, *b, cands);
      if (!f.never && !f.at)
        continue;
      // b replaced by a: the same value wherever a and b agree. Repeated
      // until b is gone: b over itself (max(lo, max(lo, x)) for
      // b = max(lo, x)) gives b again.
      auto patch = [&](const z3::expr &e) {
        z3::expr_vector from(c), to(c);
        from.push_back(b->e);
        to.push_back(a->e);
        z3::expr r = e;
        for (int k = 0; k < kMaxPatches; ++k) {
          z3::expr next = inIdOrder(r.substitute(from, to));
          if (z3::eq(next, r))
            break;
          r = next;
        }
        return r;
      };
      Sides patched{s.sv, patch(s.tv), s.ps, patch(s.pt)};
      if (f.never)
        return proves(pre, patched, depth + 1);
      Assignment at = withForcedLeaves(*f.at);
      auto fix = [&](const z3::expr &e) {
        return z3::expr(e).substitute(at.vars, at.vals);
      };
      if (!proves(pre, patched, depth + 1))
        return false;
      if (proves(fix(pre), {fix(s.sv), fix(s.tv), fix(s.ps), fix(s.pt)},
                 depth + 1))
        return true;
      // Fixing subterms forgets what inputs they can take (a row of -inf
      // that no input gives): the element where they take those values.
      z3::expr_vector fixed(c);
      for (unsigned i = 0; i < at.vars.size(); ++i)
        if (!inputIds.count(at.vars[i].id()))
          fixed.push_back(at.vars[i] == at.vals[i]);
      if (fixed.empty())
        return false;
      // Inputs that give the subterms those values, sought without the
      // rest of the element, often show the difference already.
      std::optional<z3::model> m;
      z3::check_result reach = check(pre && z3::mk_and(fixed), m);
      if (reach == z3::unsat)
        return true; // no input gives them those values
      if (reach == z3::sat && record(*m))
        return false;
      z3::check_result r = check(pre && s.violation() && z3::mk_and(fixed), m);
      if (r == z3::sat)
        record(*m);
      return r == z3::unsat;
    }
    return false;
  }

private:
  static constexpr int kMaxDepth = 64, kMaxPatches = 8;
  static constexpr size_t kMaxTries = Candidates::kRanked + 3;

  // Whether the pair never differs under `pre`, or only at one value of
  // its frontier; learnt once per query (elements share their rows). The
  // frontier of shared subterms is tried first: its query is small.
  PairFacts::Fact settle(const z3::expr &pre, const Subterm &a,
                         const Subterm &b, const Candidates &cands) {
    // Facts learnt under an element's precondition (its slice) hold under
    // the whole, and so serve the other elements (their proofs then hold
    // under both slices, which the whole implies); those learnt with a
    // frontier fixed hold only there.
    unsigned level = z3::eq(pre, top) ? 0 : pre.id();
    auto key = std::tuple{level, a.e.id(), b.e.id()};
    if (auto known = facts.known.find(key); known != facts.known.end())
      return known->second;
    Frontier shared = frontier(a.e, b.e, cands);
    bool decided = false;
    PairFacts::Fact f =
        differences(pre, a.e, b.e,
                    shared.abstracts ? shared.terms : inputsOf(a, b), decided);
    // Undecided (out of time): tried again with the time of a later try.
    if (decided)
      facts.known.emplace(key, f);
    return f;
  }

  struct Frontier {
    z3::expr_vector terms;
    bool abstracts = false; // some terms are not inputs
  };

  // The largest subterms the pair shares with the other side (a row of a
  // product both sides compute alike) and the inputs it reads outside
  // them. As variables the pair may differ at more values than it can
  // reach, never at fewer: what holds of those holds of the pair.
  Frontier frontier(const z3::expr &a, const z3::expr &b,
                    const Candidates &cands) {
    Frontier fr{z3::expr_vector(c)};
    std::set<unsigned> seen;
    auto walk = [&](const z3::expr &root,
                    const std::map<unsigned, Subterm *> &other) {
      forEachNode(root, [&](const z3::expr &n) {
        auto it = other.find(n.id());
        // Values only: a shared condition (isNaN of a row element) stays
        // tied to its value.
        bool shared =
            it != other.end() && !it->second->inputs.empty() && !n.is_bool();
        bool input = inputs.count(n.id());
        if (!shared && !input)
          return true;
        // A shared selection or comparison stays in the query: it is cheap,
        // and bounds what it selects from (a clamp is never -Inf, and a
        // maximum's start of the lowest finite value then never shows).
        if (!input && n.num_args() > 0 && !arithmetic(n) &&
            n.decl().decl_kind() != Z3_OP_UNINTERPRETED)
          return true;
        if (seen.insert(n.id()).second) {
          fr.abstracts |= !input;
          fr.terms.push_back(n);
        }
        return false;
      });
    };
    walk(a, cands.tgtTerms);
    walk(b, cands.srcTerms);
    return fr;
  }

  z3::expr_vector inputsOf(const Subterm &a, const Subterm &b) {
    z3::expr_vector terms(c);
    std::set<unsigned> ids = a.inputs;
    ids.insert(b.inputs.begin(), b.inputs.end());
    for (unsigned id : ids)
      terms.push_back(inputs.at(id));
    return terms;
  }

  // Whether a and b, as functions of the frontier's terms, never differ
  // under `pre`, or differ at one value of them only (found, then no other
  // found). The terms become variables named by position, so that a pair
  // of the same shape elsewhere (another row) is the same query, solved
  // once.
  PairFacts::Fact differences(const z3::expr &pre, const z3::expr &a,
                              const z3::expr &b, const z3::expr_vector &terms,
                              bool &decided) {
    z3::expr_vector vars(c);
    for (unsigned i = 0; i < terms.size(); ++i)
      vars.push_back(c.constant(("frontier!" + std::to_string(i)).c_str(),
                                terms[i].get_sort()));
    auto over = [&](const z3::expr &e) {
      return z3::expr(e).substitute(terms, vars);
    };
    z3::expr apart = over(pre) && over(a) != over(b);
    std::string key = shapeKey(apart, vars);
    auto known = facts.byShape.find(key);
    PairFacts::Fact f;
    if (known == facts.byShape.end()) {
      // A query that ran out of time is tried again only with twice the
      // time (after the brief tries, the longer one).
      Limits lim = limits();
      unsigned budget = lim.rlimit ? lim.rlimit : lim.ms;
      auto tried = facts.undecided.find(key);
      if (tried != facts.undecided.end() &&
          (lim.rlimit || budget < 2 * tried->second))
        return f;
      std::optional<PairFacts::Shaped> solved = solve(apart, vars);
      if (!solved) {
        facts.undecided.insert_or_assign(key, budget);
        return f;
      }
      known = facts.byShape.emplace(key, *solved).first;
    }
    decided = true;
    f.never = known->second.never;
    if (!known->second.at.empty()) {
      f.at = Assignment{terms, z3::expr_vector(c)};
      for (const z3::expr &v : known->second.at)
        f.at->vals.push_back(v);
    }
    return f;
  }

  // A query's text with its variables' sorts, which the text leaves out
  // (a comparison of two f16 variables prints as one of two f32 ones).
  static std::string shapeKey(const z3::expr &q, const z3::expr_vector &vars) {
    std::string key = q.to_string();
    for (const z3::expr &v : vars)
      key += " " + v.get_sort().to_string();
    return key;
  }

  // `apart`'s fact over its variables `vars`; nothing where a check ran
  // out of time.
  std::optional<PairFacts::Shaped> solve(const z3::expr &apart,
                                         const z3::expr_vector &vars) {
    PairFacts::Shaped f{false, {}};
    std::vector<z3::expr> at = edgeWhereApart(apart, vars);
    if (at.empty()) {
      std::optional<z3::model> m;
      z3::check_result r = check(apart, m);
      if (r == z3::unknown)
        return std::nullopt;
      f.never = r == z3::unsat;
      if (r == z3::unsat)
        return f;
      for (const z3::expr &v : vars)
        at.push_back(m->eval(v, true));
    }
    z3::expr elsewhere = c.bool_val(false);
    for (unsigned i = 0; i < vars.size(); ++i)
      elsewhere = elsewhere || vars[i] != at[i];
    std::optional<z3::model> unused;
    z3::check_result r = check(apart && elsewhere, unused);
    if (r == z3::unknown)
      return std::nullopt;
    if (r == z3::unsat)
      f.at = std::move(at);
    return f;
  }

  // `at` and the value leaves its terms force: a row's maximum is -Inf
  // only where every element of the row is, and fixed alone it would leave
  // the elements free (the rest of the element then does not fold).
  Assignment withForcedLeaves(const Assignment &at) {
    Assignment r{z3::expr_vector(c), z3::expr_vector(c)};
    for (unsigned i = 0; i < at.vars.size(); ++i) {
      r.vars.push_back(at.vars[i]);
      r.vals.push_back(at.vals[i]);
    }
    for (unsigned i = 0; i < at.vars.size(); ++i) {
      const z3::expr &t = at.vars[i], &v = at.vals[i];
      z3::expr_vector leaves = valueLeaves(t);
      if (inputIds.count(t.id()) || leaves.empty())
        continue;
      z3::expr_vector vars(c);
      z3::expr other = c.bool_val(false);
      for (unsigned k = 0; k < leaves.size(); ++k) {
        vars.push_back(c.constant(("leaf!" + std::to_string(k)).c_str(),
                                  leaves[k].get_sort()));
        other = other || vars.back() != v;
      }
      // As variables the leaves take more values together than they can:
      // unsat still shows each forced.
      z3::expr q = z3::expr(t).substitute(leaves, vars) == v && other;
      std::string key = shapeKey(q, vars);
      auto known = facts.forced.find(key);
      if (known == facts.forced.end()) {
        std::optional<z3::model> unused;
        known = facts.forced.emplace(key, check(q, unused) == z3::unsat).first;
      }
      if (known->second)
        for (const z3::expr &l : leaves) {
          r.vars.push_back(l);
          r.vals.push_back(v);
        }
    }
    return r;
  }

  // The terms an if-then-else tree of `t` picks among (its branches,
  // through nested ones), but for constants; nothing past kMaxLeaves.
  z3::expr_vector valueLeaves(const z3::expr &t) {
    static constexpr unsigned kMaxLeaves = 64;
    z3::expr_vector leaves(c);
    if (!t.is_app() || t.decl().decl_kind() != Z3_OP_ITE)
      return leaves;
    std::set<unsigned> seen;
    std::vector<z3::expr> todo{t};
    while (!todo.empty()) {
      z3::expr e = todo.back();
      todo.pop_back();
      if (!seen.insert(e.id()).second)
        continue;
      if (e.is_app() && e.decl().decl_kind() == Z3_OP_ITE) {
        todo.push_back(e.arg(1));
        todo.push_back(e.arg(2));
      } else if (!e.is_numeral() &&
                 !(e.is_app() && e.num_args() == 0 && !inputs.count(e.id()))) {
        leaves.push_back(e);
        if (leaves.size() > kMaxLeaves)
          return z3::expr_vector(c);
      }
    }
    return leaves;
  }

  // An edge value taken by the whole frontier where the pair differs (a
  // row of -Inf against a lowest-finite start): a search may take long to
  // meet the one point of difference that a substitution shows at once.
  std::vector<z3::expr> edgeWhereApart(const z3::expr &apart,
                                       const z3::expr_vector &vars) {
    for (int k = 0; k < kEdgeValues; ++k) {
      z3::expr_vector vals(c);
      std::vector<z3::expr> at;
      for (const z3::expr &v : vars)
        if (std::optional<z3::expr> e = edgeValue(c, v.get_sort(), k)) {
          vals.push_back(*e);
          at.push_back(*e);
        }
      if (vals.size() == vars.size() &&
          z3::expr(apart).substitute(vars, vals).simplify().is_true())
        return at;
    }
    return {};
  }

  bool cuts(const z3::expr &pre, const Sides &s) {
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                  end - Clock::now())
                  .count();
    return ms > 0 &&
           provedByCuts(c, pre, s.violation(), unsigned(ms / 3), rlimit, true);
  }

  // A third of the time left: one hard pair leaves time for the others.
  Limits limits() const {
    Limits lim{0, rlimit};
    if (!rlimit) {
      auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                    end - Clock::now())
                    .count();
      lim.ms = unsigned(std::max<int64_t>(0, ms / 3));
    }
    return lim;
  }

  z3::check_result check(const z3::expr &f, std::optional<z3::model> &m) {
    Limits lim = limits();
    if (!lim.ms && !lim.rlimit)
      return z3::unknown;
    std::string why;
    return checkAlone(c, f, lim, m, why);
  }

  z3::context &c;
  const std::map<unsigned, z3::expr> &inputs;
  std::set<unsigned> inputIds; // the keys of `inputs`
  std::vector<z3::model> &samples;
  Clock::time_point end;
  unsigned rlimit; // each check's, instead of the time left, when set
  PairFacts &facts;

public:
  // A model of `goal` (the element's violation) met on the way, where a
  // pair's difference shows, if any; `top`: the top level's precondition.
  std::optional<z3::model> found;
  z3::expr top, goal;

private:
  bool record(const z3::model &m) {
    if (!m.eval(goal, true).is_true())
      return false;
    found = m;
    return true;
  }
};

} // namespace

bool provedByDifferences(z3::context &c, const z3::expr &pre, const z3::expr &d,
                         const std::vector<SVal> &args, unsigned ms,
                         unsigned rlimit, PairFacts &facts,
                         std::optional<z3::model> &cex) {
  std::optional<Sides> s = sidesOf(d);
  if (!s)
    return false;
  std::map<unsigned, z3::expr> inputs;
  for (const SVal &a : args) {
    if (a.array)
      return false;
    for (const z3::expr &x : a.v)
      inputs.emplace(x.id(), x);
  }
  for (int t = int(facts.samples.size()); t < 8; ++t) {
    std::optional<Assignment> as = ordinaryInputs(c, args, t);
    if (!as)
      return false;
    z3::model &m = facts.samples.emplace_back(c);
    for (unsigned i = 0; i < as->vars.size(); ++i) {
      z3::func_decl f = as->vars[i].decl();
      z3::expr v = as->vals[i];
      m.add_const_interp(f, v);
    }
  }
  Splitter split(c, inputs, facts.samples,
                 Clock::now() + std::chrono::milliseconds(ms), rlimit, facts);
  split.top = pre;
  split.goal = pre && d;
  bool proved = split.proves(pre, *s, 0);
  cex = split.found;
  return proved;
}

} // namespace cc::smt::detail
