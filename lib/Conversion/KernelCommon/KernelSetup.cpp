//===- KernelSetup.cpp - block coordinates, shared tiles, epilogue loop ---===//
//
// The parts of a GEMM kernel that do not depend on the vendor: the block's
// output tile (with grouped rasterization), the warp (wave) grid, the staged
// shared-memory tiles of A and B, the global sources they are copied from,
// and the epilogue over the accumulators.
//
//===----------------------------------------------------------------------===//

#include "KernelSetup.h"
#include "Pack.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/Sequence.h"
#include <limits>

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::detail;

/// Maps the linear block id to (tile row, tile column) with grouped
/// rasterization: `group` consecutive tile rows (row raster) or columns
/// (column raster) are walked together so that their operands stay in L2.
static std::pair<Value, Value> rasterize(IndexMath &m, Value bid, Value tilesM,
                                         Value tilesN, Raster raster,
                                         int64_t group) {
  // Column raster is row raster with M and N swapped.
  Value major = raster == Raster::row ? tilesM : tilesN;
  Value minor = raster == Raster::row ? tilesN : tilesM;
  Value maj, mnr;
  if (group == 1) {
    maj = m.div(bid, minor);
    mnr = m.rem(bid, minor);
  } else {
    Value perGroup = m.mul(minor, group);
    Value first = m.mul(m.div(bid, perGroup), group);
    Value size = m.min(m.sub(major, first), m.c(group));
    Value inGroup = m.rem(bid, perGroup);
    maj = m.add(first, m.rem(inGroup, size));
    mnr = m.div(inGroup, size);
  }
  return raster == Raster::row ? std::make_pair(maj, mnr)
                               : std::make_pair(mnr, maj);
}

FailureOr<int64_t> mlir::gemm::detail::buildKernelBody(
    OpBuilder &b, gpu::GPUFuncOp kernel, MatmulOp op, ConfigAttr config,
    const TargetInfo &target,
    function_ref<FailureOr<int64_t>(OpBuilder &, KernelContext &)> mainLoop) {
  KernelContext ctx;
  ctx.op = op;
  ctx.config = config;
  ctx.target = &target;
  Block &entry = kernel.getBody().front();
  ctx.a = entry.getArgument(0);
  ctx.b = entry.getArgument(1);
  ctx.c = entry.getArgument(2);
  // TMA kernels take the tensor maps of A and B last, after the workspace
  // of partial sums a split-K kernel takes.
  unsigned numArgs = entry.getNumArguments();
  if (config.getLoad() != Load::cp_async) {
    ctx.mapB = entry.getArgument(--numArgs);
    ctx.mapA = entry.getArgument(--numArgs);
  }
  ctx.clusterReduce = config.getReduction() == Reduction::cluster;
  ctx.warpSpecialized = config.getLoad() == Load::tma_ws;
  ctx.teams = config.getTeams();
  ctx.persistent = config.getSchedule() != Schedule::tile;
  ctx.computeThreads = ctx.teams * config.getNumWarps() * target.warpSize;
  ctx.stagingLimit = target.maxSharedMemPerBlock;
  ctx.fixup = config.getReduction() == Reduction::fixup;
  if (ctx.fixup)
    ctx.flags = entry.getArgument(--numArgs);
  if (config.getSplitK() > 1 && !ctx.clusterReduce)
    ctx.workspace = entry.getArgument(--numArgs);
  for (unsigned i = 3; i < numArgs; ++i)
    ctx.extras.push_back(entry.getArgument(i));
  ctx.accType = op.getAccType();
  ctx.operandKind = *getOperandKind(op.getAElementType(), config.getKind());
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(&entry);
  FailureOr<int64_t> smem = mainLoop(b, ctx);
  if (failed(smem))
    return failure();
  gpu::ReturnOp::create(b, op.getLoc());
  return smem;
}

void mlir::gemm::detail::assignTile(OpBuilder &b, Location loc,
                                    KernelContext &ctx, Value tile) {
  IndexMath m(b, loc);
  ConfigAttr cfg = ctx.config;
  auto [tm, tn] = rasterize(m, tile, ctx.tilesM, ctx.tilesN, cfg.getRaster(),
                            cfg.getGroup());
  ctx.tileM0 = m.mul(tm, cfg.getBM());
  ctx.tileN0 = m.mul(tn, cfg.getBN());
}

