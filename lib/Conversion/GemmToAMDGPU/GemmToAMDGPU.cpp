//===- GemmToAMDGPU.cpp - gemm.matmul to AMD kernels and launches ---------===//
//
// The convert-gemm-to-amdgpu pass: one kernel per gemm.matmul, placed in a
// gpu.module with a #rocdl.target for the chip, and a gpu.launch_func in
// place of the op. The kernel body is built by MainLoop.cpp (LDS pipeline)
// and Mfma.cpp (the MFMA compute step) on the shared machinery of
// gemm/Conversion/KernelCommon; this file holds the checks, the LDS layout
// policy glue and the pass.
//
//===----------------------------------------------------------------------===//

#include "gemm/Conversion/GemmToAMDGPU/GemmToAMDGPU.h"
#include "gemm/Conversion/KernelCommon/KernelBuilder.h"
#include "gemm/Conversion/Passes.h"
#include "gemm/Dialect/Gemm/IR/GemmConfigDefaults.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::gemm {
#define GEN_PASS_DEF_CONVERTGEMMTOAMDGPU
#include "gemm/Conversion/Passes.h.inc"
} // namespace mlir::gemm

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::detail;

std::string mlir::gemm::checkAMDTarget(StringRef chip) {
  const TargetInfo *target = lookupTarget(chip);
  if (!target || !target->isAMD()) {
    std::string names;
    for (const TargetInfo &t : allTargets())
      if (t.isAMD())
        names += (names.empty() ? "" : ", ") + t.name.str();
    return ("unknown AMD chip '" + chip + "' (known: " + names + ")").str();
  }
  return "";
}

/// Math ops that LLVM's AMDGPU backend lowers natively for f64; the others
/// become calls into the ROCm device library (ocml), which we do not link.
static bool isNativeF64Math(Operation *op) {
  return isa<math::AbsFOp, math::SqrtOp, math::FmaOp, math::CeilOp,
             math::FloorOp, math::RoundOp, math::RoundEvenOp, math::TruncOp,
             math::CopySignOp>(op);
}

