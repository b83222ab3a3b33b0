//===- NVGPUKernel.h - the parts of an NVIDIA GEMM kernel -------*- C++ -*-===//
//
// Private to lib/Conversion/GemmToNVGPU: the cp.async main loop
// (MainLoop.cpp) and the compute steps of each instruction family (mma.sync,
// wgmma, SIMT), on the shared machinery of lib/Conversion/KernelCommon.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_LIB_CONVERSION_GEMMTONVGPU_NVGPUKERNEL_H
#define GEMM_LIB_CONVERSION_GEMMTONVGPU_NVGPUKERNEL_H

#include "../KernelCommon/Epilogue.h"
#include "../KernelCommon/IndexMath.h"
#include "../KernelCommon/KernelContext.h"
#include "../KernelCommon/KernelSetup.h"

namespace mlir::gemm::detail {

std::unique_ptr<ComputeStep> createMmaSyncStep(KernelContext &ctx);
std::unique_ptr<ComputeStep> createWgmmaStep(KernelContext &ctx);
std::unique_ptr<ComputeStep> createSimtStep(KernelContext &ctx);

/// Builds the NVIDIA main loop (multi-stage cp.async pipeline) with the
/// compute step of the config's kind, and the epilogue; returns the dynamic
/// shared memory in bytes.
FailureOr<int64_t> buildMainLoop(OpBuilder &b, KernelContext &ctx);

/// One mma.sync of `shape` on `kind` operands: d = a x bf + c, with the
/// fragments typed as nvgpu.mma.sync types them (MmaSync.cpp).
Value emitMmaSync(OpBuilder &b, Location loc, ElemKind kind,
                  ArrayRef<int64_t> shape, Value a, Value bf, Value c);

/// An operand addressed through a 1-D view of its buffer: storage element
/// (row, col) of the block's matrix is at `base + row * rowStride + col *
/// (inner stride)` (index values; the batch is in base).
struct LinearSource {
  Value linear, base, rowStride;
};

/// `memref` (A or B of ctx's GEMM) as a LinearSource, from `meta` (its
/// strided metadata; created when null).
LinearSource makeLinearSource(OpBuilder &b, Location loc,
                              const KernelContext &ctx, Value memref,
                              memref::ExtractStridedMetadataOp meta = {});

/// An operand of a gemv kernel read through a 1-D view of its buffer:
/// element (mn, k) is at `base + mn * mnStride + k * kStride` (index values;
/// the batch is in base).
struct StreamedOperand {
  Value linear, base, mnStride, kStride;
  /// i1: 16-byte loads along K are legal: K's stride is 1 and the base,
  /// offset and the pitch of the rows read are 16-byte aligned.
  Value vectorOk;
  /// i1: K's stride is 1.
  Value unitK;
  /// i1: K's stride is 1 and the buffer's aligned pointer is 16-byte
  /// aligned: the 16-byte blocks holding a row can be loaded whatever the
  /// row's own alignment (the shifted paths).
  Value blocksOk;
};

/// `memref` (A or B of ctx's GEMM) as a StreamedOperand, K-contiguous
/// ([mn][k]) or not ([k][mn]); `laneElems` elements make 16 bytes.
StreamedOperand streamOperand(OpBuilder &b, Location loc,
                              const KernelContext &ctx, Value memref,
                              bool kContiguous, int64_t laneElems);

/// The end of a gemv kernel whose warps split K (gemv-mma, gemv-columns):
/// `stage(b, staging)` stores each warp's sums into `staging`, `warps` x
/// `rowsA` x `cols` f32 of dynamic shared memory ([warp][row of A][column of
/// the block]); after a barrier one thread per element of the BM x BN tile
/// adds the warps' sums in warp order (deterministic) and applies the
/// epilogue. Returns the shared memory in bytes.
int64_t emitWarpSumsEpilogue(OpBuilder &b, Location loc, KernelContext &ctx,
                             int64_t warps, int64_t rowsA, int64_t cols,
                             function_ref<void(OpBuilder &, Value)> stage);

/// The body of a `kind = gemv` kernel (Gemv.cpp): no shared memory.
FailureOr<int64_t> buildGemvKernel(OpBuilder &b, KernelContext &ctx);

/// The body of a gemv kernel on an N-contiguous B (instr [1, V, 1],
/// GemvColumns.cpp): returns the shared memory its warps add their sums
/// through.
FailureOr<int64_t> buildGemvColumnsKernel(OpBuilder &b, KernelContext &ctx);

/// The body of a gemv kernel on mma.sync (instr [8, 16, 16], GemvMma.cpp):
/// returns the shared memory its warps add their sums through.
FailureOr<int64_t> buildGemvMmaKernel(OpBuilder &b, KernelContext &ctx);

} // namespace mlir::gemm::detail

#endif // GEMM_LIB_CONVERSION_GEMMTONVGPU_NVGPUKERNEL_H
