//===- Pack.cpp - aligned workspaces for misaligned operands --------------===//
//
// The GEMM kernels stage A and B with 16-byte copies (cp.async on NVIDIA,
// vector loads on AMD) only when an operand is 16-byte aligned: base pointer,
// offset and leading stride multiples of 16 bytes, unit inner stride. Any
// other operand is read element by element, 5-8x slower (f16 4099x4097x4095:
// 45 TFLOP/s against 340 for 4096^3, see docs/performance.md). For such
// operands the host side packs the operand first: a copy kernel writes it
// into a zero-padded workspace whose contiguous dimension is rounded up to a
// multiple of 128 bytes (whole cache lines per row, aligned row pitch), and
// the GEMM kernel reads the workspace. The GEMM takes M and N from C and K
// from an operand whose workspace does not pad K (kFromB): K is padded only
// where it is the contiguous dimension. So each operand is packed on its own,
// except where K is contiguous in both (tn): the kernel then reads K from A,
// and both are packed whenever one is, their padded K equal and the zeros in
// it adding nothing to the products. (Until 2026-12-01 both were packed
// whenever one had to be in every layout: f16 nn 8x11008x4095, where only
// A's rows of 4095 are misaligned, copied all 90 MB of B as well.)
//
// When the strides prove an operand misaligned at compile time (static
// leading dimensions such as K = 4095 for f16), its workspace is always used
// and the GEMM kernel takes the workspace's static, aligned type. When only
// the run time knows (dynamic strides or offsets), the host checks and packs
// if needed; the GEMM kernel's type for the operand then admits both the
// original operand and the workspace. Operands without a strided layout are not
// packed (the element path stays correct); batched operands are packed per
// batch element (grid.z).
//
//===----------------------------------------------------------------------===//

#include "Pack.h"
#include "IndexMath.h"
#include "KernelSetup.h"
#include "gemm/Dialect/Gemm/Transforms/ConfigPolicy.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::detail;

/// Threads per block of the pack kernels, and per warp (the grid rule in the
/// manifest counts 32-thread warps on every target).
static constexpr int64_t kPackThreads = 256;
static constexpr int64_t kWarp = 32;
/// Name prefixes of the pack kernels (plain and transposing copies).
static constexpr StringLiteral kPackPrefix = "gemm_pack_";
static constexpr StringLiteral kTransposePrefix = "gemm_transpose_";
/// The most blocks a pack launch has (grid.x); its warps then step over the
/// rest of the row segments.
static constexpr int64_t kMaxPackBlocks = 16384;

/// Elements a warp of a pack kernel copies per row segment: 16 bytes per
/// lane, all loaded before any is stored. On the H200 (f16 4099x4095
/// operands) this copied at 1.9 TB/s; 64 bytes per lane with unpredicated
/// interior segments was slower (1.1 TB/s), and on AMD it spilled SGPRs.
static int64_t packWarpElems(int64_t multiple) { return kWarp * multiple; }

static int64_t roundUp(int64_t v, int64_t to) { return (v + to - 1) / to * to; }

static int64_t elemBytes(Type elem) { return elem.getIntOrFloatBitWidth() / 8; }

/// Whether dimension `d` of an operand of rank `rank` is rounded up in its
/// workspace: the contiguous (last) one is.
static bool isRoundedUp(unsigned d, unsigned rank) { return d == rank - 1; }

bool mlir::gemm::detail::kFromB(MatmulOp op) {
  return (!op.isTransposedA() && !op.isTransposedB()) ||
         op->hasAttr(kKFromBAttrName);
}

/// The workspace of an operand of type `type`: identity layout, the
/// contiguous dimension rounded up to `roundTo`. `dynamic`: all dimensions
/// dynamic.
static MemRefType workspaceType(MemRefType type, int64_t roundTo,
                                bool dynamic) {
  SmallVector<int64_t> shape(type.getShape());
  for (auto [d, size] : llvm::enumerate(shape)) {
    if (dynamic || ShapedType::isDynamic(size))
      size = ShapedType::kDynamic;
    else if (isRoundedUp(d, shape.size()))
      size = roundUp(size, roundTo);
  }
  return MemRefType::get(shape, type.getElementType(),
                         MemRefLayoutAttrInterface(), type.getMemorySpace());
}

/// The workspace of an operand of type `type` ([batch,] K x MN) copied
/// transposed: [batch,] MN x K, K rounded up to `roundTo`, identity layout.
static MemRefType transposedWorkspaceType(MemRefType type, int64_t roundTo) {
  SmallVector<int64_t> shape(type.getShape());
  unsigned rank = shape.size();
  std::swap(shape[rank - 2], shape[rank - 1]);
  if (!ShapedType::isDynamic(shape[rank - 1]))
    shape[rank - 1] = roundUp(shape[rank - 1], roundTo);
  return MemRefType::get(shape, type.getElementType(),
                         MemRefLayoutAttrInterface(), type.getMemorySpace());
}

