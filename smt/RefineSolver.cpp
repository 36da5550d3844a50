// The solver's strategies for a refinement query: probes with edge values
// before any search, one output element at a time, and samples of a few
// elements of a large output.
#include "smt/Refine.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace cc::smt::detail {

namespace {

// ---- edge values
// -------------------------------------------------------------- The probes:
// small integers, ±0, ±1, Inf, NaN mixed over the elements; then all -Inf, all
// +Inf, all NaN, and -Inf beside the lowest finite value, where the initial
// values of maxima and argmax matter.
constexpr int kProbes = 12;
const int64_t kProbeInts[] = {1, 2, 3, 0, -1, 7, -3, 100};
const double kProbeFloats[] = {1.5, 2.5,      -2.0, 0.0, -0.0,
                               0.5, INFINITY, -1.0, NAN, 1e30};

// The value of element `i` (counted over all arguments, from 1) in probe
// `t`, of sort `so`; nothing for sorts other than bit-vectors and floats.
// The first tries use one small value everywhere (shift amounts and
// divisors stay defined), later ones mix edge values.
std::optional<z3::expr> probeValue(z3::context &c, const z3::sort &so, int t,
                                   int64_t i) {
  if (so.is_bv())
    return c.bv_val(
        uint64_t(t < 8 ? kProbeInts[t < 3 ? t : (i * 3 + t) % 8] : 1),
        so.bv_size());
  if (!so.is_fpa())
    return std::nullopt;
  double lowest = -std::ldexp(2 - std::ldexp(1, 1 - int(so.fpa_sbits())),
                              (1 << (so.fpa_ebits() - 1)) - 1);
  double d = t < 8     ? kProbeFloats[t < 3 ? t : (i * 3 + t) % 10]
             : t == 8  ? -INFINITY
             : t == 9  ? INFINITY
             : t == 10 ? NAN
                       : (i % 2 ? -INFINITY : lowest);
  return z3::expr(c, Z3_mk_fpa_numeral_double(c, d, so));
}

// Inputs whose element k of argument `a` (of sort `so`) is `value(a, k,
// so)`; nothing where it gives none. A memref argument is an array: it is
// substituted by a concrete one.
template <typename Value>
std::optional<Assignment> inputs(z3::context &c, const std::vector<SVal> &args,
                                 Value value) {
  Assignment as{z3::expr_vector(c), z3::expr_vector(c)};
  for (size_t a = 0; a < args.size(); ++a) {
    const SVal &arg = args[a];
    std::optional<z3::expr> arr;
    if (arg.array) {
      auto fill = value(a, -1, arg.array->get_sort().array_range());
      if (!fill)
        return std::nullopt;
      arr = z3::const_array(c.bv_sort(64), *fill);
    }
    for (int64_t k = 0; k < arg.size(); ++k) {
      auto y = value(a, k, arg.v[size_t(k)].get_sort());
      if (!y)
        return std::nullopt;
      if (arr) {
        arr = z3::store(*arr, c.bv_val(uint64_t(k), 64), *y);
      } else {
        as.vars.push_back(arg.v[size_t(k)]);
        as.vals.push_back(*y);
      }
    }
    if (arr) {
      as.vars.push_back(*arg.array);
      as.vals.push_back(*arr);
    }
  }
  return as;
}

// inputs() with `value(i, so)` of element i counted over all arguments,
// from 1.
template <typename Value>
std::optional<Assignment>
numberedInputs(z3::context &c, const std::vector<SVal> &args, Value value) {
  std::vector<int64_t> first{0};
  for (const SVal &a : args)
    first.push_back(first.back() + a.size());
  return inputs(c, args, [&](size_t a, int64_t k, const z3::sort &so) {
    return value(first[a] + k + 1, so);
  });
}

// The inputs of probe `t`.
std::optional<Assignment> probeInputs(z3::context &c,
                                      const std::vector<SVal> &args, int t) {
  return numberedInputs(c, args, [&](int64_t i, const z3::sort &so) {
    return probeValue(c, so, t, i);
  });
}

} // namespace

