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
#include "KernelSetup.h"
#include "Pack.h"
#include "SplitK.h"
#include "gemm-c/Runtime.h"
#include "gemm/Dialect/Gemm/Transforms/ConfigPolicy.h"
#include "gemm/Target/Legality.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::detail;

/// The launch facts of one kernel, as recorded in the module's
/// `gemm.kernels` attribute and written to the manifest.
/// The printed form of `t` as a string attribute.
static StringAttr printed(Builder &b, Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return b.getStringAttr(s);
}

/// The box of an operand tile as the manifest and mgpuGemmTensorMap take it: one
/// entry per dimension of the operand, outermost first (1 for the batch).
static SmallVector<int64_t> tmaBoxDims(const TmaBox &box, bool batched) {
  SmallVector<int64_t> dims;
  if (batched)
    dims.push_back(1);
  dims.append({box.outer, box.inner});
  return dims;
}

/// The TMA boxes of operand `a` (else B) of `op` with `config`.
static TmaBox operandTmaBox(MatmulOp op, ConfigAttr config, bool a) {
  unsigned bytes = op.getAElementType().getIntOrFloatBitWidth() / 8;
  return a ? tmaBox(config.getBM(), config.getBK(), !op.isTransposedA(), bytes)
           : tmaBox(config.getBN(), config.getBK(), op.isTransposedB(), bytes,
                    config.getMulticast());
}

/// One kernel parameter of the manifest: name, kind, and for memrefs rank,
/// element type and static shape (-1 for dynamic dimensions).
static DictionaryAttr makeParam(Builder &b, StringRef name, Type type,
                                StringRef broadcast) {
  SmallVector<NamedAttribute> p;
  p.emplace_back(b.getStringAttr("name"), b.getStringAttr(name));
  if (auto t = dyn_cast<MemRefType>(type)) {
    p.emplace_back(b.getStringAttr("kind"), b.getStringAttr("memref"));
    p.emplace_back(b.getStringAttr("rank"), b.getI64IntegerAttr(t.getRank()));
    p.emplace_back(b.getStringAttr("element_type"),
                   printed(b, t.getElementType()));
    SmallVector<int64_t> shape(t.getShape());
    for (int64_t &d : shape)
      d = ShapedType::isDynamic(d) ? -1 : d;
    p.emplace_back(b.getStringAttr("shape"), b.getI64ArrayAttr(shape));
  } else {
    p.emplace_back(b.getStringAttr("kind"), b.getStringAttr("scalar"));
    p.emplace_back(b.getStringAttr("element_type"), printed(b, type));
  }
  if (!broadcast.empty())
    p.emplace_back(b.getStringAttr("broadcast"), b.getStringAttr(broadcast));
  return b.getDictionaryAttr(p);
}

/// The manifest parameters of `kernel`, whose arguments are named `names`
/// (the extras carry their broadcast).
static ArrayAttr makeParams(Builder &b, MatmulOp op, gpu::GPUFuncOp kernel,
                            ArrayRef<std::string> names) {
  SmallVector<Attribute> params;
  for (auto [name, type] : llvm::zip(names, kernel.getArgumentTypes())) {
    StringRef broadcast;
    if (StringRef(name).starts_with("extra"))
      broadcast = stringifyBroadcast(
          op.getExtraBroadcast(std::stoi(name.substr(strlen("extra")))));
    params.push_back(makeParam(b, name, type, broadcast));
  }
  return b.getArrayAttr(params);
}

/// The `when` record of the manifest: the bounds that are present.
static DictionaryAttr makeWhen(Builder &b, const SizeBounds &when) {
  SmallVector<NamedAttribute> e;
  auto set = [&](StringRef key, std::optional<int64_t> v) {
    if (v)
      e.emplace_back(b.getStringAttr(key), b.getI64IntegerAttr(*v));
  };
  set("m_min", when.mMin);
  set("m_max", when.mMax);
  set("n_min", when.nMin);
  set("n_max", when.nMax);
  set("k_min", when.kMin);
  set("k_max", when.kMax);
  set("batch_min", when.batchMin);
  set("batch_max", when.batchMax);
  set("blocks_min", when.blocksMin);
  set("blocks_max", when.blocksMax);
  auto setBool = [&](StringRef key, std::optional<bool> v) {
    if (v)
      e.emplace_back(b.getStringAttr(key), b.getBoolAttr(*v));
  };
  setBool("a_aligned", when.aAligned);
  setBool("b_aligned", when.bAligned);
  setBool("whole_tiles", when.wholeTiles);
  if (const std::optional<WaveFit> &fit = when.waveFit) {
    NamedAttribute f[] = {
        b.getNamedAttr("wave", b.getI64IntegerAttr(fit->wave)),
        b.getNamedAttr("versus",
                       b.getI64ArrayAttr({fit->versusBM, fit->versusBN})),
        b.getNamedAttr("weight", b.getI64IntegerAttr(fit->weight)),
        b.getNamedAttr("versus_weight",
                       b.getI64IntegerAttr(fit->versusWeight))};
    e.emplace_back(b.getStringAttr("wave_fit"), b.getDictionaryAttr(f));
  }
  return b.getDictionaryAttr(e);
}

namespace {
/// One kernel of a gemm.matmul's family, built and ready to be launched.
struct BuiltKernel {
  KernelChoice choice;
  gpu::GPUFuncOp kernel;
  /// The reduction kernel of a split-K config, else null (also for
  /// `reduction = cluster`, which reduces in the GEMM kernel).
  gpu::GPUFuncOp reduce;
  /// A split-K kernel launched in clusters of (1, slices, 1) blocks.
  bool clusterReduce = false;
  /// A `reduction = fixup` kernel: the last wave's tiles split, reduced in
  /// the kernel (workspace and flags, no reduction kernel); the blocks of
  /// it one SM holds, which size the wave.
  bool fixup = false;
  int64_t blocksPerSM = 1;
  /// A `load = tma` kernel: the launch passes the tensor maps of A and B.
  bool tma = false;
  int64_t threads = 0, smem = 0;
  /// The layout of the gemm.matmul (the manifest's), set by emitFamily: the
  /// kernel's own is tn where operands are transposed first
  /// (createKernelView).
  Layout layout = Layout::tn;
  /// The kernels of the family (pack, GEMM, reduction) take part in
  /// programmatic dependent launch (addGridDependencyControl).
  bool programmatic = false;
  /// Built on and launched with A and B as stored, whatever the family's
  /// packing (readsOperandsInPlace).
  bool inPlace = false;
};
} // namespace

