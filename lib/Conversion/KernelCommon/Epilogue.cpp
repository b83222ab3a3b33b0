//===- Epilogue.cpp - the gemm.matmul epilogue in registers ---------------===//
//
// Applies the epilogue region to one accumulator element: C is loaded only if
// the region reads it (and, for `beta * C` with a scalar beta, only when beta
// is nonzero at run time), extra operands are loaded per their broadcast, the
// region's ops are cloned in place and the yielded value is stored; all of it
// predicated on the element lying inside C. Without a region the accumulator
// is converted to C's element type (saturating for narrower integers).
//
//===----------------------------------------------------------------------===//

#include "Epilogue.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::detail;

/// Converts `v` to `to`: float extension/truncation, integer sign extension,
/// or saturating integer truncation.
static Value convertAccumulator(OpBuilder &b, Location loc, Value v, Type to) {
  Type from = v.getType();
  if (from == to)
    return v;
  if (isa<FloatType>(from)) {
    if (to.getIntOrFloatBitWidth() > from.getIntOrFloatBitWidth())
      return arith::ExtFOp::create(b, loc, to, v);
    return arith::TruncFOp::create(b, loc, to, v);
  }
  unsigned fromBits = from.getIntOrFloatBitWidth();
  unsigned toBits = to.getIntOrFloatBitWidth();
  if (toBits > fromBits)
    return arith::ExtSIOp::create(b, loc, to, v);
  APInt lo = APInt::getSignedMinValue(toBits).sext(fromBits);
  APInt hi = APInt::getSignedMaxValue(toBits).sext(fromBits);
  Value loV = arith::ConstantOp::create(b, loc, b.getIntegerAttr(from, lo));
  Value hiV = arith::ConstantOp::create(b, loc, b.getIntegerAttr(from, hi));
  Value clamped = arith::MinSIOp::create(
      b, loc, arith::MaxSIOp::create(b, loc, v, loV), hiV);
  return arith::TruncIOp::create(b, loc, to, clamped);
}

/// If the region reads C only as `C * beta` (possibly after an extension),
/// with beta a scalar extra, returns the index of that extra: C need not be
/// loaded when beta is zero (the BLAS convention; it also keeps NaNs or
/// uninitialized memory in C from leaking into the result).
static std::optional<unsigned> findBetaExtra(MatmulOp op) {
  Block &body = op.getEpilogue().front();
  Value c = body.getArgument(1);
  if (!c.hasOneUse())
    return std::nullopt;
  Operation *user = *c.getUsers().begin();
  if (isa<arith::ExtFOp, arith::ExtSIOp, arith::SIToFPOp>(user)) {
    if (!user->getResult(0).hasOneUse())
      return std::nullopt;
    c = user->getResult(0);
    user = *c.getUsers().begin();
  }
  if (!isa<arith::MulFOp, arith::MulIOp>(user))
    return std::nullopt;
  Value other = user->getOperand(0) == c ? user->getOperand(1)
                                         : user->getOperand(0);
  auto arg = dyn_cast<BlockArgument>(other);
  if (!arg || arg.getOwner() != &body || arg.getArgNumber() < 2)
    return std::nullopt;
  unsigned extra = arg.getArgNumber() - 2;
  if (op.getExtraBroadcast(extra) != Broadcast::scalar)
    return std::nullopt;
  return extra;
}