std::optional<Assignment> ordinaryInputs(z3::context &c,
                                         const std::vector<SVal> &args, int t) {
  return numberedInputs(c, args, [&](int64_t i, const z3::sort &so) {
    if (so.is_bv())
      return std::optional<z3::expr>(
          c.bv_val(uint64_t(t == 0   ? i + 1
                            : t == 1 ? 2 * i + 3
                                     : (i * 7) % 5 + t),
                   so.bv_size()));
    if (!so.is_fpa())
      return std::optional<z3::expr>();
    // Rising, falling, alternating in sign, cycling, then scattered (a
    // hash of the element and the sample): subterms that agree at all of
    // them are rarely different functions, even maxima of different rows.
    double x = double(i);
    uint64_t h = (uint64_t(i) * 0x9E3779B97F4A7C15ull) ^ (uint64_t(t) << 32);
    h = (h ^ (h >> 29)) * 0xBF58476D1CE4E5B9ull;
    double d = t == 0   ? 1.5 + 0.25 * x
               : t == 1 ? -0.75 - 0.5 * x
               : t == 2 ? (i % 2 ? 2.5 + x : -1.25 - x)
               : t == 3 ? 0.5 + double((i * 7) % 5)
                        : double(int64_t((h >> 40) % 61) - 30) / 8;
    return std::optional<z3::expr>(
        z3::expr(c, Z3_mk_fpa_numeral_double(c, d, so)));
  });
}

std::optional<z3::expr> edgeValue(z3::context &c, const z3::sort &so, int k) {
  if (so.is_bv()) {
    unsigned w = so.bv_size();
    uint64_t minInt = w >= 64 ? uint64_t(1) << 63 : uint64_t(1) << (w - 1);
    const uint64_t v[kEdgeValues] = {0, ~uint64_t(0), minInt, minInt - 1};
    return c.bv_val(w >= 64 ? v[k] : v[k] & ((uint64_t(1) << w) - 1), w);
  }
  if (!so.is_fpa())
    return std::nullopt;
  double lowest = -std::ldexp(2 - std::ldexp(1, 1 - int(so.fpa_sbits())),
                              (1 << (so.fpa_ebits() - 1)) - 1);
  const double v[kEdgeValues] = {-INFINITY, INFINITY, NAN, lowest};
  return z3::expr(c, Z3_mk_fpa_numeral_double(c, v[k], so));
}

namespace {
// Plane probes: the elements of one argument whose coordinate on one axis
// is `at` take an edge value, every other element the first uniform
// probe's (1.5, or 1 for integers), so that a
// reduction or contraction along another axis meets the edge value in
// every term (a row of -inf), which the uniform probes never make.
std::optional<Assignment> planeInputs(z3::context &c,
                                      const std::vector<SVal> &args, size_t arg,
                                      size_t axis, int64_t at, int special) {
  const std::vector<int64_t> &shape = args[arg].shape;
  return inputs(c, args, [&](size_t a, int64_t k, const z3::sort &so) {
    bool on = a == arg && k >= 0 && unflatten(k, shape)[axis] == at;
    return on ? edgeValue(c, so, special) : probeValue(c, so, 0, 0);
  });
}

// The nodes of a term's DAG.
size_t dagSize(const z3::expr &e) {
  size_t n = 0;
  forEachNode(e, [&](const z3::expr &) {
    ++n;
    return true;
  });
  return n;
}

} // namespace

std::vector<Assignment> probeSet(z3::context &c,
                                 const std::vector<SVal> &args) {
  std::vector<Assignment> r;
  for (int t = 0; t < kProbes; ++t)
    if (std::optional<Assignment> as = probeInputs(c, args, t))
      r.push_back(*as);
  return r;
}

// Plane probes are evaluated while their total work, in nodes of `bad`,
// stays within this (under a second on the development machine): a bound
// that does not depend on the machine.
constexpr size_t kPlaneProbeNodes = size_t(4) << 20;