void mlir::gemm::detail::assignPair(OpBuilder &b, Location loc,
                                    KernelContext &ctx, Value tile,
                                    Value tiles) {
  IndexMath m(b, loc);
  ConfigAttr cfg = ctx.config;
  assert(cfg.getMulticast() == 2 && "pairs only (legality)");
  // Clusters of consecutive blocks (the kernel's compiled-in cluster shape
  // along x; a persistent grid of whole clusters keeps the pairs' tiles
  // consecutive): the pair shares B when both tiles exist and lie in one
  // tile column (of one batch, where a persistent walk crosses batches), as
  // consecutive tile rows of a group do.
  bool crossesBatches = ctx.persistent && MatmulOp(ctx.op).hasBatch();
  Value perBatch = crossesBatches ? m.mul(ctx.tilesM, ctx.tilesN) : Value();
  Value partner = m.xorOp(tile, m.c(1));
  ctx.clusterRank = m.rem(tile, 2);
  ctx.tileValid = m.lt(tile, tiles);
  Value partnerTn =
      rasterize(m, crossesBatches ? m.rem(partner, perBatch) : partner,
                ctx.tilesM, ctx.tilesN, cfg.getRaster(), cfg.getGroup())
          .second;
  Value same = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                     m.mul(partnerTn, cfg.getBN()), ctx.tileN0);
  if (crossesBatches)
    same = m.andI1(same, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                               m.div(partner, perBatch),
                                               m.div(tile, perBatch)));
  ctx.shareB = m.andI1(m.andI1(ctx.tileValid, m.lt(partner, tiles)), same);
}