/// `type` with all sizes, the offset and the outer strides dynamic (a unit
/// inner stride kept).
static MemRefType dynamicStridedType(MemRefType type) {
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

/// The GEMM kernel's type for an operand that is packed at run time or not:
/// `type` itself if a workspace has it, else dynamicStridedType, to which
/// both cast.
static Type runtimeKernelType(MemRefType type, MemRefType workspace) {
  return type == workspace ? type : dynamicStridedType(type);
}

bool mlir::gemm::detail::readsOperandsInPlace(ConfigAttr config) {
  return config.getKind() == Kind::gemv;
}

OperandPacking
mlir::gemm::detail::planOperandPacking(MatmulOp op, bool enabled,
                                       const OperandTransposes &transposes,
                                       bool sectors) {
  OperandPacking p;
  Value values[2] = {op.getA(), op.getB()};
  bool transpose[2] = {transposes.a, transposes.b};
  for (unsigned i = 0; i < 2; ++i)
    p.operands[i].kernelType = values[i].getType();
  if (!enabled && !transposes.any())
    return p;
  unsigned elemBytes = op.getAElementType().getIntOrFloatBitWidth() / 8;
  p.multiple = 16 / elemBytes;
  p.roundTo = 128 / elemBytes;
  // K contiguous in both (tn): both padded in K or neither. A transposed
  // workspace does not pad K as the kernel sees it (kKFromBAttrName): the
  // other operand is then packed on its own.
  p.independent = transposes.any() || op.isTransposedA() || !op.isTransposedB();
  // Transposed operands: always, whatever their strides (the copy reads any
  // layout).
  for (unsigned i = 0; i < 2; ++i) {
    if (!transpose[i])
      continue;
    PackedOperandPlan &o = p.operands[i];
    o.mode = PackMode::always;
    o.transpose = true;
    o.workspace = transposedWorkspaceType(cast<MemRefType>(values[i].getType()),
                                          p.roundTo);
    o.kernelType = dynamicStridedType(o.workspace);
  }
  if (!enabled)
    return p;
  // Rows of an odd number of 16 bytes: where C's M and N are static, whether
  // the GEMM is compute-bound is too (memory-bound: the rule is dropped).
  std::optional<bool> computeBound;
  if (sectors) {
    p.sectorMultiple = 32 / elemBytes;
    p.sectorMinIntensity = kSectorMinIntensity;
    auto cType = cast<MemRefType>(op.getC().getType());
    unsigned b0 = op.hasBatch() ? 1 : 0;
    if (!cType.isDynamicDim(b0) && !cType.isDynamicDim(b0 + 1)) {
      computeBound = !belowIntensity(
          cType.getDimSize(b0), cType.getDimSize(b0 + 1), p.sectorMinIntensity);
      if (!*computeBound)
        p.sectorMultiple = p.sectorMinIntensity = 0;
    }
  }
  // What the types alone say about 16-byte copies (getStaticVectorCopiesOk;
  // the base pointer is checked at run time by the kernel either way).
  std::optional<bool> aligned[2] = {true, true};
  for (unsigned i = 0; i < 2; ++i) {
    if (transpose[i])
      continue;
    auto type = cast<MemRefType>(values[i].getType());
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)))
      return p; // not packable: the element path reads it
    aligned[i] = getStaticVectorCopiesOk(type, p.multiple);
    // Rows of an odd number of 16 bytes: packed always where the types
    // prove them so and the GEMM compute-bound, else decided at run time
    // (M and N, or the strides, dynamic; the base pointer is checked at
    // run time either way).
    if (p.sectorMultiple && aligned[i] == std::optional<bool>(true)) {
      std::optional<bool> rows =
          getStaticVectorCopiesOk(type, p.sectorMultiple);
      if (rows != std::optional<bool>(true))
        aligned[i] =
            computeBound && rows ? std::optional<bool>(false) : std::nullopt;
    }
  }
  auto modeOf = [](std::optional<bool> ok) {
    if (!ok)
      return PackMode::runtime;
    return *ok ? PackMode::never : PackMode::always;
  };
  PackMode modes[2] = {modeOf(aligned[0]), modeOf(aligned[1])};
  if (!p.independent &&
      (modes[0] != PackMode::never || modes[1] != PackMode::never)) {
    // Both or neither: always if either is proven misaligned.
    PackMode joint =
        modes[0] == PackMode::always || modes[1] == PackMode::always
            ? PackMode::always
            : PackMode::runtime;
    modes[0] = modes[1] = joint;
  }
  for (unsigned i = 0; i < 2; ++i) {
    PackedOperandPlan &o = p.operands[i];
    if (transpose[i])
      continue;
    o.mode = modes[i];
    if (o.mode == PackMode::never)
      continue;
    auto type = cast<MemRefType>(values[i].getType());
    bool dynamic = o.mode == PackMode::runtime;
    o.workspace = workspaceType(type, p.roundTo, dynamic);
    o.kernelType =
        dynamic ? runtimeKernelType(type, o.workspace) : Type(o.workspace);
  }
  return p;
}

//===----------------------------------------------------------------------===//
// The pack kernel
//===----------------------------------------------------------------------===//

namespace {
/// What the pack kernels share: a kernel of kPackThreads threads taking
/// (src, dst), its thread and block ids, and for batched operands the batch
/// element (grid.z) that prefixes every index.
struct CopyKernel {
  gpu::GPUFuncOp func;
  Value src, dst, tid, bx;
  unsigned b0 = 0; ///< the first matrix dimension (1 when batched)
  SmallVector<Value, 1> batch;
  /// The indices of (row, col) of the batch element.
  SmallVector<Value> at(Value row, Value col) const {
    SmallVector<Value> indices(batch.begin(), batch.end());
    indices.append({row, col});
    return indices;
  }
  /// Dimension `d` of `v` (i32).
  Value dim(IndexMath &m, Value v, unsigned d) const {
    return m.from(memref::DimOp::create(m.b, m.loc, v, d));
  }
};
} // namespace

/// Creates the kernel `name` copying `src` into `dst` at the end of
/// `gpuModule` (with `workgroup` memory attributions) and leaves `b` at the
/// start of its body; the caller guards `b`'s insertion point.
static CopyKernel beginCopyKernel(OpBuilder &b, Location loc,
                                  gpu::GPUModuleOp gpuModule, StringRef name,
                                  MemRefType src, MemRefType dst,
                                  TypeRange workgroup = {}) {
  b.setInsertionPointToEnd(gpuModule.getBody());
  CopyKernel k;
  k.func = gpu::GPUFuncOp::create(b, loc, name,
                                  b.getFunctionType({src, dst}, {}), workgroup);
  k.func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  k.func.setKnownBlockSizeAttr(
      b.getDenseI32ArrayAttr({int32_t(kPackThreads), 1, 1}));
  Block &entry = k.func.getBody().front();
  b.setInsertionPointToStart(&entry);
  k.src = entry.getArgument(0);
  k.dst = entry.getArgument(1);
  IndexMath m(b, loc);
  k.tid = m.from(gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  k.bx = m.from(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x));
  // Batched operands: one batch element per grid.z.
  k.b0 = src.getRank() - 2;
  if (k.b0)
    k.batch.push_back(gpu::BlockIdOp::create(b, loc, gpu::Dimension::z));
  return k;
}

