//===- MainLoop.cpp - tiles, copies and the software pipeline -------------===//
//
// Block coordinates (with grouped rasterization), shared-memory tiles, the
// global-to-shared copies and the multi-stage pipeline around the compute
// step; then the epilogue over the accumulators.
//
// Copies: when the operand is provably or at run time 16-byte aligned (base
// pointer, offset and leading stride), each thread issues 16-byte
// nvgpu.device_async_copy (cp.async.cg) with a source size that zero-fills
// the part of a chunk past the matrix edge. Otherwise, element copies with
// predicated loads fill the tile; both paths share the pipeline structure.
//
// Pipeline with S stages (S >= 2):
//   prologue: tiles 0 .. S-2 issued, one commit group each
//   for kt in 0 .. numK-1:
//     wait until tile kt has landed (at most S-2 groups pending); barrier
//     issue tile kt+S-1 into the buffer tile kt-1 used; commit
//     compute on buffer kt % S
// The single barrier per k-tile both publishes tile kt to all warps and
// guarantees every warp is done with the buffer that is overwritten next.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "gemm/Utils/FragmentLayout.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::detail;

//===----------------------------------------------------------------------===//
// IndexMath
//===----------------------------------------------------------------------===//

static std::optional<int64_t> constOf(Value v) {
  return getConstantIntValue(v);
}

Value IndexMath::c(int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, v));
}
Value IndexMath::idx(Value v) {
  if (v.getType().isIndex())
    return v;
  if (auto cv = constOf(v))
    return arith::ConstantIndexOp::create(b, loc, *cv);
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
}
Value IndexMath::from(Value v) {
  if (v.getType() == type)
    return v;
  return arith::IndexCastOp::create(b, loc, type, v);
}
Value IndexMath::add(Value x, Value y) {
  if (constOf(x) == 0)
    return y;
  if (constOf(y) == 0)
    return x;
  if (auto cx = constOf(x), cy = constOf(y); cx && cy)
    return c(*cx + *cy);
  return arith::AddIOp::create(b, loc, x, y);
}
Value IndexMath::sub(Value x, Value y) {
  if (constOf(y) == 0)
    return x;
  return arith::SubIOp::create(b, loc, x, y);
}
Value IndexMath::mul(Value x, int64_t y) {
  if (y == 0)
    return c(0);
  if (y == 1)
    return x;
  if (auto cx = constOf(x))
    return c(*cx * y);
  return arith::MulIOp::create(b, loc, x, c(y));
}
Value IndexMath::mul(Value x, Value y) {
  if (auto cy = constOf(y))
    return mul(x, *cy);
  if (auto cx = constOf(x))
    return mul(y, *cx);
  return arith::MulIOp::create(b, loc, x, y);
}
Value IndexMath::div(Value x, int64_t y) {
  if (y == 1)
    return x;
  if (auto cx = constOf(x))
    return c(*cx / y);
  return arith::DivUIOp::create(b, loc, x, c(y));
}
Value IndexMath::div(Value x, Value y) {
  if (auto cy = constOf(y))
    return div(x, *cy);
  return arith::DivUIOp::create(b, loc, x, y);
}
Value IndexMath::rem(Value x, int64_t y) {
  if (y == 1)
    return c(0);
  if (auto cx = constOf(x))
    return c(*cx % y);
  return arith::RemUIOp::create(b, loc, x, c(y));
}
Value IndexMath::rem(Value x, Value y) {
  if (auto cy = constOf(y))
    return rem(x, *cy);
  return arith::RemUIOp::create(b, loc, x, y);
}
Value IndexMath::ceilDiv(Value x, int64_t y) {
  return div(add(x, c(y - 1)), y);
}
Value IndexMath::min(Value x, Value y) {
  return arith::MinSIOp::create(b, loc, x, y);
}
Value IndexMath::max(Value x, Value y) {
  return arith::MaxSIOp::create(b, loc, x, y);
}
Value IndexMath::xorOp(Value x, Value y) {
  if (constOf(y) == 0)
    return x;
  return arith::XOrIOp::create(b, loc, x, y);
}
Value IndexMath::andOp(Value x, int64_t y) {
  if (auto cx = constOf(x))
    return c(*cx & y);
  return arith::AndIOp::create(b, loc, x, c(y));
}
Value IndexMath::shr(Value x, int64_t y) {
  if (y == 0)
    return x;
  if (auto cx = constOf(x))
    return c(*cx >> y);
  return arith::ShRUIOp::create(b, loc, x, c(y));
}
Value IndexMath::lt(Value x, Value y) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, y);
}
Value IndexMath::andI1(Value x, Value y) {
  return arith::AndIOp::create(b, loc, x, y);
}
Value IndexMath::select(Value cond, Value x, Value y) {
  return arith::SelectOp::create(b, loc, cond, x, y);
}

