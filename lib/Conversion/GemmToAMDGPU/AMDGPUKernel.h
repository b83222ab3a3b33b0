//===- AMDGPUKernel.h - the parts of an AMD GEMM kernel ---------*- C++ -*-===//
//
// Private to lib/Conversion/GemmToAMDGPU: the register-staged LDS main loop
// (MainLoop.cpp), the MFMA compute step (Mfma.cpp) and the LDS layout policy
// they share, on the machinery of lib/Conversion/KernelCommon.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_LIB_CONVERSION_GEMMTOAMDGPU_AMDGPUKERNEL_H
#define GEMM_LIB_CONVERSION_GEMMTOAMDGPU_AMDGPUKERNEL_H

#include "../KernelCommon/Epilogue.h"
#include "../KernelCommon/IndexMath.h"
#include "../KernelCommon/KernelContext.h"
#include "../KernelCommon/KernelSetup.h"

namespace mlir::gemm::detail {

std::unique_ptr<ComputeStep> createMfmaStep(KernelContext &ctx);

/// Builds the AMD main loop (register-staged LDS pipeline) with the MFMA
/// step and the epilogue; returns the LDS in bytes.
FailureOr<int64_t> buildAMDMainLoop(OpBuilder &b, KernelContext &ctx);

/// The LDS layouts of A's and B's staged tiles under the mfma config of
/// `ctx`: the bank model's padding when the config asks for `pad`, else the
/// config's layout.
std::pair<LdsLayout, LdsLayout> getLdsLayouts(const KernelContext &ctx);

} // namespace mlir::gemm::detail

#endif // GEMM_LIB_CONVERSION_GEMMTOAMDGPU_AMDGPUKERNEL_H
