//===- GemmConfigDefaults.cpp - default configurations --------------------===//

#include "gemm/Dialect/Gemm/IR/GemmConfigDefaults.h"

using namespace mlir;
using namespace mlir::gemm;

ConfigAttr mlir::gemm::getDefaultConfig(MatmulOp op, const TargetInfo &target,
                                        bool allowTf32) {
  MLIRContext *ctx = op.getContext();
  ElemKind kind = *getElemKind(op.getAElementType());
  auto make = [&](Kind k, ArrayRef<int64_t> block, ArrayRef<int64_t> warps,
                  ArrayRef<int64_t> instr, int64_t stages) {
    return ConfigAttr::get(ctx, k, block, warps, instr, stages,
                           SmemLayout::swizzle, Raster::row, /*group=*/8,
                           /*split_k=*/1);
  };
  if (target.isNVIDIA()) {
    switch (kind) {
    case ElemKind::f16:
    case ElemKind::bf16:
      // BK = 64: 128-byte shared rows, whose swizzle lets the ldmatrix
      // addresses be hoisted (SmemTile::offsetSplit), and half the barriers.
      // f16 accumulation keeps BK = 32: ptxas spills it at BK = 64.
      if (op.getAccType().isF16())
        return make(Kind::mma_sync, {128, 128, 32}, {2, 2}, {16, 8, 16}, 4);
      return make(Kind::mma_sync, {128, 128, 64}, {2, 2}, {16, 8, 16}, 3);
    // Warp tiles of 64x32 for i8 and tf32 and 32x16 for f64 keep ptxas free
    // of spills (fragments without ldmatrix forms cost registers).
    case ElemKind::i8:
      // Without tn, i8 fragments are gathered element by element (ldmatrix
      // cannot transpose bytes): a 32x32 warp tile keeps them in registers.
      if (op.isTransposedA() || !op.isTransposedB())
        return make(Kind::mma_sync, {64, 128, 64}, {2, 4}, {16, 8, 32}, 3);
      return make(Kind::mma_sync, {128, 128, 64}, {2, 4}, {16, 8, 32}, 3);
    case ElemKind::f64:
      return make(Kind::mma_sync, {64, 64, 16}, {2, 4}, {8, 8, 4}, 3);
    case ElemKind::f32:
      if (allowTf32)
        return make(Kind::mma_sync, {128, 128, 32}, {2, 4}, {16, 8, 8}, 3);
      return make(Kind::simt, {64, 64, 16}, {2, 2}, {4, 8, 1}, 3);
    default:
      break;
    }
  }
  // Everything else: exact SIMT with the accumulator in registers.
  return make(Kind::simt, {64, 64, 16}, {2, 2}, {4, 8, 1}, 2);
}
