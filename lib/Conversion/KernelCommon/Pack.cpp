//===- Pack.cpp - aligned workspaces for operands the fast copies can't read ===//
//
// The GEMM kernels stage A and B with 16-byte copies (cp.async on NVIDIA,
// vector loads on AMD) only when an operand is 16-byte aligned: base pointer,
// offset and leading stride multiples of 16 bytes, unit inner stride. Any
// other operand is read element by element, 5-8x slower (f16 4099x4097x4095:
// 45 TFLOP/s against 340 for 4096^3, see docs/performance.md). For such
// operands the host side packs A and B first: a copy kernel writes each into a
// zero-padded workspace whose contiguous dimension (and K) is rounded up to a
// multiple of 128 bytes (whole cache lines per row), and the GEMM kernel
// reads the workspaces. The zeros in
// the padded K range of both operands add nothing to the products, and the
// GEMM takes M and N from C, so padded M or N columns are never read. Both
// operands are packed together because padding K in one requires it in the
// other.
//
// When the strides prove misalignment at compile time (static leading
// dimensions such as K = 4095 for f16), the workspaces are always used and the
// GEMM kernel takes their static, aligned types. When only the run time knows
// (dynamic strides or offsets), the host checks and packs if needed; the GEMM
// kernel's A and B types then admit both the original operands and the
// workspaces. Operands without a strided layout are not packed (the element
// path stays correct); batched operands are packed per batch element
// (grid.z).
//
//===----------------------------------------------------------------------===//

#include "Pack.h"
#include "IndexMath.h"
#include "KernelSetup.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::detail;

/// Threads per block of the pack kernels, and per warp (the grid rule in the
/// manifest counts 32-thread warps on every target).
static constexpr int64_t kPackThreads = 256;
static constexpr int64_t kWarp = 32;
/// Name prefix of the pack kernels.
static constexpr StringLiteral kPackPrefix = "gemm_pack_";
/// The most blocks a pack launch has (grid.x); its warps then step over the
/// rest of the row segments.
static constexpr int64_t kMaxPackBlocks = 16384;

/// Elements a warp of a pack kernel copies per row segment: 16 bytes per
/// lane, all loaded before any is stored. On the H200 (f16 4099x4095
/// operands) this copied at 1.9 TB/s; 64 bytes per lane with unpredicated
/// interior segments was slower (1.1 TB/s), and on AMD it spilled SGPRs.
static int64_t packWarpElems(int64_t multiple) { return kWarp * multiple; }

namespace {
enum class StaticAlignment { aligned, misaligned, unknown };
} // namespace

/// What the type alone says about 16-byte copies of a rank-2 (or batched
/// rank-3) operand with `multiple` elements per 16 bytes (the base pointer is
/// checked at run time by the kernel either way).
static StaticAlignment staticAlignment(MemRefType type, int64_t multiple) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return StaticAlignment::misaligned;
  bool unknown = false;
  auto divisible = [&](int64_t v, int64_t by) {
    if (ShapedType::isDynamic(v)) {
      unknown = true;
      return true;
    }
    return v % by == 0;
  };
  if (ShapedType::isDynamic(strides.back()))
    unknown = true;
  else if (strides.back() != 1)
    return StaticAlignment::misaligned;
  for (int64_t stride : ArrayRef(strides).drop_back())
    if (!divisible(stride, multiple))
      return StaticAlignment::misaligned;
  if (!divisible(offset, multiple))
    return StaticAlignment::misaligned;
  return unknown ? StaticAlignment::unknown : StaticAlignment::aligned;
}

static int64_t roundUp(int64_t v, int64_t to) { return (v + to - 1) / to * to; }

/// Whether dimension `d` of an operand of rank `rank` whose matrix
/// dimension `kDim` (0 or 1, after the batch) is K is rounded up in its
/// workspace: K and the contiguous (last) dimension are.
static bool isRoundedUp(unsigned d, unsigned rank, unsigned kDim) {
  return d == rank - 1 || d == rank - 2 + kDim;
}