/// dst[r, c] = src[r, c] inside src, 0 elsewhere. The work is split into
/// units of one row segment of `warpElems` elements (32 lanes x 16 bytes),
/// S = ceil(cols' / warpElems) per row, numbered row by row; warp w of
/// block bx takes units bx * 8 + w, then steps by the grid's warps. A
/// block's warps take consecutive units: the segments of one wide row, or
/// several narrow rows (an operand 13 elements wide, one segment per row,
/// kept 7 of 8 warps idle and copied at a sixth of the copy bandwidth when
/// a block covered one row). Where the source's inner stride is 1 and its
/// buffer 16-byte aligned (the usual packed operand: aligned buffer, rows
/// that do not start on 16 bytes), lane l copies the 16 bytes from element
/// 16 l / (element bytes) of its segment: the two aligned 16-byte blocks
/// holding them, funnel-shifted (loadShiftedRowChunk), and one 16-byte
/// store. Elsewhere lane l copies the elements l, l + 32, ... of its
/// segment, all loaded before any is stored, so every load and store
/// instruction of a warp touches 32 consecutive elements (1.9 TB/s on the
/// H200 for f16 4099 x 4095 operands; one thread per 16 bytes with loads
/// 16 bytes apart across the lanes, 64-bit math and a division per thread
/// ran at 1.4-1.8 TB/s; the division here is per unit, in i32).
static gpu::GPUFuncOp createPackKernel(OpBuilder &b, Location loc,
                                       gpu::GPUModuleOp gpuModule,
                                       StringRef name, MemRefType src,
                                       MemRefType dst, int64_t warpElems) {
  OpBuilder::InsertionGuard g(b);
  CopyKernel k = beginCopyKernel(b, loc, gpuModule, name, src, dst);
  Value srcV = k.src, dstV = k.dst;
  IndexMath m(b, loc);
  int64_t segment = warpElems, perLane = segment / kWarp;
  int64_t warpsPerBlock = kPackThreads / kWarp;
  Value tid = k.tid, bx = k.bx;
  auto at = [&](Value row, Value col) { return k.at(row, col); };
  Value rows = k.dim(m, srcV, k.b0), cols = k.dim(m, srcV, k.b0 + 1);
  Value dstRows = k.dim(m, dstV, k.b0), dstCols = k.dim(m, dstV, k.b0 + 1);
  Value perRow = m.ceilDiv(dstCols, segment);
  Value units = m.mul(dstRows, perRow);
  // grid.x, from the launch's rule (gpu.grid_dim would need the ROCm device
  // library on AMD targets).
  Value gridX = m.min(m.ceilDiv(units, warpsPerBlock), m.c(kMaxPackBlocks));
  Value lane = m.rem(tid, kWarp);
  Value first = m.add(m.mul(bx, warpsPerBlock), m.div(tid, kWarp));
  Value lastCol = m.sub(cols, m.c(1)), lastRow = m.sub(rows, m.c(1));
  Type elem = src.getElementType();
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elem));
  // Shifted 16-byte loads where the source's inner stride is 1 and its
  // buffer 16-byte aligned (any offset and row stride: the operands packed
  // are the ones whose rows do not start on 16 bytes). The operand's
  // buffer as a unit-stride view, the batch element's offset in it (index
  // math: a batch may pass 2^31 elements).
  bool unitInner =
      perLane * elemBytes(elem) == 16 && mayHaveUnitInnerStride(src);
  Value shiftedOk = arith::ConstantIntOp::create(b, loc, unitInner, 1);
  Value linear, base, rowStride;
  if (unitInner) {
    auto meta = memref::ExtractStridedMetadataOp::create(b, loc, srcV);
    IndexMath mx(b, loc, /*useIndex=*/true);
    // (Chunks of one element: any offset and outer strides.)
    shiftedOk = emitVectorCopiesOk(b, loc, srcV, meta, /*multiple=*/1);
    linear = emitLinearView(b, loc, srcV, meta);
    base = meta.getOffset();
    if (k.b0)
      base = mx.add(base, mx.mul(k.batch.front(), meta.getStrides()[0]));
    rowStride = meta.getStrides()[k.b0];
  }
  auto loop = scf::ForOp::create(b, loc, m.idx(first), m.idx(units),
                                 m.idx(m.mul(gridX, warpsPerBlock)));
  b.setInsertionPointToStart(loop.getBody());
  {
    IndexMath m(b, loc);
    Value unit = m.from(loop.getInductionVar());
    Value r = m.div(unit, perRow);
    Value seg0 = m.mul(m.rem(unit, perRow), segment);
    Value rowOk = m.lt(r, rows);
    auto shifted = [&](OpBuilder &b) {
      // Lane l: the 16 bytes from element l perLane of the segment, as
      // the aligned blocks holding them (loadShiftedRowChunk), one 16-byte
      // store (the workspace's rows are 128-byte multiples).
      IndexMath m(b, loc), mx(b, loc, /*useIndex=*/true);
      Value c = m.add(seg0, m.mul(lane, perLane));
      Value valid = m.max(m.min(m.sub(cols, c), m.c(perLane)), m.c(0));
      valid = m.select(rowOk, valid, m.c(0));
      Value rowStart =
          mx.add(base, mx.mul(m.idx(m.min(r, lastRow)), rowStride));
      Value v = loadShiftedRowChunk(b, loc, linear, rowStart, c, cols, valid,
                                    perLane, elem);
      emitIfLess(b, loc, c, dstCols, [&](OpBuilder &b) {
        IndexMath m(b, loc);
        vector::StoreOp::create(b, loc, v, dstV, at(m.idx(r), m.idx(c)),
                                /*nontemporal=*/false, b.getI64IntegerAttr(16));
      });
    };
    auto elements = [&](OpBuilder &b) {
      // Lane l: elements l, l + 32, ... of the segment, all loads (clamped,
      // always in bounds) before the stores.
      IndexMath m(b, loc);
      Value c0 = m.add(seg0, lane);
      Value srcRow = m.idx(m.min(r, lastRow));
      SmallVector<std::pair<Value, Value>> loaded;
      for (int64_t e = 0; e < perLane; ++e) {
        Value c = m.add(c0, e * kWarp);
        Value ok = m.andI1(rowOk, m.lt(c, cols));
        Value v = memref::LoadOp::create(b, loc, srcV,
                                         at(srcRow, m.idx(m.min(c, lastCol))));
        loaded.emplace_back(c, m.select(ok, v, zero));
      }
      for (auto [c, v] : loaded)
        emitIfLess(b, loc, c, dstCols, [&](OpBuilder &b) {
          IndexMath m(b, loc);
          memref::StoreOp::create(b, loc, v, dstV, at(m.idx(r), m.idx(c)));
        });
    };
    if (unitInner) {
      scf::IfOp branch =
          scf::IfOp::create(b, loc, shiftedOk, /*withElse=*/true);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&branch.getThenRegion().front());
      shifted(b);
      b.setInsertionPointToStart(&branch.getElseRegion().front());
      elements(b);
    } else {
      elements(b);
    }
  }
  b.setInsertionPointAfter(loop);
  gpu::ReturnOp::create(b, loc);
  return k.func;
}

