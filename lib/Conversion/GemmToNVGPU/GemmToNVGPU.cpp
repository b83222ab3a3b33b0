//===- GemmToNVGPU.cpp - gemm.matmul to NVIDIA kernels and launches -------===//
//
// The convert-gemm-to-nvgpu pass: one kernel per gemm.matmul, placed in a
// gpu.module with an #nvvm.target for the chip, and a gpu.launch_func in place
// of the op. The kernel body comes from the builder in KernelBuilder.h; this
// file holds the checks, the host side and the launch manifest.
//
//===----------------------------------------------------------------------===//

#include "gemm/Conversion/GemmToNVGPU/GemmToNVGPU.h"
#include "KernelBuilder.h"
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
  if (config.getKind() != Kind::mma_sync && config.getKind() != Kind::simt)
    return op.emitOpError("config kind ")
           << stringifyKind(config.getKind())
           << " is not lowered by convert-gemm-to-nvgpu (it lowers mma_sync "
              "and simt)";
  if (isFloat8(*getElemKind(op.getAElementType())))
    return op.emitOpError("f8 operands are not lowered by "
                          "convert-gemm-to-nvgpu (they need wgmma or a "
                          "conversion to f16 first)");
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
  unsigned bytes = op.getAElementType().getIntOrFloatBitWidth() / 8;
  if (config.getSmem() == SmemLayout::swizzle) {
    // Swizzled tiles need whole 16-byte chunks per stored row.
    int64_t bk = config.getBK();
    for (auto [name, cols] :
         {std::pair<StringRef, int64_t>{"A", op.isTransposedA() ? config.getBM()
                                                                : bk},
          {"B", op.isTransposedB() ? bk : config.getBN()}})
      if ((cols * bytes) % 16 != 0)
        return op.emitOpError("swizzled shared tile of ")
               << name << " has rows of " << cols * bytes
               << " bytes, not a multiple of 16; use smem = plain or pad";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Kernel
//===----------------------------------------------------------------------===//

FailureOr<int64_t> mlir::gemm::buildGemmKernel(OpBuilder &b,
                                               gpu::GPUFuncOp kernel,
                                               MatmulOp op, ConfigAttr config,
                                               const TargetInfo &target) {
  KernelContext ctx;
  ctx.op = op;
  ctx.config = config;
  ctx.target = &target;
  Block &entry = kernel.getBody().front();
  ctx.a = entry.getArgument(0);
  ctx.b = entry.getArgument(1);
  ctx.c = entry.getArgument(2);
  for (unsigned i = 3; i < entry.getNumArguments(); ++i)
    ctx.extras.push_back(entry.getArgument(i));
  ctx.accType = op.getAccType();
  ctx.operandKind = *getOperandKind(op.getAElementType(), config.getKind());
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(&entry);
  FailureOr<int64_t> smem = buildMainLoop(b, ctx);
  if (failed(smem))
    return failure();
  gpu::ReturnOp::create(b, op.getLoc());
  return smem;
}

//===----------------------------------------------------------------------===//
// Host side
//===----------------------------------------------------------------------===//

namespace {
/// The launch facts of one kernel, as recorded in the module's
/// `gemm.kernels` attribute and written to the manifest.
DictionaryAttr makeManifestEntry(MatmulOp op, ConfigAttr config,
                                 StringRef module, StringRef kernel,
                                 StringRef chip, int64_t threads,
                                 int64_t smem) {
  Builder b(op.getContext());
  auto str = [&](Type t) {
    std::string s;
    llvm::raw_string_ostream os(s);
    t.print(os);
    return b.getStringAttr(s);
  };
  std::string cfg;
  {
    llvm::raw_string_ostream os(cfg);
    Attribute(config).print(os);
  }
  SmallVector<Attribute> params;
  auto addParam = [&](StringRef name, Value v, StringRef broadcast) {
    SmallVector<NamedAttribute> p;
    p.emplace_back(b.getStringAttr("name"), b.getStringAttr(name));
    if (auto t = dyn_cast<MemRefType>(v.getType())) {
      p.emplace_back(b.getStringAttr("kind"), b.getStringAttr("memref"));
      p.emplace_back(b.getStringAttr("rank"), b.getI64IntegerAttr(t.getRank()));
      p.emplace_back(b.getStringAttr("element_type"), str(t.getElementType()));
      // Static shape, -1 for dynamic dimensions.
      SmallVector<int64_t> shape(t.getShape());
      for (int64_t &d : shape)
        d = ShapedType::isDynamic(d) ? -1 : d;
      p.emplace_back(b.getStringAttr("shape"), b.getI64ArrayAttr(shape));
    } else {
      p.emplace_back(b.getStringAttr("kind"), b.getStringAttr("scalar"));
      p.emplace_back(b.getStringAttr("element_type"), str(v.getType()));
    }
    if (!broadcast.empty())
      p.emplace_back(b.getStringAttr("broadcast"), b.getStringAttr(broadcast));
    params.push_back(b.getDictionaryAttr(p));
  };
  addParam("A", op.getA(), "");
  addParam("B", op.getB(), "");
  addParam("C", op.getC(), "");
  for (auto [i, v] : llvm::enumerate(op.getExtras()))
    addParam(("extra" + Twine(i)).str(), v,
             stringifyBroadcast(op.getExtraBroadcast(i)));
  SmallVector<NamedAttribute> e;
  auto set = [&](StringRef k, Attribute v) {
    e.emplace_back(b.getStringAttr(k), v);
  };
  set("name", b.getStringAttr(kernel));
  set("module", b.getStringAttr(module));
  set("chip", b.getStringAttr(chip));
  set("block", b.getI64ArrayAttr({threads, 1, 1}));
  set("dynamic_shared_memory", b.getI64IntegerAttr(smem));
  // grid.x = ceil(M / tile_m) * ceil(N / tile_n); grid.z = batch (or 1).
  set("grid", b.getDictionaryAttr(
                  {b.getNamedAttr("tile_m", b.getI64IntegerAttr(config.getBM())),
                   b.getNamedAttr("tile_n", b.getI64IntegerAttr(config.getBN())),
                   b.getNamedAttr("batched", b.getBoolAttr(op.hasBatch()))}));
  set("layout", b.getStringAttr(stringifyLayout(op.getLayout())));
  set("a_type", str(op.getAElementType()));
  set("c_type", str(op.getCElementType()));
  set("acc_type", str(op.getAccType()));
  set("reads_c", b.getBoolAttr(op.readsC()));
  set("config", b.getStringAttr(cfg));
  set("params", b.getArrayAttr(params));
  return b.getDictionaryAttr(e);
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
    auto module = op->getParentOfType<ModuleOp>();
    if (!module)
      return rewriter.notifyMatchFailure(op, "not inside a module");
    Location loc = op.getLoc();

    // The kernel module, created on first use.
    auto gpuModule = module.lookupSymbol<gpu::GPUModuleOp>(options.kernelModule);
    if (!gpuModule) {
      OpBuilder::InsertionGuard g(rewriter);
      rewriter.setInsertionPointToEnd(module.getBody());
      unsigned ptx = *choosePtxVersion(
          *target, options.ptxVersion ? std::optional<unsigned>(options.ptxVersion)
                                      : std::nullopt);
      auto nvvmTarget = NVVM::NVVMTargetAttr::get(
          rewriter.getContext(), /*optLevel=*/3, "nvptx64-nvidia-cuda",
          options.chip, ("+ptx" + Twine(ptx)).str());
      gpuModule = gpu::GPUModuleOp::create(
          rewriter, loc, options.kernelModule,
          ArrayRef<Attribute>{nvvmTarget});
      module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                      rewriter.getUnitAttr());
    }

    // The kernel: arguments are the op's operands.
    std::string base = "gemm";
    if (auto func = op->getParentOfType<FunctionOpInterface>())
      base = (func.getName() + "_gemm").str();
    SymbolTable symbols(gpuModule);
    std::string name = base;
    for (unsigned i = 0; symbols.lookup(name); ++i)
      name = base + "_" + std::to_string(i);
    auto funcType = rewriter.getFunctionType(op->getOperandTypes(), {});
    gpu::GPUFuncOp kernel;
    {
      OpBuilder::InsertionGuard g(rewriter);
      rewriter.setInsertionPointToEnd(gpuModule.getBody());
      kernel = gpu::GPUFuncOp::create(rewriter, loc, name, funcType);
      kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                      rewriter.getUnitAttr());
    }
    int64_t threads = config.getNumWarps() * target->warpSize;
    kernel.setKnownBlockSizeAttr(
        rewriter.getDenseI32ArrayAttr({int32_t(threads), 1, 1}));
    FailureOr<int64_t> smem =
        buildGemmKernel(rewriter, kernel, op, config, *target);
    if (failed(smem))
      return failure();
    if (*smem > target->maxSharedMemPerBlock)
      return op.emitOpError("kernel needs ")
             << *smem << " bytes of shared memory, over the "
             << target->maxSharedMemPerBlock << " available on "
             << target->name;

    // The launch: grid.x walks the output tiles, grid.z the batch.
    unsigned b0 = op.hasBatch() ? 1 : 0;
    IndexMath m(rewriter, loc, /*useIndex=*/true);
    Value mSize = memref::DimOp::create(rewriter, loc, op.getC(), b0);
    Value nSize = memref::DimOp::create(rewriter, loc, op.getC(), b0 + 1);
    Value gx = m.mul(m.ceilDiv(mSize, config.getBM()),
                     m.ceilDiv(nSize, config.getBN()));
    Value gz = op.hasBatch() ? Value(memref::DimOp::create(rewriter, loc,
                                                           op.getC(), 0))
                             : m.c(1);
    Value smemV = arith::ConstantIntOp::create(rewriter, loc, *smem, 32);
    gpu::LaunchFuncOp::create(rewriter, loc, kernel,
                              gpu::KernelDim3{gx, m.c(1), gz},
                              gpu::KernelDim3{m.c(threads), m.c(1), m.c(1)},
                              smemV, op->getOperands());

    // Record the launch facts for gemm-write-artifacts.
    SmallVector<Attribute> entries;
    if (auto old = module->getAttrOfType<ArrayAttr>(kKernelsAttrName))
      entries.append(old.begin(), old.end());
    entries.push_back(makeManifestEntry(op, config, options.kernelModule, name,
                                        options.chip, threads, *smem));
    module->setAttr(kKernelsAttrName, rewriter.getArrayAttr(entries));
    rewriter.eraseOp(op);
    return success();
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
    if (TargetAttr declared = lookupTargetAttr(module);
        declared && declared.getChip() != chip) {
      module.emitError("module declares gemm.target ")
          << declared.getChip() << " but convert-gemm-to-nvgpu runs for "
          << chip;
      return signalPassFailure();
    }
    if (auto existing =
            module.lookupSymbol<gpu::GPUModuleOp>(kernelModule.getValue())) {
      auto targets = existing.getTargetsAttr();
      bool same = targets && llvm::any_of(targets, [&](Attribute t) {
        auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(t);
        return nvvm && nvvm.getChip() == chip;
      });
      if (!same) {
        existing.emitError("kernel module '")
            << kernelModule << "' exists without an #nvvm.target for " << chip;
        return signalPassFailure();
      }
    }
    // Check every op first so that all problems are reported at once and
    // nothing is rewritten when one of them cannot be lowered.
    bool ok = true;
    module.walk([&](MatmulOp op) {
      ConfigAttr config = op.getConfigAttr();
      if (!config)
        config = getDefaultConfig(op, *target, allowTf32);
      ok &= succeeded(checkLowerableToNVGPU(op, config, *target));
    });
    if (!ok)
      return signalPassFailure();

    NVGPULoweringOptions options;
    options.chip = chip;
    options.ptxVersion = ptxVersion;
    options.allowTf32 = allowTf32;
    options.kernelModule = kernelModule;
    RewritePatternSet patterns(&getContext());
    populateGemmToNVGPUPatterns(patterns, options);
    ConversionTarget conversionTarget(getContext());
    // Only gemm.matmul is rewritten; everything it produces is legal.
    conversionTarget.addIllegalOp<MatmulOp>();
    conversionTarget.markUnknownOpDynamicallyLegal([](Operation *) {
      return true;
    });
    unsigned before = 0;
    module.walk([&](MatmulOp) { ++before; });
    if (failed(applyPartialConversion(module, conversionTarget,
                                      std::move(patterns))))
      return signalPassFailure();
    numKernels += before;
  }
};
} // namespace

void mlir::gemm::populateGemmToNVGPUPatterns(
    RewritePatternSet &patterns, const NVGPULoweringOptions &options) {
  patterns.add<MatmulToLaunch>(patterns.getContext(), options);
}
