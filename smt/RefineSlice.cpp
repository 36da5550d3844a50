// The part of a query that one output element depends on: the conjuncts of
// the precondition it shares inputs with (PreSlicer), and the terms both
// sides compute alike, cut out as variables (provedByCuts).
#include "smt/Refine.h"

#include <unordered_set>

namespace cc::smt::detail {

namespace {

bool isSymbol(const z3::expr &x) {
  return x.is_app() && x.decl().decl_kind() == Z3_OP_UNINTERPRETED;
}

// The conjuncts of `e`: nested ands, and the negated disjuncts of a nested
// or (the source's undefinedness is one, over all its elements).
std::vector<z3::expr> conjunctsOf(const z3::expr &e) {
  std::vector<z3::expr> out;
  std::vector<std::pair<z3::expr, bool>> todo{{e, false}};
  while (!todo.empty()) {
    auto [x, negated] = todo.back();
    todo.pop_back();
    if (negated ? x.is_or() : x.is_and()) {
      for (unsigned i = 0; i < x.num_args(); ++i)
        todo.push_back({x.arg(i), negated});
    } else if (!negated && x.is_not()) {
      todo.push_back({x.arg(0), true});
    } else {
      out.push_back(negated ? !x : x);
    }
  }
  return out;
}

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

} // namespace

std::optional<Sides> sidesOf(const z3::expr &d) {
  if (!isKind(d, Z3_OP_AND, 2) || !isKind(d.arg(0), Z3_OP_NOT, 1) ||
      !isKind(d.arg(1), Z3_OP_OR, 2))
    return std::nullopt;
  auto values = differs(d.arg(1).arg(1));
  if (!values)
    return std::nullopt;
  return Sides{values->first, values->second, d.arg(0).arg(0), d.arg(1).arg(0)};
}

unsigned PreSlicer::find(unsigned s) {
  while (parent[s] != s)
    s = parent[s] = parent[parent[s]];
  return s;
}

int PreSlicer::symbol(const z3::expr &x, bool add) {
  unsigned id = x.decl().id();
  auto it = symbols.find(id);
  if (it != symbols.end())
    return int(it->second);
  if (!add)
    return -1;
  parent.push_back(unsigned(parent.size()));
  symbols.emplace(id, parent.back());
  return int(parent.back());
}

// One post-order walk of the DAG: each node's representative symbol, the
// symbols under one node joined.
int PreSlicer::join(const z3::expr &root) {
  std::vector<std::pair<z3::expr, bool>> todo{{root, false}};
  while (!todo.empty()) {
    auto [x, done] = todo.back();
    todo.pop_back();
    if (!x.is_app() || (!done && rep.count(x.id())))
      continue;
    if (!done) {
      todo.push_back({x, true});
      for (unsigned i = 0; i < x.num_args(); ++i)
        todo.push_back({x.arg(i), false});
      continue;
    }
    int r = isSymbol(x) ? symbol(x, true) : -1;
    for (unsigned i = 0; i < x.num_args(); ++i) {
      auto it = rep.find(x.arg(i).id());
      if (it == rep.end() || it->second < 0)
        continue;
      if (r < 0)
        r = it->second;
      else
        parent[find(unsigned(it->second))] = find(unsigned(r));
    }
    rep[x.id()] = r;
  }
  auto it = rep.find(root.id());
  return it == rep.end() ? -1 : it->second;
}

PreSlicer::PreSlicer(const z3::expr &pre) : whole(pre) {
  for (const z3::expr &k : conjunctsOf(pre))
    conjuncts.push_back({k, join(k)});
}

z3::expr PreSlicer::slice(const z3::expr &d, bool &dropped) {
  std::set<unsigned> roots;
  forEachNode(d, [&](const z3::expr &x) {
    auto it = rep.find(x.id());
    if (it != rep.end()) {
      if (it->second >= 0)
        roots.insert(find(unsigned(it->second)));
      return false; // a node of `pre`: its symbols are joined already
    }
    if (isSymbol(x))
      if (int s = symbol(x, false); s >= 0)
        roots.insert(find(unsigned(s)));
    return true;
  });
  z3::expr_vector kept(whole.ctx());
  for (const auto &[k, r] : conjuncts)
    if (r < 0 || roots.count(find(unsigned(r))))
      kept.push_back(k);
  dropped = kept.size() < conjuncts.size();
  return dropped ? z3::mk_and(kept) : whole;
}

// ---- cut points -------------------------------------------------------------

namespace {

// The nodes of the DAGs of `roots`, by id.
std::unordered_map<unsigned, z3::expr>
nodesOf(std::initializer_list<z3::expr> roots) {
  std::unordered_map<unsigned, z3::expr> out;
  for (const z3::expr &r : roots)
    forEachNode(
        r, [&](const z3::expr &x) { return out.emplace(x.id(), x).second; });
  return out;
}

// Terms both sides compute, where one side goes on alone: a cast both
// round alike and then clamp differently. `all` has each of them, `deepest`
// those with none of them below (the others stay functions of these).
struct Cuts {
  z3::expr_vector all, deepest;
};

// The source's side includes `pre`, its definedness: a value whose range
// the source requires and the target checks is cut too.
Cuts cutPoints(z3::context &c, const z3::expr &pre, const Sides &s) {
  auto src = nodesOf({s.sv, s.ps, pre}), tgt = nodesOf({s.tv, s.pt});
  auto shared = [&](const z3::expr &x) {
    return src.count(x.id()) && tgt.count(x.id());
  };
  std::unordered_set<unsigned> boundary;
  Cuts k{z3::expr_vector(c), z3::expr_vector(c)};
  for (const auto *side : {&src, &tgt})
    for (const auto &[id, x] : *side) {
      if (shared(x))
        continue;
      for (unsigned i = 0; i < x.num_args(); ++i) {
        z3::expr a = x.arg(i);
        if (shared(a) && a.num_args() > 0 &&
            (a.get_sort().is_fpa() || a.get_sort().is_bv()) &&
            boundary.insert(a.id()).second)
          k.all.push_back(a);
      }
    }
  for (const z3::expr &x : k.all) {
    bool above = false;
    forEachNode(x, [&](const z3::expr &n) {
      above = above || (!z3::eq(n, x) && boundary.count(n.id()));
      return !above;
    });
    if (!above)
      k.deepest.push_back(x);
  }
  return k;
}

} // namespace

bool provedByCuts(z3::context &c, const z3::expr &given, const z3::expr &d,
                  unsigned ms, unsigned rlimit, bool flatOnly) {
  std::optional<Sides> s = sidesOf(d);
  if (!s)
    return false;
  // In the normal form of the element's terms (Query::refinementViolation
  // compares simplified terms), so that its terms meet theirs.
  z3::expr pre = given.simplify();
  Cuts k = cutPoints(c, pre, *s);
  for (const z3::expr_vector *cut : {&k.deepest, &k.all}) {
    if (cut->empty() || (cut == &k.all && cut->size() == k.deepest.size()))
      continue;
    z3::expr_vector vars(c);
    for (const z3::expr &x : *cut)
      vars.push_back(
          c.constant(("cut!" + std::to_string(x.id())).c_str(), x.get_sort()));
    Limits lim{std::max(1u, ms / 2), rlimit ? std::max(1u, rlimit / 2) : 0};
    std::optional<z3::model> unused;
    std::string why;
    z3::expr f = (pre && d).substitute(*cut, vars);
    if (flatOnly && !smallAndFlat(f))
      continue;
    if (checkAlone(c, f, lim, unused, why) == z3::unsat)
      return true;
  }
  return false;
}

} // namespace cc::smt::detail
