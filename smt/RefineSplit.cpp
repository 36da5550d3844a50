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

// The subterms of `e` (applications with arguments, of a float or
// bit-vector sort) with the inputs each reads; nothing past kMaxNodes.
struct Subterm {
  z3::expr e;
  std::set<unsigned> inputs;
  size_t size = 1; // nodes of its DAG, counted as a tree below kMaxNodes
};
constexpr size_t kMaxNodes = 4096;

bool subterms(const z3::expr &root, const std::set<unsigned> &inputIds,
              std::map<unsigned, Subterm> &out) {
  std::vector<std::pair<z3::expr, bool>> todo{{root, false}};
  while (!todo.empty()) {
    auto [e, expanded] = todo.back();
    todo.pop_back();
    if (out.count(e.id()))
      continue;
    if (!expanded) {
      todo.push_back({e, true});
      if (e.is_app())
        for (unsigned i = 0; i < e.num_args(); ++i)
          todo.push_back({e.arg(i), false});
      continue;
    }
    Subterm t{e, {}, 1};
    if (inputIds.count(e.id()))
      t.inputs.insert(e.id());
    if (e.is_app())
      for (unsigned i = 0; i < e.num_args(); ++i) {
        const Subterm &a = out.at(e.arg(i).id());
        t.inputs.insert(a.inputs.begin(), a.inputs.end());
        t.size = std::min(kMaxNodes, t.size + a.size);
      }
    out.emplace(e.id(), std::move(t));
    if (out.size() > kMaxNodes)
      return false;
  }
  return true;
}