/// The transposing copy moves tiles of kTransposeRows source rows (K) by
/// kTransposeRowBytes of source columns (MN): 16 KiB per block iteration
/// whatever the element type, 16 bytes a thread four times on each side.
/// Its first version read one element per lane (32 x 32 and then 32 x 512
/// element tiles): about 1 TB/s for i8 and 2.5 TB/s for f32 on the H200,
/// where a plain copy reaches 4.2 (docs/design-notes.md).
static constexpr int64_t kTransposeRows = 128;
static constexpr int64_t kTransposeRowBytes = 128;
/// Source columns of a tile: a workspace row segment's rows.
static int64_t transposeCols(Type elem) {
  return kTransposeRowBytes / elemBytes(elem);
}
/// Elements of a 16-byte vector.
static int64_t transposeVector(Type elem) { return 16 / elemBytes(elem); }

/// dst[.., c, r] = src[.., r, c] inside src, 0 for r in [rows, dst cols):
/// src is [batch,] rows x cols (K x MN), dst [batch,] cols x rows' (MN x K
/// rounded up to a multiple of 128 bytes). The tiles of dst (ceil(rows' /
/// TR) x ceil(cols / TC), TR = kTransposeRows, TC = transposeCols, numbered
/// along cols first) are walked by the grid's blocks (grid.x at most
/// kMaxPackBlocks, the batch in grid.z). Per tile (v elements a 16-byte
/// vector, TC = 8 v):
/// - Loads: thread t reads vector t % 8 of the tile's source rows t / 8 +
///   32 j (j < 4; 8 threads a 128-byte row segment). Where the source
///   allows 16-byte loads (unit column stride, 16-byte aligned base, row
///   and batch strides and the column count multiples of v: each vector is
///   then wholly inside or outside the source) a vector is one load, all
///   four issued before any is staged; elsewhere the same elements are
///   loaded one by one. A uniform branch, per tile; clamped addresses, zero
///   outside the source.
/// - Staging, transposed: element by element, source column c as staged
///   row c at transposeStagingOffset (gemm/Utils/FragmentLayout.h: a chunk
///   XOR swizzle, conflict-free for these stores and the loads below,
///   unit-tested). Transposing on the way in (rather than gathering v
///   staged rows on the way out) keeps the kernel's registers low: a
///   store holds nothing once issued, where v one-element loads held v
///   registers until packed (128 registers for i8 that way; 80 here, set
///   by the element path, and 40 for f32).
/// - Stores: vector q = t + 256 j of the workspace side is chunk q % P (P =
///   TR / v) of staged row q / P: one 16-byte shared load, stored as one
///   16-byte vector at workspace row c0 + q / P, columns r0 + v (q % P) ...
///   (the workspace's rows are 128-byte multiples, so a vector is wholly
///   inside or outside them).
static gpu::GPUFuncOp createTransposeKernel(OpBuilder &b, Location loc,
                                            gpu::GPUModuleOp gpuModule,
                                            StringRef name, MemRefType src,
                                            MemRefType dst) {
  OpBuilder::InsertionGuard g(b);
  Type elem = src.getElementType();
  const int64_t TR = kTransposeRows, TC = transposeCols(elem);
  const int64_t v = transposeVector(elem), rowVectors = TC / v;
  const int64_t slots = TR * rowVectors / kPackThreads;
  const int64_t perRow = TR / v;
  auto staging = MemRefType::get(
      {TC, TR}, elem, MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup));
  CopyKernel k =
      beginCopyKernel(b, loc, gpuModule, name, src, dst, TypeRange{staging});
  Value srcV = k.src, dstV = k.dst;
  Value tile = k.func.getWorkgroupAttributions().front();
  IndexMath m(b, loc), mx(b, loc, /*useIndex=*/true);
  Value tid = k.tid, bx = k.bx;
  Value rows = k.dim(m, srcV, k.b0), cols = k.dim(m, srcV, k.b0 + 1);
  Value dstCols = k.dim(m, dstV, k.b0 + 1);
  Value tilesC = m.ceilDiv(cols, TC);
  Value tiles = m.mul(m.ceilDiv(dstCols, TR), tilesC);
  Value gridX = m.min(tiles, m.c(kMaxPackBlocks));
  Value lastRow = m.sub(rows, m.c(1)), lastCol = m.sub(cols, m.c(1));
  auto vecType = VectorType::get({v}, elem);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elem));
  Value zeroVec = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(vecType, b.getZeroAttr(elem)));

  // 16-byte loads: the operand's strides and base allow them (the inner
  // stride of a static layout is checked here), and the column count is a
  // multiple of v. They read a unit-stride view of the base buffer from the
  // batch element's offset (index math: a batch of operands may pass 2^31
  // elements).
  bool unitInner = mayHaveUnitInnerStride(src);
  Value vectorOk = arith::ConstantIntOp::create(b, loc, unitInner, 1);
  if (unitInner)
    vectorOk = m.andI1(
        emitVectorCopiesOk(b, loc, srcV, v),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, m.rem(cols, v),
                              m.c(0)));
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, srcV);
  Value linear = emitLinearView(b, loc, srcV, meta);
  Value base = meta.getOffset();
  if (k.b0)
    base = mx.add(base, mx.mul(k.batch.front(), meta.getStrides()[0]));
  Value rowStride = meta.getStrides()[k.b0];
  Value lastVector = m.sub(cols, m.c(v));

  // Per thread: its source rows in the tile and its vector of them; its
  // workspace vectors' chunk and first staged row.
  Value loadRow = m.div(tid, rowVectors);
  Value loadVector = m.rem(tid, rowVectors);
  Value loadCol = m.mul(loadVector, v);
  Value run = m.rem(tid, perRow);
  Value storeRow = m.div(tid, perRow);
  auto loop = scf::ForOp::create(b, loc, m.idx(bx), m.idx(tiles), m.idx(gridX));
  b.setInsertionPointToStart(loop.getBody());
  {
    IndexMath m(b, loc);
    Value t = m.from(loop.getInductionVar());
    Value r0 = m.mul(m.div(t, tilesC), TR), c0 = m.mul(m.rem(t, tilesC), TC);
    Value c = m.add(c0, loadCol);
    Value colOk = m.lt(c, cols);
    SmallVector<Value> localRows, srcRows;
    for (int64_t j = 0; j < slots; ++j) {
      localRows.push_back(m.add(loadRow, j * (kPackThreads / rowVectors)));
      srcRows.push_back(m.add(r0, localRows.back()));
    }
    // Element e of slot j's vector: source column loadCol + e of the tile
    // at transposeStagingOffset(row, loadCol + e): staged row loadCol + e,
    // chunk (row / v) ^ (t % 8).
    auto stage = [&](OpBuilder &b, int64_t j, ArrayRef<Value> elems) {
      IndexMath m(b, loc);
      Value row = localRows[j];
      Value at = m.add(m.mul(m.xorOp(m.div(row, v), loadVector), v),
                       m.rem(row, v));
      for (auto [e, x] : llvm::enumerate(elems))
        memref::StoreOp::create(
            b, loc, x, tile,
            ValueRange{m.idx(m.add(loadCol, int64_t(e))), m.idx(at)});
    };
    scf::IfOp loads = scf::IfOp::create(b, loc, vectorOk, /*withElse=*/true);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&loads.getThenRegion().front());
      IndexMath m(b, loc), mx(b, loc, /*useIndex=*/true);
      Value col = m.idx(m.min(c, lastVector));
      SmallVector<Value> vecs;
      for (Value r : srcRows) {
        Value at = mx.add(
            mx.add(base, mx.mul(m.idx(m.min(r, lastRow)), rowStride)), col);
        Value x = vector::LoadOp::create(b, loc, vecType, linear,
                                         ValueRange{at},
                                         /*nontemporal=*/false,
                                         b.getI64IntegerAttr(16));
        vecs.push_back(m.select(m.andI1(colOk, m.lt(r, rows)), x, zeroVec));
      }
      for (auto [j, x] : llvm::enumerate(vecs)) {
        SmallVector<Value> elems;
        for (int64_t e = 0; e < v; ++e)
          elems.push_back(
              vector::ExtractOp::create(b, loc, x, ArrayRef<int64_t>{e}));
        stage(b, j, elems);
      }
      b.setInsertionPointToStart(&loads.getElseRegion().front());
      for (auto [j, r] : llvm::enumerate(srcRows)) {
        Value rowOk = m.lt(r, rows);
        Value srcRow = m.idx(m.min(r, lastRow));
        SmallVector<Value> elems;
        for (int64_t e = 0; e < v; ++e) {
          Value ce = m.add(c, e);
          Value x = memref::LoadOp::create(
              b, loc, srcV, k.at(srcRow, m.idx(m.min(ce, lastCol))));
          elems.push_back(m.select(m.andI1(rowOk, m.lt(ce, cols)), x, zero));
        }
        stage(b, j, elems);
      }
    }
    gpu::BarrierOp::create(b, loc);
    Value r = m.add(r0, m.mul(run, v));
    Value rowOk = m.lt(r, dstCols);
    for (int64_t j = 0; j < slots; ++j) {
      // Chunk `run` of staged row `local`: transposeStagingOffset(v run,
      // local) = local TR + (run ^ (local / v)) v.
      Value local = m.add(storeRow, j * (kPackThreads / perRow));
      Value chunk = m.mul(m.xorOp(run, m.div(local, v)), v);
      Value vec = vector::LoadOp::create(
          b, loc, vecType, tile, ValueRange{m.idx(local), m.idx(chunk)},
          /*nontemporal=*/false, b.getI64IntegerAttr(16));
      Value dstRow = m.add(c0, local);
      emitIfTrue(b, loc, m.andI1(rowOk, m.lt(dstRow, cols)), [&](OpBuilder &b) {
        IndexMath m(b, loc);
        vector::StoreOp::create(b, loc, vec, dstV,
                                k.at(m.idx(dstRow), m.idx(r)),
                                /*nontemporal=*/false, b.getI64IntegerAttr(16));
      });
    }
    // The next tile overwrites the staging buffer.
    gpu::BarrierOp::create(b, loc);
  }
  b.setInsertionPointAfter(loop);
  gpu::ReturnOp::create(b, loc);
  return k.func;
}