//===----------------------------------------------------------------------===//
// SmemTile
//===----------------------------------------------------------------------===//

Value SmemTile::offset(IndexMath &m, Value stage, Value row, Value col) const {
  Value base = m.mul(stage, stageElems);
  if (layout != SmemLayout::swizzle)
    return m.add(base, m.add(m.mul(row, rowElems), col));
  // The XOR swizzle of gemm/Utils/FragmentLayout.h (swizzledOffset), emitted.
  int64_t perChunk = 16 / elemBytes;
  int64_t chunksPerRow = rowElems / perChunk;
  Value linear = m.add(m.mul(row, chunksPerRow), m.div(col, perChunk));
  Value key = chunksPerRow >= 8 ? m.andOp(row, 7) : m.andOp(m.shr(linear, 3), 7);
  Value swizzled = m.xorOp(linear, key);
  return m.add(base, m.add(m.mul(swizzled, perChunk), m.rem(col, perChunk)));
}

Value SmemTile::offsetSplit(IndexMath &m, Value stage, Value rowVar,
                            int64_t rowConst, Value colVar, int64_t colConst,
                            int64_t colVarChunkBound,
                            int64_t colVarAlign) const {
  int64_t perChunk = 16 / elemBytes;
  int64_t chunksPerRow = rowElems / perChunk;
  int64_t chunkConst = colConst / perChunk;
  // colVar = small (< colVarChunkBound chunks) + a multiple of colVarAlign
  // chunks; chunkConst must live strictly between the two in its bits.
  int64_t lowBits = llvm::PowerOf2Ceil(std::max<int64_t>(colVarChunkBound, 1));
  bool reassociate = layout == SmemLayout::swizzle && chunksPerRow >= 8 &&
                     rowConst % 8 == 0 && colConst % perChunk == 0 &&
                     chunkConst % lowBits == 0 &&
                     llvm::isPowerOf2_64(colVarAlign) &&
                     chunkConst < colVarAlign && colVarAlign >= lowBits;
  if (!reassociate)
    return offset(m, stage, m.add(rowVar, rowConst), m.add(colVar, colConst));
  // chunk(row, col) = (colVar/V + chunkConst) ^ (row & 7)
  //                 = ((colVar/V) ^ (rowVar & 7)) ^ chunkConst
  // since chunkConst's bits are disjoint from colVar/V's and rowConst % 8 == 0.
  Value laneChunk = m.xorOp(m.div(colVar, perChunk), m.andOp(rowVar, 7));
  Value chunk = chunkConst ? Value(arith::XOrIOp::create(
                                 m.b, m.loc, laneChunk, m.c(chunkConst)))
                           : laneChunk;
  Value rowOff = m.mul(m.add(rowVar, rowConst), rowElems);
  return m.add(m.mul(stage, stageElems),
               m.add(rowOff, m.mul(chunk, perChunk)));
}