/// Whether kernels for `target` take part in programmatic dependent launch
/// (griddepcontrol, sm_90 and later).
static bool hasProgrammaticLaunch(const TargetInfo &target) {
  return target.isNVIDIA() && target.archVersion >= 90;
}

/// Makes `kernel` safe to launch with programmatic stream serialization
/// (CUDA's programmatic dependent launch) and lets the next kernel in the
/// stream start early: it begins with `griddepcontrol.launch_dependents`
/// (the next grid may be scheduled once every block of this one has
/// started) and `griddepcontrol.wait` (nothing is read or written before the
/// grids this one depends on have completed and their memory is visible).
/// Launched the ordinary way (gpu.launch_func through mgpuLaunchKernel),
/// both are no-ops. The runtime launches a manifest entry's kernels (pack,
/// GEMM, reduction) with the attribute when the entry says
/// `programmatic_launch`: the reduction then waits for the GEMM kernel, the
/// GEMM kernel for the packing, without the launch gap between them
/// (docs/dispatch.md). Pack kernels are shared by a module's GEMMs: a kernel
/// that has the control already is left as it is.
static void addGridDependencyControl(OpBuilder &b, gpu::GPUFuncOp kernel) {
  Block &entry = kernel.getBody().front();
  if (!entry.empty() && isa<NVVM::GriddepcontrolOp>(entry.front()))
    return;
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(&entry);
  NVVM::GriddepcontrolOp::create(b, kernel.getLoc(),
                                 NVVM::GridDepActionKind::launch_dependents);
  NVVM::GriddepcontrolOp::create(b, kernel.getLoc(),
                                 NVVM::GridDepActionKind::wait);
}

/// The names of a GEMM kernel's arguments: A, B, C, extras, and the
/// workspace of a split-K kernel (and the flags of a fix-up one).
static SmallVector<std::string> gemmArgNames(MatmulOp op, bool split,
                                             bool fixup = false) {
  SmallVector<std::string> names = {"A", "B", "C"};
  for (unsigned i = 0, e = op.getExtras().size(); i < e; ++i)
    names.push_back("extra" + std::to_string(i));
  if (split || fixup)
    names.push_back("workspace");
  if (fixup)
    names.push_back("flags");
  return names;
}

