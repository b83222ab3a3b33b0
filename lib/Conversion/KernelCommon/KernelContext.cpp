//===- KernelContext.cpp - shared tiles and global indices ----------------===//
//
// SmemTile addressing (the plain, padded and XOR-swizzled layouts of
// gemm/Utils/FragmentLayout.h, and the wgmma panels) and the global operand
// indices of a KernelContext, shared by the NVIDIA and AMD kernel builders.
//
//===----------------------------------------------------------------------===//

#include "KernelContext.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::detail;

//===----------------------------------------------------------------------===//
// SmemTile
//===----------------------------------------------------------------------===//

int64_t SmemTile::offsetConst(int64_t row, int64_t col) const {
  if (panelCols)
    return wgmmaPanelOffset(row, col, rows, elemBytes);
  if (layout == SmemLayout::swizzle)
    return swizzledOffset(row, col, rowElems, elemBytes);
  return plainOffset(row, col, rowElems);
}

Value SmemTile::offset(IndexMath &m, Value stage, Value row, Value col) const {
  Value base = m.mul(stage, stageElems);
  if (panelCols) {
    // Panel col / panelCols holds rows x panelCols elements; inside it the
    // 128-byte swizzle below applies with rowElems = panelCols.
    base = m.add(base, m.mul(m.div(col, panelCols), rows * panelCols));
    col = m.rem(col, panelCols);
  }
  if (layout != SmemLayout::swizzle)
    return m.add(base, m.add(m.mul(row, rowElems), col));
  // The XOR swizzle of gemm/Utils/FragmentLayout.h (swizzledOffset), emitted.
  int64_t perChunk = 16 / elemBytes;
  int64_t chunksPerRow = rowElems / perChunk;
  Value linear = m.add(m.mul(row, chunksPerRow), m.div(col, perChunk));
  Value key =
      chunksPerRow >= 8 ? m.andOp(row, 7) : m.andOp(m.shr(linear, 3), 7);
  Value swizzled = m.xorOp(linear, key);
  return m.add(base, m.add(m.mul(swizzled, perChunk), m.rem(col, perChunk)));
}

Value SmemTile::offsetSplit(IndexMath &m, Value stage, Value rowVar,
                            int64_t rowConst, Value colVar, int64_t colConst,
                            int64_t colVarChunkBound,
                            int64_t colVarAlign) const {
  int64_t perChunk = 16 / elemBytes;
  int64_t chunksPerRow = rowElems / perChunk;
  int64_t chunkConst = colConst / perChunk;
  // colVar = small (< colVarChunkBound chunks) + a multiple of colVarAlign
  // chunks; chunkConst must live strictly between the two in its bits.
  int64_t lowBits = llvm::PowerOf2Ceil(std::max<int64_t>(colVarChunkBound, 1));
  bool reassociate = layout == SmemLayout::swizzle && chunksPerRow >= 8 &&
                     rowConst % 8 == 0 && colConst % perChunk == 0 &&
                     chunkConst % lowBits == 0 &&
                     llvm::isPowerOf2_64(colVarAlign) &&
                     chunkConst < colVarAlign && colVarAlign >= lowBits;
  if (!reassociate || panelCols)
    return offset(m, stage, m.add(rowVar, rowConst), m.add(colVar, colConst));
  // chunk(row, col) = (colVar/V + chunkConst) ^ (row & 7)
  //                 = ((colVar/V) ^ (rowVar & 7)) ^ chunkConst
  // since chunkConst's bits are disjoint from colVar/V's and rowConst % 8 == 0.
  Value laneChunk = m.xorOp(m.div(colVar, perChunk), m.andOp(rowVar, 7));
  Value chunk =
      chunkConst
          ? Value(arith::XOrIOp::create(m.b, m.loc, laneChunk, m.c(chunkConst)))
          : laneChunk;
  Value rowOff = m.mul(m.add(rowVar, rowConst), rowElems);
  return m.add(m.mul(stage, stageElems), m.add(rowOff, m.mul(chunk, perChunk)));
}

void KernelContext::emitComputeBarrier(OpBuilder &b, Location loc) const {
  if (!warpSpecialized) {
    gpu::BarrierOp::create(b, loc);
    return;
  }
  // Barrier 0 is the whole block's (gpu.barrier); 1 is the compute
  // threads'.
  auto i32 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, v, 32);
  };
  Value id = i32(1);
  if (team) {
    IndexMath m(b, loc); // i32, as the barrier id
    id = m.add(team, 1);
  }
  NVVM::BarrierOp::create(b, loc, Type(), id, i32(teamThreads()),
                          NVVM::BarrierReductionAttr(), Value());
}

Value KernelContext::numKTiles(IndexMath &m) const {
  return m.ceilDiv(m.sub(k, kBegin), config.getBK());
}

Value KernelContext::kTileOrigin(IndexMath &m, Value kt) const {
  Value origin = m.add(kBegin, m.mul(kt, config.getBK()));
  if (!kPadFrom)
    return origin;
  // A padding k-tile starts at K: a TMA box there is all out of bounds
  // (zero-filled) and the other copies check K.
  return m.select(m.lt(kt, kPadFrom), origin, kTotal);
}

SmallVector<Value> KernelContext::globalIndices(OpBuilder &b, Location loc,
                                                Value row, Value col) const {
  IndexMath m(b, loc);
  if (batch)
    return {m.idx(batch), m.idx(row), m.idx(col)};
  return {m.idx(row), m.idx(col)};
}
