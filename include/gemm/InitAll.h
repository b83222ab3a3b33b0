//===- InitAll.h - register gemm-mlir dialects and passes -------*- C++ -*-===//
//
// Entry points for tools and embedding compilers (docs/embedding.md). A
// compiler that runs gemm-mlir's pipelines needs three calls:
//
//   mlir::DialectRegistry registry;
//   mlir::gemm::registerGemmDialect(registry);  // before the MLIRContext
//   mlir::gemm::registerGemmPasses();           // --convert-gemm-to-nvgpu ...
//   mlir::gemm::registerGemmPipelines();        // --gemm-to-ptx ...
//
// The passes and pipelines can also be built without registration (their
// create functions in gemm/Conversion/Passes.h and
// gemm/Dialect/Gemm/Transforms/Passes.h, and build functions with their
// options structs in gemm/Pipelines/Pipelines.h); registration is what
// makes them parse from text (mlir::parsePassPipeline, MlirOptMain).
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_INITALL_H
#define GEMM_INITALL_H

#include "gemm/Pipelines/Pipelines.h"

namespace mlir {
class DialectRegistry;
namespace gemm {

/// Registers in `registry` what parsing a gemm module and running every
/// gemm-mlir pass and pipeline on it needs: the gemm dialect; the upstream
/// dialects of its input (func, arith, math, memref; linalg, tensor and
/// bufferization for gemm-from-linalg, with the bufferization models of
/// their ops), of the kernels and host code the lowerings build (gpu, nvgpu,
/// nvvm, amdgpu, rocdl, scf, vector, affine, index, cf, ub, llvm); the
/// external models the pipelines look up on them (the
/// ConvertToLLVMPatternInterface of each, which gpu-to-llvm and
/// the GPU-to-NVVM/ROCDL conversions collect from the loaded dialects; the
/// #nvvm.target and #rocdl.target models that gpu-module-to-binary
/// serializes with); and their translations to LLVM IR, GPU offloading
/// included. A dialect's lowering would otherwise abort on a promised
/// interface that was never registered.
void registerGemmDialect(DialectRegistry &registry);

/// Registers every gemm-mlir pass (gemm-select-config, gemm-check-kernel-
/// modules, convert-gemm-to-nvgpu, convert-gemm-to-amdgpu,
/// gemm-verify-binaries, gemm-write-artifacts, ...) with the global pass
/// registry. The pipelines are registered by registerGemmPipelines
/// (gemm/Pipelines/Pipelines.h).
void registerGemmPasses();

/// registerGemmDialect, for tools that called it by this name.
void registerAllGemmDialects(DialectRegistry &registry);

/// registerGemmPasses and registerGemmPipelines, for tools that called them
/// by this name.
void registerAllGemmPasses();

} // namespace gemm
} // namespace mlir

#endif // GEMM_INITALL_H
