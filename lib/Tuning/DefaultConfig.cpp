//===- DefaultConfig.cpp - The config of a GEMM nobody tuned --------------===//
//
// Per-type defaults measured on an H200 (docs/performance.md) for NVIDIA, and
// the LDS bank model's pick for AMD. Every default is legal for its signature
// (unittests/DefaultConfigTest.cpp checks it against gemm/Target/Legality.h).
//
//===----------------------------------------------------------------------===//

#include "gemm/Tuning/DefaultConfig.h"
#include "gemm/Utils/FragmentLayout.h"
#include "gemm/Utils/MfmaLayout.h"

using namespace mlir::gemm;

/// A config with the swizzled layout, row rasterization in groups of 8 and
/// no split-K.
static TileConfig make(InstrKind kind, std::array<int64_t, 3> block,
                       std::array<int64_t, 2> warps,
                       std::array<int64_t, 3> instr, int64_t stages) {
  TileConfig c;
  c.kind = kind;
  c.bm = block[0], c.bn = block[1], c.bk = block[2];
  c.wm = warps[0], c.wn = warps[1];
  c.im = instr[0], c.in = instr[1], c.ik = instr[2];
  c.stages = stages;
  c.smem = SmemKind::swizzle;
  c.rasterColumn = false;
  c.group = 8;
  c.splitK = 1;
  return c;
}