std::optional<Assignment> probe(z3::context &c, const std::vector<SVal> &args,
                                const z3::expr &bad) {
  auto hits = [&](const std::optional<Assignment> &as) {
    z3::expr e = bad;
    return as && e.substitute(as->vars, as->vals).simplify().is_true();
  };
  for (int t = 0; t < kProbes; ++t) {
    std::optional<Assignment> as = probeInputs(c, args, t);
    if (!as)
      return std::nullopt;
    if (hits(as))
      return as;
  }
  size_t budget = kPlaneProbeNodes / std::max<size_t>(1, dagSize(bad));
  // One whole argument special, the others ordinary: a row of products of
  // -Inf and positive values is all -Inf (a maximum's initial value shows).
  for (int special = 0; special < kEdgeValues; ++special)
    for (size_t a = 0; a < args.size() && args.size() > 1; ++a) {
      if (budget-- == 0)
        return std::nullopt;
      if (std::optional<Assignment> as =
              inputs(c, args,
                     [&](size_t b, int64_t, const z3::sort &so) {
                       return b == a ? edgeValue(c, so, special)
                                     : probeValue(c, so, 0, 0);
                     });
          hits(as))
        return as;
    }
  for (int special = 0; special < kEdgeValues; ++special)
    for (size_t a = 0; a < args.size(); ++a)
      for (size_t axis = 0; axis < args[a].shape.size(); ++axis) {
        if (args[a].shape[axis] < 2)
          continue; // the whole argument: a uniform probe
        for (int64_t at = 0; at < args[a].shape[axis]; ++at) {
          if (budget-- == 0)
            return std::nullopt;
          std::optional<Assignment> as =
              planeInputs(c, args, a, axis, at, special);
          if (hits(as))
            return as;
        }
      }
  return std::nullopt;
}

namespace {
// Formulas of up to this many nodes and no float or bit-vector arithmetic
// (comparisons, selections) are solved in a context of their own.
constexpr size_t kSmallFormula = 4096;

z3::check_result checkIn(z3::context &c, const z3::expr &f, Limits lim,
                         std::optional<z3::model> &model,
                         std::string &unknownWhy) {
  z3::solver s(c);
  z3::params prm(c);
  if (lim.ms)
    prm.set("timeout", lim.ms);
  if (lim.rlimit)
    prm.set("rlimit", lim.rlimit);
  s.set(prm);
  s.add(f);
  z3::check_result r = s.check();
  if (r == z3::sat)
    model = s.get_model();
  if (r == z3::unknown)
    unknownWhy = s.reason_unknown();
  return r;
}
} // namespace

bool arithmetic(const z3::expr &x) {
  switch (x.decl().decl_kind()) {
  case Z3_OP_FPA_ADD:
  case Z3_OP_FPA_SUB:
  case Z3_OP_FPA_MUL:
  case Z3_OP_FPA_DIV:
  case Z3_OP_FPA_FMA:
  case Z3_OP_FPA_SQRT:
  case Z3_OP_FPA_REM:
  case Z3_OP_FPA_ROUND_TO_INTEGRAL:
  case Z3_OP_FPA_TO_FP:
  case Z3_OP_FPA_TO_FP_UNSIGNED:
  case Z3_OP_FPA_TO_UBV:
  case Z3_OP_FPA_TO_SBV:
  case Z3_OP_BMUL:
  case Z3_OP_BSDIV:
  case Z3_OP_BUDIV:
  case Z3_OP_BSREM:
  case Z3_OP_BUREM:
  case Z3_OP_BSMOD:
  case Z3_OP_BSDIV_I:
  case Z3_OP_BUDIV_I:
  case Z3_OP_BSREM_I:
  case Z3_OP_BUREM_I:
  case Z3_OP_BSMOD_I:
    return true;
  default:
    return false;
  }
}

bool smallAndFlat(const z3::expr &f) {
  size_t n = 0;
  bool flat = true;
  forEachNode(f, [&](const z3::expr &x) {
    flat = flat && !arithmetic(x);
    return flat && ++n <= kSmallFormula;
  });
  return flat && n <= kSmallFormula;
}

z3::check_result checkAlone(z3::context &c, const z3::expr &f, Limits lim,
                            std::optional<z3::model> &model,
                            std::string &unknownWhy) {
  if (!smallAndFlat(f))
    return checkIn(c, f, lim, model, unknownWhy);
  z3::context own;
  std::optional<z3::model> m;
  z3::check_result r = checkIn(own, z3::to_expr(own, Z3_translate(c, f, own)),
                               lim, m, unknownWhy);
  if (m)
    model = z3::model(*m, c, z3::model::translate{});
  return r;
}