SmallVector<Value> KernelContext::globalIndices(OpBuilder &b, Location loc,
                                                Value row, Value col) const {
  IndexMath m(b, loc);
  if (batch)
    return {m.idx(batch), m.idx(row), m.idx(col)};
  return {m.idx(row), m.idx(col)};
}

//===----------------------------------------------------------------------===//
// Copies
//===----------------------------------------------------------------------===//

namespace {
/// Where a shared tile's data comes from in global memory.
struct GlobalSource {
  Value memref;
  Value row0, col0;     ///< origin of the tile in storage coordinates
  Value rows, cols;     ///< extent of the stored matrix (bounds)
  Value vectorOk;       ///< i1: 16-byte copies are legal (null: never)
};
} // namespace

/// 16-byte cp.async copies of one tile, zero-filled past the matrix edge.
static void emitVectorCopy(OpBuilder &b, Location loc, KernelContext &ctx,
                           const SmemTile &tile, const GlobalSource &src,
                           Value stage, int64_t threads) {
  IndexMath m(b, loc);
  int64_t perChunk = 16 / tile.elemBytes;
  int64_t chunksPerRow = tile.cols / perChunk;
  int64_t total = tile.rows * chunksPerRow;
  int64_t iters = (total + threads - 1) / threads;
  for (int64_t i = 0; i < iters; ++i) {
    Value idx = m.add(ctx.tid, i * threads);
    auto body = [&](OpBuilder &b) {
      IndexMath m(b, loc);
      Value r = m.div(idx, chunksPerRow);
      Value col = m.mul(m.rem(idx, chunksPerRow), perChunk);
      Value gr = m.add(src.row0, r), gc = m.add(src.col0, col);
      Value rowOk = m.lt(gr, src.rows);
      // Elements of this chunk inside the matrix: clamp(cols - gc, 0, V).
      Value avail = m.max(m.min(m.sub(src.cols, gc), m.c(perChunk)), m.c(0));
      avail = m.select(rowOk, avail, m.c(0));
      // Keep the source address inside the matrix even when nothing is read.
      Value any = m.lt(m.c(0), avail);
      Value srcRow = m.select(rowOk, gr, m.c(0));
      Value srcCol = m.select(any, gc, m.c(0));
      Value dst = tile.offset(m, stage, r, col);
      nvgpu::DeviceAsyncCopyOp::create(
          b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()),
          tile.buffer, ValueRange{m.idx(dst)}, src.memref,
          ctx.globalIndices(b, loc, srcRow, srcCol), b.getIndexAttr(perChunk),
          m.idx(avail), b.getUnitAttr());
    };
    if (total % threads != 0 && (i + 1) * threads > total) {
      auto ifOp = scf::IfOp::create(b, loc, m.lt(idx, m.c(total)),
                                    /*withElseRegion=*/false);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      body(b);
    } else {
      body(b);
    }
  }
}

