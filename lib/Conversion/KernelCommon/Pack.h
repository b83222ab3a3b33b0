//===- Pack.h - aligned workspaces for A and B ------------------*- C++ -*-===//
//
// Private to lib/Conversion. The host side of packing: operands whose
// strides rule out 16-byte copies are copied into aligned workspaces by pack
// kernels before the GEMM (Pack.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_LIB_CONVERSION_KERNELCOMMON_PACK_H
#define GEMM_LIB_CONVERSION_KERNELCOMMON_PACK_H

#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "gemm/Tuning/DefaultConfig.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include <algorithm>

namespace mlir::gemm::detail {

/// Whether the host packs an operand into a 16-byte aligned workspace before
/// the GEMM (Pack.cpp): never (aligned, or not packable), always (its type
/// proves it misaligned), or when a run-time check says so.
enum class PackMode { never, always, runtime };

/// The packing of one operand (A or B).
struct PackedOperandPlan {
  PackMode mode = PackMode::never;
  /// Copied transposed (mode always): the workspace holds the operand's last
  /// two dimensions swapped, K (its contiguous dimension then) rounded up,
  /// and the kernel reads it at its logical sizes through a strided view.
  bool transpose = false;
  /// The workspace (identity layout, the contiguous dimension rounded up to
  /// OperandPacking::roundTo); null when never.
  MemRefType workspace;
  /// The GEMM kernel's parameter type for the operand.
  Type kernelType;
};

/// When a run-time packing is skipped because the GEMM is too small to pay
/// for the pack launches (Pack.cpp, docs/dispatch.md "The packing
/// threshold"): batch * M * N * K < minWork, K <= maxK and, where set,
/// batch * M * N <= maxOutputs and M * N * K < minGemmWork (one GEMM of
/// the batch).
struct DirectLimits {
  int64_t minWork = 0, maxK = 0;
  std::optional<int64_t> maxOutputs, minGemmWork;
};

/// The limits for a family whose kernels read misaligned rows with shifted
/// copies (`shifted`: wgmma tiles, MainLoop.cpp) or element by element.
DirectLimits getDirectLimits(bool shifted);

struct OperandPacking {
  /// When the run-time packing is skipped (set by the caller; the
  /// element-copy limits by default).
  DirectLimits direct = getDirectLimits(false);
  /// Whether each operand is packed on its own (by its own mode and run-time
  /// check), or both whenever one is: when K is the contiguous dimension of
  /// both (tn), both workspaces pad K and the kernel reads it from A.
  bool independent = true;
  int64_t multiple = 0; ///< elements per 16 bytes
  /// Elements per 32 bytes where rows that allow 16-byte copies but do not
  /// start on 32-byte boundaries are packed as well (0: they are not), when
  /// the GEMM is compute-bound: M * N >= sectorMinIntensity * (M + N) (one
  /// GEMM of a batch, belowIntensity). TMA reads such rows over one sector more
  /// per box row (H100, f16 tn 4096x4096x3000: 231 us as stored, 147 us in rows
  /// padded to 64 elements; docs/dispatch.md, "Rows of an odd number of 16
  /// bytes").
  int64_t sectorMultiple = 0;
  int64_t sectorMinIntensity = 0;
  /// Elements the workspaces' K and contiguous dimensions are rounded up to:
  /// 128 bytes, so that every workspace row starts on a cache line (rows
  /// 16 bytes apart split every tile row over one line more: f16 nn
  /// 4099x4097x4095, B's 4104-element rows, ran its GEMM 16% slower).
  int64_t roundTo = 0;
  /// A (0) and B (1).
  PackedOperandPlan operands[2];
  /// Whether any operand may be packed.
  bool any() const {
    return operands[0].mode != PackMode::never ||
           operands[1].mode != PackMode::never;
  }
};

/// Whether kernels of `config` read A and B where they are stored, however
/// aligned, so that no packing runs before them: `kind = gemv` streams each
/// row of B through registers once and reads rows that rule out 16-byte
/// loads element by element, where a packing would add a read and a write of
/// B to the kernel's one read (f16 tn 1x4097x4093 on the H200: 34.7 us
/// packed, 18.0 us in place).
bool readsOperandsInPlace(ConfigAttr config);

/// Whether the GEMM kernel takes K from B rather than A: where K is
/// contiguous in A and not in B (nn), or B is a transposed workspace (a
/// kernel view with kKFromBAttrName). A workspace pads K only where it is
/// the contiguous dimension and the operand is not transposed, so the
/// kernel's K is never padded unless both operands are (Pack.cpp).
bool kFromB(MatmulOp op);

/// The unit attribute of a kernel view (createKernelView) whose B is
/// transposed: its kernels take K from B.
inline constexpr llvm::StringLiteral kKFromBAttrName = "gemm.k_from_b";

/// The M * N / (M + N) from which a GEMM whose kernels read through TMA
/// packs rows that are not whole 32-byte multiples (OperandPacking::
/// sectorMinIntensity): the flops per byte of A and B (16-bit) twice past
/// where an H100 or H200 stops being bound by memory (~990 TFLOP/s f16
/// over 3.3-4.8 TB/s), where the pack's extra pass over A and B cost less
/// than the sectors it saved on every shape measured (H100, f16 tn
/// 1024x1024x3000 32.1 -> 28.0 us); at 256 it cost more (512x512x3000 14.2
/// -> 17.1 us; docs/dispatch.md).
inline constexpr int64_t kSectorMinIntensity = 512;

/// M and N are clamped to this before the intensity test, by the host code
/// and the runtime alike, so that M * N and intensity * (M + N) fit in 63
/// bits for an intensity up to 2^29 (the manifest's bound).
inline constexpr int64_t kIntensityDimCap = int64_t(1) << 30;

/// Whether an M x N GEMM is memory-bound by `intensity`: min(M, cap) *
/// min(N, cap) < intensity * (min(M, cap) + min(N, cap)), cap =
/// kIntensityDimCap.
inline bool belowIntensity(int64_t m, int64_t n, int64_t intensity) {
  int64_t rows = std::min(m, kIntensityDimCap);
  int64_t cols = std::min(n, kIntensityDimCap);
  return rows * cols < intensity * (rows + cols);
}

/// The packing of `op`'s operands: `transposes` copied transposed (always),
/// the others into aligned workspaces where they need it (never unless
/// `enabled`); with `sectors` (kernels that read through TMA) also rows of
/// an odd number of 16 bytes where the GEMM is compute-bound
/// (OperandPacking::sectorMultiple).
OperandPacking planOperandPacking(MatmulOp op, bool enabled,
                                  const OperandTransposes &transposes,
                                  bool sectors = false);

/// What emitOperandPacking produced: the A and B to launch the GEMM kernel
/// with (for an operand that may be packed, also the workspace to free after
/// the GEMM), per operand packed at run time an i1 that is true when it
/// packed (null otherwise), and the manifest record of the packing (null
/// when never).
struct PackedOperands {
  Value a, b;
  Value packed[2];
  /// The workspace of an operand packed always (its allocation), else null.
  Value allocated[2];
  /// A (0) or B (1).
  Value operand(unsigned i) const { return i == 0 ? a : b; }
  DictionaryAttr manifest;
  /// The pack kernels of the operands that may be packed.
  SmallVector<gpu::GPUFuncOp, 2> kernels;
};

/// Emits the host side of `packing` before `op`: the pack kernels in
/// `gpuModule` (one per operand signature, shared by the module's GEMMs), the
/// workspaces, the launches and, at run time, the check.
PackedOperands emitOperandPacking(OpBuilder &b, MatmulOp op,
                                  const OperandPacking &packing,
                                  gpu::GPUModuleOp gpuModule);

/// The gemm.matmul the kernels of `op` are built from when `packing`
/// transposes an operand: a copy of `op` (epilogue included) in layout tn
/// on `packed`'s A and B, inserted at `b`'s point without notifying its
/// listener (the caller erases it again: the rewriter never sees it); `op`
/// itself otherwise.
MatmulOp createKernelView(OpBuilder &b, MatmulOp op,
                          const OperandPacking &packing,
                          const PackedOperands &packed);

/// `v` itself if it has type `type`, else a memref.cast of it to `type`.
Value castIfNeeded(OpBuilder &b, Location loc, Value v, Type type);

/// Frees the workspaces of `packed` (after the GEMM launch).
void emitPackCleanup(OpBuilder &b, Location loc, const OperandPacking &packing,
                     const PackedOperands &packed);

} // namespace mlir::gemm::detail

#endif // GEMM_LIB_CONVERSION_KERNELCOMMON_PACK_H
