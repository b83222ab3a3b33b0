//===- GemmToNVGPU.cpp - gemm.matmul to NVIDIA kernels and launches -------===//
//
// The convert-gemm-to-nvgpu pass and its pattern: one kernel per
// gemm.matmul, placed in a gpu.module with an #nvvm.target for the chip, and
// a gpu.launch_func in place of the op. This file says what is NVIDIA about
// the lowering (the kernel target, the main loop); the pattern, the checks
// and the launch are the shared ones of lib/Conversion/KernelCommon/Launch.h.
//
//===----------------------------------------------------------------------===//

#include "gemm/Conversion/GemmToNVGPU/GemmToNVGPU.h"
#include "gemm/Support/PassOptions.h"
#include "../KernelCommon/Launch.h"
#include "NVGPUKernel.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::gemm {
#define GEN_PASS_DEF_CONVERTGEMMTONVGPU
#include "gemm/Conversion/Passes.h.inc"
} // namespace mlir::gemm

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::detail;

static FailureOr<int64_t> buildNVGPUKernel(OpBuilder &b, gpu::GPUFuncOp kernel,
                                           MatmulOp op, ConfigAttr config,
                                           const TargetInfo &target) {
  return buildKernelBody(b, kernel, op, config, target, buildMainLoop);
}

/// The epilogue ops the NVIDIA kernels cannot run.
static std::string nvgpuEpilogueOpRule(Operation *op) {
  if (isa<arith::RemFOp>(op))
    return "LLVM's NVPTX backend has no floating-point remainder (frem)";
  return "";
}

static bool isNVVMTargetFor(Attribute t, StringRef chip) {
  auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(t);
  return nvvm && nvvm.getChip() == chip;
}

/// The NVIDIA lowering `options` describe.
static VendorLowering
getNVGPULowering(MLIRContext *ctx, const ConvertGemmToNVGPUOptions &options) {
  VendorLowering lowering;
  lowering.pass = "convert-gemm-to-nvgpu";
  lowering.chip = options.chip;
  lowering.kernelModule = options.kernelModule;
  lowering.isKernelTarget = isNVVMTargetFor;
  lowering.kernelTargetName = "an #nvvm.target";
  lowering.packUnaligned = options.packUnaligned;
  lowering.transposeOperands = options.transposeOperands;
  lowering.dispatch = options.dispatch;
  lowering.allowTf32 = options.allowTf32;
  lowering.buildKernel = buildNVGPUKernel;
  lowering.epilogueOpRule = nvgpuEpilogueOpRule;
  lowering.optionError = checkNVIDIATarget(options.chip, options.ptxVersion);
  if (lowering.optionError.empty())
    lowering.optionError = checkKernelModuleName(options.kernelModule);
  if (!lowering.optionError.empty())
    return lowering;
  lowering.target = lookupTarget(options.chip);
  std::optional<unsigned> requested;
  if (options.ptxVersion)
    requested = options.ptxVersion;
  unsigned ptx = *choosePtxVersion(*lowering.target, requested);
  lowering.kernelTargetAttr =
      NVVM::NVVMTargetAttr::get(ctx, /*optLevel=*/3, "nvptx64-nvidia-cuda",
                                options.chip, ("+ptx" + Twine(ptx)).str());
  return lowering;
}

void mlir::gemm::populateGemmToNVGPUPatterns(
    RewritePatternSet &patterns, const ConvertGemmToNVGPUOptions &options) {
  patterns.add<MatmulToLaunch>(
      patterns.getContext(), getNVGPULowering(patterns.getContext(), options));
}

namespace {
struct ConvertGemmToNVGPUPass
    : public gemm::impl::ConvertGemmToNVGPUBase<ConvertGemmToNVGPUPass> {
  using Base::Base;

  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    return initializeOptionsWithErrors(*this, options, errorHandler);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    ConvertGemmToNVGPUOptions options;
    options.chip = chip;
    options.ptxVersion = ptxVersion;
    options.allowTf32 = allowTf32;
    options.packUnaligned = packUnaligned;
    options.transposeOperands = transposeOperands;
    options.dispatch = dispatch;
    options.kernelModule = kernelModule;
    VendorLowering lowering = getNVGPULowering(&getContext(), options);
    if (!lowering.optionError.empty()) {
      module.emitError("convert-gemm-to-nvgpu: ") << lowering.optionError;
      return signalPassFailure();
    }
    FailureOr<unsigned> count = lowerAllMatmuls(module, lowering);
    if (failed(count))
      return signalPassFailure();
    numKernels += *count;
  }
};
} // namespace
