//===- GemmToAMDGPU.h - gemm.matmul to AMD kernels --------------*- C++ -*-===//
//
// Entry points for compilers embedding the AMD lowering: the rewrite
// patterns, the checks, the kernel builder and the LDS layout policy.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_CONVERSION_GEMMTOAMDGPU_GEMMTOAMDGPU_H
#define GEMM_CONVERSION_GEMMTOAMDGPU_GEMMTOAMDGPU_H

#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "gemm/Target/TargetInfo.h"
#include "gemm/Dialect/Gemm/IR/GemmConfigDefaults.h"
#include "gemm/Utils/MfmaLayout.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/PatternMatch.h"
#include <string>

namespace mlir::gemm {

/// Options of convert-gemm-to-amdgpu.
struct AMDGPULoweringOptions {
  std::string chip = "gfx942";
  std::string kernelModule = "gemm_kernels";
  /// Pack operands 16-byte copies cannot read (KernelBuilder.h).
  bool packUnaligned = true;
};

/// Checks `chip` names an AMD target; returns an error message or "".
std::string checkAMDTarget(StringRef chip);

/// Checks that convert-gemm-to-amdgpu can lower `op` with `config` on
/// `target`; emits a diagnostic on `op` and fails otherwise.
LogicalResult checkLowerableToAMDGPU(MatmulOp op, ConfigAttr config,
                                     const TargetInfo &target);

/// The LDS layouts of A's and B's staged tiles under `config`: the model's
/// padding when the config asks for `pad`, else the config's layout.
std::pair<LdsLayout, LdsLayout> getLdsLayouts(MatmulOp op, ConfigAttr config,
                                              const TargetInfo &target);


/// Fills the body of `kernel` (arguments: A, B, C, extras...) with the MFMA
/// implementation `config` describes; returns the LDS it needs, in bytes.
FailureOr<int64_t> buildAMDGemmKernel(OpBuilder &builder,
                                      gpu::GPUFuncOp kernel, MatmulOp op,
                                      ConfigAttr config,
                                      const TargetInfo &target);

/// Adds the pattern rewriting gemm.matmul into an AMD kernel and its launch.
void populateGemmToAMDGPUPatterns(RewritePatternSet &patterns,
                                  const AMDGPULoweringOptions &options);

} // namespace mlir::gemm

#endif // GEMM_CONVERSION_GEMMTOAMDGPU_GEMMTOAMDGPU_H
