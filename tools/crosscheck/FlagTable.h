// A command's flags as one table, as libFuzzer's FuzzerFlags.def: a row
// (FlagSpec) gives a flag's name, its help and a Binding, which says what
// type its value has and which field of the command's options it sets.
// Parsing, the defaults (the options struct's own initial values, shown in
// place of "{}" in the help) and --help all come from the table.
#pragma once

#include "core/Error.h"
#include "tools/crosscheck/Options.h"
#ifdef CC_HAVE_MUTANTS
#include "tests/mutants/Mutants.h"
#endif

#include <concepts>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

namespace cc::cli {

// What a flag does to the options O of its command.
template <class O> struct Binding {
  using Values = std::vector<std::string>;
  // Called once, with every value of the flag, when it was given.
  std::function<Error(O &, const std::string &flag, const Values &)> set;
  // The default as --help shows it in place of "{}"; empty: none.
  std::function<std::string(const O &)> show;
  bool repeatable = false;

  Binding() = default; // a flag that this build does not have
  Binding(decltype(set) set, decltype(show) show = {}, bool repeatable = false)
      : set(std::move(set)), show(std::move(show)), repeatable(repeatable) {}
  // The binding of a field of a base of O (options that extend a library's).
  template <class Base>
  Binding(Binding<Base> b)
    requires(std::derived_from<O, Base> && !std::same_as<O, Base>)
      : repeatable(b.repeatable) {
    if (b.set)
      set = std::move(b.set);
    if (b.show)
      show = std::move(b.show);
  }
};

// One row of a command's flag table; "{}" in the help stands for the default.
template <class O> struct FlagSpec {
  Flag flag;
  Binding<O> bind;
  FlagSpec(std::string name, std::string shortName, std::string metavar,
           std::string help, Binding<O> bind)
      : flag{std::move(name), std::move(shortName), std::move(metavar),
             std::move(help), bind.repeatable},
        bind(std::move(bind)) {}
};

template <class O> using FlagTable = std::vector<FlagSpec<O>>;

// The rows of several tables, in order.
template <class O, class... More>
FlagTable<O> concat(FlagTable<O> rows, const More &...more) {
  (rows.insert(rows.end(), more.begin(), more.end()), ...);
  return rows;
}

// A field set from the flag's value by parse(flag, text), which returns an
// Expected; `show` writes the default.
template <class O, class T, class Parse>
Binding<O>
value(T O::*field, Parse parse,
      std::type_identity_t<std::function<std::string(const T &)>> show = {}) {
  auto set = [=](O &o, const std::string &flag,
                 const std::vector<std::string> &values) -> Error {
    auto v = parse(flag, values.back());
    if (!v)
      return v.error();
    o.*field = T(*v);
    return Error::success();
  };
  if (!show)
    return {set};
  return {set, [=](const O &o) { return show(o.*field); }};
}

// Comma-separated items, each read by parse(flag, item), appended to `field`.
template <class O, class T, class Parse>
Binding<O> list(std::vector<T> O::*field, Parse parse) {
  return {[=](O &o, const std::string &flag,
              const std::vector<std::string> &values) -> Error {
    for (const std::string &v : values)
      for (const std::string &item : splitList(v)) {
        auto x = parse(flag, item);
        if (!x)
          return x.error();
        (o.*field).push_back(*x);
      }
    return Error::success();
  }};
}

template <class O> Binding<O> repeatable(Binding<O> b) {
  b.repeatable = true;
  return b;
}

// A boolean flag that sets `field` (on) or clears it (off: --no-*).
template <class O> Binding<O> on(bool O::*field) {
  return {[=](O &o, const std::string &, const std::vector<std::string> &) {
    o.*field = true;
    return Error::success();
  }};
}
template <class O> Binding<O> off(bool O::*field) {
  return {[=](O &o, const std::string &, const std::vector<std::string> &) {
    o.*field = false;
    return Error::success();
  }};
}

template <class O> Binding<O> text(std::string O::*field) {
  return value(field, parseText, [](const std::string &t) { return t; });
}

// A repeatable flag whose values replace the default list.
template <class O> Binding<O> texts(std::vector<std::string> O::*field) {
  return {[=](O &o, const std::string &, const std::vector<std::string> &v) {
            o.*field = v;
            return Error::success();
          },
          [=](const O &o) {
            std::string s;
            for (const std::string &t : o.*field)
              s += (s.empty() ? "" : ",") + t;
            return s;
          },
          true};
}

template <class O>
Binding<O> choice(std::string O::*field, std::vector<std::string> choices) {
  auto parse = [=](const std::string &flag, const std::string &t) {
    return parseChoice(flag, t, choices);
  };
  return value(field, parse, [](const std::string &t) { return t; });
}

template <class O, class T>
Binding<O> count(T O::*field, uint64_t min = 0, uint64_t max = UINT64_MAX) {
  auto parse = [=](const std::string &flag, const std::string &t) {
    return parseCount(flag, t, min, max);
  };
  return value(field, parse,
               [](const T &v) { return std::to_string(uint64_t(v)); });
}

template <class O> Binding<O> number(double O::*field) {
  return value(field, parseNumber, showNumber);
}
template <class O> Binding<O> positive(double O::*field) {
  return value(field, parsePositive, showNumber);
}
template <class O> Binding<O> share(double O::*field) {
  return value(field, parseShare, showNumber);
}
template <class O> Binding<O> duration(double O::*field) {
  return value(field, parseDuration, showDuration);
}
template <class O> Binding<O> memoryLimit(uint64_t O::*field) {
  return value(field, parseMemoryLimit, showSize);
}

// A binding of the options S nested in O.
template <class O, class S> Binding<O> within(S O::*member, Binding<S> inner) {
  Binding<O> b;
  b.repeatable = inner.repeatable;
  if (inner.set)
    b.set = [=](O &o, const std::string &flag,
                const std::vector<std::string> &values) {
      return inner.set(o.*member, flag, values);
    };
  if (inner.show)
    b.show = [=](const O &o) { return inner.show(o.*member); };
  return b;
}
template <class O, class S>
FlagTable<O> within(S O::*member, const FlagTable<S> &flags) {
  FlagTable<O> out;
  for (const FlagSpec<S> &f : flags)
    out.push_back({f.flag.name, f.flag.shortName, f.flag.metavar, f.flag.help,
                   within(member, f.bind)});
  return out;
}

// --load-mutants registers the test-only cc-mutant-* passes (tests/mutants)
// as it is read; a build without them (CC_INCLUDE_MUTANTS=OFF) has no such
// flag.
template <class O> Binding<O> loadMutants() {
#ifdef CC_HAVE_MUTANTS
  return {[](O &, const std::string &, const std::vector<std::string> &) {
    registerMutantPasses();
    return Error::success();
  }};
#else
  return {};
#endif
}

} // namespace cc::cli