/// The workspace of an operand of type `type` whose matrix dimension `kDim`
/// is K: identity layout, K and the contiguous dimension rounded up to
/// `roundTo`. `dynamic`: all dimensions dynamic.
static MemRefType workspaceType(MemRefType type, unsigned kDim,
                                int64_t roundTo, bool dynamic) {
  SmallVector<int64_t> shape(type.getShape());
  for (auto [d, size] : llvm::enumerate(shape)) {
    if (dynamic || ShapedType::isDynamic(size))
      size = ShapedType::kDynamic;
    else if (isRoundedUp(d, shape.size(), kDim))
      size = roundUp(size, roundTo);
  }
  return MemRefType::get(shape, type.getElementType(),
                         MemRefLayoutAttrInterface(), type.getMemorySpace());
}

/// The GEMM kernel's type for an operand that is packed at run time or not:
/// `type` itself if a workspace has it, else all-dynamic sizes, offset and
/// outer stride (the inner stride kept), to which both cast.
static Type runtimeKernelType(MemRefType type, MemRefType workspace) {
  if (type == workspace)
    return type;
  SmallVector<int64_t> strides;
  int64_t offset;
  (void)type.getStridesAndOffset(strides, offset);
  SmallVector<int64_t> kernelStrides(strides.size(), ShapedType::kDynamic);
  if (strides.back() == 1)
    kernelStrides.back() = 1;
  auto layout = StridedLayoutAttr::get(type.getContext(), ShapedType::kDynamic,
                                       kernelStrides);
  return MemRefType::get(
      SmallVector<int64_t>(type.getRank(), ShapedType::kDynamic),
      type.getElementType(), layout, type.getMemorySpace());
}

OperandPacking mlir::gemm::detail::planOperandPacking(MatmulOp op,
                                                      bool enabled) {
  OperandPacking p;
  p.kernelA = op.getA().getType();
  p.kernelB = op.getB().getType();
  if (!enabled)
    return p;
  auto typeA = cast<MemRefType>(op.getA().getType());
  auto typeB = cast<MemRefType>(op.getB().getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(typeA.getStridesAndOffset(strides, offset)) ||
      failed(typeB.getStridesAndOffset(strides, offset)))
    return p;
  unsigned elemBytes = op.getAElementType().getIntOrFloatBitWidth() / 8;
  p.multiple = 16 / elemBytes;
  p.roundTo = 128 / elemBytes;
  StaticAlignment a = staticAlignment(typeA, p.multiple);
  StaticAlignment b = staticAlignment(typeB, p.multiple);
  if (a == StaticAlignment::aligned && b == StaticAlignment::aligned)
    return p;
  p.mode = (a == StaticAlignment::misaligned || b == StaticAlignment::misaligned)
               ? PackMode::always
               : PackMode::runtime;
  bool dynamic = p.mode == PackMode::runtime;
  p.workspaceA = workspaceType(typeA, op.getAKDim(), p.roundTo, dynamic);
  p.workspaceB = workspaceType(typeB, op.getBKDim(), p.roundTo, dynamic);
  if (p.mode == PackMode::always) {
    p.kernelA = p.workspaceA;
    p.kernelB = p.workspaceB;
  } else {
    p.kernelA = runtimeKernelType(typeA, p.workspaceA);
    p.kernelB = runtimeKernelType(typeB, p.workspaceB);
  }
  return p;
}

//===----------------------------------------------------------------------===//
// The pack kernel
//===----------------------------------------------------------------------===//

