// Symbolic sizes, internal to cc_smt: one side of a pair encoded at every
// size of its dynamic dimensions (RefineSymbolic.cpp: tensors, the query;
// RefineSymbolicMemory.cpp: memrefs).
#pragma once

#include "smt/Refine.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <functional>
#include <map>
#include <optional>

namespace cc::smt::detail {

using namespace mlir;

using Exprs = std::vector<z3::expr>;

// A tensor of symbolic sizes: its element at a point within them.
struct Lazy {
  Exprs dims;
  std::function<Elem(const Exprs &)> at;
};

inline z3::expr below(z3::context &c, const Exprs &idx, const Exprs &dims) {
  z3::expr in = c.bool_val(true);
  for (size_t k = 0; k < idx.size(); ++k)
    in = in && z3::ult(idx[k], dims[k]);
  return in;
}

// A block of memory at symbolic sizes: its dimensions (rank 0 has one, of
// size 1) and its element at an index of each, a rule as a tensor's (a
// store or a copy makes a new rule over the old one).
struct SymBlock {
  Lazy data;
  bool writable, live, owned;
  // An argument's block may not be dereferenceable (Encoder's MemBlock).
  z3::expr deref;
};

// A memref: per dimension of its block an offset and, where a dimension
// of the view moves along it (dimOf; -1 where a subview dropped it), a
// stride. Every view keeps its block's dimensions apart, so addresses are
// compared per dimension, without the products of a linear layout.
struct SymView {
  int block;
  Exprs base, strides;
  std::vector<int> dimOf;
  Exprs sizes;
  bool allocation = false; // the result of alloc itself: may be freed
};

// The arguments, shared by both sides: tensors (a rule each), scalars,
// and memrefs (the block of each, by argument; arguments that alias share
// one), with the dynamic sizes among them and the fact that they fit.
struct SymbolicArgs {
  std::vector<Lazy> tensors;
  std::vector<SVal> scalars;
  std::vector<SymBlock> blocks;
  std::map<unsigned, int> blockOf;
  Exprs sizes;
  z3::expr fits;
};

// One side of the pair encoded at symbolic sizes: `e` encodes the scalar
// ops (bodies, index arithmetic) as it does at instantiated sizes.
class Points {
public:
  Points(Encoder &e, const SymbolicArgs &args, std::string side)
      : e(e), c(e.c), args(args), side(std::move(side)) {}
  std::vector<Lazy> run(func::FuncOp f);
  // Undefined behaviour at point q of an op of sizes `dims` on the path
  // `guard` (the conditions of the scf.if around it).
  struct PointUb {
    z3::expr guard;
    Exprs q, dims;
    z3::expr at;
    z3::expr holdsAt(const Exprs &w) const;
  };
  std::vector<PointUb> pointUbs;
  // Memory: blocks (the arguments' first, in SymbolicArgs' order) and the
  // views of memref values (RefineSymbolicMemory.cpp).
  std::vector<SymBlock> blocks;
  Elem read(const SymBlock &b, const Exprs &at);

private:
  void step(Operation *op);
  void encoded(Operation *op);
  void sizeAt(Value result, const Exprs &dims, Value at);
  void extract(tensor::ExtractOp op);
  void stepBlock(Block &b);
  Lazy &tensor(Value v);
  void bind(Value v, Lazy l);
  SVal scalarOf(Value v);
  z3::expr index(Value v);
  Elem elemAt(Value v, const Exprs &idx);
  void define(Value v, Exprs dims, std::function<Elem(const Exprs &)> raw);
  Lazy rule(Exprs dims, std::function<Elem(const Exprs &)> raw);
  void empty(tensor::EmptyOp op);
  void castOp(tensor::CastOp op);
  void elementwise(Operation *op);
  Exprs broadcastDims(Operation *op, const std::vector<Value> &ins);
  void typeSays(Value v, const Exprs &dims);
  Elem elementwiseAt(Operation *op, const std::vector<Value> &ins,
                     const Exprs &idx);
  void gather(Value result, Value src, Exprs dims,
              std::function<Exprs(const Exprs &)> from);
  z3::expr mixed(OpFoldResult f);
  void extractSlice(tensor::ExtractSliceOp op);
  void insertSlice(tensor::InsertSliceOp op);
  void sliceBounds(OffsetSizeAndStrideOpInterface op, const Exprs &dims);
  void tosaMovement(Operation *op);
  void collapse(tensor::CollapseShapeOp op);
  void expand(tensor::ExpandShapeOp op);
  std::pair<z3::expr, z3::expr> split(const z3::expr &r, const z3::expr &d);
  void generic(linalg::GenericOp op);
  // A generic's reduction loops and their static sizes.
  struct Loops {
    std::vector<int64_t> sizes;
    std::vector<unsigned> reductions;
    int64_t points = 1;           // reduction points (0: the body never runs)
    std::optional<z3::expr> runs; // the iteration space is not empty
  };
  Loops loopsOf(linalg::GenericOp gen);
  Elem genericAt(linalg::GenericOp gen, const Loops &loops, unsigned k,
                 const Exprs &idx, const std::vector<Lazy> *ops = nullptr);
  void ifOp(scf::IfOp op);
  std::vector<Elem> body(Block &b, const std::vector<SVal> &args,
                         const Exprs &pt);
  Exprs freshPoint(size_t rank);
  // Memory (RefineSymbolicMemory.cpp).
  bool memoryStep(Operation *op);
  SymView &view(Value v);
  SymView identity(int block, size_t rank);
  Exprs address(const SymView &m, const Exprs &idx);
  Elem load(const SymView &m, const Exprs &idx);
  void store(const SymView &m, const Exprs &idx, const Elem &x);
  void touch(const SymView &m, bool writes, const z3::expr &when);
  z3::expr nonEmpty(const SymView &m);
  Lazy contents(const SymView &m);
  void write(const SymView &m, const Lazy &from);
  void subview(memref::SubViewOp op);
  void memrefCast(memref::CastOp op);
  void allocate(Value result, MemRefType t, Exprs dims);
  void dealloc(memref::DeallocOp op);
  void noOverlap(const SymView &a, const SymView &b);
  void copy(const SymView &from, const SymView &to);
  void bufferGeneric(linalg::GenericOp gen);

  Encoder &e;
  z3::context &c;
  const SymbolicArgs &args;
  llvm::DenseMap<Value, Lazy> lazy;
  llvm::DenseMap<Value, SymView> views;
  // Elements already built, by value and point (the point kept alive).
  std::map<std::pair<const void *, std::vector<unsigned>>,
           std::pair<Exprs, Elem>>
      memo;
  std::string side; // names this side's points
  unsigned points = 0;
  // Bodies being evaluated: an op inside one is defined again at each
  // point, where its own undefined behaviour has no point of its own.
  int bodies = 0;
  // The indices expand built, q * d + m from a point (m < d), by term.
  struct Split {
    z3::expr q, m, d;
  };
  TermMap<Split> expanded;

  z3::expr guard = c.bool_val(true);
};

} // namespace cc::smt::detail
