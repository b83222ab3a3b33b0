//===- GemmConfigDefaults.cpp - default configurations --------------------===//

#include "gemm/Dialect/Gemm/IR/GemmConfigDefaults.h"
#include "gemm/Utils/FragmentLayout.h"

using namespace mlir;
using namespace mlir::gemm;

std::optional<MmaShape> mlir::gemm::getMfmaShape(MatmulOp op,
                                                 ConfigAttr config,
                                                 const TargetInfo &target) {
  ElemKind operand = *getOperandKind(op.getAElementType(), config.getKind());
  ElemKind acc = *getElemKind(op.getAccType());
  ArrayRef<int64_t> s = config.getInstr();
  for (const MmaShape &shape :
       target.findShapes(InstrKind::mfma, operand, acc))
    if (shape.m == s[0] && shape.n == s[1] && shape.k == s[2])
      return shape;
  return std::nullopt;
}

MfmaTileProblem mlir::gemm::getMfmaTileProblem(MatmulOp op, ConfigAttr config,
                                               const TargetInfo &target) {
  MfmaTileProblem p;
  p.shape = *getMfmaShape(op, config, target);
  p.aKContiguous = !op.isTransposedA();
  p.bKContiguous = op.isTransposedB();
  p.bm = config.getBM();
  p.bn = config.getBN();
  p.bk = config.getBK();
  p.elemBytes = op.getAElementType().getIntOrFloatBitWidth() / 8;
  p.threads = config.getNumWarps() * target.warpSize;
  p.waveM = config.getWarpTileM();
  p.waveN = config.getWarpTileN();
  p.banks = target.sharedBanks;
  return p;
}

/// The AMD default: the first MFMA shape the lowering implements for the
/// operand and accumulator types (single-block 16x16 forms first), a 2 x 2
/// wave grid (256 threads) over a block tile sized so that two LDS stages fit
/// in 32 KiB, and the LDS layout the bank model prefers.
static ConfigAttr getDefaultMfmaConfig(MatmulOp op, const TargetInfo &target,
                                       ElemKind kind) {
  ElemKind acc = *getElemKind(op.getAccType());
  std::optional<MmaShape> shape;
  for (const MmaShape &s : mfmaLoweredShapes(target, kind))
    if (s.acc == acc && s.blocks == 1) {
      shape = s;
      break;
    }
  if (!shape)
    return {};
  SmallVector<int64_t, 3> block;
  switch (kind) {
  case ElemKind::f64:
    block = {64, 64, 16};
    break;
  case ElemKind::f32:
    block = {128, 128, 16};
    break;
  case ElemKind::f16:
  case ElemKind::bf16:
    block = {128, 128, 32};
    break;
  default: // i8, f8
    block = {128, 128, 64};
    break;
  }
  MLIRContext *ctx = op.getContext();
  auto config = ConfigAttr::get(
      ctx, Kind::mfma, block, {2, 2},
      {int64_t(shape->m), int64_t(shape->n), int64_t(shape->k)},
      /*stages=*/2, SmemLayout::swizzle, Raster::row, /*group=*/8,
      /*split_k=*/1);
  TileConfig t = toTileConfig(config);
  t.smem = chooseMfmaLdsKind(getMfmaTileProblem(op, config, target));
  return getConfigAttr(ctx, t);
}

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
  if (target.isNVIDIA() && target.supportsKind(InstrKind::wgmma)) {
    // Hopper (sm_90a): a 128 x 256 block of two warpgroups, each issuing
    // m64n256 wgmma from 128-byte swizzled shared tiles, 4 stages (192 KiB).
    // tf32, i8 and f8 are read K-major only, so only their tn layout takes
    // it (f8 has no other NVIDIA lowering).
    // Block K is one 128-byte row, the instruction K 32 bytes.
    bool tn = !op.isTransposedA() && op.isTransposedB();
    ElemKind operand = kind == ElemKind::f32 ? ElemKind::tf32 : kind;
    if ((kind != ElemKind::f32 || allowTf32) &&
        wgmmaLowersTypes(operand, *getElemKind(op.getAccType())) &&
        (tn || wgmmaReadsMNMajor(operand))) {
      int64_t bytes = elemBytes(operand);
      return make(Kind::wgmma, {128, 256, kWgmmaSwizzleBytes / bytes}, {2, 1},
                  {64, 256, 32 / bytes}, 4);
    }
  }
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
  if (target.isAMD()) {
    if (ConfigAttr mfma = getDefaultMfmaConfig(op, target, kind))
      return mfma;
  }
  // Everything else: exact SIMT with the accumulator in registers.
  return make(Kind::simt, {64, 64, 16}, {2, 2}, {4, 8, 1}, 2);
}
