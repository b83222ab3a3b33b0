//===- GemmToNVGPU.h - gemm.matmul to NVIDIA kernels ------------*- C++ -*-===//
//
// Entry points for compilers embedding the NVIDIA lowering: the rewrite
// patterns, and the kernel builder they use.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_CONVERSION_GEMMTONVGPU_GEMMTONVGPU_H
#define GEMM_CONVERSION_GEMMTONVGPU_GEMMTONVGPU_H

#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "gemm/Target/TargetInfo.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/PatternMatch.h"
#include <string>

namespace mlir::gemm {

/// Options of convert-gemm-to-nvgpu.
struct NVGPULoweringOptions {
  std::string chip = "sm_90";
  unsigned ptxVersion = 0; ///< 0: the chip's default
  bool allowTf32 = false;
  std::string kernelModule = "gemm_kernels";
  /// Pack operands 16-byte copies cannot read (KernelBuilder.h).
  bool packUnaligned = true;
};

/// Checks that convert-gemm-to-nvgpu can lower `op` with `config` on `target`;
/// emits a diagnostic on `op` and fails otherwise.
LogicalResult checkLowerableToNVGPU(MatmulOp op, ConfigAttr config,
                                    const TargetInfo &target);

/// The wgmma-specific part of checkLowerableToNVGPU: operand and accumulator
/// types, a 64 x instruction-N tile per warpgroup, the 128-byte swizzled
/// shared tiles its descriptors describe (rows of 128 bytes for K-major
/// operands, panels of 128 bytes for MN-major ones, f16/bf16 only).
LogicalResult checkWgmmaConfig(MatmulOp op, ConfigAttr config);

/// Fills the body of `kernel`, a gpu.func whose arguments are the operands of
/// `op` (A, B, C, extras...), with the implementation `config` describes.
/// Returns the dynamic shared memory the kernel needs, in bytes.
FailureOr<int64_t> buildGemmKernel(OpBuilder &builder, gpu::GPUFuncOp kernel,
                                   MatmulOp op, ConfigAttr config,
                                   const TargetInfo &target);

/// Adds the pattern rewriting gemm.matmul into a kernel and its launch.
void populateGemmToNVGPUPatterns(RewritePatternSet &patterns,
                                 const NVGPULoweringOptions &options);

} // namespace mlir::gemm

#endif // GEMM_CONVERSION_GEMMTONVGPU_GEMMTONVGPU_H