void mlir::gemm::detail::setupCoordinates(OpBuilder &b, KernelContext &ctx) {
  Location loc = ctx.op.getLoc();
  IndexMath m(b, loc);
  ConfigAttr cfg = ctx.config;
  MatmulOp op = ctx.op;
  int64_t bm = cfg.getBM(), bn = cfg.getBN(), bk = cfg.getBK();

  // Thread and block coordinates.
  ctx.tid = m.from(gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  ctx.blockTid = ctx.tid;
  if (ctx.teams > 1) {
    // Teams of consecutive threads; the producer warpgroup follows them.
    ctx.team = m.div(ctx.blockTid, ctx.teamThreads());
    ctx.tid = m.rem(ctx.blockTid, ctx.teamThreads());
  }
  ctx.lane = m.rem(ctx.tid, ctx.target->warpSize);
  // Warps (waves) form a WM x WN grid (row-major) over the block tile; for
  // wgmma the grid counts warpgroups of 4 warps.
  bool wgmma = cfg.getKind() == Kind::wgmma;
  Value warp = m.div(ctx.tid, ctx.target->warpSize * (wgmma ? 4 : 1));
  unsigned b0 = op.hasBatch() ? 1 : 0;
  auto dim = [&](Value v, unsigned d) -> Value {
    return m.from(memref::DimOp::create(b, loc, v, d));
  };
  ctx.m = dim(ctx.c, b0);
  ctx.n = dim(ctx.c, b0 + 1);
  // K: from the operand packing never pads in K (Pack.cpp, kFromB).
  ctx.k = kFromB(op) ? dim(ctx.b, b0 + op.getBKDim())
                     : dim(ctx.a, b0 + op.getAKDim());
  ctx.kBegin = m.c(0);
  ctx.kTotal = ctx.k;
  ctx.tilesM = m.ceilDiv(ctx.m, bm);
  ctx.tilesN = m.ceilDiv(ctx.n, bn);
  // `reduction = fixup`: grid.x holds the tiles before the tail one block
  // each, then the tail's tiles (the workspace's dimension 0, chosen at
  // launch) `slices` blocks each (its dimension 1), the batch folded into
  // the tile index; slices = 1 splits nothing.
  Value fixupTile;
  if (ctx.fixup) {
    Value perBatch = m.mul(ctx.tilesM, ctx.tilesN);
    Value total = perBatch;
    if (op.hasBatch())
      total = m.mul(total, dim(ctx.c, 0));
    Value tail = m.from(memref::DimOp::create(b, loc, ctx.workspace, 0));
    Value slices = m.from(memref::DimOp::create(b, loc, ctx.workspace, 1));
    Value before = m.sub(total, tail);
    Value bid = m.from(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x));
    Value inTail = m.le(before, bid);
    Value j = m.max(m.sub(bid, before), m.c(0));
    ctx.tailTile = m.select(inTail, m.div(j, slices), m.c(0));
    ctx.split = m.andI1(inTail, m.lt(m.c(1), slices));
    ctx.slices = m.select(ctx.split, slices, m.c(1));
    ctx.slice = m.select(ctx.split, m.rem(j, slices), m.c(0));
    fixupTile = m.select(inTail, m.add(before, ctx.tailTile), bid);
    if (op.hasBatch()) {
      ctx.batch = m.div(fixupTile, perBatch);
      fixupTile = m.rem(fixupTile, perBatch);
    }
  }
  if (cfg.getSplitK() > 1) {
    // Split-K: slice y of the workspace's slices (its dimension 1, which the
    // host launches as grid.y; the grid's size itself is not read, as ROCDL
    // would then need the ROCm device library) takes ceil(tiles / slices)
    // whole k-tiles (trailing slices may be empty: their partial sums are
    // zeros). The product slice * perSlice can pass 2^31 for K near it, so
    // it is formed in 64 bits and clamped to K before it returns to 32.
    // With `reduction = cluster` the host launches clusters of (1, slices,
    // 1) blocks: the slice is the block's place in its cluster. (A launch
    // without clusters then makes every block a cluster of one, which
    // computes its whole tile: redundant, never wrong.)
    IndexMath mi(b, loc, /*useIndex=*/true);
    // (A fix-up kernel's slice and slices are set above.)
    if (ctx.clusterReduce) {
      ctx.slices =
          m.from(gpu::ClusterDimBlocksOp::create(b, loc, gpu::Dimension::y));
      ctx.slice =
          m.from(gpu::ClusterBlockIdOp::create(b, loc, gpu::Dimension::y));
    } else if (!ctx.fixup) {
      ctx.slices = m.from(memref::DimOp::create(b, loc, ctx.workspace, 1));
      ctx.slice = m.from(gpu::BlockIdOp::create(b, loc, gpu::Dimension::y));
    }
    Value slices = ctx.slices;
    Value perSlice = m.mul(m.ceilDiv(m.ceilDiv(ctx.k, bk), slices), bk);
    ctx.kBegin =
        m.from(mi.min(mi.mul(m.idx(ctx.slice), m.idx(perSlice)), m.idx(ctx.k)));
    ctx.k = m.from(
        mi.min(mi.add(m.idx(ctx.kBegin), m.idx(perSlice)), m.idx(ctx.k)));
  }
  // A persistent block sets its tiles and batch per tile (assignTile).
  if (ctx.fixup) {
    assignTile(b, loc, ctx, fixupTile);
  } else if (!ctx.persistent) {
    if (op.hasBatch())
      ctx.batch = m.from(gpu::BlockIdOp::create(b, loc, gpu::Dimension::z));
    Value bid = m.from(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x));
    assignTile(b, loc, ctx, bid);
    if (cfg.getMulticast() > 1)
      assignPair(b, loc, ctx, bid, m.mul(ctx.tilesM, ctx.tilesN));
  }
  int64_t warpsN = cfg.getWarps()[1];
  ctx.warpM0 = m.mul(m.div(warp, warpsN), cfg.getWarpTileM());
  ctx.warpN0 = m.mul(m.rem(warp, warpsN), cfg.getWarpTileN());
}

