//===- ComputeStep.cpp - one shared-memory stage of MMAs ------------------===//
//
// The default stage schedule of a ComputeStep (register double-buffered
// fragments), and WarpTiledStep: the tilesM x tilesN instruction tiles of a
// warp tile that the mma.sync and MFMA steps share.
//
//===----------------------------------------------------------------------===//

#include "KernelContext.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::detail;

SmallVector<Value> ComputeStep::computeStage(OpBuilder &b, Location loc,
                                             Value stage, ValueRange accIn) {
  SmallVector<Value> acc(accIn);
  int64_t ksteps = numKSteps();
  SmallVector<Value> frags = loadFragments(b, loc, stage, 0);
  for (int64_t ks = 0; ks < ksteps; ++ks) {
    SmallVector<Value> next;
    if (ks + 1 < ksteps)
      next = loadFragments(b, loc, stage, ks + 1);
    acc = multiply(b, loc, frags, acc);
    frags = std::move(next);
  }
  return acc;
}

SmallVector<Value> WarpTiledStep::initAccumulators(OpBuilder &b, Location loc) {
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(accTileType));
  return SmallVector<Value>(tilesM * tilesN, zero);
}

SmallVector<Value> WarpTiledStep::multiply(OpBuilder &b, Location loc,
                                           ValueRange frags, ValueRange accIn) {
  SmallVector<Value> acc(accIn);
  for (int64_t mi = 0; mi < tilesM; ++mi)
    for (int64_t ni = 0; ni < tilesN; ++ni) {
      Value &c = acc[mi * tilesN + ni];
      c = emitInstruction(b, loc, frags[mi], frags[tilesM + ni], c);
    }
  return acc;
}

void WarpTiledStep::forEachElement(OpBuilder &b, Location loc, ValueRange acc,
                                   function_ref<void(Value, Value, Value)> fn) {
  IndexMath m(b, loc);
  unsigned slots = accSlots();
  for (int64_t mi = 0; mi < tilesM; ++mi)
    for (int64_t ni = 0; ni < tilesN; ++ni)
      for (unsigned slot = 0; slot < slots; ++slot) {
        auto [row, col] = accSlotCoord(m, slot);
        row = m.add(m.add(ctx.warpM0, mi * instrTileM), row);
        col = m.add(m.add(ctx.warpN0, ni * instrTileN), col);
        fn(row, col, accSlotValue(b, loc, acc[mi * tilesN + ni], slot));
      }
}
