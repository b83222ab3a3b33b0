//===- Epilogue.cpp - the gemm.matmul epilogue in registers ---------------===//
//
// Applies the epilogue region to one accumulator element: C is loaded only if
// the region reads it, extra operands are loaded per their broadcast, the
// region's ops are cloned in place and the yielded value is stored; all of it
// predicated on the element lying inside C. Without a region the accumulator
// is converted to C's element type (saturating for narrower integers).
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
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
    if (op.readsC())
      map.map(body.getArgument(1),
              memref::LoadOp::create(b, loc, ctx.c, cIndices));
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