/// The launch facts of one kernel, as recorded in the module's
/// `gemm.kernels` attribute and written to the manifest.
static DictionaryAttr makeManifestEntry(MatmulOp op, const BuiltKernel &k,
                                        StringRef chip, int64_t gemmIndex,
                                        DictionaryAttr pack) {
  Builder b(op.getContext());
  gpu::GPUFuncOp kernel = k.kernel, reduce = k.reduce;
  ConfigAttr config = k.choice.config;
  std::string cfg;
  {
    llvm::raw_string_ostream os(cfg);
    Attribute(config).print(os);
  }
  std::string function;
  if (auto func = op->getParentOfType<FunctionOpInterface>())
    function = func.getName().str();
  bool split = bool(k.reduce);
  bool cluster = k.clusterReduce;
  SmallVector<NamedAttribute> e;
  auto set = [&](StringRef key, Attribute v) {
    e.emplace_back(b.getStringAttr(key), v);
  };
  set("name", b.getStringAttr(kernel.getName()));
  set("module",
      b.getStringAttr(kernel->getParentOfType<gpu::GPUModuleOp>().getName()));
  set("chip", b.getStringAttr(chip));
  // The family: kernels of the same (function, gemm) in rule order; a
  // runtime launches the first whose `when` holds (docs/dispatch.md).
  set("function", b.getStringAttr(function));
  set("gemm", b.getI64IntegerAttr(gemmIndex));
  set("rule", b.getStringAttr(k.choice.name));
  set("when", makeWhen(b, k.choice.when));
  set("block", b.getI64ArrayAttr({k.threads, 1, 1}));
  set("dynamic_shared_memory", b.getI64IntegerAttr(k.smem));
  // grid.x = ceil(M / tile_m) * ceil(N / tile_n); grid.y = the K slices of
  // a split-K kernel (1 otherwise); grid.z = batch (or 1). A persistent
  // kernel: grid.x = min(that product times the batch, the device's SMs),
  // grid.z = 1. A kernel of clusters (`multicast`; its cluster shape is
  // compiled in): grid.x rounded up to a multiple of `cluster_x`.
  SmallVector<NamedAttribute> grid{
      b.getNamedAttr("tile_m", b.getI64IntegerAttr(config.getBM())),
      b.getNamedAttr("tile_n", b.getI64IntegerAttr(config.getBN())),
      b.getNamedAttr("batched", b.getBoolAttr(op.hasBatch()))};
  if (config.getSchedule() != Schedule::tile)
    grid.push_back(b.getNamedAttr("persistent", b.getBoolAttr(true)));
  if (config.getMulticast() > 1)
    grid.push_back(b.getNamedAttr("cluster_x",
                                  b.getI64IntegerAttr(config.getMulticast())));
  set("grid", b.getDictionaryAttr(grid));
  set("layout", b.getStringAttr(stringifyLayout(k.layout)));
  set("a_type", printed(b, op.getAElementType()));
  set("c_type", printed(b, op.getCElementType()));
  set("acc_type", printed(b, op.getAccType()));
  set("reads_c", b.getBoolAttr(op.readsC()));
  set("config", b.getStringAttr(cfg));
  set("params",
      makeParams(b, op, kernel, gemmArgNames(op, split, k.fixup)));
  const SplitPolicy &policy = k.choice.split;
  auto splitAttrs = [&] {
    SmallVector<NamedAttribute> attrs{
        b.getNamedAttr("max", b.getI64IntegerAttr(policy.maxSlices)),
        b.getNamedAttr("fill_blocks", b.getI64IntegerAttr(policy.fillBlocks)),
        b.getNamedAttr("min_k_per_slice",
                       b.getI64IntegerAttr(policy.minKPerSlice))};
    if (!policy.clusterCapacity.empty())
      attrs.push_back(b.getNamedAttr(
          "cluster_capacity", b.getI64ArrayAttr(policy.clusterCapacity)));
    return attrs;
  };
  if (cluster) {
    // No workspace and no reduction kernel: the launch groups the slices of
    // each tile into a cluster of (1, slices, 1) blocks.
    SmallVector<NamedAttribute> attrs = splitAttrs();
    attrs.push_back(b.getNamedAttr("reduction", b.getStringAttr("cluster")));
    set("split_k", b.getDictionaryAttr(attrs));
  }
  if (k.fixup) {
    // No reduction kernel: grid.x holds the tiles before the last partial
    // wave one block each and the tail's tiles `slices` blocks each
    // (docs/runtime.md, "Fix-up").
    SmallVector<NamedAttribute> attrs = splitAttrs();
    attrs.push_back(b.getNamedAttr("reduction", b.getStringAttr("fixup")));
    attrs.push_back(
        b.getNamedAttr("blocks_per_sm", b.getI64IntegerAttr(k.blocksPerSM)));
    attrs.push_back(b.getNamedAttr(
        "sms", b.getI64IntegerAttr(lookupTarget(chip)->numSMs)));
    attrs.push_back(
        b.getNamedAttr("workspace_type", printed(b, op.getAccType())));
    set("split_k", b.getDictionaryAttr(attrs));
  }
  if (split) {
    SmallVector<std::string> reduceNames = gemmArgNames(op, true);
    reduceNames.erase(reduceNames.begin(), reduceNames.begin() + 2);
    SmallVector<NamedAttribute> attrs = splitAttrs();
    attrs.push_back(
        b.getNamedAttr("workspace_type", printed(b, op.getAccType())));
    attrs.push_back(b.getNamedAttr(
        "reduce",
        b.getDictionaryAttr(
            {b.getNamedAttr("name", b.getStringAttr(reduce.getName())),
             b.getNamedAttr(
                 "block", b.getI64ArrayAttr({kReduceBlockX, kReduceBlockY, 1})),
             b.getNamedAttr("group_outputs",
                            b.getI64IntegerAttr(kReduceGroupOutputs)),
             b.getNamedAttr("params",
                            makeParams(b, op, reduce, reduceNames))})));
    set("split_k", b.getDictionaryAttr(attrs));
  }
  if (k.tma) {
    // The kernel takes, after its params, the device address of each map
    // (a CUtensorMap of 128 bytes, 128-byte swizzle, zero fill) or null.
    SmallVector<Attribute> maps;
    for (bool a : {true, false})
      maps.push_back(b.getDictionaryAttr(
          {b.getNamedAttr("operand", b.getStringAttr(a ? "A" : "B")),
           b.getNamedAttr("box", b.getI64ArrayAttr(tmaBoxDims(
                                     operandTmaBox(op, config, a),
                                     op.hasBatch()))),
           b.getNamedAttr("swizzle", b.getI64IntegerAttr(128))}));
    set("tensor_maps", b.getArrayAttr(maps));
  }
  if (pack)
    set("pack", pack);
  if (k.programmatic)
    set("programmatic_launch", b.getBoolAttr(true));
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
  // Upstream serialization names its temporary files after the module.
  if (name.contains('/'))
    return "kernel-module '" + name.str() +
           "' must not contain '/' (serialization names files after it)";
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
/// A unique kernel name in `gpuModule` from `base`: letters, digits and
/// '_' only, no leading digit (kernel names become PTX / ELF symbols:
/// `func.func @"a-b"` made LLVM abort with "Symbol name with unsupported
/// characters").
static std::string uniqueKernelName(gpu::GPUModuleOp gpuModule,
                                    std::string base) {
  for (char &c : base)
    if (!llvm::isAlnum(c) && c != '_')
      c = '_';
  if (base.empty() || llvm::isDigit(base.front()))
    base = "k" + base;
  SymbolTable symbols(gpuModule);
  std::string name = base;
  for (unsigned i = 0; symbols.lookup(name); ++i)
    name = base + "_" + std::to_string(i);
  return name;
}

/// `type` with every dimension dynamic if it is a static memref.
/// Shape-generic kernels: sizes are kernel arguments even when the host
/// knows them. With constant sizes, ptxas allocated registers differently
/// for ragged N (f16 tn 1000^3: 255 registers and 196 bytes of spills
/// against 238 and none), and the sizes buy nothing the kernel's run-time
/// edge checks need.
static Type getShapeGenericType(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !memref.hasStaticShape())
    return type;
  return MemRefType::get(
      SmallVector<int64_t>(memref.getRank(), ShapedType::kDynamic),
      memref.getElementType(), memref.getLayout(), memref.getMemorySpace());
}

/// A kernel `gpu.func` in `gpuModule` whose arguments are `op`'s operands
/// (A and B with the types of `packing`; a split-K kernel takes the
/// workspace last), named after the enclosing function, with a known block
/// size.
static gpu::GPUFuncOp
createKernelFunc(OpBuilder &b, MatmulOp op, gpu::GPUModuleOp gpuModule,
                 int64_t threads, const OperandPacking &packing,
                 ConfigAttr config, bool split, bool tma) {
  std::string base = "gemm";
  if (auto func = op->getParentOfType<FunctionOpInterface>())
    base = (func.getName() + "_gemm").str();
  std::string name = uniqueKernelName(gpuModule, base);
  SmallVector<Type> types(op->getOperandTypes());
  types[0] = packing.operands[0].kernelType;
  types[1] = packing.operands[1].kernelType;
  for (Type &t : types)
    t = getShapeGenericType(t);
  if (split)
    types.push_back(getSplitKWorkspaceType(op));
  if (config.getReduction() == Reduction::fixup) {
    types.push_back(getFixupWorkspaceType(op, config));
    types.push_back(getFixupFlagsType(b.getContext()));
  }
  // The tensor maps of A and B (TensorMap.h in the runtime).
  if (tma)
    types.append(2, LLVM::LLVMPointerType::get(b.getContext()));
  auto funcType = b.getFunctionType(types, {});
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToEnd(gpuModule.getBody());
  auto kernel = gpu::GPUFuncOp::create(b, op.getLoc(), name, funcType);
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  kernel.setKnownBlockSizeAttr(
      b.getDenseI32ArrayAttr({int32_t(threads), 1, 1}));
  return kernel;
}

