// Proof by differences: the two sides of an output element are usually the
// same term except at a few subterm pairs (a reduction's initial value, a
// rewritten subexpression). Where such a pair agrees, the target's subterm
// can be replaced by the source's; a pair that differs at one value of its
// inputs alone (a row of -inf against a lowest-finite start) is settled by
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

// One output element's disjunct !ps && (pt || sv != tv), as
// Query::refinementViolation builds it.
struct Sides {
  z3::expr sv, tv, ps, pt;
  z3::expr violation() const { return !ps && (pt || sv != tv); }
};

bool isKind(const z3::expr &e, Z3_decl_kind k, unsigned args) {
  return e.is_app() && e.decl().decl_kind() == k && e.num_args() == args;
}

// sv != tv, written as distinct or as not(=).
std::optional<std::pair<z3::expr, z3::expr>> differs(const z3::expr &e) {
  if (isKind(e, Z3_OP_DISTINCT, 2))
    return std::pair{e.arg(0), e.arg(1)};
  if (isKind(e, Z3_OP_NOT, 1) && isKind(e.arg(0), Z3_OP_EQ, 2))
    return std::pair{e.arg(0).arg(0), e.arg(0).arg(1)};
  return std::nullopt;
}

std::optional<Sides> sidesOf(const z3::expr &d) {
  if (!isKind(d, Z3_OP_AND, 2) || !isKind(d.arg(0), Z3_OP_NOT, 1) ||
      !isKind(d.arg(1), Z3_OP_OR, 2))
    return std::nullopt;
  auto values = differs(d.arg(1).arg(1));
  if (!values)
    return std::nullopt;
  return Sides{values->first, values->second, d.arg(0).arg(0), d.arg(1).arg(0)};
}

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
    // The pairs point into these: they live as long as this object.
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
    // Pairs over many inputs first (a whole row's maximum: its one point
    // of difference fixes the row at once), small ones among those.
    auto rank = [](const auto &p) {
      return std::pair{-int64_t(p.second->inputs.size()),
                       p.first->size + p.second->size};
    };
    std::sort(pairs.begin(), pairs.end(),
              [&](const auto &x, const auto &y) { return rank(x) < rank(y); });
  }
  std::vector<std::pair<const Subterm *, const Subterm *>> pairs;

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
  std::map<unsigned, Subterm> srcTerms, tgtTerms;
};

class Splitter {
public:
  Splitter(z3::context &c, const std::map<unsigned, z3::expr> &inputs,
           std::vector<z3::model> samples, Clock::time_point end,
           unsigned rlimit, PairFacts &facts)
      : c(c), inputs(inputs), samples(std::move(samples)), end(end),
        rlimit(rlimit), facts(facts) {
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
    Candidates cands(s, inputIds, samples);
    size_t tried = 0;
    for (const auto &[a, b] : cands.pairs) {
      if (++tried > kMaxTries || Clock::now() >= end)
        return false;
      PairFacts::Fact f = settle(pre, *a, *b);
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
      return proves(pre, patched, depth + 1) &&
             proves(fix(pre), {fix(s.sv), fix(s.tv), fix(s.ps), fix(s.pt)},
                    depth + 1);
    }
    return false;
  }

private:
  static constexpr int kMaxDepth = 64;
  static constexpr size_t kMaxTries = 6;

  // Whether the pair never differs under `pre`, or at one value of its
  // inputs only; learnt once per query (elements share their rows).
  PairFacts::Fact settle(const z3::expr &pre, const Subterm &a,
                         const Subterm &b) {
    auto key = std::tuple{pre.id(), a.e.id(), b.e.id()};
    if (auto known = facts.known.find(key); known != facts.known.end())
      return known->second;
    PairFacts::Fact f;
    z3::expr apart = pre && a.e != b.e;
    std::optional<z3::model> m;
    z3::check_result r = check(apart, m);
    if (r == z3::unsat)
      f.never = true;
    else if (r == z3::sat)
      f.at = onlyPoint(apart, a, b, *m);
    facts.known.emplace(key, f);
    return f;
  }

  // The one value of the pair's inputs where it differs (model m), or
  // nothing when there may be others.
  std::optional<Assignment> onlyPoint(const z3::expr &apart, const Subterm &a,
                                      const Subterm &b, const z3::model &m) {
    Assignment at{z3::expr_vector(c), z3::expr_vector(c)};
    z3::expr elsewhere = c.bool_val(false);
    std::set<unsigned> ids = a.inputs;
    ids.insert(b.inputs.begin(), b.inputs.end());
    for (unsigned id : ids) {
      const z3::expr &x = inputs.at(id);
      at.vars.push_back(x);
      at.vals.push_back(m.eval(x, true));
      elsewhere = elsewhere || x != at.vals.back();
    }
    std::optional<z3::model> unused;
    if (check(apart && elsewhere, unused) != z3::unsat)
      return std::nullopt;
    return at;
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
};

} // namespace

bool provedByDifferences(z3::context &c, const z3::expr &pre, const z3::expr &d,
                         const std::vector<SVal> &args, unsigned ms,
                         unsigned rlimit, PairFacts &facts) {
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
  for (int t = 0; t < 4; ++t) {
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
  return split.proves(pre, *s, 0);
}

} // namespace cc::smt::detail