LogicalResult mlir::gemm::checkLowerableToAMDGPU(MatmulOp op,
                                                 ConfigAttr config,
                                                 const TargetInfo &target) {
  if (config.getKind() != Kind::mfma)
    return op.emitOpError("config kind ")
           << stringifyKind(config.getKind())
           << " is not lowered by convert-gemm-to-amdgpu (it lowers mfma)";
  if (config.getSplitK() != 1)
    return op.emitOpError("split_k = ")
           << config.getSplitK()
           << " is not lowered by convert-gemm-to-amdgpu; use split_k = 1";
  if (failed(op.verifyConfigForTarget(config, target)))
    return failure();
  std::optional<MmaShape> shape = getMfmaShape(op, config, target);
  ArrayRef<int64_t> s = config.getInstr();
  if (!shape || !isMfmaShapeLowered(*shape))
    return op.emitOpError("mfma shape ")
           << s[0] << "x" << s[1] << "x" << s[2] << " for "
           << stringifyElemKind(*getElemKind(op.getAElementType()))
           << " is not lowered by convert-gemm-to-amdgpu (its lane map is "
              "not checked against AMD's tables)";
  if (failed(checkSwizzleRows(op, config)))
    return failure();
  int64_t waveN = shape->n * shape->blocks;
  if (config.getWarpTileN() % waveN != 0)
    return op.emitOpError("wave tile N (")
           << config.getWarpTileN() << ") is not a multiple of the "
           << shape->blocks << "-block mfma tile N (" << waveN << ")";
  if (op.hasEpilogue()) {
    WalkResult r = op.getEpilogue().walk([&](Operation *inner) {
      if (inner->getDialect() && inner->getDialect()->getNamespace() ==
                                     math::MathDialect::getDialectNamespace() &&
          llvm::any_of(inner->getResultTypes(),
                       [](Type t) { return t.isF64(); }) &&
          !isNativeF64Math(inner)) {
        op.emitOpError("epilogue op '")
            << inner->getName()
            << "' on f64 needs the ROCm device library (ocml), which "
               "convert-gemm-to-amdgpu kernels do not link; compute it in f32";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (r.wasInterrupted())
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// LDS layout policy
//===----------------------------------------------------------------------===//

std::pair<LdsLayout, LdsLayout>
mlir::gemm::getLdsLayouts(MatmulOp op, ConfigAttr config,
                          const TargetInfo &target) {
  return mfmaLdsLayouts(getMfmaTileProblem(op, config, target),
                        toTileConfig(config).smem);
}

//===----------------------------------------------------------------------===//
// Kernel
//===----------------------------------------------------------------------===//

FailureOr<int64_t> mlir::gemm::buildAMDGemmKernel(OpBuilder &b,
                                                  gpu::GPUFuncOp kernel,
                                                  MatmulOp op,
                                                  ConfigAttr config,
                                                  const TargetInfo &target) {
  return buildKernelBody(b, kernel, op, config, target, buildAMDMainLoop);
}

namespace {
bool isROCDLTargetFor(Attribute t, StringRef chip) {
  auto rocdl = dyn_cast<ROCDL::ROCDLTargetAttr>(t);
  return rocdl && rocdl.getChip() == chip;
}

/// The #rocdl.target kernels for `chip` live under (`attr` is the one to
/// create, if any).
KernelTarget kernelTarget(Attribute attr, StringRef chip) {
  return {attr, isROCDLTargetFor, "a #rocdl.target", chip};
}

struct MatmulToAMDLaunch : public OpConversionPattern<MatmulOp> {
  MatmulToAMDLaunch(MLIRContext *ctx, const AMDGPULoweringOptions &options)
      : OpConversionPattern<MatmulOp>(ctx), options(options) {}

  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TargetInfo *target = lookupTarget(options.chip);
    if (!target || !target->isAMD())
      return rewriter.notifyMatchFailure(op, "not an AMD chip");
    ConfigAttr config = op.getConfigAttr();
    if (!config)
      config = getDefaultConfig(op, *target, /*allowTf32=*/false);
    auto rocdlTarget = ROCDL::ROCDLTargetAttr::get(
        rewriter.getContext(), /*optLevel=*/3, "amdgcn-amd-amdhsa",
        options.chip);
    return lowerMatmulToLaunch(rewriter, op, config, *target,
                               options.kernelModule,
                               kernelTarget(rocdlTarget, options.chip),
                               options.packUnaligned, buildAMDGemmKernel);
  }

  AMDGPULoweringOptions options;
};

struct ConvertGemmToAMDGPUPass
    : public gemm::impl::ConvertGemmToAMDGPUBase<ConvertGemmToAMDGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (std::string error = checkAMDTarget(chip); !error.empty()) {
      module.emitError("convert-gemm-to-amdgpu: ") << error;
      return signalPassFailure();
    }
    const TargetInfo *target = lookupTarget(chip);
    if (failed(checkKernelTargets(module, getArgument(), kernelModule,
                                  kernelTarget(Attribute(), chip))))
      return signalPassFailure();
    AMDGPULoweringOptions options;
    options.chip = chip;
    options.kernelModule = kernelModule;
    options.packUnaligned = packUnaligned;
    RewritePatternSet patterns(&getContext());
    populateGemmToAMDGPUPatterns(patterns, options);
    FailureOr<unsigned> count = lowerAllMatmuls(
        module,
        [&](MatmulOp op) {
          ConfigAttr config = op.getConfigAttr();
          if (!config)
            config = getDefaultConfig(op, *target, /*allowTf32=*/false);
          return checkLowerableToAMDGPU(op, config, *target);
        },
        std::move(patterns));
    if (failed(count))
      return signalPassFailure();

    // Transcendental f32 (and narrower) epilogue math as polynomials and
    // native exp/log: the ROCm device library that ROCDL would call
    // otherwise is not linked into our kernels.
    if (auto gpuModule =
            module.lookupSymbol<gpu::GPUModuleOp>(kernelModule.getValue())) {
      RewritePatternSet math(&getContext());
      // exp and log stay: they lower to native v_exp_f32 / v_log_f32 (the
      // polynomial exp needs floor, which ROCDL would route to ocml).
      auto approximated = [](StringRef name) {
        name.consume_front("math.");
        return name != "exp" && name != "exp2" && name != "log" &&
               name != "log2";
      };
      populateMathF32ExpansionPatterns(math, approximated);
      populateMathPolynomialApproximationPatterns(math, approximated);
      if (failed(applyPatternsGreedily(gpuModule, std::move(math))))
        return signalPassFailure();
    }
    numKernels += *count;
  }
};
} // namespace

void mlir::gemm::populateGemmToAMDGPUPatterns(
    RewritePatternSet &patterns, const AMDGPULoweringOptions &options) {
  patterns.add<MatmulToAMDLaunch>(patterns.getContext(), options);
}