/// The index the next gemm.matmul's kernels get in `gemm.kernels` (one
/// more than the largest recorded).
static int64_t nextGemmIndex(ModuleOp module) {
  int64_t next = 0;
  if (auto list = module->getAttrOfType<ArrayAttr>(kKernelsAttrName))
    for (Attribute a : list)
      if (auto d = dyn_cast<DictionaryAttr>(a))
        if (auto g = d.getAs<IntegerAttr>("gemm"))
          next = std::max(next, g.getInt() + 1);
  return next;
}

/// The sizes of `op` on the host side (index values), and its A and B.
struct HostSizes {
  Value m, n, k, batch;
  Value a, b;
};

static HostSizes getHostSizes(OpBuilder &b, Location loc, MatmulOp op) {
  unsigned b0 = op.hasBatch() ? 1 : 0;
  HostSizes s;
  s.a = op.getA();
  s.b = op.getB();
  s.m = memref::DimOp::create(b, loc, op.getC(), b0);
  s.n = memref::DimOp::create(b, loc, op.getC(), b0 + 1);
  s.k = memref::DimOp::create(b, loc, op.getA(), b0 + op.getAKDim());
  s.batch = op.hasBatch() ? Value(memref::DimOp::create(b, loc, op.getC(), 0))
                          : Value(arith::ConstantIndexOp::create(b, loc, 1));
  return s;
}

/// batch * ceil(M / bm) * ceil(N / bn) on the host.
static Value emitBlockCount(IndexMath &m, const HostSizes &s, int64_t bm,
                            int64_t bn) {
  return m.mul(s.batch, m.mul(m.ceilDiv(s.m, bm), m.ceilDiv(s.n, bn)));
}

/// i1: `when` holds for the sizes and operands (the host side of
/// SizeBounds::holds).
static Value emitHolds(OpBuilder &b, Location loc, const HostSizes &s,
                       const SizeBounds &when, int64_t bm, int64_t bn) {
  IndexMath m(b, loc, /*useIndex=*/true);
  Value holds = arith::ConstantIntOp::create(b, loc, 1, 1);
  auto bound = [&](Value v, std::optional<int64_t> lo,
                   std::optional<int64_t> hi) {
    if (lo)
      holds =
          m.andI1(holds, arith::CmpIOp::create(
                             b, loc, arith::CmpIPredicate::sge, v, m.c(*lo)));
    if (hi)
      holds =
          m.andI1(holds, arith::CmpIOp::create(
                             b, loc, arith::CmpIPredicate::sle, v, m.c(*hi)));
  };
  bound(s.m, when.mMin, when.mMax);
  bound(s.n, when.nMin, when.nMax);
  bound(s.k, when.kMin, when.kMax);
  bound(s.batch, when.batchMin, when.batchMax);
  Value blocks;
  if (when.blocksMin || when.blocksMax || when.waveFit)
    blocks = emitBlockCount(m, s, bm, bn);
  if (when.blocksMin || when.blocksMax)
    bound(blocks, when.blocksMin, when.blocksMax);
  // WaveFit: weight * ceil(blocks / wave) <= versusWeight * ceil(versus
  // blocks / wave).
  if (const std::optional<WaveFit> &fit = when.waveFit) {
    auto weigh = [&](Value tiles, int64_t weight) {
      return m.mul(m.ceilDiv(tiles, fit->wave), m.c(weight));
    };
    Value versus = emitBlockCount(m, s, fit->versusBM, fit->versusBN);
    holds =
        m.andI1(holds, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle,
                                             weigh(blocks, fit->weight),
                                             weigh(versus, fit->versusWeight)));
  }
  // A boolean condition of `when`: holds when `fact` (i1) is `want`.
  auto requireFact = [&](Value fact, bool want) {
    if (!want)
      fact = arith::XOrIOp::create(b, loc, fact,
                                   arith::ConstantIntOp::create(b, loc, 1, 1));
    holds = m.andI1(holds, fact);
  };
  // Whole tiles: M and N multiples of the tile (or not, as asked).
  if (std::optional<bool> want = when.wholeTiles) {
    auto zero = [&](Value v, int64_t tile) {
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                   m.rem(v, tile), m.c(0))
          .getResult();
    };
    requireFact(m.andI1(zero(s.m, bm), zero(s.n, bn)), *want);
  }
  // OperandAlignment: what the runtimes check (the start address included),
  // false where the type already rules 16-byte copies out.
  auto aligned = [&](Value operand, std::optional<bool> want) {
    if (!want)
      return;
    auto type = cast<MemRefType>(operand.getType());
    int64_t multiple = getVectorCopyMultiple(type);
    requireFact(getStaticVectorCopiesOk(type, multiple) == false
                    ? arith::ConstantIntOp::create(b, loc, 0, 1).getResult()
                    : emitVectorCopiesOk(b, loc, operand, multiple),
                *want);
  };
  aligned(s.a, when.aAligned);
  aligned(s.b, when.bAligned);
  return holds;
}

