//===- GemmToAMDGPU.cpp - gemm.matmul to AMD kernels and launches ---------===//
//
// The convert-gemm-to-amdgpu pass and its pattern: one kernel per
// gemm.matmul, placed in a gpu.module with a #rocdl.target for the chip, and
// a gpu.launch_func in place of the op. This file says what is AMD about the
// lowering (the kernel target, the epilogue math the kernels can run, the
// LDS main loop of MainLoop.cpp and Mfma.cpp); the pattern, the checks and
// the launch are the shared ones of lib/Conversion/KernelCommon/Launch.h.
//
//===----------------------------------------------------------------------===//

#include "gemm/Conversion/GemmToAMDGPU/GemmToAMDGPU.h"
#include "gemm/Support/PassOptions.h"
#include "../KernelCommon/Launch.h"
#include "AMDGPUKernel.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::gemm {
#define GEN_PASS_DEF_CONVERTGEMMTOAMDGPU
#include "gemm/Conversion/Passes.h.inc"
} // namespace mlir::gemm

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::detail;

/// Math ops that LLVM's AMDGPU backend lowers natively for f64; the others
/// become calls into the ROCm device library (ocml), which we do not link.
static bool isNativeF64Math(Operation *op) {
  return isa<math::AbsFOp, math::SqrtOp, math::FmaOp, math::RoundOp,
             math::RoundEvenOp, math::TruncOp, math::CopySignOp>(op);
}

/// Ops convert-gpu-to-rocdl routes to ocml whatever the type (their LLVM
/// intrinsics are illegal there, and the f32 expansions of sin and cos need
/// floor): found by compiling each epilogue op through gemm-to-amdgcn.
static bool needsOcml(Operation *op) {
  return isa<math::SinOp, math::CosOp, math::TanOp, math::SinhOp,
             math::CoshOp, math::AsinhOp, math::AcoshOp, math::AtanhOp,
             math::CeilOp, math::FloorOp, math::Exp2Op, math::Log2Op,
             math::Log10Op, math::PowFOp, arith::RemFOp>(op);
}

/// The epilogue ops the AMD kernels cannot run without the ROCm device
/// library (ocml), which they do not link.
static std::string amdEpilogueOpRule(Operation *op) {
  auto onType = [&](auto pred) {
    return llvm::any_of(op->getResultTypes(), pred);
  };
  bool isMath = op->getDialect() && op->getDialect()->getNamespace() ==
                                        math::MathDialect::getDialectNamespace();
  if (needsOcml(op))
    return "it needs the ROCm device library (ocml), which the kernels do "
           "not link";
  if (isMath && onType([](Type t) { return t.isF64(); }) &&
      !isNativeF64Math(op))
    return "on f64 it needs the ROCm device library (ocml), which the kernels "
           "do not link; compute it in f32";
  // exp and log have native f32 instructions only.
  if (isa<math::ExpOp, math::LogOp>(op) &&
      onType([](Type t) { return !t.isF32(); }))
    return "only its f32 form is native; compute it in f32";
  // LLVM's AMDGPU back-end cannot select these (it aborted).
  if (isa<arith::FPToUIOp, arith::FPToSIOp>(op) &&
      onType([](Type t) { return t.isInteger(1); }))
    return "LLVM's AMDGPU back-end cannot convert a float to i1; compare "
           "with arith.cmpf instead";
  if (auto trunc = dyn_cast<arith::TruncFOp>(op);
      trunc && trunc.getRoundingmodeAttr())
    return "LLVM's AMDGPU back-end has no truncation with an explicit "
           "rounding mode; drop the rounding mode (to nearest even)";
  return "";
}

static FailureOr<int64_t> buildAMDGPUKernel(OpBuilder &b, gpu::GPUFuncOp kernel,
                                            MatmulOp op, ConfigAttr config,
                                            const TargetInfo &target) {
  return buildKernelBody(b, kernel, op, config, target, buildAMDMainLoop);
}

static bool isROCDLTargetFor(Attribute t, StringRef chip) {
  auto rocdl = dyn_cast<ROCDL::ROCDLTargetAttr>(t);
  return rocdl && rocdl.getChip() == chip;
}

/// The AMD lowering `options` describe.
static VendorLowering
getAMDGPULowering(MLIRContext *ctx, const ConvertGemmToAMDGPUOptions &options) {
  VendorLowering lowering;
  lowering.pass = "convert-gemm-to-amdgpu";
  lowering.chip = options.chip;
  lowering.kernelModule = options.kernelModule;
  lowering.isKernelTarget = isROCDLTargetFor;
  lowering.kernelTargetName = "a #rocdl.target";
  lowering.packUnaligned = options.packUnaligned;
  lowering.dispatch = options.dispatch;
  lowering.buildKernel = buildAMDGPUKernel;
  lowering.epilogueOpRule = amdEpilogueOpRule;
  lowering.optionError = checkAMDTarget(options.chip);
  if (lowering.optionError.empty())
    lowering.optionError = checkKernelModuleName(options.kernelModule);
  if (!lowering.optionError.empty())
    return lowering;
  lowering.target = lookupTarget(options.chip);
  lowering.kernelTargetAttr = ROCDL::ROCDLTargetAttr::get(
      ctx, /*optLevel=*/3, "amdgcn-amd-amdhsa", options.chip);
  return lowering;
}

void mlir::gemm::populateGemmToAMDGPUPatterns(
    RewritePatternSet &patterns, const ConvertGemmToAMDGPUOptions &options) {
  patterns.add<MatmulToLaunch>(
      patterns.getContext(), getAMDGPULowering(patterns.getContext(), options));
}

void mlir::gemm::populateGemmAMDGPUMathExpansionPatterns(
    RewritePatternSet &patterns) {
  // exp and log stay: they lower to native v_exp_f32 / v_log_f32 (the
  // polynomial exp needs floor, which ROCDL would route to ocml).
  auto approximated = [](StringRef name) {
    name.consume_front("math.");
    return name != "exp" && name != "exp2" && name != "log" && name != "log2";
  };
  populateMathF32ExpansionPatterns(patterns, approximated);
  populateMathPolynomialApproximationPatterns(patterns, approximated);
}

namespace {
struct ConvertGemmToAMDGPUPass
    : public gemm::impl::ConvertGemmToAMDGPUBase<ConvertGemmToAMDGPUPass> {
  using Base::Base;

  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    return initializeOptionsWithErrors(*this, options, errorHandler);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    ConvertGemmToAMDGPUOptions options;
    options.chip = chip;
    options.packUnaligned = packUnaligned;
    options.dispatch = dispatch;
    options.kernelModule = kernelModule;
    VendorLowering lowering = getAMDGPULowering(&getContext(), options);
    if (!lowering.optionError.empty()) {
      module.emitError("convert-gemm-to-amdgpu: ") << lowering.optionError;
      return signalPassFailure();
    }
    FailureOr<unsigned> count = lowerAllMatmuls(module, lowering);
    if (failed(count))
      return signalPassFailure();

    // Transcendental f32 (and narrower) epilogue math as polynomials and
    // native exp/log: the ROCm device library that ROCDL would call
    // otherwise is not linked into our kernels.
    if (auto gpuModule =
            module.lookupSymbol<gpu::GPUModuleOp>(kernelModule.getValue())) {
      RewritePatternSet math(&getContext());
      populateGemmAMDGPUMathExpansionPatterns(math);
      if (failed(applyPatternsGreedily(gpuModule, std::move(math))))
        return signalPassFailure();
    }
    numKernels += *count;
  }
};
} // namespace
