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
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::gemm::detail {

/// Whether the host packs A and B into 16-byte aligned workspaces before the
/// GEMM (Pack.cpp): never (aligned, or not packable), always (the types prove
/// an operand misaligned), or when a run-time check says so.
enum class PackMode { never, always, runtime };

struct OperandPacking {
  PackMode mode = PackMode::never;
  int64_t multiple = 0; ///< elements per 16 bytes
  /// Elements the workspaces' K and contiguous dimensions are rounded up to:
  /// 128 bytes, so that every workspace row starts on a cache line (rows
  /// 16 bytes apart split every tile row over one line more: f16 nn
  /// 4099x4097x4095, B's 4104-element rows, ran its GEMM 16% slower).
  int64_t roundTo = 0;
  /// Types of the workspaces (identity layout, the contiguous dimension and K
  /// rounded up to `roundTo`).
  MemRefType workspaceA, workspaceB;
  /// The GEMM kernel's parameter types for A and B.
  Type kernelA, kernelB;
};

/// The packing of `op`'s operands (mode never unless `enabled`).
OperandPacking planOperandPacking(MatmulOp op, bool enabled);

/// What emitOperandPacking produced: the A and B to launch the GEMM kernel
/// with, an i1 that is true when the run-time check packed (null otherwise),
/// and the manifest record of the packing (null when never).
struct PackedOperands {
  Value a, b;
  Value packed;
  DictionaryAttr manifest;
  /// The pack kernels of A and B (none when never).
  SmallVector<gpu::GPUFuncOp, 2> kernels;
};

/// Emits the host side of `packing` before `op`: the pack kernels in
/// `gpuModule` (one per operand signature, shared by the module's GEMMs), the
/// workspaces, the launches and, at run time, the check.
PackedOperands emitOperandPacking(OpBuilder &b, MatmulOp op,
                                  const OperandPacking &packing,
                                  gpu::GPUModuleOp gpuModule);

/// `v` itself if it has type `type`, else a memref.cast of it to `type`.
Value castIfNeeded(OpBuilder &b, Location loc, Value v, Type type);

/// Frees the workspaces of `packed` (after the GEMM launch).
void emitPackCleanup(OpBuilder &b, Location loc, const OperandPacking &packing,
                     const PackedOperands &packed);

} // namespace mlir::gemm::detail

#endif // GEMM_LIB_CONVERSION_KERNELCOMMON_PACK_H