int64_t mlir::gemm::detail::setupBlock(OpBuilder &b, KernelContext &ctx,
                                       int64_t padA, int64_t padB) {
  Location loc = ctx.op.getLoc();
  IndexMath m(b, loc);
  ConfigAttr cfg = ctx.config;
  MatmulOp op = ctx.op;
  int64_t bm = cfg.getBM(), bn = cfg.getBN(), bk = cfg.getBK();
  int64_t stages = cfg.getStages();
  bool wgmma = cfg.getKind() == Kind::wgmma;
  setupCoordinates(b, ctx);

  // Shared-memory tiles, stored with the global contiguous dimension
  // innermost: A as [m][k] (nn, tn) or [k][m] (nt, tt); B as [n][k] (tn, tt)
  // or [k][n] (nn, nt).
  Type elemType = op.getAElementType();
  unsigned elemBytes = elemType.getIntOrFloatBitWidth() / 8;
  auto makeTile = [&](MmaOperand role, bool kContiguous, int64_t mn,
                      int64_t pad) {
    SmemTile t;
    t.role = role;
    t.kContiguous = kContiguous;
    t.rows = kContiguous ? mn : bk;
    t.cols = kContiguous ? bk : mn;
    t.elemBytes = elemBytes;
    t.layout = cfg.getSmem();
    t.rowElems = t.cols + (t.layout == SmemLayout::pad ? pad : 0);
    // wgmma reads MN-major tiles as 128-byte swizzled panels.
    if (wgmma && !kContiguous)
      t.rowElems = t.panelCols = kWgmmaSwizzleBytes / elemBytes;
    t.stageElems = t.rows * (t.panelCols ? t.cols : t.rowElems);
    return t;
  };
  ctx.tileA = makeTile(MmaOperand::A, !op.isTransposedA(), bm, padA);
  ctx.tileB = makeTile(MmaOperand::B, op.isTransposedB(), bn, padB);
  auto wg = gpu::AddressSpaceAttr::get(b.getContext(),
                                       gpu::AddressSpace::Workgroup);
  auto bytesType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                   MemRefLayoutAttrInterface(), wg);
  Value smem = gpu::DynamicSharedMemoryOp::create(b, loc, bytesType);
  int64_t aElems = stages * ctx.tileA.stageElems;
  int64_t bElems = stages * ctx.tileB.stageElems;
  // wgmma's 128-byte swizzle is a function of the shared address bits 4-9,
  // so its tiles must start 1024-byte aligned in the shared window. The
  // dynamic shared memory symbol is only declared 16-byte aligned
  // (convert-gpu-to-nvvm), so the kernel moves its tiles up to the next
  // 1024-byte boundary itself and asks for 1024 bytes more
  // (estimateSharedMemory counts them too).
  IndexMath mi(b, loc, /*useIndex=*/true);
  Value shift = mi.c(0);
  int64_t reserve = 0;
  if (wgmma) {
    Value ptr = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, smem);
    shift = mi.rem(mi.sub(mi.c(1024), mi.rem(ptr, 1024)), 1024);
    reserve = 1024;
  }
  // (A and B differ in type only between the two f8 types, of one byte.)
  auto view = [&](int64_t byteOffset, int64_t elems, Type elem) -> Value {
    auto type = MemRefType::get({elems}, elem, MemRefLayoutAttrInterface(),
                                wg);
    return memref::ViewOp::create(b, loc, type, smem,
                                  mi.add(shift, byteOffset), ValueRange{});
  };
  // B's buffer starts 128-byte aligned after A's; 1024-byte aligned for
  // wgmma.
  int64_t align = wgmma ? 1024 : 128;
  int64_t bOffset = (aElems * elemBytes + align - 1) / align * align;
  // Every wgmma stage starts on a 1024-byte boundary: its rows (K rows for
  // panels, MN rows otherwise) are 128 bytes and come in multiples of 8.
  assert(!wgmma || (ctx.tileA.stageElems * elemBytes % 1024 == 0 &&
                    ctx.tileB.stageElems * elemBytes % 1024 == 0));
  ctx.tileA.buffer = view(0, aElems, elemType);
  ctx.tileB.buffer = view(bOffset, bElems, op.getBElementType());
  return reserve + bOffset + bElems * elemBytes;
}

