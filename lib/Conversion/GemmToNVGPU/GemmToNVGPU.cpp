//===- GemmToNVGPU.cpp - gemm.matmul to NVIDIA kernels and launches -------===//
//
// The convert-gemm-to-nvgpu pass: one kernel per gemm.matmul, placed in a
// gpu.module with an #nvvm.target for the chip, and a gpu.launch_func in place
// of the op. The kernel body comes from the builder (gemm/Conversion/KernelCommon/KernelBuilder.h); this
// file holds the checks, the host side and the launch manifest.
//
//===----------------------------------------------------------------------===//

#include "gemm/Conversion/GemmToNVGPU/GemmToNVGPU.h"
#include "gemm/Conversion/KernelCommon/KernelBuilder.h"
#include "gemm/Conversion/Passes.h"
#include "gemm/Dialect/Gemm/IR/GemmConfigDefaults.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::gemm {
#define GEN_PASS_DEF_CONVERTGEMMTONVGPU
#include "gemm/Conversion/Passes.h.inc"
} // namespace mlir::gemm

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::detail;

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

LogicalResult mlir::gemm::checkLowerableToNVGPU(MatmulOp op, ConfigAttr config,
                                                const TargetInfo &target) {
  if (config.getKind() == Kind::mfma)
    return op.emitOpError("config kind ")
           << stringifyKind(config.getKind())
           << " is not lowered by convert-gemm-to-nvgpu (it lowers mma_sync, "
              "wgmma and simt)";
  if (isFloat8(*getElemKind(op.getAElementType())) &&
      config.getKind() != Kind::wgmma)
    return op.emitOpError("f8 operands are lowered by convert-gemm-to-nvgpu "
                          "with kind = wgmma only (sm_90a, layout tn), not ")
           << stringifyKind(config.getKind());
  if (config.getSplitK() != 1)
    return op.emitOpError("split_k = ")
           << config.getSplitK()
           << " is not lowered by convert-gemm-to-nvgpu; use split_k = 1";
  if (failed(op.verifyConfigForTarget(config, target)))
    return failure();
  if (config.getKind() == Kind::mma_sync) {
    // The kernel builder implements one mma.sync shape per operand type (its
    // fragment maps); the table lists more (m16n8k8 f16, m8n8k16 s8, ...).
    ElemKind operand = *getOperandKind(op.getAElementType(), Kind::mma_sync);
    std::array<unsigned, 3> want = *mmaSyncShape(operand);
    ArrayRef<int64_t> s = config.getInstr();
    if (s[0] != want[0] || s[1] != want[1] || s[2] != want[2])
      return op.emitOpError("mma_sync shape ")
             << s[0] << "x" << s[1] << "x" << s[2] << " for "
             << stringifyElemKind(operand)
             << " operands is not lowered by convert-gemm-to-nvgpu (it "
                "lowers "
             << want[0] << "x" << want[1] << "x" << want[2] << ")";
  }
  if (config.getKind() == Kind::wgmma &&
      failed(checkWgmmaConfig(op, config)))
    return failure();
  return checkSwizzleRows(op, config);
}

LogicalResult mlir::gemm::checkWgmmaConfig(MatmulOp op, ConfigAttr config) {
  ElemKind operand = *getOperandKind(op.getAElementType(), Kind::wgmma);
  ElemKind acc = *getElemKind(op.getAccType());
  if (!wgmmaLowersTypes(operand, acc))
    return op.emitOpError("wgmma lowering supports f16/bf16/tf32/f8 operands "
                          "with f32 accumulation and i8 with i32, not ")
           << stringifyElemKind(operand) << " with "
           << stringifyElemKind(acc);
  if (config.getWarpTileM() != 64)
    return op.emitOpError("wgmma warpgroup tile M must be 64 (block M / "
                          "warps[0]), got ")
           << config.getWarpTileM();
  ArrayRef<int64_t> instr = config.getInstr();
  if (config.getWarpTileN() != instr[1])
    return op.emitOpError("wgmma warpgroup tile N (block N / warps[1] = ")
           << config.getWarpTileN() << ") must equal the instruction N "
           << instr[1];
  if (config.getSmem() != SmemLayout::swizzle)
    return op.emitOpError("wgmma needs smem = swizzle (the 128-byte "
                          "swizzle its descriptors describe), got ")
           << stringifySmemLayout(config.getSmem());
  unsigned bytes = elemBytes(operand);
  bool aKMajor = !op.isTransposedA(), bKMajor = op.isTransposedB();
  if ((aKMajor || bKMajor) &&
      config.getBK() * bytes != kWgmmaSwizzleBytes)
    return op.emitOpError("wgmma with K-contiguous operands needs block K = ")
           << kWgmmaSwizzleBytes / bytes << " (rows of 128 bytes), got "
           << config.getBK();
  if ((!aKMajor || !bKMajor) && !wgmmaReadsMNMajor(operand))
    return op.emitOpError("wgmma reads ")
           << stringifyElemKind(operand)
           << " operands K-major only: layout "
           << stringifyLayout(op.getLayout()) << " needs tn";
  int64_t panel = kWgmmaSwizzleBytes / bytes;
  if (!bKMajor && instr[1] % panel != 0)
    return op.emitOpError("wgmma with N-contiguous B needs the instruction "
                          "N to be a multiple of ")
           << panel << ", got " << instr[1];
  // MN-major panels need whole 8-row swizzle atoms along K: block K is a
  // multiple of the instruction K (16 for f16/bf16), which the config
  // verifier has checked.
  return success();
}

