//===- GemmToNVGPU.h - gemm.matmul to NVIDIA kernels ------------*- C++ -*-===//
//
// The entry point for compilers embedding the NVIDIA lowering in a pass of
// their own: the pattern rewriting gemm.matmul into a kernel and its launch.
// The pattern checks every precondition itself (the config against
// gemm/Target/Legality.h, the kernel module's target) and reports what it
// cannot lower at the op, so it is safe in any dialect conversion.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_CONVERSION_GEMMTONVGPU_GEMMTONVGPU_H
#define GEMM_CONVERSION_GEMMTONVGPU_GEMMTONVGPU_H

#include "gemm/Conversion/Passes.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::gemm {

/// Adds the pattern rewriting gemm.matmul into an NVIDIA kernel (in the
/// gpu.module `options.kernelModule`, created with an #nvvm.target for
/// `options.chip`) and its launch. The options are convert-gemm-to-nvgpu's.
void populateGemmToNVGPUPatterns(RewritePatternSet &patterns,
                                 const ConvertGemmToNVGPUOptions &options);

} // namespace mlir::gemm

#endif // GEMM_CONVERSION_GEMMTONVGPU_GEMMTONVGPU_H
