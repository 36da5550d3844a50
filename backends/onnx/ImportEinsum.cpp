// ONNX's Einsum of one operand (transpose, sums) or two (a batched matmul),
// its equation checked against the operands' ranks before any axis is
// looked up.
#include "backends/onnx/Importer.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace cc::onnx {

namespace {

using I = Importer;

// One Einsum term: its letters, without spaces.
struct Term {
  std::string letters;
  bool has(char c) const { return letters.find(c) != std::string::npos; }
};

Expected<std::vector<Term>> parseEinsum(const std::string &eq, size_t operands,
                                        Term &out) {
  std::string e;
  for (char c : eq)
    if (c != ' ')
      e += c;
  if (e.find("...") != std::string::npos)
    return unsupported("Einsum with an ellipsis");
  size_t arrow = e.find("->");
  std::string lhs = e.substr(0, arrow);
  std::vector<Term> terms;
  for (size_t at = 0;;) {
    size_t comma = lhs.find(',', at);
    terms.push_back({lhs.substr(at, comma - at)});
    if (comma == std::string::npos)
      break;
    at = comma + 1;
  }
  if (terms.size() != operands)
    return makeError("Einsum equation has " + std::to_string(terms.size()) +
                     " terms for " + std::to_string(operands) + " operands");
  if (arrow != std::string::npos) {
    out.letters = e.substr(arrow + 2);
  } else { // implicit: the letters used once, in alphabetical order
    for (char c = 'A'; c <= 'z'; ++c)
      if (std::count(lhs.begin(), lhs.end(), c) == 1)
        out.letters += c;
  }
  for (char c : out.letters)
    if (std::none_of(terms.begin(), terms.end(),
                     [c](const Term &t) { return t.has(c); }))
      return makeError(std::string("Einsum output letter '") + c +
                       "' names no input axis");
  for (const Term &t : terms)
    for (char c : t.letters)
      if (!std::isalpha(static_cast<unsigned char>(c)) ||
          std::count(t.letters.begin(), t.letters.end(), c) != 1)
        return unsupported("Einsum term '" + t.letters +
                           "' (diagonals and symbols)");
  return terms;
}

// Sums out the letters of `t` that `keep` does not name.
Expected<ValueId> sumOutUnused(I &im, ValueId v, Term &t,
                               const std::string &keep) {
  std::vector<int64_t> axes;
  std::string kept;
  for (size_t d = 0; d < t.letters.size(); ++d)
    (keep.find(t.letters[d]) == std::string::npos ? axes.push_back(int64_t(d))
                                                  : void(kept += t.letters[d]));
  if (axes.empty())
    return v;
  Shape s = im.typeOf(v).shape;
  CC_ASSIGN(r, reduceOver(im, OpId::ReduceSum, v, axes));
  t.letters = kept;
  return dropAxes(im, r, s, axes);
}

// v (letters `from`) transposed to the letter order `to`.
Expected<ValueId> arrange(I &im, ValueId v, const std::string &from,
                          const std::string &to) {
  if (from == to)
    return v;
  std::vector<int64_t> perm;
  for (char c : to)
    perm.push_back(int64_t(from.find(c)));
  return im.transpose(v, perm);
}

int64_t dimsOf(I &im, ValueId v, const std::string &letters,
               const std::string &which) {
  int64_t n = 1;
  Shape s = im.typeOf(v).shape;
  for (char c : which)
    n *= s[letters.find(c)];
  return n;
}

// Each term names every axis of its operand once, and a letter shared by
// two operands has one size: checked before any axis is looked up.
Error checkEinsumRanks(I &im, const std::vector<Term> &terms, const Term &out) {
  std::map<char, int64_t> size;
  for (size_t i = 0; i < terms.size(); ++i) {
    CC_ASSIGN(v, im.in(i));
    const Shape &s = im.typeOf(v).shape;
    if (terms[i].letters.size() != s.size())
      return makeError("Einsum term '" + terms[i].letters + "' has " +
                       std::to_string(terms[i].letters.size()) +
                       " letters for an operand of rank " +
                       std::to_string(s.size()));
    for (size_t d = 0; d < s.size(); ++d)
      if (!size.emplace(terms[i].letters[d], s[d]).second &&
          size[terms[i].letters[d]] != s[d])
        return makeError(std::string("Einsum letter '") + terms[i].letters[d] +
                         "' names axes of different sizes");
  }
  for (char c : out.letters)
    if (std::count(out.letters.begin(), out.letters.end(), c) != 1)
      return makeError(std::string("Einsum output letter '") + c +
                       "' appears twice");
  return Error::success();
}

// Einsum of one operand (transpose, sums) or two (a batched matmul: shared
// letters in the output are batch, shared ones not in it are contracted).
Error einsum(I &im) {
  Term out;
  CC_ASSIGN(terms,
            parseEinsum(im.attrString("equation", ""), im.numInputs(), out));
  if (terms.size() > 2)
    return unsupported("Einsum of more than two operands");
  CC_TRY(checkEinsumRanks(im, terms, out));
  CC_ASSIGN(a, im.in(0));
  std::string keepA = out.letters + (terms.size() > 1 ? terms[1].letters : "");
  CC_ASSIGN(ra, sumOutUnused(im, a, terms[0], keepA));
  if (terms.size() == 1) {
    CC_ASSIGN(r, arrange(im, ra, terms[0].letters, out.letters));
    return im.define(0, r);
  }
  CC_ASSIGN(b, im.in(1));
  CC_ASSIGN(rb, sumOutUnused(im, b, terms[1], out.letters + terms[0].letters));
  std::string batch, freeA, freeB, contracted;
  for (char c : terms[0].letters)
    (terms[1].has(c) ? (out.has(c) ? batch : contracted) : freeA) += c;
  for (char c : terms[1].letters)
    if (!terms[0].has(c))
      freeB += c;
  CC_ASSIGN(ta, arrange(im, ra, terms[0].letters, batch + freeA + contracted));
  CC_ASSIGN(tb, arrange(im, rb, terms[1].letters, batch + contracted + freeB));
  int64_t nb = dimsOf(im, ra, terms[0].letters, batch),
          m = dimsOf(im, ra, terms[0].letters, freeA),
          k = dimsOf(im, ra, terms[0].letters, contracted),
          n = dimsOf(im, rb, terms[1].letters, freeB);
  CC_ASSIGN(a3, im.reshape(ta, {nb, m, k}));
  CC_ASSIGN(b3, im.reshape(tb, {nb, k, n}));
  CC_ASSIGN(mm, im.op(OpId::MatMul, {a3, b3}));
  if (im.typeOf(mm).dtype != im.typeOf(a).dtype)
    return unsupported("Einsum of " +
                       std::string(dtypeName(im.typeOf(a).dtype)));
  std::string order = batch + freeA + freeB;
  Shape shape;
  for (char c : order)
    shape.push_back(terms[0].has(c)
                        ? im.typeOf(ra).shape[terms[0].letters.find(c)]
                        : im.typeOf(rb).shape[terms[1].letters.find(c)]);
  CC_ASSIGN(r, im.reshape(mm, shape));
  CC_ASSIGN(y, arrange(im, r, order, out.letters));
  return im.define(0, y);
}

} // namespace

void addEinsumHandlers(OpHandlers &h) { h["Einsum"] = einsum; }

} // namespace cc::onnx