/// The host side of SplitPolicy::slices.
static Value emitSlices(IndexMath &m, const HostSizes &s, const SplitPolicy &p,
                        Value blocks) {
  Value slices = m.c(p.maxSlices);
  if (p.fillBlocks > 0) {
    Value fill = m.div(m.c(p.fillBlocks), m.max(blocks, m.c(1)));
    slices = m.min(slices, fill);
  }
  slices = m.min(slices, m.ceilDiv(s.k, std::max<int64_t>(p.minKPerSlice, 1)));
  if (!p.clusterCapacity.empty()) {
    // The cluster sizes whose clusters all run at once.
    Value fits = m.c(0);
    for (int64_t capacity : p.clusterCapacity)
      fits = m.add(fits, m.select(arith::CmpIOp::create(
                                      m.b, m.loc, arith::CmpIPredicate::sle,
                                      blocks, m.c(capacity)),
                                  m.c(1), m.c(0)));
    slices = m.min(slices, fits);
  }
  return m.max(slices, m.c(1));
}

/// The runtime's GemmRtDType code of `type` (runtime/include/gemm-c/
/// Runtime.h, included for its numbering), the element type
/// mgpuGemmTensorMap reads.
static int64_t runtimeDTypeCode(Type type) {
  if (type.isF16())
    return GEMM_RT_DTYPE_F16;
  if (type.isBF16())
    return GEMM_RT_DTYPE_BF16;
  if (type.isF32())
    return GEMM_RT_DTYPE_F32;
  if (type.isInteger(8))
    return GEMM_RT_DTYPE_I8;
  if (isa<Float8E4M3FNType>(type))
    return GEMM_RT_DTYPE_F8E4M3FN;
  if (isa<Float8E5M2Type>(type))
    return GEMM_RT_DTYPE_F8E5M2;
  return GEMM_RT_DTYPE_INVALID;
}

/// The tensor map of `operand` (a memref of rank 2 or 3, as the kernel
/// takes it): a call of the runtime's mgpuGemmTensorMap, which returns the
/// map's device address or null (the kernel then copies element by element).
static Value emitTensorMap(OpBuilder &b, Location loc, ModuleOp module,
                           Value operand, ArrayRef<int64_t> box) {
  MLIRContext *ctx = b.getContext();
  auto i64 = b.getI64Type();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  constexpr StringLiteral kName = "mgpuGemmTensorMap";
  if (!module.lookupSymbol(kName)) {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(module.getBody());
    SmallVector<Type> args = {i64, i64, ptr};
    args.append(10, i64);
    LLVM::LLVMFuncOp::create(b, loc, kName,
                             LLVM::LLVMFunctionType::get(ptr, args));
  }
  auto type = cast<MemRefType>(operand.getType());
  int64_t rank = type.getRank();
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, operand);
  auto toI64 = [&](Value v) -> Value {
    return arith::IndexCastOp::create(b, loc, i64, v);
  };
  auto c64 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, v, 64);
  };
  Value aligned = LLVM::IntToPtrOp::create(
      b, loc, ptr,
      toI64(memref::ExtractAlignedPointerAsIndexOp::create(b, loc, operand)),
      LLVM::DereferenceableAttr());
  SmallVector<Value> args = {c64(runtimeDTypeCode(type.getElementType())),
                             c64(rank), aligned, toI64(meta.getOffset())};
  for (int64_t d = 0; d < 3; ++d)
    args.push_back(d < rank ? toI64(meta.getSizes()[d]) : c64(1));
  for (int64_t d = 0; d < 3; ++d)
    args.push_back(d < rank ? toI64(meta.getStrides()[d]) : c64(0));
  for (int64_t d = 0; d < 3; ++d)
    args.push_back(c64(d < rank ? box[d] : 1));
  return LLVM::CallOp::create(b, loc, TypeRange{ptr},
                              SymbolRefAttr::get(ctx, kName), args)
      .getResult();
}