/// Element copies with predicated loads: the slow path for operands that are
/// not 16-byte aligned (odd leading dimensions, offsets) or not unit-stride.
static void emitElementCopy(OpBuilder &b, Location loc, KernelContext &ctx,
                            const SmemTile &tile, const GlobalSource &src,
                            Value stage, int64_t threads) {
  // Batches of 16 bytes' worth of elements per thread: all loads of a batch
  // are issued
  // (from clamped, always-valid addresses, the value selected to zero outside
  // the matrix) before any store, so kBatch global loads are in flight
  // instead of one. A load-then-store loop per element was latency-bound:
  // about 20 TFLOP/s on 4099x4097x4095 f16.
  IndexMath m(b, loc);
  // 4- and 8-byte elements (tf32, f64) keep one element per batch: batching
  // them pushed the tf32 kernels (fragments gathered element by element)
  // over 255 registers into spills.
  const int64_t kBatch = tile.elemBytes <= 2 ? 16 / tile.elemBytes : 1;
  int64_t total = tile.rows * tile.cols;
  int64_t iters = (total + threads - 1) / threads;
  int64_t batch = std::min(iters, kBatch);
  int64_t batches = (iters + batch - 1) / batch;
  Type elemType = cast<MemRefType>(src.memref.getType()).getElementType();
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elemType));
  Value lastRow = m.sub(src.rows, m.c(1)), lastCol = m.sub(src.cols, m.c(1));
  auto loop = scf::ForOp::create(b, loc, m.c(0), m.c(batches), m.c(1));
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(loop.getBody());
  IndexMath mi(b, loc);
  Value first = mi.add(ctx.tid, mi.mul(loop.getInductionVar(), batch * threads));
  SmallVector<std::pair<Value, Value>> loaded; // (element index, value)
  for (int64_t u = 0; u < batch; ++u) {
    Value idx = mi.add(first, u * threads);
    Value r = mi.div(idx, tile.cols), col = mi.rem(idx, tile.cols);
    Value gr = mi.add(src.row0, r), gc = mi.add(src.col0, col);
    Value inside = mi.andI1(mi.lt(gr, src.rows), mi.lt(gc, src.cols));
    Value v = memref::LoadOp::create(
        b, loc, src.memref,
        ctx.globalIndices(b, loc, mi.min(gr, lastRow), mi.min(gc, lastCol)));
    loaded.emplace_back(idx, mi.select(inside, v, zero));
  }
  for (auto [idx, v] : loaded) {
    auto store = [&](OpBuilder &b) {
      IndexMath ms(b, loc);
      Value r = ms.div(idx, tile.cols), col = ms.rem(idx, tile.cols);
      Value dst = tile.offset(ms, stage, r, col);
      memref::StoreOp::create(b, loc, v, tile.buffer, ValueRange{ms.idx(dst)});
    };
    if (total % (batch * threads) == 0 && iters % batch == 0) {
      store(b);
      continue;
    }
    auto ifIn = scf::IfOp::create(b, loc, mi.lt(idx, mi.c(total)), false);
    OpBuilder::InsertionGuard gi(b);
    b.setInsertionPointToStart(&ifIn.getThenRegion().front());
    store(b);
  }
}

namespace {
/// Loop-invariant part of the 16-byte copies of one operand tile, computed
/// once before the main loop: the tile row/column and swizzled shared offset
/// of each thread's first chunk. Slot i adds constant steps to all three
/// (checked at compile time against the swizzle function), so a full tile is
/// copied with a handful of adds per cp.async.
struct CopyPlan {
  bool valid = false;
  int64_t slots = 0, rowStep = 0, smemStep = 0;
  Value row, col, smem; ///< slot 0: tile row, tile column, stage-0 offset
  Value fullFixed;      ///< i1: the block's M (or N) extent is inside
};
} // namespace

static CopyPlan planVectorCopy(OpBuilder &b, Location loc, KernelContext &ctx,
                               const SmemTile &tile, Value fixedOrigin,
                               Value fixedLimit, int64_t threads) {
  CopyPlan plan;
  int64_t perChunk = 16 / tile.elemBytes;
  int64_t chunksPerRow = tile.cols / perChunk;
  int64_t total = tile.rows * chunksPerRow;
  if (total % threads != 0 || threads % chunksPerRow != 0)
    return plan;
  plan.slots = total / threads;
  plan.rowStep = threads / chunksPerRow;
  plan.smemStep = plan.rowStep * tile.rowElems;
  // The shared offsets must advance by a constant per slot for every thread.
  for (int64_t t = 0; t < threads; ++t) {
    int64_t r = t / chunksPerRow, c = (t % chunksPerRow) * perChunk;
    auto off = [&](int64_t row) {
      return tile.layout == SmemLayout::swizzle
                 ? swizzledOffset(row, c, tile.rowElems, tile.elemBytes)
                 : plainOffset(row, c, tile.rowElems);
    };
    for (int64_t i = 1; i < plan.slots; ++i)
      if (off(r + i * plan.rowStep) != off(r) + i * plan.smemStep)
        return plan;
  }
  IndexMath m(b, loc);
  plan.row = m.div(ctx.tid, chunksPerRow);
  plan.col = m.mul(m.rem(ctx.tid, chunksPerRow), perChunk);
  plan.smem = tile.offset(m, m.c(0), plan.row, plan.col);
  int64_t extent = tile.kContiguous ? tile.rows : tile.cols;
  Value end = m.add(fixedOrigin, extent);
  plan.fullFixed = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle,
                                         end, fixedLimit);
  plan.valid = true;
  return plan;
}