/// The pack kernel of `gpuModule` copying `src` into `dst` (transposed or
/// not), created (named gemm_pack_<element type> or
/// gemm_transpose_<element type>) on first use: one per signature, shared by
/// all GEMMs of the module (`warpElems` depends only on the element type,
/// which the signature fixes).
static std::string uniqueName(gpu::GPUModuleOp gpuModule, StringRef base);

static gpu::GPUFuncOp getOrCreatePackKernel(OpBuilder &b, Location loc,
                                            gpu::GPUModuleOp gpuModule,
                                            MemRefType src, MemRefType dst,
                                            int64_t warpElems, bool transpose) {
  FunctionType type = b.getFunctionType({src, dst}, {});
  StringRef prefix = transpose ? kTransposePrefix : kPackPrefix;
  for (auto func : gpuModule.getOps<gpu::GPUFuncOp>())
    if (func.getName().starts_with(prefix) && func.getFunctionType() == type)
      return func;
  std::string base = prefix.str();
  {
    llvm::raw_string_ostream os(base);
    os << src.getElementType();
  }
  std::string name = uniqueName(gpuModule, base);
  if (transpose)
    return createTransposeKernel(b, loc, gpuModule, name, src, dst);
  return createPackKernel(b, loc, gpuModule, name, src, dst, warpElems);
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

/// Allocates the workspace of `operand` (the contiguous dimension rounded up
/// to `roundTo`) and launches `packKernel` (`multiple` elements per lane and
/// segment) into it.
static Value emitPack(OpBuilder &b, Location loc, Value operand,
                      MemRefType workspace, int64_t roundTo, int64_t multiple,
                      gpu::GPUFuncOp packKernel) {
  IndexMath m(b, loc, /*useIndex=*/true);
  unsigned rank = workspace.getRank();
  SmallVector<Value> sizes, dynSizes;
  for (unsigned d = 0; d < rank; ++d) {
    Value size = memref::DimOp::create(b, loc, operand, d);
    if (isRoundedUp(d, rank))
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

/// Allocates the workspace of `operand` copied transposed ([batch,] MN x K,
/// K rounded up to `roundTo`) into `allocated`, launches `transposeKernel`
/// into it and returns the view the GEMM kernel reads, `kernelType`: the
/// workspace at the operand's logical sizes (MN x K) with its row pitch.
static Value emitTransposedPack(OpBuilder &b, Location loc, Value operand,
                                const PackedOperandPlan &plan, int64_t roundTo,
                                gpu::GPUFuncOp transposeKernel,
                                Value &allocated) {
  IndexMath m(b, loc, /*useIndex=*/true);
  MemRefType workspace = plan.workspace;
  unsigned rank = workspace.getRank();
  auto dim = [&](unsigned d) -> Value {
    return memref::DimOp::create(b, loc, operand, d);
  };
  // Sizes of the workspace and of the view: the last two swapped.
  SmallVector<Value> sizes, logical, dynSizes;
  for (unsigned d = 0; d + 2 < rank; ++d)
    sizes.push_back(dim(d));
  sizes.push_back(dim(rank - 1));
  logical = sizes;
  logical.push_back(dim(rank - 2));
  sizes.push_back(m.mul(m.ceilDiv(logical.back(), roundTo), roundTo));
  for (unsigned d = 0; d < rank; ++d)
    if (workspace.isDynamicDim(d))
      dynSizes.push_back(sizes[d]);
  allocated = gpu::AllocOp::create(b, loc, workspace, /*asyncToken=*/Type(),
                                   /*asyncDependencies=*/ValueRange(), dynSizes,
                                   /*symbolOperands=*/ValueRange(),
                                   /*hostShared=*/false)
                  .getMemref();
  // grid.x: the tiles of the workspace, at most kMaxPackBlocks blocks;
  // grid.z is the batch.
  Type elem = workspace.getElementType();
  Value tiles = m.mul(m.ceilDiv(sizes[rank - 1], kTransposeRows),
                      m.ceilDiv(sizes[rank - 2], transposeCols(elem)));
  Value gridX = m.min(tiles, m.c(kMaxPackBlocks));
  Value gridZ = rank == 3 ? sizes[0] : m.c(1);
  gpu::LaunchFuncOp::create(
      b, loc, transposeKernel, gpu::KernelDim3{gridX, m.c(1), gridZ},
      gpu::KernelDim3{m.c(kPackThreads), m.c(1), m.c(1)},
      /*dynamicSharedMemorySize=*/Value(), ValueRange{operand, allocated});
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)),
      strides(rank, b.getIndexAttr(1));
  SmallVector<OpFoldResult> viewSizes(logical.begin(), logical.end());
  Value view =
      memref::SubViewOp::create(b, loc, allocated, offsets, viewSizes, strides);
  return castIfNeeded(b, loc, view, plan.kernelType);
}

Value mlir::gemm::detail::castIfNeeded(OpBuilder &b, Location loc, Value v,
                                       Type type) {
  if (v.getType() == type)
    return v;
  return memref::CastOp::create(b, loc, type, v);
}

/// Operands that rule out 16-byte copies are not packed when the GEMM is
/// small: two pack launches and a workspace then cost more than reading the
/// rows in place saves. Reading in place costs more the more k-tiles there
/// are (its copies wait in registers), so K bounds it too. Measured on the
/// H200 (f16, docs/performance.md "Shifted copies"):
///  - element copies (mma.sync tiles, AMD): batch * M * N * K < 2^24 and
///    K <= 128. 1000 x 1001 x 1 took 16 us packed and 13 us direct, but
///    333 x 517 x 271 16 us packed and 27 us direct, and 4096 x 4096 x 1
///    30 us packed and 37 us direct;
///  - shifted copies (wgmma tiles): batch * M * N <= 2^21, K <= 192 and
///    M * N * K < 2^26 (work below 2^29 follows). 36 x 619x65x90 ran in
///    15.8 us direct and 19.7 packed, 3 x 128x549x169 10.9 and 12.5,
///    4000x500x9 8.3 and 12.6; K = 230 tied, and from K = 250 packing won
///    (1301x256x250: 9.5 packed, 12.6 direct), as it did past 2^21 outputs
///    however short K (1101x3715x15: 15.6 against 17.1, 4096x4096x1: 22
///    against 31) and on single GEMMs past 2^26 (1448x1448x127 11.0
///    against 14.2, 700x700x191 10.4 against 11.0), where batched ones of
///    up to 2^25 a GEMM still won in place (16 x 256x512x191 11.2 against
///    12.6).
DirectLimits mlir::gemm::detail::getDirectLimits(bool shifted) {
  if (shifted)
    return {int64_t(1) << 29, 192, int64_t(1) << 21, int64_t(1) << 26};
  return {int64_t(1) << 24, 128, std::nullopt, std::nullopt};
}

/// i1 (host): `op` is too small to pack (`limits`). The products are formed
/// from factors clamped so that they cannot overflow 64 bits.
static Value emitBelowPackWork(OpBuilder &b, Location loc, MatmulOp op,
                               const DirectLimits &limits) {
  IndexMath m(b, loc, /*useIndex=*/true);
  unsigned b0 = op.hasBatch() ? 1 : 0;
  auto dim = [&](Value v, unsigned d) -> Value {
    return memref::DimOp::create(b, loc, v, d);
  };
  // Products clamped to a bound above every limit.
  int64_t bound = std::max({limits.minWork, limits.maxOutputs.value_or(0) + 1,
                            limits.minGemmWork.value_or(0)});
  Value cap = m.c(bound);
  Value k = dim(op.getA(), b0 + op.getAKDim());
  // M * N, then M * N * K of one GEMM, then the batch's.
  Value outputs = m.min(dim(op.getC(), b0), cap);
  outputs = m.min(m.mul(outputs, m.min(dim(op.getC(), b0 + 1), cap)), cap);
  Value gemmWork = m.min(m.mul(outputs, m.min(k, cap)), cap);
  Value work = gemmWork;
  if (op.hasBatch()) {
    Value batch = m.min(dim(op.getC(), 0), cap);
    outputs = m.min(m.mul(outputs, batch), cap);
    work = m.min(m.mul(work, batch), cap);
  }
  Value small =
      m.andI1(m.lt(work, m.c(limits.minWork)), m.le(k, m.c(limits.maxK)));
  if (limits.maxOutputs)
    small = m.andI1(small, m.le(outputs, m.c(*limits.maxOutputs)));
  if (limits.minGemmWork)
    small = m.andI1(small, m.lt(gemmWork, m.c(*limits.minGemmWork)));
  return small;
}

/// i1 (host): `op` is memory-bound by OperandPacking::sectorMinIntensity,
/// as belowIntensity decides it for one GEMM of the batch.
static Value emitBelowIntensity(OpBuilder &b, Location loc, MatmulOp op,
                                int64_t intensity) {
  IndexMath m(b, loc, /*useIndex=*/true);
  unsigned b0 = op.hasBatch() ? 1 : 0;
  Value cap = m.c(kIntensityDimCap);
  Value rows = m.min(memref::DimOp::create(b, loc, op.getC(), b0), cap);
  Value cols = m.min(memref::DimOp::create(b, loc, op.getC(), b0 + 1), cap);
  return m.lt(m.mul(rows, cols), m.mul(m.c(intensity), m.add(rows, cols)));
}

/// i1 (host): the rows of `memref` start on `bytes`-byte boundaries: its
/// first element's address (the aligned pointer plus the offset) and its
/// outer strides (`meta`'s) are multiples of `bytes` (the runtime's
/// rowsAlignedTo).
static Value emitRowsAlignedTo(OpBuilder &b, Location loc, Value memref,
                               memref::ExtractStridedMetadataOp meta,
                               int64_t bytes) {
  IndexMath m(b, loc, /*useIndex=*/true);
  auto type = cast<MemRefType>(memref.getType());
  int64_t elemBytes = type.getElementTypeBitWidth() / 8;
  Value ptr = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value zero = m.c(0);
  auto isZero = [&](Value v) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, v, zero);
  };
  Value first = m.add(ptr, m.mul(meta.getOffset(), m.c(elemBytes)));
  Value ok = isZero(m.rem(first, bytes));
  for (int64_t d = 0; d + 1 < type.getRank(); ++d)
    ok = m.andI1(ok, isZero(m.rem(meta.getStrides()[d], bytes / elemBytes)));
  return ok;
}