Value mlir::gemm::detail::emitBaseAlignedTo(
    OpBuilder &b, Location loc, Value memref,
    memref::ExtractStridedMetadataOp meta, int64_t multiple,
    ArrayRef<int64_t> dims) {
  IndexMath m(b, loc, /*useIndex=*/true);
  Value ptr = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value zero = m.c(0);
  auto isZero = [&](Value v) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, v, zero);
  };
  Value ok = isZero(m.rem(ptr, 16));
  ok = m.andI1(ok, isZero(m.rem(meta.getOffset(), multiple)));
  for (int64_t d : dims)
    ok = m.andI1(ok, isZero(m.rem(meta.getStrides()[d], multiple)));
  return ok;
}

Value mlir::gemm::detail::emitVectorCopiesOk(OpBuilder &b, Location loc,
                                             Value memref, int64_t multiple) {
  return emitVectorCopiesOk(
      b, loc, memref, memref::ExtractStridedMetadataOp::create(b, loc, memref),
      multiple);
}

Value mlir::gemm::detail::emitVectorCopiesOk(
    OpBuilder &b, Location loc, Value memref,
    memref::ExtractStridedMetadataOp meta, int64_t multiple) {
  IndexMath m(b, loc, /*useIndex=*/true);
  auto type = cast<MemRefType>(memref.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> outer = llvm::to_vector(llvm::seq<int64_t>(0, rank - 1));
  Value ok = emitBaseAlignedTo(b, loc, memref, meta, multiple, outer);
  // A dynamic inner stride must be 1 (a static one is the caller's check).
  SmallVector<int64_t> strides;
  int64_t offset;
  if (succeeded(type.getStridesAndOffset(strides, offset)) &&
      ShapedType::isDynamic(strides.back()))
    ok =
        m.andI1(ok, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          meta.getStrides()[rank - 1], m.c(1)));
  return ok;
}

Value mlir::gemm::detail::emitLinearView(
    OpBuilder &b, Location loc, Value memref,
    memref::ExtractStridedMetadataOp meta) {
  auto type = cast<MemRefType>(memref.getType());
  // The size only bounds the view: the offsets the caller forms stay
  // inside the buffer.
  Value size = arith::ConstantIndexOp::create(
      b, loc, std::numeric_limits<int64_t>::max());
  return memref::ReinterpretCastOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic}, type.getElementType(),
                      MemRefLayoutAttrInterface(), type.getMemorySpace()),
      meta.getBaseBuffer(), /*offset=*/b.getIndexAttr(0),
      /*sizes=*/ArrayRef<OpFoldResult>{size},
      /*strides=*/ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
}

bool mlir::gemm::detail::mayHaveUnitInnerStride(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(type.getStridesAndOffset(strides, offset)) &&
         (ShapedType::isDynamic(strides.back()) || strides.back() == 1);
}

bool mlir::gemm::detail::hasUnitInnerStride(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  return strides.back() == 1;
}

GlobalSource mlir::gemm::detail::makeGlobalSource(OpBuilder &b, Location loc,
                                                  KernelContext &ctx,
                                                  Value memref,
                                                  const SmemTile &tile) {
  IndexMath m(b, loc);
  bool isA = tile.role == MmaOperand::A;
  Value mnSize = isA ? ctx.m : ctx.n;
  Value mn0 = isA ? ctx.tileM0 : ctx.tileN0;
  GlobalSource s;
  s.memref = memref;
  s.rows = tile.kContiguous ? mnSize : ctx.k;
  s.cols = tile.kContiguous ? ctx.k : mnSize;
  s.row0 = tile.kContiguous ? mn0 : m.c(0);
  s.col0 = tile.kContiguous ? m.c(0) : mn0;
  if (hasUnitInnerStride(cast<MemRefType>(memref.getType())))
    s.vectorOk = emitVectorCopiesOk(b, loc, memref, 16 / tile.elemBytes);
  return s;
}

Value mlir::gemm::detail::emitTileInsideMN(OpBuilder &b, Location loc,
                                           const KernelContext &ctx,
                                           const SmemTile &tile) {
  IndexMath m(b, loc);
  bool isA = tile.role == MmaOperand::A;
  Value end = m.add(isA ? ctx.tileM0 : ctx.tileN0,
                    tile.kContiguous ? tile.rows : tile.cols);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, end,
                               isA ? ctx.m : ctx.n);
}