/// Unpredicated 16-byte copies of a tile known to lie inside the matrix.
static void emitFullTileCopy(OpBuilder &b, Location loc, KernelContext &ctx,
                             const SmemTile &tile, const GlobalSource &src,
                             const CopyPlan &plan, Value stage) {
  IndexMath m(b, loc);
  int64_t perChunk = 16 / tile.elemBytes;
  Value base = m.add(m.mul(stage, tile.stageElems), plan.smem);
  Value row = m.add(src.row0, plan.row), col = m.add(src.col0, plan.col);
  for (int64_t i = 0; i < plan.slots; ++i) {
    Value r = m.add(row, i * plan.rowStep);
    Value dst = m.add(base, i * plan.smemStep);
    nvgpu::DeviceAsyncCopyOp::create(
        b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), tile.buffer,
        ValueRange{m.idx(dst)}, src.memref, ctx.globalIndices(b, loc, r, col),
        b.getIndexAttr(perChunk), Value(), b.getUnitAttr());
  }
}

static void emitTileCopy(OpBuilder &b, Location loc, KernelContext &ctx,
                         const SmemTile &tile, const GlobalSource &src,
                         const CopyPlan &plan, Value k0, Value stage,
                         int64_t threads) {
  if (!src.vectorOk) {
    emitElementCopy(b, loc, ctx, tile, src, stage, threads);
    return;
  }
  if (plan.valid) {
    // Interior tiles (the common case): aligned, and inside the matrix in K
    // and in the block's M/N extent. Edge tiles take the predicated path.
    IndexMath m(b, loc);
    Value kEnd = m.add(k0, tile.kContiguous ? tile.cols : tile.rows);
    Value kInside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle,
                                          kEnd, ctx.k);
    Value full = m.andI1(src.vectorOk, m.andI1(kInside, plan.fullFixed));
    auto ifFull = scf::IfOp::create(b, loc, full, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifFull.getThenRegion().front());
    emitFullTileCopy(b, loc, ctx, tile, src, plan, stage);
    b.setInsertionPointToStart(&ifFull.getElseRegion().front());
    GlobalSource edge = src;
    CopyPlan none;
    emitTileCopy(b, loc, ctx, tile, edge, none, k0, stage, threads);
    return;
  }
  scf::IfOp::create(
      b, loc, src.vectorOk,
      [&](OpBuilder &b, Location loc) {
        emitVectorCopy(b, loc, ctx, tile, src, stage, threads);
        scf::YieldOp::create(b, loc);
      },
      [&](OpBuilder &b, Location loc) {
        emitElementCopy(b, loc, ctx, tile, src, stage, threads);
        scf::YieldOp::create(b, loc);
      });
}

/// i1 that is true when `memref` may be copied in 16-byte chunks: unit inner
/// stride (checked statically by the caller), 16-byte aligned base pointer,
/// and offset and outer strides multiples of the chunk.
static Value emitVectorOk(OpBuilder &b, Location loc, Value memref,
                          unsigned elemBytes) {
  IndexMath m(b, loc, /*useIndex=*/true);
  int64_t perChunk = 16 / elemBytes;
  auto type = cast<MemRefType>(memref.getType());
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value ptr = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value zero = m.c(0);
  auto isZero = [&](Value v) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, v, zero);
  };
  Value ok = isZero(m.rem(ptr, 16));
  ok = m.andI1(ok, isZero(m.rem(meta.getOffset(), perChunk)));
  for (int64_t d = 0; d + 1 < type.getRank(); ++d)
    ok = m.andI1(ok, isZero(m.rem(meta.getStrides()[d], perChunk)));
  return ok;
}

