//===- GemmToAMDGPU.h - gemm.matmul to AMD kernels --------------*- C++ -*-===//
//
// The entry point for compilers embedding the AMD lowering in a pass of their
// own: the pattern rewriting gemm.matmul into a kernel and its launch. The
// pattern checks every precondition itself (the config against
// gemm/Target/Legality.h, the epilogue's math, the kernel module's target)
// and reports what it cannot lower at the op, so it is safe in any dialect
// conversion.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_CONVERSION_GEMMTOAMDGPU_GEMMTOAMDGPU_H
#define GEMM_CONVERSION_GEMMTOAMDGPU_GEMMTOAMDGPU_H

#include "gemm/Conversion/Passes.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::gemm {

/// Adds the pattern rewriting gemm.matmul into an AMD kernel (in the
/// gpu.module `options.kernelModule`, created with a #rocdl.target for
/// `options.chip`) and its launch. The options are convert-gemm-to-amdgpu's.
/// The kernels' transcendental f32 epilogue math still needs the expansion
/// convert-gemm-to-amdgpu applies after the rewrite
/// (populateGemmAMDGPUMathExpansionPatterns).
void populateGemmToAMDGPUPatterns(RewritePatternSet &patterns,
                                  const ConvertGemmToAMDGPUOptions &options);

/// Adds the patterns expanding transcendental f32 math into polynomials and
/// native exp/log, so that kernels need no ROCm device library; apply them
/// to the kernel module after populateGemmToAMDGPUPatterns.
void populateGemmAMDGPUMathExpansionPatterns(RewritePatternSet &patterns);

} // namespace mlir::gemm

#endif // GEMM_CONVERSION_GEMMTOAMDGPU_GEMMTOAMDGPU_H