/// Emits the gpu.launch_func of `k.kernel` on the `packed` operands (grid.x
/// walks the output tiles, grid.y the K slices of a split-K kernel, grid.z
/// the batch) and, for split-K, the workspace and the reduction launch;
/// appends its launch facts (for the module attribute
/// `gemm.kernels`) to `entries`.
static void emitLaunch(OpBuilder &b, MatmulOp op, const BuiltKernel &k,
                       const PackedOperands &packed, StringRef chip,
                       int64_t gemmIndex, SmallVectorImpl<Attribute> &entries) {
  Location loc = op.getLoc();
  ConfigAttr config = k.choice.config;
  gpu::GPUFuncOp kernel = k.kernel, reduce = k.reduce;
  SmallVector<Value> operands(op->getOperands());
  operands[0] = packed.a;
  operands[1] = packed.b;
  IndexMath m(b, loc, /*useIndex=*/true);
  HostSizes sizes = getHostSizes(b, loc, op);
  Value gx = m.mul(m.ceilDiv(sizes.m, config.getBM()),
                   m.ceilDiv(sizes.n, config.getBN()));
  // Clusters of `multicast` blocks: the last one may hold a block past
  // the tiles (which only joins the cluster's barriers).
  if (int64_t cluster = config.getMulticast(); cluster > 1)
    gx = m.mul(m.ceilDiv(gx, cluster), cluster);
  Value gz = sizes.batch;
  if (config.getSchedule() != Schedule::tile) {
    // Persistent: one block per SM at most, each walking tiles and batches
    // (the runtime takes the device's SM count; this code the target's), in
    // whole clusters.
    int64_t cluster = config.getMulticast();
    int64_t sms = lookupTarget(chip)->numSMs;
    gx = m.min(m.mul(gx, gz),
               m.c(std::max(sms / cluster, int64_t(1)) * cluster));
    gz = m.c(1);
  }
  Value gy = m.c(1);
  Value workspace, flags;
  std::optional<gpu::KernelDim3> cluster;
  if (k.fixup) {
    // The tiles of the last partial wave (r: the tile count modulo the
    // blocks one wave holds) run in `slices` K slices each, the others
    // whole; r = 0, or one slice, splits nothing (r is then 0). The
    // workspace has max(r, 1) planes of slices, the flags (zeroed here
    // where r > 0, left zero by the kernel) one counter each.
    Value tiles = m.mul(gx, gz);
    int64_t slots = int64_t(lookupTarget(chip)->numSMs) * k.blocksPerSM;
    Value tail = m.rem(tiles, m.c(slots));
    SplitPolicy policy = k.choice.split;
    policy.fillBlocks = slots;
    Value none = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tail,
                                       m.c(0));
    gy = m.select(none, m.c(1), emitSlices(m, sizes, policy, tail));
    // One slice splits nothing: no tail (one unused plane).
    tail = m.select(m.lt(m.c(1), gy), tail, m.c(0));
    Value planes = m.max(tail, m.c(1));
    gx = m.add(m.sub(tiles, tail), m.mul(tail, gy));
    gz = m.c(1);
    workspace = gpu::AllocOp::create(b, loc, getFixupWorkspaceType(op, config),
                                     /*asyncToken=*/Type(), ValueRange(),
                                     ValueRange{planes, gy}, ValueRange())
                    .getMemref();
    flags = gpu::AllocOp::create(b, loc, getFixupFlagsType(b.getContext()),
                                 /*asyncToken=*/Type(), ValueRange(),
                                 ValueRange{planes}, ValueRange())
                .getMemref();
    // With no tail the kernel reads no flag: no memset on whole waves.
    scf::IfOp::create(
        b, loc, m.lt(m.c(0), tail), [&](OpBuilder &b, Location loc) {
          gpu::MemsetOp::create(b, loc, Type(), ValueRange(), flags,
                                arith::ConstantIntOp::create(b, loc, 0, 32));
          scf::YieldOp::create(b, loc);
        });
    operands.push_back(workspace);
    operands.push_back(flags);
    gy = m.c(1);
  }
  if (k.clusterReduce) {
    gy = emitSlices(m, sizes, k.choice.split, m.mul(gx, gz));
    cluster = gpu::KernelDim3{m.c(1), gy, m.c(1)};
  }
  if (k.reduce) {
    gy = emitSlices(m, sizes, k.choice.split, m.mul(gx, gz));
    workspace =
        gpu::AllocOp::create(b, loc, getSplitKWorkspaceType(op),
                             /*asyncToken=*/Type(), ValueRange(),
                             ValueRange{gz, gy, sizes.m, sizes.n}, ValueRange())
            .getMemref();
    operands.push_back(workspace);
  }
  for (auto [v, type] : llvm::zip(operands, kernel.getArgumentTypes()))
    v = castIfNeeded(b, loc, v, type);
  // The reduction reads C, the extras and the workspace.
  SmallVector<Value> reduceOperands(ArrayRef<Value>(operands).drop_front(2));
  if (k.tma) {
    // The tensor maps of A and B, built from the operands the kernel reads.
    bool batched = op.hasBatch();
    auto module = op->getParentOfType<ModuleOp>();
    operands.push_back(emitTensorMap(
        b, loc, module, operands[0],
        tmaBoxDims(operandTmaBox(op, config, /*a=*/true), batched)));
    operands.push_back(emitTensorMap(
        b, loc, module, operands[1],
        tmaBoxDims(operandTmaBox(op, config, /*a=*/false), batched)));
  }
  Value smemV = arith::ConstantIntOp::create(b, loc, k.smem, 32);
  gpu::LaunchFuncOp::create(b, loc, kernel, gpu::KernelDim3{gx, gy, gz},
                            gpu::KernelDim3{m.c(k.threads), m.c(1), m.c(1)},
                            smemV, operands, /*asyncTokenType=*/Type(),
                            /*asyncDependencies=*/ValueRange(), cluster);
  if (k.fixup) {
    gpu::DeallocOp::create(b, loc, Type(), ValueRange(), workspace);
    gpu::DeallocOp::create(b, loc, Type(), ValueRange(), flags);
  }
  if (k.reduce) {
    Value rx = m.ceilDiv(sizes.n, kReduceBlockX);
    Value rowsPerBlock =
        emitReduceRowsPerBlock(m, gy, sizes.batch, sizes.m, sizes.n);
    Value ry = m.min(m.ceilDiv(sizes.m, rowsPerBlock), m.c(kMaxReduceGridY));
    gpu::LaunchFuncOp::create(
        b, loc, reduce, gpu::KernelDim3{rx, ry, gz},
        gpu::KernelDim3{m.c(kReduceBlockX), m.c(kReduceBlockY), m.c(1)},
        arith::ConstantIntOp::create(b, loc, 0, 32), reduceOperands);
    gpu::DeallocOp::create(b, loc, Type(), ValueRange(), workspace);
  }

  entries.push_back(makeManifestEntry(op, k, chip, gemmIndex, packed.manifest));
}

/// Emits, through `launch`, the launch of `kernels[i]` if its bounds hold,
/// else of the rest: an scf.if chain in rule order, the last kernel
/// unconditional.
static void
emitDispatch(OpBuilder &b, MatmulOp op, ArrayRef<BuiltKernel> kernels,
             function_ref<void(OpBuilder &, const BuiltKernel &)> launch) {
  if (kernels.size() == 1)
    return launch(b, kernels.front());
  Location loc = op.getLoc();
  const BuiltKernel &first = kernels.front();
  HostSizes sizes = getHostSizes(b, loc, op);
  Value holds =
      emitHolds(b, loc, sizes, first.choice.when, first.choice.config.getBM(),
                first.choice.config.getBN());
  scf::IfOp::create(
      b, loc, holds,
      [&](OpBuilder &b, Location loc) {
        launch(b, first);
        scf::YieldOp::create(b, loc);
      },
      [&](OpBuilder &b, Location loc) {
        emitDispatch(b, op, kernels.drop_front(), launch);
        scf::YieldOp::create(b, loc);
      });
}

