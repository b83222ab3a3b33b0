//===- DefaultConfig.h - The config of a GEMM nobody tuned ------*- C++ -*-===//
//
// The configuration a gemm.matmul gets when it carries none and no cost
// model or tuning database is asked: a good, always-legal point per element
// type, layout and chip. This is policy, so it lives here with the lattice
// and the cost model, outside the dialect; the lowerings call it through
// gemm/Dialect/Gemm/Transforms/ConfigPolicy.h.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_TUNING_DEFAULTCONFIG_H
#define GEMM_TUNING_DEFAULTCONFIG_H

#include "gemm/Target/TargetInfo.h"
#include "gemm/Target/TileConfig.h"
#include "gemm/Tuning/Dispatch.h"

namespace mlir::gemm {

/// The default config of a GEMM of signature `sig` on `target`. f32 operands
/// get exact SIMT unless `allowTf32`, in which case they run on tf32 tensor
/// cores.
TileConfig getDefaultConfig(const GemmSignature &sig, const TargetInfo &target,
                            bool allowTf32);

/// The operands of a GEMM that are copied transposed into K-major workspaces
/// before its kernels run (the lowering's transposing pack): on a target
/// whose warpgroup MMA reads the operand type K-major only (wgmma: tf32, i8,
/// f8), every operand stored MN-major (A as K x M, B as K x N), when
/// `kind` (the kernel's instruction) is that MMA. The kernels then see
/// getKernelSignature's layout, tn. None elsewhere.
struct OperandTransposes {
  bool a = false, b = false;
  bool any() const { return a || b; }
};
OperandTransposes getOperandTransposes(const GemmSignature &sig,
                                       const TargetInfo &target, bool allowTf32,
                                       InstrKind kind);

/// The transposing copy of an operand costs about as much as a GEMM kernel
/// that reads it in place once the other side of the product (M for a
/// transposed B, N for a transposed A) is this large: below it the family
/// of the stored layout runs (mma.sync; f8 has none and always transposes).
/// Measured on the H200 at 4096 x 4096 (docs/performance.md, "Every layout
/// on wgmma"): tf32 nn at M = 128 took 76 us transposed against 106 us in
/// place, and M = 1 3x longer transposed; i8 nn (whose mma.sync is
/// relatively faster) took 41% longer transposed at M = 128, the same at
/// 256.
int64_t getTransposeMinOtherSize(ElemKind operand);

/// The sizes for which a GEMM of signature `sig` with `transposes` runs on
/// its stored layout instead: the other side of a transposed B (M) or, when
/// only A is transposed, of A (N) below getTransposeMinOtherSize.
SizeBounds getUntransposedBounds(const GemmSignature &sig,
                                 const OperandTransposes &transposes);
/// The rest: the sizes at which the operands are copied transposed.
SizeBounds getTransposedBounds(const GemmSignature &sig,
                               const OperandTransposes &transposes);

/// `sig` as the kernels see it after `transposes`: layout tn if any operand
/// is transposed (the other one is K-major already).
GemmSignature getKernelSignature(const GemmSignature &sig,
                                 const OperandTransposes &transposes);

} // namespace mlir::gemm

#endif // GEMM_TUNING_DEFAULTCONFIG_H
