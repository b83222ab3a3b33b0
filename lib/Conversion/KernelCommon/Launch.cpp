//===- Launch.cpp - the host side of a GEMM kernel ------------------------===//
//
// The kernel module and function, the gpu.launch_func that replaces a
// gemm.matmul, and the launch facts recorded in the module attribute
// `gemm.kernels` (written to manifest.json by gemm-write-artifacts). Shared by
// convert-gemm-to-nvgpu and convert-gemm-to-amdgpu.
//
//===----------------------------------------------------------------------===//

#include "Launch.h"
#include "IndexMath.h"
#include "Pack.h"
#include "gemm/Dialect/Gemm/Transforms/ConfigPolicy.h"
#include "gemm/Target/Legality.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::detail;

/// The launch facts of one kernel, as recorded in the module's
/// `gemm.kernels` attribute and written to the manifest.
static DictionaryAttr makeManifestEntry(MatmulOp op, ConfigAttr config,
                                        gpu::GPUFuncOp kernelFunc,
                                        StringRef module, StringRef chip,
                                        int64_t threads, int64_t smem,
                                        DictionaryAttr pack) {
  StringRef kernel = kernelFunc.getName();
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
  auto addParam = [&](StringRef name, Type type, StringRef broadcast) {
    SmallVector<NamedAttribute> p;
    p.emplace_back(b.getStringAttr("name"), b.getStringAttr(name));
    if (auto t = dyn_cast<MemRefType>(type)) {
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
      p.emplace_back(b.getStringAttr("element_type"), str(type));
    }
    if (!broadcast.empty())
      p.emplace_back(b.getStringAttr("broadcast"), b.getStringAttr(broadcast));
    params.push_back(b.getDictionaryAttr(p));
  };
  // The kernel's parameter types: A and B may be the packed workspaces'.
  ArrayRef<Type> types = kernelFunc.getArgumentTypes();
  addParam("A", types[0], "");
  addParam("B", types[1], "");
  addParam("C", types[2], "");
  for (unsigned i = 0, e = op.getExtras().size(); i < e; ++i)
    addParam(("extra" + Twine(i)).str(), types[3 + i],
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
  set("grid",
      b.getDictionaryAttr(
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
  if (pack)
    set("pack", pack);
  return b.getDictionaryAttr(e);
}

static bool hasTarget(gpu::GPUModuleOp gpuModule,
                      const VendorLowering &lowering) {
  ArrayAttr targets = gpuModule.getTargetsAttr();
  return targets && llvm::any_of(targets, [&](Attribute t) {
           return lowering.isKernelTarget(t, lowering.chip);
         });
}

static InFlightDiagnostic emitWrongTarget(gpu::GPUModuleOp gpuModule,
                                          const VendorLowering &lowering) {
  return gpuModule.emitError("kernel module '")
         << gpuModule.getName() << "' exists without "
         << lowering.kernelTargetName << " for " << lowering.chip;
}

std::string mlir::gemm::detail::checkKernelModuleName(StringRef name) {
  if (name.empty())
    return "kernel-module must name the gpu.module receiving the kernels, "
           "got an empty name";
  return "";
}

/// The kernel module symbol `name` if it exists and is not a gpu.module.
static Operation *findClashingSymbol(ModuleOp module, StringRef name) {
  Operation *symbol = module.lookupSymbol(name);
  return symbol && !isa<gpu::GPUModuleOp>(symbol) ? symbol : nullptr;
}

static InFlightDiagnostic emitSymbolClash(Operation *symbol, StringRef name) {
  return symbol->emitError("kernel-module '")
         << name << "' names this '" << symbol->getName()
         << "', not a gpu.module; choose another kernel-module";
}

/// The kernel module of `lowering` in `module`, created on first use. Fails
/// with a diagnostic if it exists with other targets.
static FailureOr<gpu::GPUModuleOp>
getOrCreateKernelModule(RewriterBase &rewriter, ModuleOp module,
                        const VendorLowering &lowering) {
  if (Operation *clash = findClashingSymbol(module, lowering.kernelModule))
    return emitSymbolClash(clash, lowering.kernelModule);
  if (auto existing =
          module.lookupSymbol<gpu::GPUModuleOp>(lowering.kernelModule)) {
    if (!hasTarget(existing, lowering))
      return emitWrongTarget(existing, lowering);
    return existing;
  }
  OpBuilder::InsertionGuard g(rewriter);
  rewriter.setInsertionPointToEnd(module.getBody());
  auto gpuModule =
      gpu::GPUModuleOp::create(rewriter, module.getLoc(), lowering.kernelModule,
                               ArrayRef<Attribute>{lowering.kernelTargetAttr});
  rewriter.modifyOpInPlace(module, [&] {
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    rewriter.getUnitAttr());
  });
  return gpuModule;
}

/// A kernel `gpu.func` in `gpuModule` whose arguments are `op`'s operands
/// (A and B with the types of `packing`), named after the enclosing function,
/// with a known block size.
static gpu::GPUFuncOp createKernelFunc(OpBuilder &b, MatmulOp op,
                                       gpu::GPUModuleOp gpuModule,
                                       int64_t threads,
                                       const OperandPacking &packing) {
  std::string base = "gemm";
  if (auto func = op->getParentOfType<FunctionOpInterface>())
    base = (func.getName() + "_gemm").str();
  // Kernel names become PTX / ELF symbols: letters, digits and '_' only, no
  // leading digit (`func.func @"a-b"` made LLVM abort with "Symbol name with
  // unsupported characters").
  for (char &c : base)
    if (!llvm::isAlnum(c) && c != '_')
      c = '_';
  if (llvm::isDigit(base.front()))
    base = "k" + base;
  SymbolTable symbols(gpuModule);
  std::string name = base;
  for (unsigned i = 0; symbols.lookup(name); ++i)
    name = base + "_" + std::to_string(i);
  SmallVector<Type> types(op->getOperandTypes());
  types[0] = packing.kernelA;
  types[1] = packing.kernelB;
  // Shape-generic kernels: sizes are kernel arguments even when the host
  // knows them. With constant sizes, ptxas allocated registers differently
  // for ragged N (f16 tn 1000^3: 255 registers and 196 bytes of spills
  // against 238 and none), and the sizes buy nothing the kernel's run-time
  // edge checks need.
  for (Type &t : types)
    if (auto memref = dyn_cast<MemRefType>(t);
        memref && memref.hasStaticShape())
      t = MemRefType::get(
          SmallVector<int64_t>(memref.getRank(), ShapedType::kDynamic),
          memref.getElementType(), memref.getLayout(), memref.getMemorySpace());
  auto funcType = b.getFunctionType(types, {});
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToEnd(gpuModule.getBody());
  auto kernel = gpu::GPUFuncOp::create(b, op.getLoc(), name, funcType);
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  kernel.setKnownBlockSizeAttr(
      b.getDenseI32ArrayAttr({int32_t(threads), 1, 1}));
  return kernel;
}

/// Emits the packing of `packing`, the gpu.launch_func of `kernel` for `op`
/// (grid.x walks the output tiles, grid.z the batch) and the cleanup, and
/// records the launch facts in the module attribute `gemm.kernels`.
static void emitLaunch(RewriterBase &b, MatmulOp op, ConfigAttr config,
                       gpu::GPUFuncOp kernel, StringRef chip, int64_t threads,
                       int64_t smem, const OperandPacking &packing) {
  Location loc = op.getLoc();
  auto gpuModule = kernel->getParentOfType<gpu::GPUModuleOp>();
  PackedOperands packed = emitOperandPacking(b, op, packing, gpuModule);
  SmallVector<Value> operands(op->getOperands());
  operands[0] = packed.a;
  operands[1] = packed.b;
  for (auto [v, type] : llvm::zip(operands, kernel.getArgumentTypes()))
    v = castIfNeeded(b, loc, v, type);
  // The launch: grid.x walks the output tiles, grid.z the batch.
  unsigned b0 = op.hasBatch() ? 1 : 0;
  IndexMath m(b, loc, /*useIndex=*/true);
  Value mSize = memref::DimOp::create(b, loc, op.getC(), b0);
  Value nSize = memref::DimOp::create(b, loc, op.getC(), b0 + 1);
  Value gx =
      m.mul(m.ceilDiv(mSize, config.getBM()), m.ceilDiv(nSize, config.getBN()));
  Value gz = op.hasBatch() ? Value(memref::DimOp::create(b, loc, op.getC(), 0))
                           : m.c(1);
  Value smemV = arith::ConstantIntOp::create(b, loc, smem, 32);
  gpu::LaunchFuncOp::create(b, loc, kernel, gpu::KernelDim3{gx, m.c(1), gz},
                            gpu::KernelDim3{m.c(threads), m.c(1), m.c(1)},
                            smemV, operands);
  emitPackCleanup(b, loc, packing, packed);

  // Record the launch facts for gemm-write-artifacts.
  auto module = op->getParentOfType<ModuleOp>();
  SmallVector<Attribute> entries;
  if (auto old = module->getAttrOfType<ArrayAttr>(kKernelsAttrName))
    entries.append(old.begin(), old.end());
  entries.push_back(makeManifestEntry(op, config, kernel, gpuModule.getName(),
                                      chip, threads, smem, packed.manifest));
  b.modifyOpInPlace(module, [&] {
    module->setAttr(kKernelsAttrName, b.getArrayAttr(entries));
  });
}

/// The rewrite: the kernel module, the kernel function, its body, the
/// shared-memory check against the target, the launch, and the op erased.
static LogicalResult lowerMatmulToLaunch(RewriterBase &rewriter, MatmulOp op,
                                         ConfigAttr config,
                                         const VendorLowering &lowering) {
  auto module = op->getParentOfType<ModuleOp>();
  if (!module)
    return rewriter.notifyMatchFailure(op, "not inside a module");
  FailureOr<gpu::GPUModuleOp> gpuModule =
      getOrCreateKernelModule(rewriter, module, lowering);
  if (failed(gpuModule))
    return failure();
  const TargetInfo &target = *lowering.target;
  int64_t threads = config.getNumWarps() * target.warpSize;
  OperandPacking packing = planOperandPacking(op, lowering.packUnaligned);
  gpu::GPUFuncOp kernel =
      createKernelFunc(rewriter, op, *gpuModule, threads, packing);
  FailureOr<int64_t> smem =
      lowering.buildKernel(rewriter, kernel, op, config, target);
  if (failed(smem))
    return failure();
  if (*smem > target.maxSharedMemPerBlock)
    return op.emitOpError("kernel needs ")
           << *smem << " bytes of shared memory, over the "
           << target.maxSharedMemPerBlock << " available on " << target.name;
  emitLaunch(rewriter, op, config, kernel, lowering.chip, threads, *smem,
             packing);
  rewriter.eraseOp(op);
  return success();
}

/// What every lowering requires of the op itself: host code (the kernel and
/// its launch replace the op), and static sizes the kernels' 32-bit index
/// math can hold.
static LogicalResult checkOpLowerable(MatmulOp op,
                                      const VendorLowering &lowering) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (isa<gpu::LaunchOp, gpu::GPUFuncOp, gpu::GPUModuleOp>(parent))
      return op.emitOpError("is inside '")
             << parent->getName() << "': " << lowering.pass
             << " lowers gemm.matmul in host code only (it becomes a kernel "
                "and its launch)";
  for (auto [name, value] : {std::pair<StringRef, Value>{"A", op.getA()},
                             {"B", op.getB()},
                             {"C", op.getC()}})
    for (int64_t d : cast<MemRefType>(value.getType()).getShape())
      if (!ShapedType::isDynamic(d) && d > kMaxStaticDim)
        return op.emitOpError("operand ")
               << name << " has a dimension of " << d << ", over the "
               << kMaxStaticDim << " the kernels' 32-bit index math holds";
  return success();
}

FailureOr<ConfigAttr>
mlir::gemm::detail::getLowerableConfig(MatmulOp op,
                                       const VendorLowering &lowering) {
  if (!lowering.optionError.empty())
    return op.emitOpError("cannot be lowered by ")
           << lowering.pass << ": " << lowering.optionError;
  if (failed(checkOpLowerable(op, lowering)))
    return failure();
  ConfigAttr config =
      getConfigOrDefault(op, *lowering.target, lowering.allowTf32);
  if (std::string error = checkConfigLowerable(
          toTileConfig(config), op.getSignature(), *lowering.target);
      !error.empty())
    return op.emitOpError(error);
  // The launch of static sizes must fit a grid: grid.x walks the output
  // tiles, grid.z the batch.
  int64_t m = op.getStaticM(), n = op.getStaticN();
  if (!ShapedType::isDynamic(m) && !ShapedType::isDynamic(n)) {
    // (M and N are at most kMaxStaticDim here: the product fits in int64.)
    int64_t blocks = llvm::divideCeil(m, config.getBM()) *
                     llvm::divideCeil(n, config.getBN());
    if (blocks > kMaxGridX)
      return op.emitOpError("needs ")
             << blocks
             << " blocks along grid.x (ceil(M / BM) * ceil(N / BN)), over the "
             << kMaxGridX << " a launch takes";
  }
  if (op.hasBatch()) {
    int64_t batch = op.getC().getType().getDimSize(0);
    if (!ShapedType::isDynamic(batch) && batch > kMaxGridZ)
      return op.emitOpError("has a batch of ")
             << batch << ", over the " << kMaxGridZ
             << " blocks a launch takes along grid.z";
  }
  if (lowering.epilogueOpRule && op.hasEpilogue()) {
    for (Operation &inner : op.getEpilogue().front().without_terminator()) {
      std::string reason = lowering.epilogueOpRule(&inner);
      if (reason.empty())
        continue;
      InFlightDiagnostic diag = op.emitOpError("epilogue op '")
                                << inner.getName() << "' is not lowered by "
                                << lowering.pass << " (" << lowering.chip
                                << "): " << reason;
      diag.attachNote(inner.getLoc()) << "the epilogue op";
      return diag;
    }
  }
  return config;
}

LogicalResult
MatmulToLaunch::matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const {
  FailureOr<ConfigAttr> config = getLowerableConfig(op, lowering);
  if (failed(config))
    return failure();
  return lowerMatmulToLaunch(rewriter, op, *config, lowering);
}

FailureOr<unsigned>
mlir::gemm::detail::lowerAllMatmuls(ModuleOp module,
                                    const VendorLowering &lowering) {
  if (TargetAttr declared = lookupTargetAttr(module);
      declared && declared.getChip() != lowering.chip)
    return module.emitError("module declares gemm.target ")
           << declared.getChip() << " but " << lowering.pass << " runs for "
           << lowering.chip;
  if (Operation *clash = findClashingSymbol(module, lowering.kernelModule))
    return emitSymbolClash(clash, lowering.kernelModule);
  if (auto existing =
          module.lookupSymbol<gpu::GPUModuleOp>(lowering.kernelModule))
    if (!hasTarget(existing, lowering))
      return emitWrongTarget(existing, lowering);
  bool ok = true;
  unsigned count = 0;
  module.walk([&](MatmulOp op) {
    ok &= succeeded(getLowerableConfig(op, lowering));
    ++count;
  });
  if (!ok)
    return failure();
  MLIRContext *ctx = module.getContext();
  RewritePatternSet patterns(ctx);
  patterns.add<MatmulToLaunch>(ctx, lowering);
  ConversionTarget target(*ctx);
  // Only gemm.matmul is rewritten; everything it produces is legal.
  target.addIllegalOp<MatmulOp>();
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  if (failed(applyPartialConversion(module, target, std::move(patterns))))
    return failure();
  return count;
}