/// Builds the kernel of `choice` (and its reduction kernel for split-K) in
/// `gpuModule` and checks its shared memory against the target.
static FailureOr<BuiltKernel> buildKernel(RewriterBase &rewriter, MatmulOp op,
                                          const KernelChoice &choice,
                                          const OperandPacking &packing,
                                          gpu::GPUModuleOp gpuModule,
                                          const VendorLowering &lowering) {
  const TargetInfo &target = *lowering.target;
  BuiltKernel k;
  k.choice = choice;
  ConfigAttr config = choice.config;
  k.clusterReduce = config.getReduction() == Reduction::cluster;
  k.fixup = config.getReduction() == Reduction::fixup;
  k.tma = config.getLoad() != Load::cp_async;
  bool split = config.getSplitK() > 1 && !k.clusterReduce && !k.fixup;
  k.threads = config.getNumBlockWarps() * target.warpSize;
  k.programmatic = hasProgrammaticLaunch(target);
  k.kernel = createKernelFunc(rewriter, op, gpuModule, k.threads, packing,
                              config, split, k.tma);
  FailureOr<int64_t> smem =
      lowering.buildKernel(rewriter, k.kernel, op, config, target);
  if (failed(smem))
    return failure();
  if (*smem > target.maxSharedMemPerBlock)
    return op.emitOpError("kernel needs ")
           << *smem << " bytes of shared memory, over the "
           << target.maxSharedMemPerBlock << " available on " << target.name;
  k.smem = *smem;
  k.blocksPerSM = residentBlocksPerSM(target, k.threads, k.smem);
  if (split) {
    // C and the extras: the GEMM kernel's arguments less A, B, the
    // workspace and the tensor maps.
    SmallVector<Type> types(k.kernel.getArgumentTypes().drop_front(2).drop_back(
        1 + (k.tma ? 2 : 0)));
    k.reduce = buildSplitKReduceKernel(
        rewriter, op, config, target, gpuModule,
        uniqueKernelName(gpuModule, k.kernel.getName().str() + "_reduce"),
        types);
  }
  return k;
}

/// The operands `op` has copied transposed under `lowering` (before its
/// kernels, which then read the layout tn).
static OperandTransposes getTransposes(MatmulOp op,
                                       const VendorLowering &lowering) {
  return getOperandTransposes(op, *lowering.target, lowering.allowTf32,
                              lowering.transposeOperands);
}

/// Emits one family of `op`'s kernels at the builder's point: the packing
/// of its operands (it depends on the operands only, `transposes` copied
/// transposed), the kernels of every choice built from the kernel view of the
/// op (createKernelView), the host code choosing and launching one, and the
/// workspaces freed. One packing serves the members, emitted before the
/// choice, unless some read their operands in place (readsOperandsInPlace):
/// then each other member packs in its own branch, after the choice. Appends
/// the kernels' launch facts to `entries`.
static LogicalResult
emitFamily(RewriterBase &rewriter, MatmulOp op, ArrayRef<KernelChoice> choices,
           const OperandTransposes &transposes, gpu::GPUModuleOp gpuModule,
           const VendorLowering &lowering, int64_t gemmIndex,
           SmallVectorImpl<Attribute> &entries) {
  // A default that reads through TMA also has rows of an odd number of 16
  // bytes packed where the GEMM is compute-bound (the members share one
  // packing).
  bool tmaDefault = !choices.empty() &&
                    choices.back().config.getKind() == Kind::wgmma &&
                    choices.back().config.getLoad() != Load::cp_async;
  OperandPacking packing =
      planOperandPacking(op, lowering.packUnaligned, transposes, tmaDefault);
  // The family's default decides how far reading misaligned rows in place
  // pays: wgmma tiles read them with shifted copies.
  packing.direct = getDirectLimits(
      !choices.empty() && choices.back().config.getKind() == Kind::wgmma);
  // Members on operands as stored: only where nothing is transposed (the
  // kernel view is built on the transposed workspaces).
  OperandPacking asStored = planOperandPacking(op, false, transposes);
  auto inPlace = [&](const KernelChoice &c) {
    return !transposes.any() && readsOperandsInPlace(c.config);
  };
  bool perMember = packing.any() && llvm::any_of(choices, inPlace);
  // The packing emitted before the choice (none when per member).
  const OperandPacking &before = perMember ? asStored : packing;
  PackedOperands shared = emitOperandPacking(rewriter, op, before, gpuModule);
  MatmulOp kernelOp = createKernelView(rewriter, op, packing, shared);
  llvm::scope_exit eraseView([&] {
    if (kernelOp != op)
      kernelOp->erase();
  });
  SmallVector<BuiltKernel, 4> kernels;
  for (const KernelChoice &choice : choices) {
    bool stored = inPlace(choice);
    // A rule whose config an earlier member has (bounds that one
    // conjunction cannot express, e.g. mid-64x64 beside decode-64x64)
    // launches that member's kernels under its own bounds and split policy.
    const BuiltKernel *same = llvm::find_if(kernels, [&](const BuiltKernel &k) {
      return k.choice.config == choice.config && k.inPlace == stored;
    });
    if (same != kernels.end()) {
      BuiltKernel k = *same;
      k.choice = choice;
      kernels.push_back(std::move(k));
      continue;
    }
    FailureOr<BuiltKernel> k =
        buildKernel(rewriter, kernelOp, choice, stored ? asStored : packing,
                    gpuModule, lowering);
    if (failed(k))
      return failure();
    k->layout = op.getLayout();
    k->inPlace = stored;
    kernels.push_back(std::move(*k));
  }
  llvm::SetVector<gpu::GPUFuncOp> packKernels;
  packKernels.insert(shared.kernels.begin(), shared.kernels.end());
  emitDispatch(
      rewriter, kernelOp, kernels, [&](OpBuilder &b, const BuiltKernel &k) {
        if (!perMember || k.inPlace)
          return emitLaunch(b, kernelOp, k, shared, lowering.chip, gemmIndex,
                            entries);
        PackedOperands own = emitOperandPacking(b, op, packing, gpuModule);
        packKernels.insert(own.kernels.begin(), own.kernels.end());
        emitLaunch(b, kernelOp, k, own, lowering.chip, gemmIndex, entries);
        emitPackCleanup(b, op.getLoc(), packing, own);
      });
  emitPackCleanup(rewriter, op.getLoc(), before, shared);
  if (hasProgrammaticLaunch(*lowering.target)) {
    llvm::SetVector<gpu::GPUFuncOp> launched;
    for (const BuiltKernel &k : kernels) {
      launched.insert(k.kernel);
      launched.insert(k.reduce);
    }
    launched.insert(packKernels.begin(), packKernels.end());
    for (gpu::GPUFuncOp kernel : launched)
      if (kernel)
        addGridDependencyControl(rewriter, kernel);
  }
  return success();
}