Value mlir::gemm::detail::emitKTileInside(OpBuilder &b, Location loc,
                                          const KernelContext &ctx,
                                          const SmemTile &tile, Value k0) {
  IndexMath m(b, loc);
  Value end = m.add(k0, tile.kContiguous ? tile.cols : tile.rows);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, end, ctx.k);
}

void mlir::gemm::detail::emitIfTrue(OpBuilder &b, Location loc, Value cond,
                                    function_ref<void(OpBuilder &)> fn) {
  scf::IfOp::create(b, loc, cond, [&](OpBuilder &b, Location loc) {
    fn(b);
    scf::YieldOp::create(b, loc);
  });
}

scf::IfOp
mlir::gemm::detail::emitIfElse(OpBuilder &b, Location loc, TypeRange types,
                               Value cond, function_ref<void(OpBuilder &)> then,
                               function_ref<void(OpBuilder &)> otherwise) {
  auto ifOp = scf::IfOp::create(b, loc, types, cond, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  then(b);
  b.setInsertionPointToStart(&ifOp.getElseRegion().front());
  otherwise(b);
  return ifOp;
}

SmallVector<Value> mlir::gemm::detail::emitForYielding(
    OpBuilder &b, Location loc, Value begin, Value end, Value step,
    ValueRange init,
    function_ref<SmallVector<Value>(OpBuilder &, Value, ValueRange)> body) {
  auto loop = scf::ForOp::create(b, loc, begin, end, step, init);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(loop.getBody());
  IndexMath m(b, loc);
  scf::YieldOp::create(
      b, loc,
      body(b, m.from(loop.getInductionVar()), loop.getRegionIterArgs()));
  return SmallVector<Value>(loop.getResults());
}

void mlir::gemm::detail::emitIfLess(OpBuilder &b, Location loc, Value x,
                                    Value bound,
                                    function_ref<void(OpBuilder &)> fn) {
  IndexMath m(b, loc);
  emitIfTrue(b, loc, m.lt(x, bound), fn);
}

ShiftedRow mlir::gemm::detail::shiftRow(OpBuilder &b, Location loc, Value start,
                                        int64_t laneElems, int64_t elemBytes) {
  IndexMath m(b, loc), mx(b, loc, /*useIndex=*/true);
  Value e = mx.rem(start, laneElems);
  ShiftedRow row;
  row.block = mx.sub(start, e);
  Value bytes = m.mul(m.from(e), elemBytes);
  Value word = m.div(bytes, 4);
  auto isSet = [&](Value x, int64_t bit) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                 m.andOp(x, bit), m.c(0));
  };
  row.selHigh = isSet(word, 2);
  row.selNext = isSet(word, 1);
  row.shiftBits = m.mul(m.rem(bytes, 4), 8);
  return row;
}

SmallVector<Value>
mlir::gemm::detail::loadShiftBlocks(OpBuilder &b, Location loc, Value linear,
                                    const ShiftedRow &row, Value kc,
                                    int64_t laneElems, Type elem) {
  IndexMath m(b, loc), mx(b, loc, /*useIndex=*/true);
  auto vecType = VectorType::get({laneElems}, elem);
  auto wordsType = VectorType::get({kShiftChunkWords}, b.getI32Type());
  Value off = mx.add(row.block, m.idx(kc));
  Value second =
      row.next ? mx.add(row.next, m.idx(kc)) : mx.add(off, laneElems);
  SmallVector<Value> words;
  for (Value at : {off, second}) {
    Value v =
        vector::LoadOp::create(b, loc, vecType, linear, ValueRange{at},
                               /*nontemporal=*/false, b.getI64IntegerAttr(16));
    Value w = vector::BitCastOp::create(b, loc, wordsType, v);
    for (int64_t j = 0; j < kShiftChunkWords; ++j)
      words.push_back(
          vector::ExtractOp::create(b, loc, w, ArrayRef<int64_t>{j}));
  }
  return words;
}