static bool hasUnitInnerStride(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  return strides.back() == 1;
}

//===----------------------------------------------------------------------===//
// The kernel
//===----------------------------------------------------------------------===//

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

FailureOr<int64_t> mlir::gemm::detail::buildMainLoop(OpBuilder &b,
                                                     KernelContext &ctx) {
  Location loc = ctx.op.getLoc();
  IndexMath m(b, loc);
  ConfigAttr cfg = ctx.config;
  MatmulOp op = ctx.op;
  int64_t bm = cfg.getBM(), bn = cfg.getBN(), bk = cfg.getBK();
  int64_t threads = cfg.getNumWarps() * ctx.target->warpSize;
  int64_t stages = cfg.getStages();

  // Thread and block coordinates.
  ctx.tid = m.from(gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  ctx.lane = m.rem(ctx.tid, ctx.target->warpSize);
  Value warp = m.div(ctx.tid, ctx.target->warpSize);
  unsigned b0 = op.hasBatch() ? 1 : 0;
  auto dim = [&](Value v, unsigned d) -> Value {
    return m.from(memref::DimOp::create(b, loc, v, d));
  };
  ctx.m = dim(ctx.c, b0);
  ctx.n = dim(ctx.c, b0 + 1);
  ctx.k = dim(ctx.a, b0 + op.getAKDim());
  if (op.hasBatch())
    ctx.batch = m.from(gpu::BlockIdOp::create(b, loc, gpu::Dimension::z));
  Value tilesM = m.ceilDiv(ctx.m, bm), tilesN = m.ceilDiv(ctx.n, bn);
  Value bid = m.from(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x));
  auto [tm, tn] =
      rasterize(m, bid, tilesM, tilesN, cfg.getRaster(), cfg.getGroup());
  ctx.tileM0 = m.mul(tm, bm);
  ctx.tileN0 = m.mul(tn, bn);
  // Warps form a WM x WN grid (row-major) over the block tile; for wgmma the
  // grid counts warpgroups.
  int64_t warpsN = cfg.getWarps()[1];
  ctx.warpM0 = m.mul(m.div(warp, warpsN), cfg.getWarpTileM());
  ctx.warpN0 = m.mul(m.rem(warp, warpsN), cfg.getWarpTileN());

  // Shared-memory tiles, stored with the global contiguous dimension
  // innermost: A as [m][k] (nn, tn) or [k][m] (nt, tt); B as [n][k] (tn, tt)
  // or [k][n] (nn, nt).
  Type elemType = op.getAElementType();
  unsigned elemBytes = elemType.getIntOrFloatBitWidth() / 8;
  auto makeTile = [&](MmaOperand role, bool kContiguous, int64_t mn) {
    SmemTile t;
    t.role = role;
    t.kContiguous = kContiguous;
    t.rows = kContiguous ? mn : bk;
    t.cols = kContiguous ? bk : mn;
    t.elemBytes = elemBytes;
    t.layout = cfg.getSmem();
    t.rowElems = t.cols + (t.layout == SmemLayout::pad ? 16 / elemBytes : 0);
    t.stageElems = t.rows * t.rowElems;
    return t;
  };
  ctx.tileA = makeTile(MmaOperand::A, !op.isTransposedA(), bm);
  ctx.tileB = makeTile(MmaOperand::B, op.isTransposedB(), bn);
  auto wg = gpu::AddressSpaceAttr::get(b.getContext(),
                                       gpu::AddressSpace::Workgroup);
  auto bytesType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                   MemRefLayoutAttrInterface(), wg);
  Value smem = gpu::DynamicSharedMemoryOp::create(b, loc, bytesType);
  int64_t aElems = stages * ctx.tileA.stageElems;
  int64_t bElems = stages * ctx.tileB.stageElems;
  auto view = [&](int64_t byteOffset, int64_t elems) -> Value {
    auto type = MemRefType::get({elems}, elemType, MemRefLayoutAttrInterface(),
                                wg);
    return memref::ViewOp::create(b, loc, type, smem,
                                  m.idx(m.c(byteOffset)), ValueRange{});
  };
  // B's buffer starts 128-byte aligned after A's.
  int64_t bOffset = (aElems * elemBytes + 127) / 128 * 128;
  ctx.tileA.buffer = view(0, aElems);
  ctx.tileB.buffer = view(bOffset, bElems);
  int64_t smemBytes = bOffset + bElems * elemBytes;

  // Global sources. A (m, k) is stored [m][k] or [k][m]; B (k, n) is stored
  // [n][k] or [k][n]. Vector copies need a unit inner stride (static) and
  // 16-byte alignment (run time) and whole 16-byte chunks per tile row.
  auto source = [&](Value memref, const SmemTile &tile, Value mnSize,
                    Value mn0) {
    GlobalSource s;
    s.memref = memref;
    s.rows = tile.kContiguous ? mnSize : ctx.k;
    s.cols = tile.kContiguous ? ctx.k : mnSize;
    s.row0 = tile.kContiguous ? mn0 : m.c(0);
    s.col0 = tile.kContiguous ? m.c(0) : mn0;
    auto type = cast<MemRefType>(memref.getType());
    if (hasUnitInnerStride(type) && (tile.cols * elemBytes) % 16 == 0 &&
        ctx.target->hasCpAsync)
      s.vectorOk = emitVectorOk(b, loc, memref, elemBytes);
    return s;
  };
  GlobalSource srcA = source(ctx.a, ctx.tileA, ctx.m, ctx.tileM0);
  GlobalSource srcB = source(ctx.b, ctx.tileB, ctx.n, ctx.tileN0);

  // Loop-invariant copy addressing, hoisted above the main loop.
  CopyPlan planA, planB;
  if (srcA.vectorOk)
    planA = planVectorCopy(b, loc, ctx, ctx.tileA, ctx.tileM0, ctx.m, threads);
  if (srcB.vectorOk)
    planB = planVectorCopy(b, loc, ctx, ctx.tileB, ctx.tileN0, ctx.n, threads);

  // Issues the copies of k-tile `kt` into stage `stage`.
  auto copyKTile = [&](OpBuilder &b, Value kt, Value stage) {
    IndexMath m(b, loc);
    Value k0 = m.mul(kt, bk);
    GlobalSource a = srcA, bb = srcB;
    (ctx.tileA.kContiguous ? a.col0 : a.row0) = k0;
    (ctx.tileB.kContiguous ? bb.col0 : bb.row0) = k0;
    emitTileCopy(b, loc, ctx, ctx.tileA, a, planA, k0, stage, threads);
    emitTileCopy(b, loc, ctx, ctx.tileB, bb, planB, k0, stage, threads);
  };
  auto tokenType = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  auto commit = [&](OpBuilder &b) {
    return nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokenType,
                                                   ValueRange{})
        .getResult();
  };
  auto waitGroups = [&](OpBuilder &b, Value token, int64_t pending) {
    nvgpu::DeviceAsyncWaitOp::create(b, loc, token,
                                     b.getI32IntegerAttr(pending));
  };
  auto ifLess = [&](OpBuilder &b, Value x, Value bound,
                    function_ref<void(OpBuilder &)> fn) {
    IndexMath m(b, loc);
    scf::IfOp::create(b, loc, m.lt(x, bound),
                      [&](OpBuilder &b, Location) {
                        fn(b);
                        scf::YieldOp::create(b, loc);
                      });
  };

  std::unique_ptr<ComputeStep> step =
      cfg.getKind() == Kind::simt ? createSimtStep(ctx) : createMmaSyncStep(ctx);

  Value numK = m.ceilDiv(ctx.k, bk);
  // Prologue: tiles 0 .. S-2, one commit group each (empty past the end), as
  // a loop so that the copy code is emitted once rather than S-1 times (it is
  // the bulk of the kernel's code and of LLVM's compile time). The waits need
  // a token value: an empty group committed first provides it; it shifts
  // every later group by one, which leaves the pending counts unchanged.
  Value token = commit(b);
  if (stages > 1) {
    auto prologue =
        scf::ForOp::create(b, loc, m.c(0), m.c(stages - 1), m.c(1));
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(prologue.getBody());
    Value s = prologue.getInductionVar();
    ifLess(b, s, numK, [&](OpBuilder &b) { copyKTile(b, s, s); });
    commit(b);
  }
  SmallVector<Value> init = step->initAccumulators(b, loc);
  int64_t ksteps = step->numKSteps();
  scf::ForOp loop;
  if (stages == 1) {
    // No multi-buffering: copy, wait, barrier, compute, barrier.
    loop = scf::ForOp::create(b, loc, m.c(0), numK, m.c(1), init);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kt = loop.getInductionVar();
    Value stage = m.c(0);
    copyKTile(b, kt, stage);
    waitGroups(b, commit(b), 0);
    gpu::BarrierOp::create(b, loc);
    SmallVector<Value> acc(loop.getRegionIterArgs());
    for (int64_t ks = 0; ks < ksteps; ++ks)
      acc = step->multiply(b, loc, step->loadFragments(b, loc, stage, ks), acc);
    gpu::BarrierOp::create(b, loc);
    scf::YieldOp::create(b, loc, acc);
  } else {
    // Multistage main loop. In iteration kt:
    //   wait until tile kt has landed ((S-1) + kt groups were committed and
    //   tile kt is group kt: at most S-2 may be pending), then one barrier,
    //   which both publishes tile kt to every warp and retires every read of
    //   the buffer tile kt-1 used;
    //   issue tile kt+S-1 into that buffer and commit (an empty group past
    //   the end keeps the count uniform);
    //   run the k-steps, loading the fragments of step ks+1 before the MMAs
    //   of step ks (register double-buffering).
    // Carrying the next tile's first fragments across the barrier (CUTLASS
    // style) was measured slower here: the extra live registers cost more
    // than the hidden ldmatrix latency (docs/performance.md).
    loop = scf::ForOp::create(b, loc, m.c(0), numK, m.c(1), init);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    IndexMath mi(b, loc);
    Value kt = loop.getInductionVar();
    waitGroups(b, token, stages - 2);
    gpu::BarrierOp::create(b, loc);
    Value fetch = mi.add(kt, stages - 1);
    ifLess(b, fetch, numK, [&](OpBuilder &b) {
      IndexMath mm(b, loc);
      copyKTile(b, fetch, mm.rem(fetch, stages));
    });
    commit(b);
    Value stage = mi.rem(kt, stages);
    SmallVector<Value> acc(loop.getRegionIterArgs());
    SmallVector<Value> frags = step->loadFragments(b, loc, stage, 0);
    for (int64_t ks = 0; ks < ksteps; ++ks) {
      SmallVector<Value> next;
      if (ks + 1 < ksteps)
        next = step->loadFragments(b, loc, stage, ks + 1);
      acc = step->multiply(b, loc, frags, acc);
      frags = std::move(next);
    }
    scf::YieldOp::create(b, loc, acc);
  }
  // Drain: no cp.async may be in flight when the kernel exits.
  waitGroups(b, token, 0);

  // Epilogue.
  step->forEachElement(b, loc, loop.getResults(),
                       [&](Value row, Value col, Value value) {
                         IndexMath m(b, loc);
                         emitEpilogueElement(b, loc, ctx,
                                             m.add(ctx.tileM0, row),
                                             m.add(ctx.tileN0, col), value);
                       });
  return smemBytes;
}