namespace {

// The inputs that `m` interprets, fixed to its values.
z3::expr pinned(z3::context &c, const z3::model &m,
                const std::vector<SVal> &args) {
  z3::expr_vector eqs(c);
  auto pin = [&](const z3::expr &x) {
    if (m.has_interp(x.decl()))
      eqs.push_back(x == m.eval(x, true));
  };
  for (const SVal &a : args) {
    if (a.array)
      pin(*a.array);
    for (const z3::expr &x : a.v)
      pin(x);
  }
  return z3::mk_and(eqs);
}

// A share 1/n of a resource limit (0: none), never none where one is set.
unsigned shareOf(unsigned rlimit, unsigned n) {
  return rlimit ? std::max(1u, rlimit / n) : 0;
}

// decompose's checks of one element, each on the part of `pre` that the
// element depends on; a model found there is completed against the whole.
class ElementChecks {
public:
  ElementChecks(z3::context &c, const z3::expr &pre,
                const std::vector<SVal> &args, unsigned rlimit,
                std::optional<z3::model> &model)
      : c(c), pre(pre), args(args), rlimit(rlimit), model(model), slicer(pre) {}

  z3::check_result search(const z3::expr &d, unsigned ms, unsigned limit,
                          std::string &why) {
    bool dropped = false;
    z3::expr local = slicer.slice(d, dropped);
    z3::check_result r =
        checkAlone(c, local && d, limits(ms, limit), model, why);
    return r == z3::sat && dropped ? complete(d, ms, limit, why) : r;
  }

  // unsat: proved; sat: a counterexample met on the way, in `model`.
  // What it learns of a pair serves the other elements, which share rows
  // (PairFacts).
  z3::check_result differences(const z3::expr &d, unsigned ms) {
    bool dropped = false;
    std::optional<z3::model> cex;
    if (provedByDifferences(c, slicer.slice(d, dropped), d, args, ms,
                            shareOf(rlimit, 4), facts, cex))
      return z3::unsat;
    if (!cex)
      return z3::unknown;
    model = cex;
    std::string why;
    return dropped ? complete(d, ms, shareOf(rlimit, 4), why) : z3::sat;
  }

  bool cuts(const z3::expr &d, unsigned ms, bool flatOnly) {
    bool dropped = false;
    return provedByCuts(c, slicer.slice(d, dropped), d, ms, shareOf(rlimit, 8),
                        flatOnly);
  }

  // Elements alike but for the inputs they read (the interior of a
  // convolution, the rows of a pooling) are one query with its inputs
  // renamed: one proof serves them all. `d`'s query in that form.
  z3::expr alike(const z3::expr &d) {
    bool dropped = false;
    z3::expr q = slicer.slice(d, dropped) && d;
    z3::expr_vector from(c), to(c);
    forEachNode(q, [&](const z3::expr &x) {
      if (x.is_const() && x.decl().decl_kind() == Z3_OP_UNINTERPRETED) {
        from.push_back(x);
        std::string name = "alike!" + std::to_string(to.size());
        to.push_back(c.constant(name.c_str(), x.get_sort()));
      }
      return true;
    });
    return q.substitute(from, to);
  }
  // Z3 shares equal terms: a renamed query is known by its id.
  bool provedAlike(const z3::expr &form) const {
    return proved.find(form) != nullptr;
  }
  void noteProved(const z3::expr &form) { proved.set(form, true); }

private:
  static Limits limits(unsigned ms, unsigned rlimit) {
    return {std::max(1u, ms), rlimit};
  }

  // `model` meets the slice only: the rest of `pre` is solved with the
  // inputs it fixed. Unsat there proves nothing of the element (only that
  // these inputs do not extend): unknown.
  z3::check_result complete(const z3::expr &d, unsigned ms, unsigned limit,
                            std::string &why) {
    z3::check_result r = checkAlone(c, pre && d && pinned(c, *model, args),
                                    limits(ms, limit), model, why);
    if (r == z3::unsat)
      why = "a counterexample of the element alone does not extend to the "
            "whole function";
    return r == z3::unsat ? z3::unknown : r;
  }

