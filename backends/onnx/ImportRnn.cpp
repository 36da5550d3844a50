// ONNX's recurrent ops (RNN, GRU, LSTM) unrolled over their static
// sequence length, as TOSA frontends lower them: per time step, two
// matmuls (input and hidden state against the gate weights), the biases,
// and the gates' activations. A reverse direction runs over the reversed
// steps; bidirectional runs both and concatenates.
#include "backends/onnx/Importer.h"

namespace cc::onnx {

namespace {

using I = Importer;

enum class Cell { Rnn, Gru, Lstm };

int64_t gatesOf(Cell c) { return c == Cell::Rnn ? 1 : c == Cell::Gru ? 3 : 4; }

// Rows [first, first + count) of axis `axis` of v.
Expected<ValueId> part(I &im, ValueId v, int64_t axis, int64_t first,
                       int64_t count) {
  Shape s = im.typeOf(v).shape;
  std::vector<int64_t> start(s.size(), 0), size(s.begin(), s.end());
  start[axis] = first;
  size[axis] = count;
  return im.op(OpId::Slice, {v}, attrs({{"start", start}, {"size", size}}));
}

// a [batch, k] times the transpose of w [n, k]: [batch, n].
Expected<ValueId> timesTransposed(I &im, ValueId a, ValueId w) {
  Shape as = im.typeOf(a).shape, ws = im.typeOf(w).shape;
  CC_ASSIGN(wt, im.transpose(w, {1, 0}));
  CC_ASSIGN(a3, im.reshape(a, {1, as[0], as[1]}));
  CC_ASSIGN(w3, im.reshape(wt, {1, ws[1], ws[0]}));
  CC_ASSIGN(mm, im.op(OpId::MatMul, {a3, w3}));
  return im.reshape(mm, {as[0], ws[0]});
}

// One direction's weights: W [G*H, in], R [G*H, H], the input and
// recurrence biases [1, G*H] (or none), peepholes [1, 3H] (LSTM, or none),
// and the activations f, g, h by ONNX name.
struct Weights {
  ValueId w, r, wb = -1, rb = -1, peep = -1;
  std::vector<std::string> acts;
};

Expected<Weights> weightsOf(I &im, int64_t dir, int64_t gh) {
  Weights out;
  for (auto [i, slot] : {std::pair{1, &out.w}, std::pair{2, &out.r}}) {
    CC_ASSIGN(v, im.in(size_t(i)));
    CC_ASSIGN(d, part(im, v, 0, dir, 1));
    Shape s = im.typeOf(d).shape;
    CC_ASSIGN(r, im.reshape(d, {s[1], s[2]}));
    *slot = r;
  }
  if (im.hasInput(3) && !im.node->inputs[3].empty()) {
    CC_ASSIGN(b, im.in(3));
    CC_ASSIGN(d, part(im, b, 0, dir, 1));
    CC_ASSIGN(wb, part(im, d, 1, 0, gh));
    CC_ASSIGN(rb, part(im, d, 1, gh, gh));
    out.wb = wb, out.rb = rb;
  }
  if (im.hasInput(7) && !im.node->inputs[7].empty()) {
    CC_ASSIGN(p, im.in(7));
    CC_ASSIGN(d, part(im, p, 0, dir, 1));
    out.peep = d;
  }
  return out;
}

// The state operand `i` ([dirs, batch, H]) of direction `dir`, or zeros.
Expected<ValueId> initialState(I &im, size_t i, int64_t dir, DType t,
                               int64_t batch, int64_t hidden) {
  if (!im.hasInput(i) || im.node->inputs[i].empty())
    return im.constant(Tensor::splat({t, {batch, hidden}}, 0));
  CC_ASSIGN(v, im.in(i));
  CC_ASSIGN(d, part(im, v, 0, dir, 1));
  return im.reshape(d, {batch, hidden});
}

struct State {
  ValueId h, c = -1;
};

// f(v) for an activation ONNX names (Sigmoid, Tanh, Relu).
Expected<ValueId> activate(I &im, const std::string &name, ValueId v) {
  if (name == "Sigmoid" || name == "Tanh")
    return im.op(name == "Sigmoid" ? OpId::Sigmoid : OpId::Tanh, {v});
  CC_ASSIGN(zero, scalarLike(im, v, 0));
  return im.op(OpId::Maximum,
               {v, zero}); // Relu (checkSupported allows no other)
}

// v + b where there is a bias.
Expected<ValueId> plus(I &im, ValueId v, ValueId b) {
  return b < 0 ? Expected<ValueId>(v) : binaryOp(im, OpId::Add, v, b);
}

// One time step: x [batch, in] and the state in, the new state out.
Expected<State> step(I &im, Cell cell, const Weights &wt, ValueId x, State st,
                     int64_t hidden) {
  auto gate = [&](ValueId v, int64_t g) {
    return part(im, v, 1, g * hidden, hidden);
  };
  auto act = [&](size_t k, ValueId v) {
    return activate(im, wt.acts.at(k), v);
  };
  auto bin = [&](OpId op, ValueId a, ValueId b) {
    return binaryOp(im, op, a, b);
  };
  CC_ASSIGN(xw, timesTransposed(im, x, wt.w));
  CC_ASSIGN(pre, plus(im, xw, wt.wb));
  CC_ASSIGN(hr0, timesTransposed(im, st.h, wt.r));
  CC_ASSIGN(hr, plus(im, hr0, wt.rb));
  if (cell == Cell::Gru) { // gates z, r, h
    CC_ASSIGN(pz, gate(pre, 0));
    CC_ASSIGN(pr, gate(pre, 1));
    CC_ASSIGN(ph, gate(pre, 2));
    CC_ASSIGN(hz, gate(hr, 0));
    CC_ASSIGN(hrr, gate(hr, 1));
    CC_ASSIGN(zs, bin(OpId::Add, pz, hz));
    CC_ASSIGN(z, act(0, zs));
    CC_ASSIGN(rs, bin(OpId::Add, pr, hrr));
    CC_ASSIGN(r, act(0, rs));
    ValueId hh;
    if (im.attrInt("linear_before_reset", 0)) { // r * (H R_h^T + Rb_h)
      CC_ASSIGN(hg, gate(hr, 2));
      CC_ASSIGN(rhg, bin(OpId::Mul, r, hg));
      hh = rhg;
    } else { // (r * H) R_h^T + Rb_h
      CC_ASSIGN(rh, part(im, wt.r, 0, 2 * hidden, hidden));
      CC_ASSIGN(rH, bin(OpId::Mul, r, st.h));
      CC_ASSIGN(m, timesTransposed(im, rH, rh));
      ValueId rbh = -1;
      if (wt.rb >= 0) {
        CC_ASSIGN(b, gate(wt.rb, 2));
        rbh = b;
      }
      CC_ASSIGN(mb, plus(im, m, rbh));
      hh = mb;
    }
    CC_ASSIGN(hs, bin(OpId::Add, ph, hh));
    CC_ASSIGN(h, act(1, hs));
    // (1 - z) * h + z * H = h + z * (H - h)
    CC_ASSIGN(diff, bin(OpId::Sub, st.h, h));
    CC_ASSIGN(zd, bin(OpId::Mul, z, diff));
    CC_ASSIGN(next, bin(OpId::Add, h, zd));
    return State{next};
  }
  CC_ASSIGN(all, bin(OpId::Add, pre, hr));
  if (cell == Cell::Rnn) {
    CC_ASSIGN(h, act(0, all));
    return State{h};
  }
  // LSTM: gates i, o, f, c; peepholes i, o, f.
  auto peep = [&](ValueId v, int64_t k, ValueId c) -> Expected<ValueId> {
    if (wt.peep < 0)
      return v;
    CC_ASSIGN(p, part(im, wt.peep, 1, k * hidden, hidden));
    CC_ASSIGN(pc, bin(OpId::Mul, p, c));
    return bin(OpId::Add, v, pc);
  };
  CC_ASSIGN(ai, gate(all, 0));
  CC_ASSIGN(ao, gate(all, 1));
  CC_ASSIGN(af, gate(all, 2));
  CC_ASSIGN(ac, gate(all, 3));
  CC_ASSIGN(pi, peep(ai, 0, st.c));
  CC_ASSIGN(pf, peep(af, 2, st.c));
  CC_ASSIGN(i, act(0, pi));
  CC_ASSIGN(f, act(0, pf));
  CC_ASSIGN(g, act(1, ac));
  CC_ASSIGN(fc, bin(OpId::Mul, f, st.c));
  CC_ASSIGN(ig, bin(OpId::Mul, i, g));
  CC_ASSIGN(c, bin(OpId::Add, fc, ig));
  CC_ASSIGN(po, peep(ao, 1, c));
  CC_ASSIGN(o, act(0, po));
  CC_ASSIGN(tc, act(2, c));
  CC_ASSIGN(h, bin(OpId::Mul, o, tc));
  return State{h, c};
}

// The activations of each direction: the attribute's, or ONNX's defaults.
Expected<std::vector<std::vector<std::string>>> activationsOf(I &im, Cell cell,
                                                              int64_t dirs) {
  std::vector<std::string> dflt =
      cell == Cell::Rnn   ? std::vector<std::string>{"Tanh"}
      : cell == Cell::Gru ? std::vector<std::string>{"Sigmoid", "Tanh"}
                          : std::vector<std::string>{"Sigmoid", "Tanh", "Tanh"};
  std::vector<std::string> all;
  if (const Attribute *a = im.attr("activations"))
    all = a->strings;
  if (all.empty())
    for (int64_t d = 0; d < dirs; ++d)
      all.insert(all.end(), dflt.begin(), dflt.end());
  if (all.size() != dflt.size() * size_t(dirs))
    return makeError(im.node->opType + " needs " +
                     std::to_string(dflt.size() * dirs) + " activations");
  std::vector<std::vector<std::string>> out;
  for (int64_t d = 0; d < dirs; ++d) {
    out.emplace_back(all.begin() + d * dflt.size(),
                     all.begin() + (d + 1) * dflt.size());
    for (const std::string &n : out.back())
      if (n != "Sigmoid" && n != "Tanh" && n != "Relu")
        return unsupported(im.node->opType + " activation " + n);
  }
  return out;
}

// What the unrolling does not model is refused, not approximated.
Error checkSupported(I &im, int64_t seq) {
  if (im.attr("activation_alpha") || im.attr("activation_beta") ||
      im.attr("clip"))
    return unsupported(im.node->opType + " with activation parameters or clip");
  if (im.attrInt("input_forget", 0))
    return unsupported("LSTM with input_forget");
  if (im.hasInput(4) && !im.node->inputs[4].empty()) {
    CC_ASSIGN(lens, im.constIn(4));
    for (int64_t b = 0; b < lens.size(); ++b)
      if (lens.getI(b) != seq)
        return unsupported(im.node->opType +
                           " with sequence_lens shorter than the sequence");
  }
  return Error::success();
}

OpHandler recurrent(Cell cell) {
  return [cell](I &im) -> Error {
    CC_ASSIGN(x0, im.in(0));
    bool batchFirst = im.attrInt("layout", 0) != 0;
    ValueId x = x0;
    if (batchFirst) {
      CC_ASSIGN(t, im.transpose(x0, {1, 0, 2}));
      x = t;
    }
    Shape xs = im.typeOf(x).shape; // [seq, batch, input]
    if (xs.size() != 3 || !isFloat(im.typeOf(x).dtype))
      return makeError(im.node->opType +
                       " needs a float [seq, batch, input] X");
    int64_t seq = xs[0], batch = xs[1], hidden = im.attrInt("hidden_size", 0);
    if (hidden <= 0)
      return makeError(im.node->opType + " needs hidden_size");
    CC_TRY(checkSupported(im, seq));
    std::string direction = im.attrString("direction", "forward");
    int64_t dirs = direction == "bidirectional" ? 2 : 1;
    DType t = im.typeOf(x).dtype;
    CC_ASSIGN(acts, activationsOf(im, cell, dirs));
    std::vector<ValueId> ys, hs, cs;
    for (int64_t dir = 0; dir < dirs; ++dir) {
      bool reverse = direction == "reverse" || dir == 1;
      CC_ASSIGN(wt, weightsOf(im, dir, gatesOf(cell) * hidden));
      wt.acts = acts[size_t(dir)];
      CC_ASSIGN(h0, initialState(im, 5, dir, t, batch, hidden));
      State st{h0};
      if (cell == Cell::Lstm) {
        CC_ASSIGN(c0, initialState(im, 6, dir, t, batch, hidden));
        st.c = c0;
      }
      std::vector<ValueId> steps(seq);
      for (int64_t k = 0; k < seq; ++k) {
        int64_t at = reverse ? seq - 1 - k : k;
        CC_ASSIGN(xt3, part(im, x, 0, at, 1));
        CC_ASSIGN(xt, im.reshape(xt3, {batch, xs[2]}));
        CC_ASSIGN(next, step(im, cell, wt, xt, st, hidden));
        st = next;
        CC_ASSIGN(y4, im.reshape(st.h, {1, 1, batch, hidden}));
        steps[at] = y4;
      }
      CC_ASSIGN(y, seq == 1 ? Expected<ValueId>(steps[0])
                            : im.op(OpId::Concat, steps,
                                    attrs({{"axis", int64_t(0)}})));
      ys.push_back(y);
      CC_ASSIGN(h3, im.reshape(st.h, {1, batch, hidden}));
      hs.push_back(h3);
      if (cell == Cell::Lstm) {
        CC_ASSIGN(c3, im.reshape(st.c, {1, batch, hidden}));
        cs.push_back(c3);
      }
    }
    auto joined = [&](std::vector<ValueId> v,
                      int64_t axis) -> Expected<ValueId> {
      return v.size() == 1 ? Expected<ValueId>(v[0])
                           : im.op(OpId::Concat, v, attrs({{"axis", axis}}));
    };
    CC_ASSIGN(y, joined(ys, 1)); // [seq, dirs, batch, H]
    CC_ASSIGN(h, joined(hs, 0)); // [dirs, batch, H]
    if (batchFirst) {            // [batch, seq, dirs, H] and [batch, dirs, H]
      CC_ASSIGN(yt, im.transpose(y, {2, 0, 1, 3}));
      CC_ASSIGN(ht, im.transpose(h, {1, 0, 2}));
      y = yt, h = ht;
    }
    CC_TRY(im.define(0, y));
    CC_TRY(im.define(1, h));
    if (cell != Cell::Lstm)
      return Error::success();
    CC_ASSIGN(c, joined(cs, 0));
    if (batchFirst) {
      CC_ASSIGN(ct, im.transpose(c, {1, 0, 2}));
      c = ct;
    }
    return im.define(2, c);
  };
}

} // namespace

void addRnnHandlers(OpHandlers &h) {
  h["RNN"] = recurrent(Cell::Rnn);
  h["GRU"] = recurrent(Cell::Gru);
  h["LSTM"] = recurrent(Cell::Lstm);
}

} // namespace cc::onnx