/// The AMD default: the first MFMA shape the lowering implements for the
/// operand and accumulator types (single-block 16x16 forms first), a 2 x 2
/// wave grid (256 threads) over a block tile sized so that two LDS stages fit
/// in 32 KiB, and the LDS layout the bank model prefers.
static std::optional<TileConfig>
getDefaultMfmaConfig(const GemmSignature &sig, const TargetInfo &target) {
  std::optional<MmaShape> shape;
  for (const MmaShape &s : mfmaLoweredShapes(target, sig.a))
    if (s.acc == sig.acc && s.blocks == 1) {
      shape = s;
      break;
    }
  if (!shape)
    return std::nullopt;
  std::array<int64_t, 3> block;
  switch (sig.a) {
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
  TileConfig c = make(InstrKind::mfma, block, {2, 2},
                      {shape->m, shape->n, shape->k}, /*stages=*/2);
  c.smem = chooseMfmaLdsKind(getMfmaTileProblem(c, sig, target));
  return c;
}

TileConfig mlir::gemm::getDefaultConfig(const GemmSignature &sig,
                                        const TargetInfo &target,
                                        bool allowTf32) {
  ElemKind kind = sig.a;
  if (target.isNVIDIA() && target.supportsKind(InstrKind::wgmma)) {
    // Hopper (sm_90a): a 128 x 256 block of two warpgroups, each issuing
    // m64n256 wgmma from 128-byte swizzled shared tiles, 4 stages (192 KiB).
    // tf32, i8 and f8 are read K-major only, so only their tn layout takes
    // it (f8 has no other NVIDIA lowering).
    // Block K is one 128-byte row, the instruction K 32 bytes.
    bool tn = !sig.transA && sig.transB;
    ElemKind operand = instrOperandKind(kind, InstrKind::wgmma);
    if ((kind != ElemKind::f32 || allowTf32) &&
        wgmmaLowersTypes(operand, sig.acc) &&
        (tn || wgmmaReadsMNMajor(operand))) {
      // The tiles are loaded by TMA (one thread, mbarriers): 0.96-1.03x
      // cuBLAS on f16/bf16 4096^3 and 8192^3 tn, against 0.87-0.89x with
      // cp.async (docs/performance.md, "TMA loads").
      int64_t bytes = elemBytes(operand);
      // f8 promotes its partial sums into f32 registers (accuracy against
      // cuBLASLt's default), which takes two sets of accumulators: a
      // warpgroup's m64n128 fits them, m64n256 would not. Each promotion
      // waits for the warpgroup's MMAs: with a producer warpgroup (no block
      // barrier) the compute warpgroups drift apart and one promotes while
      // the others' MMAs run. Three of them (192 rows, 152 registers each
      // after setmaxnreg) keep the tensor cores busier than two: 0.78-0.81x
      // / 0.81-0.85x cuBLASLt at 4096^3 / 8192^3, against 0.78 / 0.68-0.76
      // for two and 0.58-0.65 without a producer; 4 stages (160 KiB) ran
      // faster than 5 (docs/performance.md).
      if (isFloat8(operand)) {
        TileConfig c =
            make(InstrKind::wgmma, {192, 128, 128}, {3, 1}, {64, 128, 32}, 4);
        c.tmaLoad = true;
        c.producerWarp = true;
        return c;
      }
      TileConfig c =
          make(InstrKind::wgmma, {128, 256, kWgmmaSwizzleBytes / bytes},
               {2, 1}, {64, 256, 32 / bytes}, 4);
      c.tmaLoad = true;
      return c;
    }
  }
  if (target.isNVIDIA()) {
    switch (kind) {
    case ElemKind::f16:
    case ElemKind::bf16:
      // BK = 64: 128-byte shared rows, whose swizzle lets the ldmatrix
      // addresses be hoisted (SmemTile::offsetSplit), and half the barriers.
      // f16 accumulation keeps BK = 32: ptxas spills it at BK = 64.
      if (sig.acc == ElemKind::f16)
        return make(InstrKind::mma_sync, {128, 128, 32}, {2, 2}, {16, 8, 16},
                    4);
      return make(InstrKind::mma_sync, {128, 128, 64}, {2, 2}, {16, 8, 16}, 3);
    // Warp tiles of 64x32 for i8 and tf32 and 32x16 for f64 keep ptxas free
    // of spills (fragments without ldmatrix forms cost registers).
    case ElemKind::i8:
      // Without tn, i8 fragments are gathered element by element (ldmatrix
      // cannot transpose bytes): a 32x32 warp tile keeps them in registers.
      if (sig.transA || !sig.transB)
        return make(InstrKind::mma_sync, {64, 128, 64}, {2, 4}, {16, 8, 32}, 3);
      return make(InstrKind::mma_sync, {128, 128, 64}, {2, 4}, {16, 8, 32}, 3);
    case ElemKind::f64:
      return make(InstrKind::mma_sync, {64, 64, 16}, {2, 4}, {8, 8, 4}, 3);
    case ElemKind::f32:
      if (allowTf32)
        return make(InstrKind::mma_sync, {128, 128, 32}, {2, 4}, {16, 8, 8}, 3);
      return make(InstrKind::simt, {64, 64, 16}, {2, 2}, {4, 8, 1}, 3);
    default:
      break;
    }
  }
  if (target.isAMD())
    if (std::optional<TileConfig> mfma = getDefaultMfmaConfig(sig, target))
      return *mfma;
  // Everything else: exact SIMT with the accumulator in registers.
  return make(InstrKind::simt, {64, 64, 16}, {2, 2}, {4, 8, 1}, 2);
}

OperandTransposes mlir::gemm::getOperandTransposes(const GemmSignature &sig,
                                                   const TargetInfo &target,
                                                   bool allowTf32,
                                                   InstrKind kind) {
  OperandTransposes t;
  if (kind != InstrKind::wgmma || !target.isNVIDIA() ||
      !target.supportsKind(InstrKind::wgmma))
    return t;
  if (sig.a == ElemKind::f32 && !allowTf32)
    return t;
  ElemKind operand = instrOperandKind(sig.a, InstrKind::wgmma);
  if (!wgmmaLowersTypes(operand, sig.acc) || wgmmaReadsMNMajor(operand))
    return t;
  t.a = sig.transA;
  t.b = !sig.transB;
  return t;
}

GemmSignature
mlir::gemm::getKernelSignature(const GemmSignature &sig,
                               const OperandTransposes &transposes) {
  GemmSignature k = sig;
  if (transposes.any()) {
    k.transA = false;
    k.transB = true;
  }
  return k;
}

int64_t mlir::gemm::getTransposeMinOtherSize(ElemKind operand) {
  return elemBytes(operand) == 1 ? 256 : 128;
}

/// The bound on the other side of the transposed operand (M for B, N for
/// A alone): below getTransposeMinOtherSize if `below`, else at least it.
static SizeBounds otherSideBounds(const GemmSignature &sig,
                                  const OperandTransposes &transposes,
                                  bool below) {
  SizeBounds b;
  int64_t min = getTransposeMinOtherSize(sig.a);
  std::optional<int64_t> &lo = transposes.b ? b.mMin : b.nMin;
  std::optional<int64_t> &hi = transposes.b ? b.mMax : b.nMax;
  if (transposes.any())
    (below ? hi : lo) = below ? min - 1 : min;
  return b;
}

SizeBounds
mlir::gemm::getUntransposedBounds(const GemmSignature &sig,
                                  const OperandTransposes &transposes) {
  return otherSideBounds(sig, transposes, /*below=*/true);
}

SizeBounds
mlir::gemm::getTransposedBounds(const GemmSignature &sig,
                                const OperandTransposes &transposes) {
  return otherSideBounds(sig, transposes, /*below=*/false);
}