  z3::context &c;
  const z3::expr &pre;
  const std::vector<SVal> &args;
  unsigned rlimit;
  std::optional<z3::model> &model;
  PreSlicer slicer;
  PairFacts facts;
  TermMap<bool> proved;
};

} // namespace

z3::check_result decompose(z3::context &c, const z3::expr &pre,
                           const std::vector<z3::expr> &disj,
                           const std::vector<SVal> &args, const TvOptions &o,
                           std::string &unknownWhy,
                           std::optional<z3::model> &model) {
  unsigned totalMs = o.timeoutMs;
  auto t0 = std::chrono::steady_clock::now();
  auto left = [&] {
    double used = std::chrono::duration<double, std::milli>(
                      std::chrono::steady_clock::now() - t0)
                      .count();
    return unsigned(std::max(0.0, totalMs - used));
  };
  z3::check_result res = z3::unsat;
  ElementChecks check(c, pre, args, o.rlimit, model);
  // Cut points without arithmetic first (small queries when they hold),
  // until a brief search has settled an element; then the brief search
  // (most elements), a brief proof by differences (a pair settled once
  // serves every row), any cut points, and the proof by differences
  // again, are tried before the search gets the rest of the time. Once
  // cuts or differences succeed, the other elements (alike, usually) try
  // them first.
  bool cutsFirst = false, differencesFirst = false, searchSettles = false;
  // unsat: proved (and tried first from now on); sat: a counterexample.
  auto byDifferences = [&](const z3::expr &d, unsigned ms) {
    z3::check_result r = check.differences(d, ms);
    differencesFirst |= r == z3::unsat;
    return r;
  };
  auto byCuts = [&](const z3::expr &d, unsigned ms, bool flatOnly) {
    bool proved = check.cuts(d, ms, flatOnly);
    cutsFirst |= proved;
    return proved;
  };
  auto decide = [&](const z3::expr &d, std::string &why) {
    if (cutsFirst && byCuts(d, left() / 4, false))
      return z3::unsat;
    if (!differencesFirst && !cutsFirst) {
      // Early, only cut queries without arithmetic: cheap where they fail.
      if (!searchSettles && byCuts(d, left() / 8, true))
        return z3::unsat;
      z3::check_result r =
          check.search(d, left() / 8, shareOf(o.rlimit, 8), why);
      searchSettles |= r != z3::unknown;
      if (r == z3::unknown)
        r = byDifferences(d, left() / 4);
      if (r != z3::unknown)
        return r;
      if (byCuts(d, left() / 8, false))
        return z3::unsat;
    }
    z3::check_result r = byDifferences(d, left() / 2);
    return r != z3::unknown ? r : check.search(d, left(), o.rlimit, why);
  };
  for (const z3::expr &d : disj) {
    if (d.simplify().is_false())
      continue;
    if (left() == 0) {
      unknownWhy = "timeout";
      return z3::unknown;
    }
    z3::expr form = check.alike(d);
    if (check.provedAlike(form))
      continue;
    std::string why;
    z3::check_result r = decide(d, why);
    if (r == z3::sat)
      return r;
    if (r == z3::unsat)
      check.noteProved(form);
    if (r == z3::unknown) {
      res = z3::unknown;
      unknownWhy = why;
    }
  }
  return res;
}

// When a large function is wrong, most of its outputs usually are, and one
// of them is a fast query where the whole disjunction is not.
bool sampleDisjuncts(z3::context &c, const z3::expr &pre,
                     const std::vector<z3::expr> &disj, const TvOptions &o,
                     std::optional<z3::model> &model) {
  for (size_t k : {size_t(0), disj.size() / 2, disj.size() - 1}) {
    // With a resource limit, the same brief try on any machine.
    Limits lim = o.rlimit ? Limits{0, shareOf(o.rlimit, 50)} : Limits{200, 0};
    std::string why;
    if (checkAlone(c, pre && disj[k], lim, model, why) == z3::sat)
      return true;
  }
  return false;
}

} // namespace cc::smt::detail