//===----------------------------------------------------------------------===//
// Kernel
//===----------------------------------------------------------------------===//

FailureOr<int64_t> mlir::gemm::buildGemmKernel(OpBuilder &b,
                                               gpu::GPUFuncOp kernel,
                                               MatmulOp op, ConfigAttr config,
                                               const TargetInfo &target) {
  return buildKernelBody(b, kernel, op, config, target, buildMainLoop);
}

//===----------------------------------------------------------------------===//
// Host side
//===----------------------------------------------------------------------===//

namespace {
bool isNVVMTargetFor(Attribute t, StringRef chip) {
  auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(t);
  return nvvm && nvvm.getChip() == chip;
}

/// The #nvvm.target kernels for `chip` live under (`attr` is the one to
/// create, if any).
KernelTarget kernelTarget(Attribute attr, StringRef chip) {
  return {attr, isNVVMTargetFor, "an #nvvm.target", chip};
}

struct MatmulToLaunch : public OpConversionPattern<MatmulOp> {
  MatmulToLaunch(MLIRContext *ctx, const NVGPULoweringOptions &options)
      : OpConversionPattern<MatmulOp>(ctx), options(options) {}

  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TargetInfo *target = lookupTarget(options.chip);
    if (!target || !target->isNVIDIA())
      return rewriter.notifyMatchFailure(op, "not an NVIDIA chip");
    ConfigAttr config = op.getConfigAttr();
    if (!config)
      config = getDefaultConfig(op, *target, options.allowTf32);
    unsigned ptx = *choosePtxVersion(
        *target, options.ptxVersion ? std::optional<unsigned>(options.ptxVersion)
                                    : std::nullopt);
    auto nvvmTarget = NVVM::NVVMTargetAttr::get(
        rewriter.getContext(), /*optLevel=*/3, "nvptx64-nvidia-cuda",
        options.chip, ("+ptx" + Twine(ptx)).str());
    return lowerMatmulToLaunch(rewriter, op, config, *target,
                               options.kernelModule,
                               kernelTarget(nvvmTarget, options.chip),
                               options.packUnaligned, buildGemmKernel);
  }

  NVGPULoweringOptions options;
};

struct ConvertGemmToNVGPUPass
    : public gemm::impl::ConvertGemmToNVGPUBase<ConvertGemmToNVGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (std::string error = checkNVIDIATarget(chip, ptxVersion);
        !error.empty()) {
      module.emitError("convert-gemm-to-nvgpu: ") << error;
      return signalPassFailure();
    }
    const TargetInfo *target = lookupTarget(chip);
    if (failed(checkKernelTargets(module, getArgument(), kernelModule,
                                  kernelTarget(Attribute(), chip))))
      return signalPassFailure();
    NVGPULoweringOptions options;
    options.chip = chip;
    options.ptxVersion = ptxVersion;
    options.allowTf32 = allowTf32;
    options.kernelModule = kernelModule;
    options.packUnaligned = packUnaligned;
    RewritePatternSet patterns(&getContext());
    populateGemmToNVGPUPatterns(patterns, options);
    FailureOr<unsigned> count = lowerAllMatmuls(
        module,
        [&](MatmulOp op) {
          ConfigAttr config = op.getConfigAttr();
          if (!config)
            config = getDefaultConfig(op, *target, allowTf32);
          return checkLowerableToNVGPU(op, config, *target);
        },
        std::move(patterns));
    if (failed(count))
      return signalPassFailure();
    numKernels += *count;
  }
};
} // namespace

void mlir::gemm::populateGemmToNVGPUPatterns(
    RewritePatternSet &patterns, const NVGPULoweringOptions &options) {
  patterns.add<MatmulToLaunch>(patterns.getContext(), options);
}