PackedOperands mlir::gemm::detail::emitOperandPacking(
    OpBuilder &b, MatmulOp op, const OperandPacking &packing,
    gpu::GPUModuleOp gpuModule) {
  Location loc = op.getLoc();
  PackedOperands out;
  out.a = op.getA();
  out.b = op.getB();
  if (!packing.any())
    return out;
  Value values[2] = {op.getA(), op.getB()};
  StringRef names[2] = {"A", "B"};

  // The manifest's record of the packing, for launchers that do it
  // themselves (runtime/lib/Runtime.cpp): per operand that may be packed,
  // when (always, or when the operand rules out 16-byte copies), its pack
  // kernel and the dimensions its workspace rounds up.
  SmallVector<Attribute, 2> operandAttrs;
  gpu::GPUFuncOp kernels[2];
  for (unsigned i = 0; i < 2; ++i) {
    const PackedOperandPlan &o = packing.operands[i];
    if (o.mode == PackMode::never)
      continue;
    auto type = cast<MemRefType>(values[i].getType());
    kernels[i] =
        getOrCreatePackKernel(b, loc, gpuModule, type, o.workspace,
                              packWarpElems(packing.multiple), o.transpose);
    out.kernels.push_back(kernels[i]);
    unsigned rank = o.workspace.getRank();
    SmallVector<int64_t> rounded;
    for (unsigned d = 0; d < rank; ++d)
      if (isRoundedUp(d, rank))
        rounded.push_back(d);
    SmallVector<NamedAttribute> attrs = {
        b.getNamedAttr("name", b.getStringAttr(names[i])),
        b.getNamedAttr("when", b.getStringAttr(o.mode == PackMode::always
                                                   ? "always"
                                                   : "unaligned")),
        b.getNamedAttr("kernel", b.getStringAttr(kernels[i].getName())),
        b.getNamedAttr("round_up_dims", b.getI64ArrayAttr(rounded))};
    if (o.transpose) {
      // The workspace holds the operand's last two dimensions swapped
      // (round_up_dims counts the workspace's); the GEMM kernel reads it at
      // the swapped logical sizes with the workspace's strides.
      attrs.push_back(b.getNamedAttr("transpose", b.getBoolAttr(true)));
      Type elem = o.workspace.getElementType();
      attrs.push_back(b.getNamedAttr(
          "tile", b.getI64ArrayAttr({transposeCols(elem), kTransposeRows})));
      attrs.push_back(b.getNamedAttr(
          "grid_rule",
          b.getStringAttr("x = min(ceil(rows' / tile[0]) * ceil(cols' / "
                          "tile[1]), max_blocks), y = 1, z = batch (1 "
                          "without), the workspace's rows' x cols'")));
    }
    operandAttrs.push_back(b.getDictionaryAttr(attrs));
  }
  // "when" (the whole record's): "always" if an operand is always packed,
  // else "unaligned"; "each_operand": the operands are packed on their own,
  // each by its own "when" (false: both whenever one is, as launchers of
  // manifests without the field do).
  bool anyAlways = packing.operands[0].mode == PackMode::always ||
                   packing.operands[1].mode == PackMode::always;
  SmallVector<NamedAttribute> record = {
      b.getNamedAttr("when",
                     b.getStringAttr(anyAlways ? "always" : "unaligned")),
      b.getNamedAttr("each_operand", b.getBoolAttr(packing.independent)),
      b.getNamedAttr("multiple", b.getI64IntegerAttr(packing.multiple)),
      b.getNamedAttr("min_work", b.getI64IntegerAttr(packing.direct.minWork)),
      b.getNamedAttr("max_direct_k", b.getI64IntegerAttr(packing.direct.maxK)),
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
      b.getNamedAttr("operands", b.getArrayAttr(operandAttrs))};
  if (packing.direct.maxOutputs)
    record.push_back(b.getNamedAttr(
        "max_direct_outputs", b.getI64IntegerAttr(*packing.direct.maxOutputs)));
  if (packing.direct.minGemmWork)
    record.push_back(b.getNamedAttr(
        "min_gemm_work", b.getI64IntegerAttr(*packing.direct.minGemmWork)));
  if (packing.sectorMultiple) {
    record.push_back(b.getNamedAttr(
        "sector_multiple", b.getI64IntegerAttr(packing.sectorMultiple)));
    record.push_back(
        b.getNamedAttr("sector_min_intensity",
                       b.getI64IntegerAttr(packing.sectorMinIntensity)));
  }
  out.manifest = b.getDictionaryAttr(record);

  // Run time: an operand is packed unless it allows 16-byte copies or the
  // GEMM is too small to pay for another launch (packing.direct); both are
  // when either is if they are not independent (one scf.if, so that the
  // host code's async regions synchronize once).
  Value *results[2] = {&out.a, &out.b};
  auto pack = [&](OpBuilder &b, unsigned i) {
    return emitPack(b, loc, values[i], packing.operands[i].workspace,
                    packing.roundTo, packing.multiple, kernels[i]);
  };
  // Transposed operands first (always packed).
  for (unsigned i = 0; i < 2; ++i)
    if (packing.operands[i].transpose)
      *results[i] =
          emitTransposedPack(b, loc, values[i], packing.operands[i],
                             packing.roundTo, kernels[i], out.allocated[i]);
  auto packIf = [&](ArrayRef<unsigned> which, Value keep) {
    SmallVector<Type, 2> types;
    for (unsigned i : which)
      types.push_back(packing.operands[i].kernelType);
    auto ifOp = scf::IfOp::create(b, loc, types, keep,
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard g(b);
    for (bool packed : {false, true}) {
      Region &region = packed ? ifOp.getElseRegion() : ifOp.getThenRegion();
      b.setInsertionPointToStart(&region.front());
      SmallVector<Value, 2> yields;
      for (unsigned i : which)
        yields.push_back(castIfNeeded(b, loc, packed ? pack(b, i) : values[i],
                                      types[yields.size()]));
      scf::YieldOp::create(b, loc, yields);
    }
    b.setInsertionPointAfter(ifOp);
    Value packedNow = arith::XOrIOp::create(
        b, loc, keep, arith::ConstantIntOp::create(b, loc, 1, 1));
    for (auto [j, i] : llvm::enumerate(which)) {
      *results[i] = ifOp.getResult(j);
      out.packed[i] = packedNow;
    }
  };
  SmallVector<unsigned, 2> atRunTime;
  for (unsigned i = 0; i < 2; ++i) {
    const PackedOperandPlan &o = packing.operands[i];
    if (o.transpose)
      continue;
    if (o.mode == PackMode::always)
      *results[i] = out.allocated[i] = pack(b, i);
    else if (o.mode == PackMode::runtime)
      atRunTime.push_back(i);
  }
  if (!atRunTime.empty()) {
    Value small = emitBelowPackWork(b, loc, op, packing.direct);
    auto keepIf = [&](Value aligned) {
      return arith::OrIOp::create(b, loc, aligned, small).getResult();
    };
    // Read in place: 16-byte copies, and with sectorMultiple whole 32-byte
    // rows unless the GEMM is memory-bound.
    Value memoryBound;
    if (packing.sectorMultiple)
      memoryBound = emitBelowIntensity(b, loc, op, packing.sectorMinIntensity);
    auto inPlace = [&](unsigned i) -> Value {
      if (!packing.sectorMultiple)
        return emitVectorCopiesOk(b, loc, values[i], packing.multiple);
      // One metadata op for both checks.
      auto meta = memref::ExtractStridedMetadataOp::create(b, loc, values[i]);
      Value ok = emitVectorCopiesOk(b, loc, values[i], meta, packing.multiple);
      int64_t elemBytes =
          cast<MemRefType>(values[i].getType()).getElementTypeBitWidth() / 8;
      Value sectors = emitRowsAlignedTo(b, loc, values[i], meta,
                                        packing.sectorMultiple * elemBytes);
      return arith::AndIOp::create(
          b, loc, ok, arith::OrIOp::create(b, loc, sectors, memoryBound));
    };
    if (packing.independent) {
      for (unsigned i : atRunTime)
        packIf({i}, keepIf(inPlace(i)));
    } else {
      // A's checks before B's (not as arguments of one call: their order
      // of evaluation is unspecified).
      Value alignedA = inPlace(0);
      Value alignedB = inPlace(1);
      Value aligned = arith::AndIOp::create(b, loc, alignedA, alignedB);
      packIf(atRunTime, keepIf(aligned));
    }
  }
  return out;
}

void mlir::gemm::detail::emitPackCleanup(OpBuilder &b, Location loc,
                                         const OperandPacking &packing,
                                         const PackedOperands &packed) {
  // Workspaces packed always are freed as allocated. At run time they come
  // back through the scf.if in the kernel's type; cast them back to the type
  // they were allocated with. Operands packed on the same condition are
  // freed under one scf.if.
  auto dealloc = [&](OpBuilder &b, unsigned i) {
    gpu::DeallocOp::create(
        b, loc, Type(), ValueRange(),
        castIfNeeded(b, loc, packed.operand(i), packing.operands[i].workspace));
  };
  for (unsigned i = 0; i < 2; ++i) {
    if (packing.operands[i].mode == PackMode::never)
      continue;
    if (packed.allocated[i]) {
      gpu::DeallocOp::create(b, loc, Type(), ValueRange(), packed.allocated[i]);
      continue;
    }
    bool both = i == 0 && packed.packed[1] == packed.packed[0];
    scf::IfOp::create(b, loc, packed.packed[i],
                      [&](OpBuilder &b, Location loc) {
                        dealloc(b, i);
                        if (both)
                          dealloc(b, 1);
                        scf::YieldOp::create(b, loc);
                      });
    if (both)
      break;
  }
}

MatmulOp mlir::gemm::detail::createKernelView(OpBuilder &builder, MatmulOp op,
                                              const OperandPacking &packing,
                                              const PackedOperands &packed) {
  if (!packing.operands[0].transpose && !packing.operands[1].transpose)
    return op;
  OpBuilder b(op.getContext());
  b.setInsertionPoint(builder.getInsertionBlock(), builder.getInsertionPoint());
  auto view = cast<MatmulOp>(b.clone(*op));
  // (Operands set one by one: A and B may be the same value.)
  view->setOperand(0, packed.a);
  view->setOperand(1, packed.b);
  view.setLayout(Layout::tn);
  if (packing.operands[1].transpose)
    view->setAttr(kKFromBAttrName, b.getUnitAttr());
  return view;
}
