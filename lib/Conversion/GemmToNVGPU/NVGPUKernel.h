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

/// The body of a `kind = gemv` kernel (Gemv.cpp): no shared memory.
FailureOr<int64_t> buildGemvKernel(OpBuilder &b, KernelContext &ctx);

} // namespace mlir::gemm::detail

#endif // GEMM_LIB_CONVERSION_GEMMTONVGPU_NVGPUKERNEL_H