void mlir::gemm::detail::emitEpilogueElement(OpBuilder &b, Location loc,
                                             KernelContext &ctx, Value row,
                                             Value col, Value acc) {
  IndexMath m(b, loc);
  MatmulOp op = ctx.op;
  Value inside = m.andI1(m.lt(row, ctx.m), m.lt(col, ctx.n));
  auto ifOp = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  SmallVector<Value> cIndices = ctx.globalIndices(b, loc, row, col);
  Value result;
  if (!op.hasEpilogue()) {
    result = convertAccumulator(b, loc, acc, op.getCElementType());
  } else {
    Block &body = op.getEpilogue().front();
    IRMapping map;
    map.map(body.getArgument(0), acc);
    if (op.readsC()) {
      Value cLoad;
      if (std::optional<unsigned> beta = findBetaExtra(op)) {
        // Skip the load of C when beta == 0 at run time.
        Value betaV = ctx.extras[*beta];
        Value zeroBeta = arith::ConstantOp::create(
            b, loc, b.getZeroAttr(betaV.getType()));
        Value nonZero =
            isa<FloatType>(betaV.getType())
                ? Value(arith::CmpFOp::create(
                      b, loc, arith::CmpFPredicate::UNE, betaV, zeroBeta))
                : Value(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                              betaV, zeroBeta));
        Type cElem = op.getCElementType();
        cLoad = scf::IfOp::create(
                    b, loc, nonZero,
                    [&](OpBuilder &b, Location loc) {
                      scf::YieldOp::create(
                          b, loc,
                          ValueRange{memref::LoadOp::create(b, loc, ctx.c,
                                                            cIndices)});
                    },
                    [&](OpBuilder &b, Location loc) {
                      scf::YieldOp::create(
                          b, loc,
                          ValueRange{arith::ConstantOp::create(
                              b, loc, b.getZeroAttr(cElem))});
                    })
                    .getResult(0);
      } else {
        cLoad = memref::LoadOp::create(b, loc, ctx.c, cIndices);
      }
      map.map(body.getArgument(1), cLoad);
    }
    for (auto [i, extra] : llvm::enumerate(ctx.extras)) {
      Value arg = body.getArgument(2 + i);
      if (arg.use_empty())
        continue;
      auto type = dyn_cast<MemRefType>(extra.getType());
      if (!type) {
        map.map(arg, extra);
        continue;
      }
      SmallVector<Value> idx;
      bool batched = false;
      switch (op.getExtraBroadcast(i)) {
      case Broadcast::row:
        idx = {row};
        batched = type.getRank() == 2;
        break;
      case Broadcast::col:
        idx = {col};
        batched = type.getRank() == 2;
        break;
      case Broadcast::full:
        idx = {row, col};
        batched = type.getRank() == 3;
        break;
      case Broadcast::scalar:
        llvm_unreachable("memref extras are never scalar");
      }
      if (batched)
        idx.insert(idx.begin(), ctx.batch);
      for (Value &v : idx)
        v = m.idx(v);
      map.map(arg, memref::LoadOp::create(b, loc, extra, idx));
    }
    for (Operation &inner : body.without_terminator())
      b.clone(inner, map);
    result = map.lookup(body.getTerminator()->getOperand(0));
  }
  memref::StoreOp::create(b, loc, result, ctx.c, cIndices);
}

void mlir::gemm::detail::emitEpilogue(OpBuilder &b, KernelContext &ctx,
                                      ComputeStep &step, ValueRange acc) {
  Location loc = ctx.op.getLoc();
  step.forEachElement(b, loc, acc, [&](Value row, Value col, Value value) {
    IndexMath m(b, loc);
    row = m.add(ctx.tileM0, row);
    col = m.add(ctx.tileN0, col);
    if (!ctx.workspace) {
      emitEpilogueElement(b, loc, ctx, row, col, value);
      return;
    }
    // Split-K: the slice's partial sum, unconverted; the reduction kernel
    // (SplitK.cpp) adds the slices and runs the epilogue once.
    Value inside = m.andI1(m.lt(row, ctx.m), m.lt(col, ctx.n));
    scf::IfOp::create(b, loc, inside, [&](OpBuilder &b, Location loc) {
      IndexMath mi(b, loc);
      Value batch = mi.idx(ctx.batch ? ctx.batch : mi.c(0));
      memref::StoreOp::create(
          b, loc, value, ctx.workspace,
          ValueRange{batch, mi.idx(ctx.slice), mi.idx(row), mi.idx(col)});
      scf::YieldOp::create(b, loc);
    });
  });
}
