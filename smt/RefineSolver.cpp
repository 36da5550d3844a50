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

// The inputs of probe `t`; nothing where an argument's sort has no edge
// values. A memref argument is an array: it is substituted by a concrete
// one.
std::optional<Assignment> probeInputs(z3::context &c,
                                      const std::vector<SVal> &args, int t) {
  Assignment as{z3::expr_vector(c), z3::expr_vector(c)};
  int64_t i = 0;
  for (const SVal &a : args) {
    std::optional<z3::expr> arr;
    if (a.array) {
      auto fill = probeValue(c, a.array->get_sort().array_range(), t, i);
      if (!fill)
        return std::nullopt;
      arr = z3::const_array(c.bv_sort(64), *fill);
    }
    for (int64_t k = 0; k < a.size(); ++k) {
      ++i;
      auto y = probeValue(c, a.v[size_t(k)].get_sort(), t, i);
      if (!y)
        return std::nullopt;
      if (arr) {
        arr = z3::store(*arr, c.bv_val(uint64_t(k), 64), *y);
      } else {
        as.vars.push_back(a.v[size_t(k)]);
        as.vals.push_back(*y);
      }
    }
    if (arr) {
      as.vars.push_back(*a.array);
      as.vals.push_back(*arr);
    }
  }
  return as;
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

std::optional<Assignment> probe(z3::context &c, const std::vector<SVal> &args,
                                const z3::expr &bad) {
  for (int t = 0; t < kProbes; ++t) {
    std::optional<Assignment> as = probeInputs(c, args, t);
    if (!as)
      return std::nullopt;
    z3::expr e = bad;
    if (e.substitute(as->vars, as->vals).simplify().is_true())
      return as;
  }
  return std::nullopt;
}

z3::check_result decompose(z3::solver &s, const z3::expr &pre,
                           const std::vector<z3::expr> &disj,
                           const TvOptions &o, std::string &unknownWhy) {
  unsigned totalMs = o.timeoutMs;
  auto t0 = std::chrono::steady_clock::now();
  z3::check_result res = z3::unsat;
  for (const z3::expr &d : disj) {
    if (d.simplify().is_false())
      continue;
    double used = std::chrono::duration<double, std::milli>(
                      std::chrono::steady_clock::now() - t0)
                      .count();
    if (used >= totalMs) {
      unknownWhy = "timeout";
      return z3::unknown;
    }
    z3::params prm(s.ctx());
    prm.set("timeout", unsigned(totalMs - used));
    if (o.rlimit)
      prm.set("rlimit", o.rlimit);
    s.set(prm);
    s.push();
    s.add(pre && d);
    z3::check_result r = s.check();
    if (r == z3::sat)
      return r;
    if (r == z3::unknown) {
      res = z3::unknown;
      unknownWhy = s.reason_unknown();
    }
    s.pop();
  }
  return res;
}

// When a large function is wrong, most of its outputs usually are, and one
// of them is a fast query where the whole disjunction is not.
bool sampleDisjuncts(z3::solver &s, const z3::expr &pre,
                     const std::vector<z3::expr> &disj, const TvOptions &o) {
  for (size_t k : {size_t(0), disj.size() / 2, disj.size() - 1}) {
    z3::params prm(s.ctx());
    // With a resource limit, the same brief try on any machine.
    if (o.rlimit)
      prm.set("rlimit", std::max(1u, o.rlimit / 50));
    else
      prm.set("timeout", 200u);
    s.set(prm);
    s.push();
    s.add(pre && disj[k]);
    if (s.check() == z3::sat)
      return true;
    s.pop();
  }
  return false;
}

} // namespace cc::smt::detail