// Pairs (a of the source, b of the target, b not in the source) of one
// sort that read the same inputs and agree at the sample points: the
// places where the sides may differ only at edge values.
class Candidates {
public:
  Candidates(const Sides &s, const std::set<unsigned> &inputIds,
             std::vector<z3::model> &samples) {
    std::map<unsigned, Subterm> &src = srcTerms, &tgt = tgtTerms;
    if (!subterms(s.sv, inputIds, src) || !subterms(s.ps, inputIds, src) ||
        !subterms(s.tv, inputIds, tgt) || !subterms(s.pt, inputIds, tgt))
      return;
    std::map<std::string, std::vector<const Subterm *>> bySignature;
    for (const auto &[id, t] : src)
      if (auto key = signature(t, samples))
        bySignature[*key].push_back(&t);
    for (const auto &[id, t] : tgt) {
      if (src.count(id) || !t.e.is_app() || t.e.num_args() == 0)
        continue;
      auto key = signature(t, samples);
      if (!key)
        continue;
      // The whole elements are the query itself.
      for (const Subterm *a : bySignature[*key])
        if (!z3::eq(a->e, s.sv) || !z3::eq(t.e, s.tv))
          pairs.push_back({a, &t});
    }
    // Pairs where the sides meet again first: b's parent, given a for b,
    // is a term of the source (a row's maximum both sides subtract from
    // the row), not a piece of a larger difference. Then pairs over many
    // inputs (a whole row's maximum: its one point of difference fixes the
    // row at once), small ones among those.
    std::map<unsigned, std::vector<z3::expr>> parents;
    for (const auto &[id, t] : tgt)
      if (t.e.is_app())
        for (unsigned i = 0; i < t.e.num_args(); ++i)
          parents[t.e.arg(i).id()].push_back(t.e);
    auto rank = [&](const std::pair<const Subterm *, const Subterm *> &p) {
      bool meets = false;
      for (const z3::expr &up : parents[p.second->e.id()]) {
        z3::expr_vector args(up.ctx());
        for (unsigned i = 0; i < up.num_args(); ++i)
          args.push_back(z3::eq(up.arg(i), p.second->e) ? p.first->e
                                                        : up.arg(i));
        meets = meets || src.count(up.decl()(args).id());
      }
      return std::tuple{!meets, -int64_t(p.second->inputs.size()),
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
  // Each side's subterms; the pairs point into these.
  std::map<unsigned, Subterm> srcTerms, tgtTerms;

private:
  // Sort, inputs and values at the samples, as text.
  static std::optional<std::string> signature(const Subterm &t,
                                              std::vector<z3::model> &samples) {
    z3::sort so = t.e.get_sort();
    if (t.inputs.empty() || !(so.is_fpa() || so.is_bv()))
      return std::nullopt;
    std::string key = so.to_string();
    for (unsigned id : t.inputs)
      key += " " + std::to_string(id);
    for (z3::model &m : samples)
      key += " " + m.eval(t.e, true).to_string();
    return key;
  }
};

class Splitter {
public:
  Splitter(z3::context &c, const std::map<unsigned, z3::expr> &inputs,
           std::vector<z3::model> samples, Clock::time_point end,
           unsigned rlimit, PairFacts &facts)
      : c(c), inputs(inputs), samples(std::move(samples)), end(end),
        rlimit(rlimit), facts(facts), top(c), goal(c) {
    for (const auto &[id, x] : inputs)
      inputIds.insert(id);
  }

  bool proves(const z3::expr &pre, const Sides &given, int depth) {
    Sides s{given.sv.simplify(), given.tv.simplify(), given.ps.simplify(),
            given.pt.simplify()};
    if ((pre && s.violation()).simplify().is_false())
      return true;
    if (depth >= kMaxDepth)
      return false;
    // Once a pair is patched, what is left may hold of the shared terms
    // alone (the target's range check of a product the source requires).
    if (depth > 0 && cuts(pre, s))
      return true;
    Candidates cands(s, inputIds, samples);
    size_t tried = 0;
    for (const auto &[a, b] : cands.pairs) {
      if (++tried > kMaxTries || Clock::now() >= end)
        return false;
      PairFacts::Fact f = settle(pre, *a, *b, cands);
      if (!f.never && !f.at)
        continue;
      // b replaced by a: the same value wherever a and b agree.
      auto patch = [&](const z3::expr &e) {
        z3::expr_vector from(c), to(c);
        from.push_back(b->e);
        to.push_back(a->e);
        return z3::expr(e).substitute(from, to);
      };
      Sides patched{s.sv, patch(s.tv), s.ps, patch(s.pt)};
      if (f.never)
        return proves(pre, patched, depth + 1);
      auto fix = [&](const z3::expr &e) {
        return z3::expr(e).substitute(f.at->vars, f.at->vals);
      };
      if (!proves(pre, patched, depth + 1))
        return false;
      if (proves(fix(pre), {fix(s.sv), fix(s.tv), fix(s.ps), fix(s.pt)},
                 depth + 1))
        return true;
      // Fixing subterms forgets what inputs they can take (a row of -inf
      // that no input gives): the element where they take those values.
      z3::expr_vector at(c);
      for (unsigned i = 0; i < f.at->vars.size(); ++i)
        if (!inputIds.count(f.at->vars[i].id()))
          at.push_back(f.at->vars[i] == f.at->vals[i]);
      if (at.empty())
        return false;
      // Inputs that give the subterms those values, sought without the
      // rest of the element, often show the difference already.
      std::optional<z3::model> m;
      z3::check_result reach = check(pre && z3::mk_and(at), m);
      if (reach == z3::unsat)
        return true; // no input gives them those values
      if (reach == z3::sat && record(*m))
        return false;
      z3::check_result r = check(pre && s.violation() && z3::mk_and(at), m);
      if (r == z3::sat)
        record(*m);
      return r == z3::unsat;
    }
    return false;
  }

private:
  static constexpr int kMaxDepth = 64;
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
    PairFacts::Fact f;
    Frontier shared = frontier(a.e, b.e, cands);
    f = shared.abstracts ? differences(pre, a.e, b.e, shared)
                         : differences(pre, a.e, b.e, inputsOf(a, b));
    facts.known.emplace(key, f);
    return f;
  }

  // Terms of the pair, each with a variable to stand for it.
  struct Frontier {
    z3::expr_vector terms, vars;
    bool abstracts = false; // some terms are not inputs
  };

  // The largest subterms the pair shares with the other side (a row of a
  // product both sides compute alike) and the inputs it reads outside
  // them. As variables the pair may differ at more values than it can
  // reach, never at fewer: what holds of those holds of the pair.
  Frontier frontier(const z3::expr &a, const z3::expr &b,
                    const Candidates &cands) {
    Frontier fr{z3::expr_vector(c), z3::expr_vector(c)};
    std::set<unsigned> seen;
    auto walk = [&](const z3::expr &root,
                    const std::map<unsigned, Subterm> &other) {
      forEachNode(root, [&](const z3::expr &n) {
        auto it = other.find(n.id());
        // Values only: a shared condition (isNaN of a row element) stays
        // tied to its value.
        bool shared =
            it != other.end() && !it->second.inputs.empty() && !n.is_bool();
        if (!shared && !inputs.count(n.id()))
          return true;
        if (seen.insert(n.id()).second) {
          bool input = inputs.count(n.id()) > 0;
          fr.abstracts |= !input;
          fr.terms.push_back(n);
          fr.vars.push_back(
              input ? n
                    : c.constant(("frontier!" + std::to_string(n.id())).c_str(),
                                 n.get_sort()));
        }
        return false;
      });
    };
    walk(a, cands.tgtTerms);
    walk(b, cands.srcTerms);
    return fr;
  }

  Frontier inputsOf(const Subterm &a, const Subterm &b) {
    Frontier fr{z3::expr_vector(c), z3::expr_vector(c)};
    std::set<unsigned> ids = a.inputs;
    ids.insert(b.inputs.begin(), b.inputs.end());
    for (unsigned id : ids) {
      fr.terms.push_back(inputs.at(id));
      fr.vars.push_back(inputs.at(id));
    }
    return fr;
  }

  // Whether a and b, as functions of the frontier's variables, never
  // differ under `pre`, or differ at one value of them only (found,
  // then no other found).
  PairFacts::Fact differences(const z3::expr &pre, const z3::expr &a,
                              const z3::expr &b, const Frontier &fr) {
    PairFacts::Fact f;
    auto over = [&](const z3::expr &e) {
      return fr.abstracts ? z3::expr(e).substitute(fr.terms, fr.vars) : e;
    };
    z3::expr apart = over(pre) && over(a) != over(b);
    std::optional<z3::model> m;
    z3::check_result r = check(apart, m);
    if (r == z3::unsat)
      f.never = true;
    if (r != z3::sat)
      return f;
    Assignment at{fr.terms, z3::expr_vector(c)};
    z3::expr elsewhere = c.bool_val(false);
    for (const z3::expr &v : fr.vars) {
      at.vals.push_back(m->eval(v, true));
      elsewhere = elsewhere || v != at.vals.back();
    }
    std::optional<z3::model> unused;
    if (check(apart && elsewhere, unused) == z3::unsat)
      f.at = at;
    return f;
  }

  bool cuts(const z3::expr &pre, const Sides &s) {
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                  end - Clock::now())
                  .count();
    return ms > 0 &&
           provedByCuts(c, pre, s.violation(), unsigned(ms / 3), rlimit);
  }

  // A third of the time left: one hard pair leaves time for the others.
  z3::check_result check(const z3::expr &f, std::optional<z3::model> &m) {
    z3::params prm(c);
    if (rlimit) {
      prm.set("rlimit", rlimit);
    } else {
      auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                    end - Clock::now())
                    .count();
      if (ms <= 0)
        return z3::unknown;
      prm.set("timeout", unsigned(std::max<int64_t>(1, ms / 3)));
    }
    std::string why;
    return checkAlone(c, f, prm, m, why);
  }

  z3::context &c;
  const std::map<unsigned, z3::expr> &inputs;
  std::set<unsigned> inputIds; // the keys of `inputs`
  std::vector<z3::model> samples;
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
  std::vector<z3::model> samples;
  for (int t = 0; t < 8; ++t) {
    std::optional<Assignment> as = ordinaryInputs(c, args, t);
    if (!as)
      return false;
    z3::model &m = samples.emplace_back(c);
    for (unsigned i = 0; i < as->vars.size(); ++i) {
      z3::func_decl f = as->vars[i].decl();
      z3::expr v = as->vals[i];
      m.add_const_interp(f, v);
    }
  }
  Splitter split(c, inputs, std::move(samples),
                 Clock::now() + std::chrono::milliseconds(ms), rlimit, facts);
  split.top = pre;
  split.goal = pre && d;
  bool proved = split.proves(pre, *s, 0);
  cex = split.found;
  return proved;
}

} // namespace cc::smt::detail