/// The rewrite: the kernel module, the families (the members on the stored
/// layout, then those on transposed operands, each under its own packing,
/// chosen between by getUntransposedBounds on the host), and the op erased.
static LogicalResult lowerMatmulToLaunch(RewriterBase &rewriter, MatmulOp op,
                                         ArrayRef<KernelChoice> choices,
                                         const VendorLowering &lowering) {
  auto module = op->getParentOfType<ModuleOp>();
  if (!module)
    return rewriter.notifyMatchFailure(op, "not inside a module");
  FailureOr<gpu::GPUModuleOp> gpuModule =
      getOrCreateKernelModule(rewriter, module, lowering);
  if (failed(gpuModule))
    return failure();
  // The launch facts of the family, in rule order, for gemm-write-artifacts.
  SmallVector<Attribute> entries;
  if (auto old = module->getAttrOfType<ArrayAttr>(kKernelsAttrName))
    entries.append(old.begin(), old.end());
  int64_t gemmIndex = nextGemmIndex(module);
  OperandTransposes transposes = getTransposes(op, lowering);
  auto split = llvm::partition_point(
      choices, [](const KernelChoice &c) { return !c.transposed; });
  ArrayRef<KernelChoice> direct(choices.begin(), split),
      onTransposed(split, choices.end());
  auto family = [&](ArrayRef<KernelChoice> members, bool transposed) {
    return emitFamily(rewriter, op, members,
                      transposed ? transposes : OperandTransposes(), *gpuModule,
                      lowering, gemmIndex, entries);
  };
  LogicalResult result = success();
  if (direct.empty() || onTransposed.empty()) {
    result = family(choices, !onTransposed.empty());
  } else {
    // The stored layout's members are bounded to getUntransposedBounds.
    Location loc = op.getLoc();
    Value small =
        emitHolds(rewriter, loc, getHostSizes(rewriter, loc, op),
                  getUntransposedBounds(op.getSignature(), transposes), 1, 1);
    // (Built into the inserted scf.if: the kernel view needs its parents.)
    auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange(), small,
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard g(rewriter);
    rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    result = family(direct, false);
    rewriter.setInsertionPoint(ifOp.elseBlock()->getTerminator());
    if (succeeded(result))
      result = family(onTransposed, true);
  }
  if (failed(result))
    return failure();
  rewriter.modifyOpInPlace(module, [&] {
    module->setAttr(kKernelsAttrName, rewriter.getArrayAttr(entries));
  });
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

/// Checks that `config` lowers for `op` under `lowering`: the legality
/// rules, and a grid the launch of static sizes fits (grid.x walks the
/// output tiles, grid.z the batch).
static LogicalResult checkChoiceLowerable(MatmulOp op,
                                          const GemmSignature &kernelSig,
                                          ConfigAttr config,
                                          const VendorLowering &lowering) {
  if (std::string error = checkConfigLowerable(toTileConfig(config), kernelSig,
                                               *lowering.target);
      !error.empty())
    return op.emitOpError(error);
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
  return success();
}

/// The epilogue ops no vendor lowers: those outside the arith and math
/// dialects. The verifier takes any memory-effect-free op with scalar
/// results, and the lowerings pass what they do not convert to LLVM as is:
/// another vendor's intrinsic (rocdl.workitem.id.x under NVPTX, nvvm's
/// under AMDGPU) or an llvm.intr the back-end cannot select
/// (llvm.intr.lround on f16) then aborted instruction selection.
static std::string getEpilogueDialectRule(Operation *op) {
  StringRef ns = op->getName().getDialectNamespace();
  if (ns == arith::ArithDialect::getDialectNamespace() ||
      ns == math::MathDialect::getDialectNamespace())
    return "";
  return "the kernels lower arith and math ops only";
}

FailureOr<KernelChoices>
mlir::gemm::detail::getLowerableChoices(MatmulOp op,
                                        const VendorLowering &lowering) {
  if (!lowering.optionError.empty())
    return op.emitOpError("cannot be lowered by ")
           << lowering.pass << ": " << lowering.optionError;
  if (failed(checkOpLowerable(op, lowering)))
    return failure();
  // Kernels on transposed operands see the layout tn.
  GemmSignature kernelSig =
      getKernelSignature(op.getSignature(), getTransposes(op, lowering));
  KernelChoices choices =
      getKernelChoices(op, *lowering.target, lowering.allowTf32,
                       lowering.dispatch, lowering.transposeOperands);
  ElemKind operand = instrOperandKind(kernelSig.a, InstrKind::wgmma);
  for (const KernelChoice &choice : choices) {
    if (failed(checkChoiceLowerable(
            op, choice.transposed ? kernelSig : op.getSignature(),
            choice.config, lowering)))
      return failure();
    if (choice.transposed)
      if (std::string error = checkConfigOnTransposedOperands(
              toTileConfig(choice.config), operand);
          !error.empty())
        return op.emitOpError("layout ")
               << op.getSignature().layoutName() << ": " << error;
  }
  if (op.hasBatch()) {
    int64_t batch = op.getC().getType().getDimSize(0);
    if (!ShapedType::isDynamic(batch) && batch > kMaxGridZ)
      return op.emitOpError("has a batch of ")
             << batch << ", over the " << kMaxGridZ
             << " blocks a launch takes along grid.z";
  }
  if (op.hasEpilogue()) {
    for (Operation &inner : op.getEpilogue().front().without_terminator()) {
      std::string reason = getEpilogueDialectRule(&inner);
      if (reason.empty() && lowering.epilogueOpRule)
        reason = lowering.epilogueOpRule(&inner);
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
  return choices;
}

LogicalResult
MatmulToLaunch::matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const {
  FailureOr<KernelChoices> choices = getLowerableChoices(op, lowering);
  if (failed(choices))
    return failure();
  return lowerMatmulToLaunch(rewriter, op, *choices, lowering);
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
    ok &= succeeded(getLowerableChoices(op, lowering));
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