Value mlir::gemm::detail::shiftBlocks(OpBuilder &b, Location loc,
                                      ArrayRef<Value> words,
                                      const ShiftedRow &row, int64_t laneElems,
                                      Type elem) {
  assert(words.size() == 2 * kShiftChunkWords && "two blocks of words");
  // words[q + j], q = e's whole words, in two selects on q's bits.
  auto pick = [&](Value cond, ArrayRef<Value> in, int64_t by, int64_t count) {
    SmallVector<Value> out;
    for (int64_t j = 0; j < count; ++j)
      out.push_back(arith::SelectOp::create(b, loc, cond, in[j + by], in[j]));
    return out;
  };
  SmallVector<Value> high = pick(row.selHigh, words, 2, kShiftChunkWords + 2);
  SmallVector<Value> next = pick(row.selNext, high, 1, kShiftChunkWords + 1);
  SmallVector<Value> out;
  for (int64_t j = 0; j < kShiftChunkWords; ++j)
    out.push_back(
        LLVM::FshrOp::create(b, loc, next[j + 1], next[j], row.shiftBits));
  auto wordsType = VectorType::get({kShiftChunkWords}, b.getI32Type());
  return vector::BitCastOp::create(
      b, loc, VectorType::get({laneElems}, elem),
      vector::FromElementsOp::create(b, loc, wordsType, out));
}

SmallVector<Value>
mlir::gemm::detail::loadShiftedChunk(OpBuilder &b, Location loc, Value linear,
                                     const ShiftedRow &row, Value kc,
                                     int64_t laneElems, Type elem) {
  Value chunk = shiftBlocks(
      b, loc, loadShiftBlocks(b, loc, linear, row, kc, laneElems, elem), row,
      laneElems, elem);
  SmallVector<Value> elems;
  for (int64_t j = 0; j < laneElems; ++j)
    elems.push_back(
        vector::ExtractOp::create(b, loc, chunk, ArrayRef<int64_t>{j}));
  return elems;
}

Value mlir::gemm::detail::loadShiftedRowChunk(OpBuilder &b, Location loc,
                                              Value linear, Value rowStart,
                                              Value col, Value cols,
                                              Value valid, int64_t v,
                                              Type elem) {
  IndexMath m(b, loc), mx(b, loc, /*useIndex=*/true);
  const int64_t elemBits = elem.getIntOrFloatBitWidth();
  auto vecType = VectorType::get({v}, elem);
  auto wordsType = VectorType::get({kShiftChunkWords}, b.getI32Type());
  // The chunk's start, clamped into the row, and its last element there
  // (at least the start).
  Value lastCol = m.sub(cols, m.c(1));
  Value first = m.min(col, lastCol);
  Value start = mx.add(rowStart, m.idx(first));
  Value inside = m.max(m.min(m.sub(cols, first), m.c(v)), m.c(1));
  Value last = mx.add(start, m.idx(m.sub(inside, m.c(1))));
  ShiftedRow row = shiftRow(b, loc, start, v, elemBits / 8);
  Value second = mx.add(row.block, mx.c(v));
  row.next = mx.select(mx.lt(last, second), row.block, second);
  Value chunk =
      shiftBlocks(b, loc, loadShiftBlocks(b, loc, linear, row, m.c(0), v, elem),
                  row, v, elem);
  // Elements past `valid` zeroed by a mask per word: its low
  // clamp((valid - the word's first element) * bits, 0, 32) bits. A select
  // per element held a predicate per element.
  SmallVector<Value> masks;
  Value validBits = m.mul(valid, elemBits);
  for (int64_t j = 0; j < kShiftChunkWords; ++j) {
    Value bits = m.max(m.sub(validBits, m.c(j * 32)), m.c(0));
    // (1 << bits) - 1 for bits < 32 (a shift by 32 is poison), else all.
    Value low = m.sub(
        arith::ShLIOp::create(b, loc, m.c(1), m.min(bits, m.c(31))).getResult(),
        m.c(1));
    masks.push_back(m.select(m.lt(bits, m.c(32)), low, m.c(-1)));
  }
  return vector::BitCastOp::create(
      b, loc, vecType,
      arith::AndIOp::create(
          b, loc, vector::BitCastOp::create(b, loc, wordsType, chunk),
          vector::FromElementsOp::create(b, loc, wordsType, masks)));
}
