// A bundle's expected values: the table repro.sh compares with, and the
// mismatching elements of a re-run judged the same way.
#include "reports/BundleInternal.h"

#include "core/Format.h"
#include "oracles/Numeric.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace cc::bundle {

namespace {

std::string floatClass(double v) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v > 0 ? "inf" : "-inf";
  return "finite";
}

// A float reference as the dtype holds it: beyond its largest finite value
// it rounds to infinity.
double shownAs(DType d, double ev) {
  return std::fabs(ev) > maxFinite(d) ? roundToFloat(d, ev) : ev;
}

} // namespace

// One line per output element for repro.sh: OUT INDEX KIND EXPECTED
// ALLOWED ALT, with KIND the output dtype, EXPECTED the f64 reference
// ("nan", "inf", "-inf" when not finite in the dtype), ALLOWED the absolute
// error the oracle allows there and ALT, for floats, the class of the
// target-precision reference ("finite", "nan", "inf", "-inf": a NaN or Inf
// the faithful evaluation also shows is accepted, an element it could not
// calibrate accepts any finite value) and for float-derived integers the
// other accepted value ("-" when none).
Expectation expectations(const Graph &g, const Outputs &ref,
                         const Outputs &target, const Outputs &magnitudes) {
  NumericOptions o;
  NumericReport tol = judgeNumeric(g, target, ref, target, o, &magnitudes);
  std::vector<OutputSpec> specs = outputSpecs(g);
  Expectation e;
  std::ostringstream os;
  for (size_t k = 0; k < ref.size() && k < specs.size(); ++k) {
    DType d = specs[k].type.dtype;
    double rel = k < tol.outputs.size() ? tol.outputs[k].relTolerance : 0;
    double abs = k < tol.outputs.size() ? tol.outputs[k].absTolerance : 0;
    for (int64_t i = 0, n = ref[k].size(); i < n; ++i) {
      os << k << " " << i << " " << dtypeName(d) << " ";
      if (isFloat(d)) {
        double ev = ref[k].getF(i), tv = target[k].getF(i);
        double shown = shownAs(d, ev);
        // As the oracle: relative to the magnitude of the terms.
        double terms = std::fabs(ev);
        if (k < magnitudes.size() && magnitudes[k].size() == ref[k].size())
          terms = std::max(terms, magnitudes[k].getF(i));
        double allowed =
            std::max({o.margin * std::fabs(tv - ev), rel * terms, abs});
        e.allowed.push_back(allowed);
        os << (std::isfinite(shown) ? formatDouble("%.17g", shown)
                                    : floatClass(shown))
           << " " << formatDouble("%.17g", allowed) << " " << floatClass(tv)
           << "\n";
      } else {
        int64_t ev = ref[k].getI(i), tv = target[k].getI(i);
        if (isBool(d))
          ev = ev != 0, tv = tv != 0;
        e.allowed.push_back(0);
        os << ev << " 0 "
           << (specs[k].model.floatDerived && tv != ev ? std::to_string(tv)
                                                       : "-")
           << "\n";
      }
    }
  }
  e.table = os.str();
  return e;
}

Expectation exactExpectations(const Outputs &expected, bool zeroSignOpen) {
  Expectation e;
  std::ostringstream os;
  for (size_t k = 0; k < expected.size(); ++k) {
    DType d = expected[k].dtype();
    for (int64_t i = 0, n = expected[k].size(); i < n; ++i) {
      e.allowed.push_back(0);
      os << k << " " << i << " " << dtypeName(d) << " ";
      if (!isFloat(d)) {
        os << expected[k].getI(i) << " 0 -\n";
        continue;
      }
      double v = expected[k].getF(i);
      os << (std::isfinite(v) ? formatDouble("%.17g", v) : floatClass(v))
         << " 0 " << (zeroSignOpen ? floatClass(v) : "exact") << "\n";
    }
  }
  e.table = os.str();
  return e;
}

std::vector<Mismatch> mismatches(const Graph &g, const Outputs &actual,
                                 const Outputs &ref, const Outputs &target,
                                 const std::vector<double> &allowed) {
  std::vector<Mismatch> out;
  size_t flat = 0;
  for (size_t k = 0; k < ref.size(); ++k) {
    DType d = g.typeOf(g.outputs[k]).dtype;
    for (int64_t i = 0, n = ref[k].size(); i < n; ++i, ++flat) {
      if (k >= actual.size() || actual[k].size() != n)
        continue;
      double ev = ref[k].asDouble(i), av = actual[k].asDouble(i),
             tv = target[k].asDouble(i);
      bool bad;
      if (!isFloat(d)) {
        bad = av != ev && !(isBool(d) && (av != 0) == (ev != 0)) && av != tv;
      } else {
        std::string ac = floatClass(av), ec = floatClass(shownAs(d, ev));
        if (ac != "finite" || ec != "finite")
          bad = ac != ec && ac != floatClass(tv);
        else
          bad = std::isfinite(tv) && std::fabs(av - ev) > allowed[flat];
      }
      if (bad)
        out.push_back({k, i, ev, av, allowed[flat]});
    }
  }
  return out;
}

} // namespace cc::bundle