/// dst[r, c] = src[r, c] inside src, 0 elsewhere. The work is split into
/// units of one row segment of `warpElems` elements, S = ceil(cols' /
/// warpElems) per row, numbered row by row; warp w of block bx takes units
/// bx * 8 + w, then steps by the grid's warps. Lane l copies the elements
/// l, l + 32, ... of its warp's segment, all loaded before any is stored, so
/// every load and store instruction of a warp touches 32 consecutive
/// elements. A block's warps take consecutive units: the segments of one
/// wide row, or several narrow rows (an operand 13 elements wide, one
/// segment per row, kept 7 of 8 warps idle and copied at a sixth of the
/// copy bandwidth when a block covered one row). One thread per 16 bytes
/// with loads 16 bytes apart across the lanes, 64-bit math and a division
/// per thread ran at 1.4-1.8 TB/s; the division here is per unit, in i32.
static gpu::GPUFuncOp createPackKernel(OpBuilder &b, Location loc,
                                       gpu::GPUModuleOp gpuModule,
                                       StringRef name, MemRefType src,
                                       MemRefType dst, int64_t warpElems) {
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToEnd(gpuModule.getBody());
  auto func = gpu::GPUFuncOp::create(b, loc, name,
                                     b.getFunctionType({src, dst}, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func.setKnownBlockSizeAttr(
      b.getDenseI32ArrayAttr({int32_t(kPackThreads), 1, 1}));
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  Value srcV = entry.getArgument(0), dstV = entry.getArgument(1);
  IndexMath m(b, loc);
  int64_t segment = warpElems, perLane = segment / kWarp;
  int64_t warpsPerBlock = kPackThreads / kWarp;
  auto gpuId = [&](auto op) { return m.from(op); };
  Value tid = gpuId(gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  Value bx = gpuId(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x));
  // Batched operands: one batch element per grid.z.
  unsigned b0 = src.getRank() - 2;
  SmallVector<Value> batch;
  if (b0)
    batch.push_back(gpu::BlockIdOp::create(b, loc, gpu::Dimension::z));
  auto at = [&](Value row, Value col) {
    SmallVector<Value> indices(batch);
    indices.append({row, col});
    return indices;
  };
  auto dim = [&](Value v, unsigned d) -> Value {
    return m.from(memref::DimOp::create(b, loc, v, d));
  };
  Value rows = dim(srcV, b0), cols = dim(srcV, b0 + 1);
  Value dstRows = dim(dstV, b0), dstCols = dim(dstV, b0 + 1);
  Value perRow = m.ceilDiv(dstCols, segment);
  Value units = m.mul(dstRows, perRow);
  // grid.x, from the launch's rule (gpu.grid_dim would need the ROCm device
  // library on AMD targets).
  Value gridX = m.min(m.ceilDiv(units, warpsPerBlock), m.c(kMaxPackBlocks));
  Value lane = m.rem(tid, kWarp);
  Value first = m.add(m.mul(bx, warpsPerBlock), m.div(tid, kWarp));
  Value lastCol = m.sub(cols, m.c(1)), lastRow = m.sub(rows, m.c(1));
  Value zero = arith::ConstantOp::create(
      b, loc, b.getZeroAttr(src.getElementType()));
  auto loop = scf::ForOp::create(b, loc, m.idx(first), m.idx(units),
                                 m.idx(m.mul(gridX, warpsPerBlock)));
  b.setInsertionPointToStart(loop.getBody());
  {
    IndexMath m(b, loc);
    Value unit = m.from(loop.getInductionVar());
    Value r = m.div(unit, perRow);
    Value c0 = m.add(m.mul(m.rem(unit, perRow), segment), lane);
    Value rowOk = m.lt(r, rows);
    Value srcRow = m.idx(m.min(r, lastRow));
    // All loads (clamped, always in bounds) before the stores.
    SmallVector<std::pair<Value, Value>> loaded;
    for (int64_t e = 0; e < perLane; ++e) {
      Value c = m.add(c0, e * kWarp);
      Value ok = m.andI1(rowOk, m.lt(c, cols));
      Value v = memref::LoadOp::create(
          b, loc, srcV, at(srcRow, m.idx(m.min(c, lastCol))));
      loaded.emplace_back(c, m.select(ok, v, zero));
    }
    for (auto [c, v] : loaded)
      emitIfLess(b, loc, c, dstCols, [&](OpBuilder &b) {
        IndexMath m(b, loc);
        memref::StoreOp::create(b, loc, v, dstV, at(m.idx(r), m.idx(c)));
      });
  }
  b.setInsertionPointAfter(loop);
  gpu::ReturnOp::create(b, loc);
  return func;
}

/// The pack kernel of `gpuModule` copying `src` into `dst`, created (named
/// gemm_pack_<element type>) on first use: one per signature, shared by all
/// GEMMs of the module (`warpElems` depends only on the element type, which
/// the signature fixes).
static std::string uniqueName(gpu::GPUModuleOp gpuModule, StringRef base);

static gpu::GPUFuncOp getOrCreatePackKernel(OpBuilder &b, Location loc,
                                            gpu::GPUModuleOp gpuModule,
                                            MemRefType src, MemRefType dst,
                                            int64_t warpElems) {
  FunctionType type = b.getFunctionType({src, dst}, {});
  for (auto func : gpuModule.getOps<gpu::GPUFuncOp>())
    if (func.getName().starts_with(kPackPrefix) &&
        func.getFunctionType() == type)
      return func;
  std::string base = kPackPrefix.str();
  {
    llvm::raw_string_ostream os(base);
    os << src.getElementType();
  }
  return createPackKernel(b, loc, gpuModule, uniqueName(gpuModule, base), src,
                          dst, warpElems);
}

/// A symbol name in `gpuModule` starting with `base`.
static std::string uniqueName(gpu::GPUModuleOp gpuModule, StringRef base) {
  SymbolTable symbols(gpuModule);
  std::string name = base.str();
  for (unsigned i = 0; symbols.lookup(name); ++i)
    name = (base + "_" + Twine(i)).str();
  return name;
}

//===----------------------------------------------------------------------===//
// Host side
//===----------------------------------------------------------------------===//

/// Allocates the workspace of `operand` (K and the contiguous dimension
/// rounded up to `roundTo`) and launches `packKernel` (`multiple` elements
/// per lane and segment) into it.
static Value emitPack(OpBuilder &b, Location loc, Value operand,
                      MemRefType workspace, unsigned kDim, int64_t roundTo,
                      int64_t multiple, gpu::GPUFuncOp packKernel) {
  IndexMath m(b, loc, /*useIndex=*/true);
  unsigned rank = workspace.getRank();
  SmallVector<Value> sizes, dynSizes;
  for (unsigned d = 0; d < rank; ++d) {
    Value size = memref::DimOp::create(b, loc, operand, d);
    if (isRoundedUp(d, rank, kDim))
      size = m.mul(m.ceilDiv(size, roundTo), roundTo);
    sizes.push_back(size);
    if (workspace.isDynamicDim(d))
      dynSizes.push_back(size);
  }
  Value ws = gpu::AllocOp::create(b, loc, workspace, /*asyncToken=*/Type(),
                                  /*asyncDependencies=*/ValueRange(), dynSizes,
                                  /*symbolOperands=*/ValueRange(),
                                  /*hostShared=*/false)
                 .getMemref();
  // grid.x: one warp per row segment, at most kMaxPackBlocks blocks;
  // grid.z is the batch.
  Value units = m.mul(sizes[rank - 2],
                      m.ceilDiv(sizes[rank - 1], packWarpElems(multiple)));
  Value gridX =
      m.min(m.ceilDiv(units, kPackThreads / kWarp), m.c(kMaxPackBlocks));
  Value gridY = m.c(1);
  Value gridZ = rank == 3 ? sizes[0] : m.c(1);
  gpu::LaunchFuncOp::create(
      b, loc, packKernel, gpu::KernelDim3{gridX, gridY, gridZ},
      gpu::KernelDim3{m.c(kPackThreads), m.c(1), m.c(1)},
      /*dynamicSharedMemorySize=*/Value(), ValueRange{operand, ws});
  return ws;
}

Value mlir::gemm::detail::castIfNeeded(OpBuilder &b, Location loc, Value v,
                                       Type type) {
  if (v.getType() == type)
    return v;
  return memref::CastOp::create(b, loc, type, v);
}

/// Operands that rule out 16-byte copies are not packed when the GEMM is
/// small (batch * M * N * K below kMinPackWork) and K short (at most
/// kMaxDirectK): two pack launches and a workspace then cost more than the
/// GEMM kernel's element copies save. The element copies' cost grows with
/// the k-tiles, so K bounds it too. Measured on the H200 (f16, docs/
/// performance.md): 1000 x 1001 x 1 took 16 us packed and 13 us direct, but
/// 333 x 517 x 271 took 16 us packed and 27 us direct, and 4096 x 4096 x 1
/// 30 us packed and 37 us direct.
static constexpr int64_t kMinPackWork = int64_t(1) << 24;
static constexpr int64_t kMaxDirectK = 128;

/// i1 (host): `op` is too small to pack (kMinPackWork, kMaxDirectK). The
/// work is formed from factors clamped so that it cannot overflow 64 bits.
static Value emitBelowPackWork(OpBuilder &b, Location loc, MatmulOp op) {
  IndexMath m(b, loc, /*useIndex=*/true);
  unsigned b0 = op.hasBatch() ? 1 : 0;
  auto dim = [&](Value v, unsigned d) -> Value {
    return memref::DimOp::create(b, loc, v, d);
  };
  Value cap = m.c(kMinPackWork);
  Value work = m.min(dim(op.getC(), b0), cap);
  work = m.min(m.mul(work, m.min(dim(op.getC(), b0 + 1), cap)), cap);
  Value k = dim(op.getA(), b0 + op.getAKDim());
  work = m.min(m.mul(work, m.min(k, cap)), cap);
  if (op.hasBatch())
    work = m.min(m.mul(work, m.min(dim(op.getC(), 0), cap)), cap);
  return m.andI1(m.lt(work, cap),
                 arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, k,
                                       m.c(kMaxDirectK)));
}

PackedOperands mlir::gemm::detail::emitOperandPacking(
    OpBuilder &b, MatmulOp op, const OperandPacking &packing,
    gpu::GPUModuleOp gpuModule) {
  Location loc = op.getLoc();
  PackedOperands out;
  out.a = op.getA();
  out.b = op.getB();
  if (packing.mode == PackMode::never)
    return out;
  auto typeA = cast<MemRefType>(op.getA().getType());
  auto typeB = cast<MemRefType>(op.getB().getType());
  gpu::GPUFuncOp packA = getOrCreatePackKernel(
      b, loc, gpuModule, typeA, packing.workspaceA,
      packWarpElems(packing.multiple));
  gpu::GPUFuncOp packB = getOrCreatePackKernel(
      b, loc, gpuModule, typeB, packing.workspaceB,
      packWarpElems(packing.multiple));
  out.kernels = {packA, packB};
  auto emitBoth = [&](OpBuilder &b) -> std::pair<Value, Value> {
    return {emitPack(b, loc, op.getA(), packing.workspaceA, op.getAKDim(),
                     packing.roundTo, packing.multiple, packA),
            emitPack(b, loc, op.getB(), packing.workspaceB, op.getBKDim(),
                     packing.roundTo, packing.multiple, packB)};
  };

  // The manifest's record of the packing, for launchers that do it
  // themselves (python/gemm_mlir/harness.py).
  auto operandAttr = [&](StringRef name, gpu::GPUFuncOp kernel,
                         unsigned kDim) {
    unsigned rank = packing.workspaceA.getRank();
    SmallVector<int64_t> rounded;
    for (unsigned d = 0; d < rank; ++d)
      if (isRoundedUp(d, rank, kDim))
        rounded.push_back(d);
    return b.getDictionaryAttr(
        {b.getNamedAttr("name", b.getStringAttr(name)),
         b.getNamedAttr("kernel", b.getStringAttr(kernel.getName())),
         b.getNamedAttr("round_up_dims", b.getI64ArrayAttr(rounded))});
  };
  out.manifest = b.getDictionaryAttr(
      {b.getNamedAttr("when", b.getStringAttr(packing.mode == PackMode::always
                                                  ? "always"
                                                  : "unaligned")),
       b.getNamedAttr("multiple", b.getI64IntegerAttr(packing.multiple)),
       b.getNamedAttr("min_work", b.getI64IntegerAttr(kMinPackWork)),
       b.getNamedAttr("max_direct_k", b.getI64IntegerAttr(kMaxDirectK)),
       b.getNamedAttr("round_to", b.getI64IntegerAttr(packing.roundTo)),
       b.getNamedAttr("block", b.getI64ArrayAttr({kPackThreads, 1, 1})),
       b.getNamedAttr("warp_elements",
                      b.getI64IntegerAttr(packWarpElems(packing.multiple))),
       b.getNamedAttr("grid_rule",
                      b.getStringAttr("x = min(ceil(rows' * ceil(cols' / "
                                      "warp_elements) * 32 / block.x), "
                                      "max_blocks), y = 1, z = batch (1 "
                                      "without), the workspace's rows' x "
                                      "cols'")),
       b.getNamedAttr("max_blocks", b.getI64IntegerAttr(kMaxPackBlocks)),
       b.getNamedAttr(
           "operands",
           b.getArrayAttr({operandAttr("A", packA, op.getAKDim()),
                           operandAttr("B", packB, op.getBKDim())}))});

  if (packing.mode == PackMode::always) {
    std::tie(out.a, out.b) = emitBoth(b);
    return out;
  }
  // Run time: pack unless both operands allow 16-byte copies or the GEMM is
  // too small to pay for two more launches (kMinPackWork).
  Value aligned = emitVectorCopiesOk(b, loc, op.getA(), packing.multiple);
  IndexMath m(b, loc, /*useIndex=*/true);
  aligned = m.andI1(aligned,
                    emitVectorCopiesOk(b, loc, op.getB(), packing.multiple));
  aligned =
      arith::OrIOp::create(b, loc, aligned, emitBelowPackWork(b, loc, op));
  auto ifOp = scf::IfOp::create(
      b, loc, TypeRange{packing.kernelA, packing.kernelB}, aligned,
      /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    scf::YieldOp::create(
        b, loc,
        ValueRange{castIfNeeded(b, loc, op.getA(), packing.kernelA),
                   castIfNeeded(b, loc, op.getB(), packing.kernelB)});
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    auto [wsA, wsB] = emitBoth(b);
    scf::YieldOp::create(b, loc,
                         ValueRange{castIfNeeded(b, loc, wsA, packing.kernelA),
                                    castIfNeeded(b, loc, wsB, packing.kernelB)});
  }
  out.a = ifOp.getResult(0);
  out.b = ifOp.getResult(1);
  out.packed = arith::XOrIOp::create(
      b, loc, aligned, arith::ConstantIntOp::create(b, loc, 1, 1));
  return out;
}

void mlir::gemm::detail::emitPackCleanup(OpBuilder &b, Location loc,
                                         const OperandPacking &packing,
                                         const PackedOperands &packed) {
  if (packing.mode == PackMode::never)
    return;
  auto dealloc = [&](OpBuilder &b) {
    // At run time the workspaces come back through the scf.if in the
    // kernel's type; cast them back to the type they were allocated with.
    gpu::DeallocOp::create(b, loc, Type(), ValueRange(),
                           castIfNeeded(b, loc, packed.a, packing.workspaceA));
    gpu::DeallocOp::create(b, loc, Type(), ValueRange(),
                           castIfNeeded(b, loc, packed.b, packing.workspaceB));
  };
  if (!packed.packed)
    return dealloc(b);
  scf::IfOp::create(b, loc, packed.packed, [&](OpBuilder &b, Location loc) {
    dealloc(b);
    scf::YieldOp::create(b, loc);
  });
}
