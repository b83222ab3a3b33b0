//===- MainLoop.cpp - copies and the pipeline of NVIDIA kernels -----------===//
//
// The NVIDIA main loop, on the block KernelSetup.cpp sets up (coordinates,
// shared tiles): the global-to-shared copies and the multi-stage pipeline
// around the compute step of the config's kind (mma.sync, wgmma, SIMT); then
// the epilogue over the accumulators.
//
// Copies: when the operand is provably or at run time 16-byte aligned (base
// pointer, offset and leading stride), each thread issues 16-byte
// nvgpu.device_async_copy (cp.async.cg) with a source size that zero-fills
// the part of a chunk past the matrix edge. Otherwise, when the buffer is
// 16-byte aligned and the inner stride 1 (rows that merely do not start on
// 16 bytes: f16 with an odd K), shifted copies: each 16-byte chunk is read
// as the two aligned blocks holding it and funnel-shifted into place
// (emitShiftedCopy). Else element copies with predicated loads. All paths
// share the pipeline structure.
//
// Pipeline with S stages (S >= 2), for a synchronous compute step:
//   prologue: tiles 0 .. S-2 issued, one commit group each
//   for kt in 0 .. numK-1:
//     wait until tile kt has landed (at most S-2 groups pending); barrier
//     issue tile kt+S-1 into the buffer tile kt-1 used; commit
//     compute on buffer kt % S
// The single barrier per k-tile both publishes tile kt to all warps and
// guarantees every warp is done with the buffer that is overwritten next.
// An asynchronous compute step (wgmma) that leaves L stages in flight
// (ComputeStep::stagesInFlight) shifts this by L: tiles are fetched S-1-L
// ahead, into the buffer tile kt-1-L used, which the barrier has retired.
//
//===----------------------------------------------------------------------===//

#include "NVGPUKernel.h"
#include "../KernelCommon/SplitK.h"
#include "gemm/Target/Legality.h"
#include "gemm/Utils/FragmentLayout.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::detail;

//===----------------------------------------------------------------------===//
// Copies
//===----------------------------------------------------------------------===//


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

LinearSource
mlir::gemm::detail::makeLinearSource(OpBuilder &b, Location loc,
                                     const KernelContext &ctx, Value memref,
                                     memref::ExtractStridedMetadataOp meta) {
  int64_t rank = cast<MemRefType>(memref.getType()).getRank();
  if (!meta)
    meta = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  IndexMath m(b, loc), mx(b, loc, /*useIndex=*/true);
  LinearSource s;
  s.base = meta.getOffset();
  if (ctx.batch)
    s.base = mx.add(s.base, mx.mul(m.idx(ctx.batch), meta.getStrides()[0]));
  s.rowStride = meta.getStrides()[rank - 2];
  s.linear = emitLinearView(b, loc, memref, meta);
  return s;
}

/// Whether the shifted copies of an operand tile (emitShiftedCopy) may run:
/// the tile's rows are whole 16-byte chunks that land on 16 bytes of shared
/// memory, and the operand's inner stride is (or may be) 1. The buffer's
/// alignment is checked where the copy runs (emitUnalignedCopy), and so is
/// its addressing formed, not hoisted above the main loop: values live
/// across the loop pushed mma.sync decode tiles into spills.
static bool allowsShiftedCopy(const SmemTile &tile, Value memref) {
  int64_t perChunk = 16 / tile.elemBytes;
  if (tile.elemBytes >= 16 || tile.cols % perChunk != 0)
    return false;
  if (!mayHaveUnitInnerStride(cast<MemRefType>(memref.getType())))
    return false;
  // Each chunk must land on 16 bytes of shared memory (the pad layout's
  // padding and the panels keep chunks whole; checked, not assumed).
  for (int64_t r = 0; r < tile.rows; ++r)
    for (int64_t c = 0; c < tile.cols; c += perChunk)
      if (tile.offsetConst(r, c) % perChunk != 0)
        return false;
  return true;
}

/// Shifted 16-byte copies, for operands whose rows do not start on 16 bytes
/// (f16 with an odd K) in a 16-byte aligned buffer: each thread's chunk of
/// V elements is read as the two aligned 16-byte blocks holding it, funnel
/// shifted into place (shiftRow / shiftBlocks, the gemv kernels' path), and
/// stored to shared memory in one 16-byte store: two 16-byte loads where
/// the element copies make V. Only blocks holding an element of the matrix
/// are read: a chunk's start is clamped into the matrix, its second block
/// is read only if an element of the matrix lies in it, and elements
/// outside the matrix are zeroed. One chunk at a time a thread (the loop
/// is unrolled and the loads scheduled ahead by the compiler): holding the
/// loads of two or four chunks before the first was stored spilled the
/// register-bound decode tiles.
static void emitShiftedCopy(OpBuilder &b, Location loc, KernelContext &ctx,
                            const SmemTile &tile, const GlobalSource &src,
                            Value stage, int64_t threads) {
  IndexMath m(b, loc);
  LinearSource source = makeLinearSource(b, loc, ctx, src.memref);
  const int64_t perChunk = 16 / tile.elemBytes;
  int64_t chunksPerRow = tile.cols / perChunk;
  int64_t total = tile.rows * chunksPerRow;
  int64_t iters = (total + threads - 1) / threads;
  Type elemType = cast<MemRefType>(src.memref.getType()).getElementType();
  Value lastRow = m.sub(src.rows, m.c(1));
  auto loop = scf::ForOp::create(b, loc, m.c(0), m.c(iters), m.c(1));
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(loop.getBody());
  IndexMath mi(b, loc), mx(b, loc, /*useIndex=*/true);
  Value idx = mi.add(ctx.tid, mi.mul(loop.getInductionVar(), threads));
  Value r = mi.div(idx, chunksPerRow);
  Value c = mi.mul(mi.rem(idx, chunksPerRow), perChunk);
  Value gr = mi.add(src.row0, r), gc = mi.add(src.col0, c);
  // Elements of the chunk inside the matrix: clamp(cols - gc, 0, V).
  Value valid = mi.max(mi.min(mi.sub(src.cols, gc), mi.c(perChunk)), mi.c(0));
  valid = mi.select(mi.lt(gr, src.rows), valid, mi.c(0));
  Value rowStart = mx.add(
      source.base, mx.mul(mi.idx(mi.min(gr, lastRow)), source.rowStride));
  Value v = loadShiftedRowChunk(b, loc, source.linear, rowStart, gc, src.cols,
                                valid, perChunk, elemType);
  auto store = [&](OpBuilder &b) {
    IndexMath ms(b, loc);
    Value dst = tile.offset(ms, stage, r, c);
    vector::StoreOp::create(b, loc, v, tile.buffer, ValueRange{ms.idx(dst)},
                            /*nontemporal=*/false, b.getI64IntegerAttr(16));
  };
  if (total % threads == 0)
    store(b);
  else
    emitIfLess(b, loc, idx, mi.c(total), store);
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
  /// The source as a 1-D memref over its base buffer, and (index) the
  /// element offset of its origin (batch included), its row stride and the
  /// distance between two slots (rowStep rows): slot i of a tile then costs
  /// one 64-bit add, where row * stride per slot would cost a 64-bit
  /// multiply-add each (the rows of K-major-in-rows tiles move every k-tile,
  /// so nothing of that product is loop-invariant).
  Value linear, base, rowStride, slotStep;
};
} // namespace

static CopyPlan planVectorCopy(OpBuilder &b, Location loc, KernelContext &ctx,
                               const SmemTile &tile, const GlobalSource &src,
                               int64_t threads) {
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
    auto off = [&](int64_t row) { return tile.offsetConst(row, c); };
    for (int64_t i = 1; i < plan.slots; ++i)
      if (off(r + i * plan.rowStep) != off(r) + i * plan.smemStep)
        return plan;
  }
  IndexMath m(b, loc);
  plan.row = m.div(ctx.tid, chunksPerRow);
  plan.col = m.mul(m.rem(ctx.tid, chunksPerRow), perChunk);
  plan.smem = tile.offset(m, m.c(0), plan.row, plan.col);
  plan.fullFixed = emitTileInsideMN(b, loc, ctx, tile);

  // The vector path has a unit inner stride.
  LinearSource linear = makeLinearSource(b, loc, ctx, src.memref);
  IndexMath mx(b, loc, /*useIndex=*/true);
  plan.base = linear.base;
  plan.rowStride = linear.rowStride;
  plan.slotStep = mx.mul(plan.rowStride, plan.rowStep);
  plan.linear = linear.linear;
  plan.valid = true;
  return plan;
}

/// Unpredicated 16-byte copies of a tile known to lie inside the matrix.
static void emitFullTileCopy(OpBuilder &b, Location loc, const SmemTile &tile,
                             const GlobalSource &src, const CopyPlan &plan,
                             Value stage) {
  IndexMath m(b, loc), mx(b, loc, /*useIndex=*/true);
  int64_t perChunk = 16 / tile.elemBytes;
  Value base = m.add(m.mul(stage, tile.stageElems), plan.smem);
  Value row = m.add(src.row0, plan.row), col = m.add(src.col0, plan.col);
  Value off = mx.add(plan.base, mx.add(mx.mul(m.idx(row), plan.rowStride),
                                       m.idx(col)));
  for (int64_t i = 0; i < plan.slots; ++i) {
    if (i > 0)
      off = mx.add(off, plan.slotStep);
    Value dst = m.add(base, i * plan.smemStep);
    nvgpu::DeviceAsyncCopyOp::create(
        b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), tile.buffer,
        ValueRange{m.idx(dst)}, plan.linear, ValueRange{off},
        b.getIndexAttr(perChunk), Value(), b.getUnitAttr());
  }
}

/// The copies of a tile that rules out 16-byte copies: shifted where the
/// tile allows them (`shifted`, allowsShiftedCopy) and the buffer's 16-byte
/// blocks can be loaded (an aligned pointer and a unit inner stride: the
/// 16-byte copies' check with chunks of one element), else element by
/// element.
static void emitUnalignedCopy(OpBuilder &b, Location loc, KernelContext &ctx,
                              const SmemTile &tile, const GlobalSource &src,
                              bool shifted, Value stage, int64_t threads) {
  if (!shifted)
    return emitElementCopy(b, loc, ctx, tile, src, stage, threads);
  scf::IfOp::create(
      b, loc, emitVectorCopiesOk(b, loc, src.memref, /*multiple=*/1),
      [&](OpBuilder &b, Location loc) {
        emitShiftedCopy(b, loc, ctx, tile, src, stage, threads);
        scf::YieldOp::create(b, loc);
      },
      [&](OpBuilder &b, Location loc) {
        emitElementCopy(b, loc, ctx, tile, src, stage, threads);
        scf::YieldOp::create(b, loc);
      });
}

static void emitTileCopy(OpBuilder &b, Location loc, KernelContext &ctx,
                         const SmemTile &tile, const GlobalSource &src,
                         const CopyPlan &plan, bool shifted, Value k0,
                         Value stage, int64_t threads) {
  if (!src.vectorOk)
    return emitUnalignedCopy(b, loc, ctx, tile, src, shifted, stage, threads);
  if (plan.valid) {
    // Interior tiles (the common case): aligned, and inside the matrix in K
    // and in the block's M/N extent. Edge tiles take the predicated path.
    IndexMath m(b, loc);
    Value kInside = emitKTileInside(b, loc, ctx, tile, k0);
    Value full = m.andI1(src.vectorOk, m.andI1(kInside, plan.fullFixed));
    auto ifFull = scf::IfOp::create(b, loc, full, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifFull.getThenRegion().front());
    emitFullTileCopy(b, loc, tile, src, plan, stage);
    b.setInsertionPointToStart(&ifFull.getElseRegion().front());
    GlobalSource edge = src;
    CopyPlan none;
    emitTileCopy(b, loc, ctx, tile, edge, none, shifted, k0, stage, threads);
    return;
  }
  scf::IfOp::create(
      b, loc, src.vectorOk,
      [&](OpBuilder &b, Location loc) {
        emitVectorCopy(b, loc, ctx, tile, src, stage, threads);
        scf::YieldOp::create(b, loc);
      },
      [&](OpBuilder &b, Location loc) {
        emitUnalignedCopy(b, loc, ctx, tile, src, shifted, stage, threads);
        scf::YieldOp::create(b, loc);
      });
}

//===----------------------------------------------------------------------===//
// TMA loads (`load = tma`)
//===----------------------------------------------------------------------===//

namespace {
/// The TMA side of a `load = tma` kernel: one mbarrier per stage, on which
/// the stage's boxes complete (an expect-tx of the stage's bytes by the one
/// issuing thread, then the copies' complete-tx); k-tile kt waits on its
/// stage's barrier in phase kt / stages.
struct TmaPipeline {
  /// i1: the host passed both tensor maps (else the kernel copies through
  /// cp.async: TMA cannot address the operands).
  Value useTma;
  /// !llvm.ptr<3>: the stages' mbarriers, 8 bytes each.
  Value barriers;
  /// i1: this thread issues the copies (thread 0).
  Value issuer;
  TmaBox boxA, boxB;
  int64_t stageBytes = 0, stages = 0;
  /// `load = tma_ws`: the barriers are followed by the stages' "empty"
  /// barriers, which the compute threads arrive on when done with a stage
  /// and the producer waits on before it refills it.
  bool warpSpecialized = false;
  /// `multicast = 2` (with tma_ws): blocks in clusters of two; where the
  /// pair shares B (ctx.shareB) each producer loads half of B's tile into
  /// both blocks, and a stage's empty barrier takes the arrivals of both
  /// blocks' compute warpgroups.
  int64_t multicast = 1;
  /// Multicast in persistent blocks: whether a pair shares B changes from
  /// tile to tile, so both blocks' warpgroups release every stage on both
  /// blocks' empty barriers, shared or not (the count stays fixed).
  bool pairAlwaysReleases = false;
};
} // namespace

static Value sharedPointer(OpBuilder &b, Location loc, Value memref) {
  Value address = arith::IndexCastOp::create(
      b, loc, b.getI64Type(),
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref));
  auto ptr = LLVM::LLVMPointerType::get(
      b.getContext(), static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
  return LLVM::IntToPtrOp::create(b, loc, ptr, address,
                                  LLVM::DereferenceableAttr());
}

static Value i32Const(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 32);
}

/// The full barrier of `stage`, and (warp-specialized) its empty barrier.
static Value stageBarrier(OpBuilder &b, Location loc, const TmaPipeline &p,
                          Value stage) {
  return LLVM::GEPOp::create(b, loc, p.barriers.getType(), b.getI64Type(),
                             p.barriers, ValueRange{stage});
}

static Value emptyBarrier(OpBuilder &b, Location loc, const TmaPipeline &p,
                          Value stage) {
  IndexMath m(b, loc);
  return stageBarrier(b, loc, p, m.add(stage, p.stages));
}

/// The stage barriers (a workgroup attribution of the kernel), initialized
/// by thread 0 for one arrival each; the caller's barrier publishes them.
static TmaPipeline setupTma(OpBuilder &b, Location loc, KernelContext &ctx,
                            int64_t stages) {
  TmaPipeline p;
  p.stages = stages;
  p.warpSpecialized = ctx.warpSpecialized;
  p.multicast = ctx.config.getMulticast();
  p.pairAlwaysReleases = p.multicast > 1 && ctx.persistent;
  IndexMath m(b, loc);
  auto nonNull = [&](Value map) {
    Value bits = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), map);
    Value zero = arith::ConstantIntOp::create(b, loc, 0, 64);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, bits, zero);
  };
  p.useTma = m.andI1(nonNull(ctx.mapA), nonNull(ctx.mapB));
  // Thread 0, or the producer warpgroup's first thread.
  p.issuer =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, ctx.blockTid,
                            m.c(ctx.warpSpecialized ? ctx.computeThreads : 0));
  // Called in the kernel's entry block.
  auto kernel = cast<gpu::GPUFuncOp>(b.getInsertionBlock()->getParentOp());
  auto wg =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  // Warp-specialized: a second row of barriers, the stages' "empty"
  // barriers, on which the compute warpgroups arrive once done with the
  // stage.
  int64_t rows = ctx.warpSpecialized ? 2 : 1;
  Value storage = kernel.addWorkgroupAttribution(
      MemRefType::get({rows * stages}, b.getI64Type(),
                      MemRefLayoutAttrInterface(), wg),
      loc);
  p.barriers = sharedPointer(b, loc, storage);
  const SmemTile &ta = ctx.tileA, &tb = ctx.tileB;
  // B's boxes in `multicast` parts, one a block of the pair.
  auto box = [&](const SmemTile &t, int64_t parts) {
    return tmaBox(t.kContiguous ? t.rows : t.cols,
                  t.kContiguous ? t.cols : t.rows, t.kContiguous,
                  t.elemBytes, parts);
  };
  p.boxA = box(ta, 1);
  p.boxB = box(tb, p.multicast);
  assert(p.boxA.count && p.boxB.count && "legality admits TMA tiles only");
  p.stageBytes = ta.stageElems * ta.elemBytes + tb.stageElems * tb.elemBytes;
  emitIfTrue(b, loc, m.andI1(p.useTma, p.issuer), [&](OpBuilder &b) {
    IndexMath mi(b, loc);
    for (int64_t s = 0; s < stages; ++s) {
      NVVM::MBarrierInitOp::create(b, loc, stageBarrier(b, loc, p, mi.c(s)),
                                   i32Const(b, loc, 1), Value());
      if (!ctx.warpSpecialized)
        continue;
      // One arrival a compute warpgroup; a pair sharing B writes both
      // blocks' stages, so both blocks' warpgroups arrive.
      Value arrivals = i32Const(b, loc, ctx.teamThreads() / kWarpgroupThreads);
      if (p.pairAlwaysReleases)
        arrivals = i32Const(
            b, loc, ctx.teamThreads() / kWarpgroupThreads * p.multicast);
      else if (p.multicast > 1)
        arrivals =
            mi.select(ctx.shareB, mi.mul(arrivals, p.multicast), arrivals);
      Value empty = emptyBarrier(b, loc, p, mi.c(s));
      NVVM::MBarrierInitOp::create(b, loc, empty, arrivals, Value());
    }
    // The other block arrives on these barriers and its copies complete on
    // them: the initialization is published to the cluster (with the
    // cluster barrier the caller emits, publishTma).
    if (p.multicast > 1)
      NVVM::FenceMbarrierInitOp::create(b, loc);
  });
  return p;
}

/// Publishes the barriers setupTma initialized: a block barrier, or with
/// multicast a cluster barrier (the other block's copies and arrivals
/// reach them), which every thread of both blocks passes, a block past
/// the tiles too.
static void publishTma(OpBuilder &b, Location loc, const TmaPipeline &p) {
  if (p.multicast == 1) {
    gpu::BarrierOp::create(b, loc);
    return;
  }
  UnitAttr aligned = b.getUnitAttr();
  NVVM::ClusterArriveOp::create(b, loc, aligned);
  NVVM::ClusterWaitOp::create(b, loc, aligned);
}

/// Thread 0 issues k-tile `kt`'s boxes of A and B into `stage`, completing
/// on the stage's barrier. Out-of-bounds elements (past M, N, K) read as
/// zeros.
static void emitTmaCopy(OpBuilder &b, Location loc, KernelContext &ctx,
                        const TmaPipeline &p, Value k0, Value stage) {
  emitIfTrue(b, loc, p.issuer, [&](OpBuilder &b) {
    IndexMath m(b, loc);
    Value bar = stageBarrier(b, loc, p, stage);
    NVVM::MBarrierArriveExpectTxOp::create(
        b, loc, Type(), bar, i32Const(b, loc, p.stageBytes),
        NVVM::MemScopeKind::CTA, /*relaxed=*/false, Value());
    // Boxes [first, first + count) of the tile; with `mask`, multicast to
    // the blocks of the cluster it names (their shared memory at the same
    // offsets, completing on their barrier of the stage).
    auto load = [&](OpBuilder &b, const SmemTile &tile, const TmaBox &box,
                    Value map, Value mn0, Value first = Value(),
                    int64_t count = 0, Value mask = Value()) {
      IndexMath m(b, loc);
      Value base = sharedPointer(b, loc, tile.buffer);
      // Box i's offset in the tile times `step` (i = first + j).
      auto scaled = [&](int64_t j, int64_t step) {
        return first ? m.mul(m.add(first, j), step) : m.c(j * step);
      };
      for (int64_t j = 0; j < (first ? count : box.count); ++j) {
        Value elems =
            m.add(m.mul(stage, tile.stageElems), scaled(j, box.elems()));
        Value dst = LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(),
                                        base,
                                        ValueRange{m.mul(elems, tile.elemBytes)});
        Value mn = m.add(mn0, scaled(j, box.mnStep()));
        // Innermost first, the batch last.
        SmallVector<Value> coords = box.kInner ? SmallVector<Value>{k0, mn}
                                               : SmallVector<Value>{mn, k0};
        if (ctx.batch)
          coords.push_back(ctx.batch);
        // The block's own shared::cta address, as the shared::cluster
        // address the instruction takes (PTX 8.4 has no shared::cta form).
        Value clusterDst = LLVM::AddrSpaceCastOp::create(
            b, loc,
            LLVM::LLVMPointerType::get(
                b.getContext(),
                static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster)),
            dst);
        NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
            b, loc, clusterDst, map, coords, bar, ValueRange(), mask, Value(),
            NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false,
            NVVM::CTAGroupKindAttr(), Value());
      }
    };
    load(b, ctx.tileA, p.boxA, ctx.mapA, ctx.tileM0);
    if (p.multicast == 1)
      return load(b, ctx.tileB, p.boxB, ctx.mapB, ctx.tileN0);
    // A pair sharing B: block r loads part r of the tile into both.
    scf::IfOp::create(
        b, loc, ctx.shareB,
        [&](OpBuilder &b, Location loc) {
          IndexMath mb(b, loc);
          int64_t part = p.boxB.count / p.multicast;
          Value mask = arith::ConstantIntOp::create(
              b, loc, (int64_t(1) << p.multicast) - 1, 16);
          load(b, ctx.tileB, p.boxB, ctx.mapB, ctx.tileN0,
               mb.mul(ctx.clusterRank, part), part, mask);
          scf::YieldOp::create(b, loc);
        },
        [&](OpBuilder &b, Location loc) {
          load(b, ctx.tileB, p.boxB, ctx.mapB, ctx.tileN0);
          scf::YieldOp::create(b, loc);
        });
  });
}

/// The producer of a warp-specialized kernel (its first thread): every
/// k-tile of the block's K range, each into stage it % stages once the
/// compute threads have released the tile that used it before (phase
/// it / stages - 1 of its empty barrier), where it = kBase + kt counts the
/// block's k-tiles over all its output tiles (kBase null: 0).
static void emitTmaProducer(OpBuilder &b, Location loc, KernelContext &ctx,
                            const TmaPipeline &p, Value numK,
                            Value kBase = Value()) {
  IndexMath m(b, loc);
  auto loop = scf::ForOp::create(b, loc, m.c(0), numK, m.c(1));
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(loop.getBody());
  IndexMath mi(b, loc);
  Value kt = loop.getInductionVar();
  Value it = kBase ? mi.add(kBase, kt) : kt;
  Value stage = mi.rem(it, p.stages);
  Value round = mi.div(it, p.stages);
  emitIfTrue(b, loc, mi.lt(mi.c(0), round), [&](OpBuilder &b) {
    IndexMath mw(b, loc);
    NVVM::MBarrierTryWaitParityOp::create(
        b, loc, emptyBarrier(b, loc, p, stage),
        mw.rem(mw.sub(round, mw.c(1)), 2), i32Const(b, loc, 10000000));
  });
  emitTmaCopy(b, loc, ctx, p, ctx.kTileOrigin(mi, kt), stage);
}

/// A compute warpgroup of a warp-specialized kernel is done with `stage`:
/// its first thread arrives, after the warpgroup's wgmma.wait_group
/// retired the MMAs that read the stage (one asynchronous operation of the
/// whole warpgroup). One arrival per thread (256 per k-tile on one shared
/// word) made the kernel 5-15% slower.
///
/// A multicast pair sharing B: the other block's producer writes this
/// block's stages too, so the warpgroup also arrives on the other block's
/// empty barrier of the stage (through its shared::cluster address); a
/// persistent pair always does (TmaPipeline::pairAlwaysReleases).
static void emitTmaRelease(OpBuilder &b, Location loc, KernelContext &ctx,
                           const TmaPipeline &p, Value stage) {
  IndexMath m(b, loc);
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      m.rem(ctx.tid, kWarpgroupThreads),
                                      m.c(0));
  emitIfTrue(b, loc, first, [&](OpBuilder &b) {
    Value own = emptyBarrier(b, loc, p, stage);
    NVVM::MBarrierArriveOp::create(b, loc, Type(), own, Value());
    if (p.multicast == 1)
      return;
    auto arriveRemote = [&](OpBuilder &b) {
      IndexMath mr(b, loc);
      auto clusterPtr = LLVM::LLVMPointerType::get(
          b.getContext(),
          static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster));
      // Pairs only: the other block's rank is 1 - rank (i32, as mapa's).
      // Release at CTA scope, as CUTLASS's ClusterBarrier::arrive: the
      // warpgroup's reads of the stage are complete (wgmma.wait_group), and
      // a cluster-scope release is a MEMBAR.ALL.GPU before every arrival
      // (1.45x the kernel's time on an H100, docs/design-notes.md).
      Value other = NVVM::MapaOp::create(b, loc, clusterPtr, own,
                                         mr.sub(mr.c(1), ctx.clusterRank));
      NVVM::MBarrierArriveOp::create(b, loc, Type(), other, Value());
    };
    if (p.pairAlwaysReleases)
      arriveRemote(b);
    else
      emitIfTrue(b, loc, ctx.shareB, arriveRemote);
  });
}

/// Every thread waits until k-tile `kt` has landed in its stage.
static void emitTmaWait(OpBuilder &b, Location loc, const TmaPipeline &p,
                        Value kt, int64_t stages) {
  IndexMath m(b, loc);
  Value stage = m.rem(kt, stages);
  Value parity = m.rem(m.div(kt, stages), 2);
  // The suspend-time hint CUTLASS uses (in ns).
  NVVM::MBarrierTryWaitParityOp::create(b, loc, stageBarrier(b, loc, p, stage),
                                        parity, i32Const(b, loc, 10000000));
}

/// setmaxnreg needs the kernel's register count at entry fixed: with a
/// thread bound (.maxntid) alone ptxas ignores it ("unable to determine
/// register count at entry"), and the compute warpgroups keep the launch
/// bound's registers. One block an SM (.minnctapersm 1, CUTLASS's
/// __launch_bounds__(threads, 1)) fixes the count at the register file over
/// the block's threads, which is what tmaWsConsumerRegisters shares out.
/// Only where the block's `dynamicBytes` of shared memory let no second
/// block onto the SM anyway: elsewhere the fixed count would cost the
/// blocks that fit beside it (a 256-thread block would take 232 registers
/// a thread, all of the SM's).
static void fixEntryRegisters(OpBuilder &b, const TargetInfo &target,
                              int64_t dynamicBytes) {
  // The driver's reservation per block: what the SM has beyond a block's
  // maximum.
  int64_t reserved =
      int64_t(target.sharedMemPerSM) - int64_t(target.maxSharedMemPerBlock);
  if (2 * (dynamicBytes + reserved) <= int64_t(target.sharedMemPerSM))
    return;
  auto kernel =
      b.getInsertionBlock()->getParent()->getParentOfType<gpu::GPUFuncOp>();
  kernel->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                  b.getI32IntegerAttr(1));
}

/// The two roles of a warp-specialized block: the last warpgroup produces
/// with fewer registers (setmaxnreg), and `producer` runs for its first
/// thread when the host passed tensor maps (without, the producer has
/// nothing to do and the compute threads copy element by element); the
/// compute warpgroups take the registers it gives up and run `consumer`.
static void emitWarpSpecialized(OpBuilder &b, Location loc,
                                const KernelContext &ctx, const TmaPipeline &p,
                                function_ref<void(OpBuilder &)> producer,
                                function_ref<void(OpBuilder &)> consumer) {
  IndexMath m(b, loc);
  scf::IfOp::create(
      b, loc, m.lt(m.c(ctx.computeThreads - 1), ctx.blockTid),
      [&](OpBuilder &b, Location loc) {
        NVVM::SetMaxRegisterOp::create(b, loc, kProducerRegisters,
                                       NVVM::SetMaxRegisterAction::decrease);
        IndexMath mp(b, loc);
        emitIfTrue(b, loc, mp.andI1(p.useTma, p.issuer), producer);
        scf::YieldOp::create(b, loc);
      },
      [&](OpBuilder &b, Location loc) {
        NVVM::SetMaxRegisterOp::create(
            b, loc,
            tmaWsConsumerRegisters(*ctx.target,
                                   ctx.computeThreads / kWarpgroupThreads),
            NVVM::SetMaxRegisterAction::increase);
        consumer(b);
        scf::YieldOp::create(b, loc);
      });
}

//===----------------------------------------------------------------------===//
// Persistent blocks (`schedule = persistent`, `pingpong`)
//===----------------------------------------------------------------------===//

namespace {
/// The two barriers on which the teams of a persistent block take turns,
/// in the order of the block's tiles: the main loop of tile j completes
/// phase j of `mainLoop` once it has waited for all its k-tiles, its
/// epilogue phase j of `epilogue` once it is done with the staging area
/// (one arrival each).
///
/// The main-loop turn is what keeps the stage barriers' phases
/// unambiguous: an mbarrier wait names a phase by its parity only, and a
/// team that waited for k-tile it of its tile while the other team's tile
/// still had more than `stages` k-tiles to go would take the stage's phase
/// of it - 2 * stages for its own. It also makes the main loops alternate,
/// so that one team's epilogue runs beside the other's MMAs.
struct Turns {
  Value mainLoop, epilogue;
};
} // namespace

/// Both turn barriers (a workgroup attribution), initialized by thread 0;
/// the caller's barrier publishes them.
static Turns setupTurns(OpBuilder &b, Location loc, KernelContext &ctx) {
  IndexMath m(b, loc);
  auto kernel = cast<gpu::GPUFuncOp>(b.getInsertionBlock()->getParentOp());
  auto wg =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  Value storage = kernel.addWorkgroupAttribution(
      MemRefType::get({2}, b.getI64Type(), MemRefLayoutAttrInterface(), wg),
      loc);
  Value base = sharedPointer(b, loc, storage);
  Turns t;
  t.mainLoop = base;
  t.epilogue = LLVM::GEPOp::create(b, loc, base.getType(), b.getI64Type(), base,
                                   ArrayRef<LLVM::GEPArg>{1});
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      ctx.blockTid, m.c(0));
  emitIfTrue(b, loc, first, [&](OpBuilder &b) {
    for (Value turn : {t.mainLoop, t.epilogue})
      NVVM::MBarrierInitOp::create(b, loc, turn, i32Const(b, loc, 1), Value());
  });
  return t;
}

/// Waits until tile seq - 1 of the block has passed `turn` (its phase
/// seq - 1). The phase is never ambiguous: the waiting team passed the turn
/// of tile seq - teams itself, so at least seq - 1 phases are complete, and
/// tile seq's own is not.
static void waitTurn(OpBuilder &b, Location loc, Value turn, Value seq) {
  IndexMath m(b, loc);
  emitIfTrue(b, loc, m.lt(m.c(0), seq), [&](OpBuilder &b) {
    IndexMath mw(b, loc);
    NVVM::MBarrierTryWaitParityOp::create(b, loc, turn,
                                          mw.rem(mw.sub(seq, mw.c(1)), 2),
                                          i32Const(b, loc, 10000000));
  });
}

/// The team passes `turn` on: once all its threads are done, its first
/// thread completes the phase.
static void passTurn(OpBuilder &b, Location loc, const KernelContext &ctx,
                     Value turn) {
  IndexMath m(b, loc);
  ctx.emitComputeBarrier(b, loc);
  Value first =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, ctx.tid, m.c(0));
  emitIfTrue(b, loc, first, [&](OpBuilder &b) {
    NVVM::MBarrierArriveOp::create(b, loc, Type(), turn, Value());
  });
}

/// A persistent block: it computes the output tiles bid, bid + grid, ... of
/// all tilesM x tilesN x batch tiles (the batch outermost), its j-th tile
/// with k-tiles j * numK onwards in the stage ring. The producer loads every
/// tile's k-tiles in that order. One team (`schedule = persistent`)
/// computes every tile in order, while the producer fills the next tile's
/// stages during its epilogue. Teams (`pingpong`): with tensor maps team t
/// computes tiles j = t, t + teams, ..., so that one team's epilogue runs
/// beside the other team's main loop; without, team 0 computes every tile
/// (element copies) and the others idle. `tileBody(b, kBase, seq, kEnd)`
/// emits a team's main loop and epilogue of the tile set in ctx, seq its
/// place j for the turns of teams (null for one team), kEnd the block's
/// k-tiles over all its tiles.
///
/// Multicast pairs (one team): the grid is whole clusters, so the blocks of
/// a pair compute tiles 2i and 2i + 1 of the walk at once; both walk as
/// many tiles as the first, and a second block past the last tile computes
/// a copy of the last (its loads and releases keep the pair's barriers in
/// step) and stores nothing.
static void buildPersistentBlock(
    OpBuilder &b, Location loc, KernelContext &ctx, const TmaPipeline &p,
    Value numK, function_ref<void(OpBuilder &, Value, Value, Value)> tileBody) {
  IndexMath m(b, loc);
  MatmulOp op = ctx.op;
  Value bid = m.from(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x));
  Value grid = m.from(gpu::GridDimOp::create(b, loc, gpu::Dimension::x));
  Value perBatch = m.mul(ctx.tilesM, ctx.tilesN);
  Value total = perBatch;
  if (op.hasBatch())
    total = m.mul(total, m.from(memref::DimOp::create(b, loc, ctx.c, 0)));
  bool pairs = p.multicast > 1;
  Value lead = pairs ? m.sub(bid, m.rem(bid, p.multicast)) : bid;
  Value count =
      m.select(m.lt(lead, total), m.ceilDiv(m.sub(total, lead), grid), m.c(0));
  Value kEnd = m.mul(count, numK);
  auto setTile = [&](OpBuilder &b, Value j) {
    IndexMath mt(b, loc);
    Value walked = mt.add(bid, mt.mul(j, grid));
    Value tile = pairs ? mt.min(walked, mt.sub(total, mt.c(1))) : walked;
    if (op.hasBatch()) {
      ctx.batch = mt.div(tile, perBatch);
      tile = mt.rem(tile, perBatch);
    }
    assignTile(b, loc, ctx, tile);
    if (pairs)
      assignPair(b, loc, ctx, walked, total);
  };
  auto forTiles = [&](OpBuilder &b, Value first, Value end, Value stepJ,
                      function_ref<void(OpBuilder &, Value)> body) {
    auto loop = scf::ForOp::create(b, loc, first, end, stepJ);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    setTile(b, loop.getInductionVar());
    body(b, loop.getInductionVar());
  };
  emitWarpSpecialized(
      b, loc, ctx, p,
      [&](OpBuilder &b) {
        IndexMath mf(b, loc);
        forTiles(b, mf.c(0), count, mf.c(1), [&](OpBuilder &b, Value j) {
          IndexMath mj(b, loc);
          emitTmaProducer(b, loc, ctx, p, numK, mj.mul(j, numK));
        });
      },
      [&](OpBuilder &b) {
        IndexMath mc(b, loc);
        if (ctx.teams == 1) {
          // One team: every tile, in order; its waits keep the phases
          // unambiguous as in a block of one tile.
          forTiles(b, mc.c(0), count, mc.c(1), [&](OpBuilder &b, Value j) {
            IndexMath mj(b, loc);
            tileBody(b, mj.mul(j, numK), Value(), kEnd);
          });
          return;
        }
        Value active = arith::OrIOp::create(
            b, loc, p.useTma,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, ctx.team,
                                  mc.c(0)));
        Value first = mc.select(p.useTma, ctx.team, mc.c(0));
        Value stepJ = mc.select(p.useTma, mc.c(ctx.teams), mc.c(1));
        Value end = mc.select(active, count, mc.c(0));
        forTiles(b, first, end, stepJ, [&](OpBuilder &b, Value j) {
          IndexMath mj(b, loc);
          tileBody(b, mj.mul(j, numK), j, kEnd);
        });
      });
}

/// Keeps LLVM from unrolling `loop` (its software pipeline is explicit):
/// a main loop without copies is small enough for NVPTX's runtime
/// unrolling, whose remainder iteration starts from the zero accumulators,
/// which LLVM then materializes after the iteration's wgmma.fence (ptxas
/// serializes every wgmma of a kernel in which a non-wgmma instruction
/// defines accumulator registers there, C7515).
static void disableUnrolling(scf::ForOp loop) {
  MLIRContext *ctx = loop.getContext();
  auto unroll =
      LLVM::LoopUnrollAttr::get(ctx, BoolAttr::get(ctx, true), {},
                                BoolAttr::get(ctx, true), {}, {}, {}, {});
  loop->setAttr("loop_annotation", LLVM::LoopAnnotationAttr::get(
                                       ctx, {}, {}, {}, unroll, {}, {}, {}, {},
                                       {}, {}, {}, {}, {}, {}, {}));
}

//===----------------------------------------------------------------------===//
// The kernel
//===----------------------------------------------------------------------===//

FailureOr<int64_t> mlir::gemm::detail::buildMainLoop(OpBuilder &b,
                                                     KernelContext &ctx) {
  if (ctx.config.getKind() == Kind::gemv)
    return ctx.config.getInstr()[0] > 1   ? buildGemvMmaKernel(b, ctx)
           : ctx.config.getInstr()[1] > 1 ? buildGemvColumnsKernel(b, ctx)
                                          : buildGemvKernel(b, ctx);
  Location loc = ctx.op.getLoc();
  IndexMath m(b, loc);
  ConfigAttr cfg = ctx.config;
  MatmulOp op = ctx.op;
  int64_t threads = cfg.getNumWarps() * ctx.target->warpSize;
  int64_t stages = cfg.getStages();

  Type elemType = op.getAElementType();
  unsigned elemBytes = elemType.getIntOrFloatBitWidth() / 8;
  // Padded tiles add one 16-byte vector per stored row.
  int64_t pad = cfg.getSmem() == SmemLayout::pad ? 16 / elemBytes : 0;
  int64_t smemBytes = setupBlock(b, ctx, pad, pad);
  // A persistent block's producer fills the operand tiles while a team runs
  // its epilogue: the epilogue stages after them (the teams take turns on
  // one staging area), in what the tiles and the barriers leave.
  int64_t stagingOffset = 0;
  if (ctx.persistent) {
    stagingOffset = llvm::alignTo(smemBytes, 128);
    ctx.stagingOffset = arith::ConstantIndexOp::create(b, loc, stagingOffset);
    ctx.stagingLimit = int64_t(ctx.target->maxSharedMemPerBlock) -
                       stagingOffset - tmaBarrierBytes(toTileConfig(cfg));
  }

  // Global sources. A (m, k) is stored [m][k] or [k][m]; B (k, n) is stored
  // [n][k] or [k][n]. Vector copies need a unit inner stride (static) and
  // 16-byte alignment (run time) and whole 16-byte chunks per tile row.
  // A TMA kernel copies without TMA only when the host could not build a
  // tensor map, i.e. when the operand is not 16-byte aligned (base, row
  // pitch) or not unit-stride: exactly when 16-byte cp.async copies could
  // not run either. Its fallback is the shifted copies (rows merely off 16
  // bytes; see makeSources for where) and the element copies, not the
  // cp.async ones, which keeps the kernel (and its compile time) from
  // holding a fourth copy path.
  bool tmaKernel = cfg.getLoad() != Load::cp_async;
  auto source = [&](Value memref, const SmemTile &tile) {
    GlobalSource s = makeGlobalSource(b, loc, ctx, memref, tile);
    if (tmaKernel || !ctx.target->hasCpAsync ||
        (tile.cols * elemBytes) % 16 != 0)
      s.vectorOk = Value();
    return s;
  };
  // The sources depend on the block's output tile: a persistent block
  // makes them anew for each of its tiles.
  GlobalSource srcA, srcB;
  CopyPlan planA, planB;
  bool shiftedA = false, shiftedB = false;
  auto makeSources = [&](OpBuilder &b) {
    srcA = source(ctx.a, ctx.tileA);
    srcB = source(ctx.b, ctx.tileB);
    // Loop-invariant copy addressing, hoisted above the main loop.
    planA = planB = CopyPlan();
    if (srcA.vectorOk)
      planA = planVectorCopy(b, loc, ctx, ctx.tileA, srcA, threads);
    if (srcB.vectorOk)
      planB = planVectorCopy(b, loc, ctx, ctx.tileB, srcB, threads);
    // wgmma kernels only, not warp-specialized ones. Register-bound tiles
    // spilled with them: the 512-thread f8 narrow-n (128 registers a
    // consumer), and mma.sync tiles, which ptxas holds to 96-128 registers
    // (the 16-row decode tiles on sm_90a, 64 x 64 small and split-k on
    // sm_90).
    if (cfg.getKind() == Kind::wgmma && !ctx.warpSpecialized) {
      shiftedA = allowsShiftedCopy(ctx.tileA, ctx.a);
      shiftedB = allowsShiftedCopy(ctx.tileB, ctx.b);
    }
  };
  bool persistent = ctx.persistent;
  if (!persistent)
    makeSources(b);

  // `load = tma`: the stage barriers, published by the barrier below.
  std::optional<TmaPipeline> tma;
  Turns turns;
  if (cfg.getLoad() != Load::cp_async) {
    tma = setupTma(b, loc, ctx, stages);
    if (ctx.teams > 1)
      turns = setupTurns(b, loc, ctx);
    publishTma(b, loc, *tma);
  }
  // Runs `tmaPath` when the kernel loads through TMA (a TMA config whose
  // host passed tensor maps), else `copyPath`. Inside one of the main
  // loop's two versions (below) the path is known: `loopPath`.
  std::optional<bool> loopPath;
  auto eitherPath = [&](OpBuilder &b, function_ref<void(OpBuilder &)> tmaPath,
                        function_ref<void(OpBuilder &)> copyPath) {
    if (!tma)
      return copyPath(b);
    if (loopPath)
      return *loopPath ? tmaPath(b) : copyPath(b);
    scf::IfOp::create(
        b, loc, tma->useTma,
        [&](OpBuilder &b, Location loc) {
          tmaPath(b);
          scf::YieldOp::create(b, loc);
        },
        [&](OpBuilder &b, Location loc) {
          copyPath(b);
          scf::YieldOp::create(b, loc);
        });
  };
  // Issues the copies of k-tile `kt` into stage `stage`.
  auto copyKTile = [&](OpBuilder &b, Value kt, Value stage) {
    IndexMath m(b, loc);
    Value k0 = ctx.kTileOrigin(m, kt);
    eitherPath(
        b,
        [&](OpBuilder &b) {
          // Warp-specialized: the producer issues every copy.
          if (!tma->warpSpecialized)
            emitTmaCopy(b, loc, ctx, *tma, k0, stage);
        },
        [&](OpBuilder &b) {
          GlobalSource a = srcA, bb = srcB;
          (ctx.tileA.kContiguous ? a.col0 : a.row0) = k0;
          (ctx.tileB.kContiguous ? bb.col0 : bb.row0) = k0;
          emitTileCopy(b, loc, ctx, ctx.tileA, a, planA, shiftedA, k0, stage,
                       threads);
          emitTileCopy(b, loc, ctx, ctx.tileB, bb, planB, shiftedB, k0, stage,
                       threads);
        });
  };
  // Commit groups and waits as NVVM ops: nvgpu's device_async_create_group
  // wants the tokens of the group's copies, which are issued under scf.if and
  // inside loops here; without tokens it prints a form that does not parse.
  // None in the TMA version of a main loop (loopPath), which issues no
  // cp.async.
  auto commit = [&](OpBuilder &b) {
    if (!loopPath.value_or(false))
      NVVM::CpAsyncCommitGroupOp::create(b, loc);
  };
  auto waitGroups = [&](OpBuilder &b, int64_t pending) {
    if (!loopPath.value_or(false))
      NVVM::CpAsyncWaitGroupOp::create(b, loc, pending);
  };

  std::unique_ptr<ComputeStep> step;
  switch (cfg.getKind()) {
  case Kind::simt:
    step = createSimtStep(ctx);
    break;
  case Kind::wgmma:
    step = createWgmmaStep(ctx);
    break;
  default:
    step = createMmaSyncStep(ctx);
    break;
  }
  // Waits until k-tile `kt` has landed: at most `pending` cp.async groups
  // in flight, or its stage's mbarrier phase for TMA. wgmma reads the tiles
  // through the async proxy: each thread's landed cp.async data is fenced
  // into it before the barrier that publishes it (TMA writes through the
  // async proxy already).
  auto waitTile = [&](OpBuilder &b, Value it, int64_t pending) {
    eitherPath(
        b, [&](OpBuilder &b) { emitTmaWait(b, loc, *tma, it, stages); },
        [&](OpBuilder &b) {
          waitGroups(b, pending);
          if (step->readsThroughAsyncProxy())
            NVVM::FenceProxyOp::create(
                b, loc, NVVM::ProxyKind::async_shared,
                NVVM::SharedSpaceAttr::get(b.getContext(),
                                           NVVM::SharedSpace::shared_cta));
        });
  };
  // The barrier that publishes a landed tile and retires the buffer the
  // next copy overwrites; none with TMA in a warp-specialized kernel, whose
  // stages are handed back through their empty barriers.
  auto publish = [&](OpBuilder &b) {
    if (!tma || !tma->warpSpecialized)
      return ctx.emitComputeBarrier(b, loc);
    eitherPath(
        b, [](OpBuilder &) {},
        [&](OpBuilder &b) { ctx.emitComputeBarrier(b, loc); });
  };

  // A warp-specialized block's main loop is emitted twice, once for each
  // load path (`loopPath`), under one branch on whether the host passed
  // tensor maps: the TMA version then holds no copy code, nor its
  // registers and branches (three f8 compute warpgroups: 0.88 -> 0.92x
  // cuBLASLt at 8192^3, docs/performance.md); a persistent block branches
  // once per tile (its persistent 128 x 128 f8 tile: 0.71-0.74 -> 0.79-0.83
  // at 8192^3). Blocks without a producer keep one loop: their TMA path
  // issues copies too (versioned, the 128 x 256 f8 tile's wgmma got
  // serialized, C7515).
  bool versioned = tma && tma->warpSpecialized && stages > 1;
  Value numK = ctx.numKTiles(m);
  // A versioned main loop runs at least once (an empty K then computes one
  // k-tile of zeros: out-of-bounds boxes and checked copies): LLVM would
  // otherwise give each version a bypass of zero accumulators, and ptxas
  // reads the copy version's MMAs as lasting, in program order, across the
  // TMA version's bypass (C7515 on the persistent f16 128 x 256).
  if (versioned)
    numK = m.max(numK, m.c(1));
  // A step that groups k-tiles (f8 promotion) runs whole groups: K is
  // padded with k-tiles past it, which the copies read as zeros.
  int64_t group = stages > 1 ? step->kTilesPerGroup() : 1;
  if (group > 1) {
    ctx.kPadFrom = numK;
    numK = m.mul(m.ceilDiv(numK, group), group);
  }
  // Tiles fetched ahead of the one being computed: S-1, less the stages an
  // asynchronous step may still be reading.
  int64_t lag = step->stagesInFlight();
  int64_t ahead = stages - 1 - lag;
  assert((stages == 1 && lag == 0) || ahead >= 1);
  // `release` and, in a multicast pair, whether k-tile base + kt of the
  // block's k-tiles (base null: kt; kEnd of them over a persistent walk,
  // null: numK) is followed by another in its stage: a pair releases only
  // stages a producer refills (a remote arrival must not outlive the block
  // it reaches, which waits for every one of these).
  auto refilled = [&](IndexMath &m, Value release, Value base, Value kt,
                      Value kEnd) {
    if (!tma || tma->multicast == 1)
      return release;
    Value it = base ? m.add(base, kt) : kt;
    return m.andI1(release, m.lt(m.add(it, m.c(stages)), kEnd ? kEnd : numK));
  };
  // Everything from here on is the compute threads' (all threads unless
  // warp-specialized).
  // `mainLoop` runs the main loop of the block's current output tile from
  // the accumulators `initIn` (or from zero accumulators it makes after its
  // prologue) and returns them. A persistent block passes
  // kBase, the k-tiles of its earlier tiles (the stage and barrier phase of
  // k-tile kt are those of it = kBase + kt).
  auto mainLoop = [&](OpBuilder &b, Value kBase, Value kEnd,
                      ValueRange initIn) -> SmallVector<Value> {
    IndexMath m(b, loc);
    auto global = [&](IndexMath &m, Value kt) {
      return kBase ? m.add(kBase, kt) : kt;
    };
    // Prologue: tiles 0 .. ahead-1, one commit group each (empty past the end),
    // as a loop so that the copy code is emitted once rather than S-1 times (it
    // is the bulk of the kernel's code and of LLVM's compile time).
    if (stages > 1) {
      auto prologue = scf::ForOp::create(b, loc, m.c(0), m.c(ahead), m.c(1));
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(prologue.getBody());
      Value s = prologue.getInductionVar();
      emitIfLess(b, loc, s, numK, [&](OpBuilder &b) {
        IndexMath mp(b, loc);
        copyKTile(b, s, kBase ? mp.rem(global(mp, s), stages) : s);
      });
      commit(b);
    }
    SmallVector<Value> init(initIn);
    if (init.empty())
      init = step->initAccumulators(b, loc);
    scf::ForOp loop;
    if (stages == 1) {
      // No multi-buffering: copy, wait, barrier, compute, barrier.
      loop = scf::ForOp::create(b, loc, m.c(0), numK, m.c(1), init);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(loop.getBody());
      Value kt = loop.getInductionVar();
      Value stage = m.c(0);
      copyKTile(b, kt, stage);
      commit(b);
      waitTile(b, kt, 0);
      publish(b);
      SmallVector<Value> acc(loop.getRegionIterArgs());
      acc = step->computeStage(b, loc, stage, acc);
      ctx.emitComputeBarrier(b, loc);
      scf::YieldOp::create(b, loc, acc);
    } else {
      // Multistage main loop. In iteration kt:
      //   wait until tile kt has landed (ahead + kt groups were committed and
      //   tile kt is group kt: at most ahead-1 may be pending), then one
      //   barrier, which both publishes tile kt to every warp and retires every
      //   read of the buffer tile kt-1-lag used;
      //   issue tile kt+ahead into that buffer and commit (an empty group past
      //   the end keeps the count uniform);
      //   run the stage's compute (ComputeStep::computeStage: for mma.sync
      //   the fragments of step ks+1 are loaded before the MMAs of step ks;
      //   wgmma issues the stage's MMAs and leaves them in flight).
      // Carrying the next tile's first fragments across the barrier (CUTLASS
      // style) was measured slower here: the extra live registers cost more
      // than the hidden ldmatrix latency (docs/performance.md).
      // A step grouping k-tiles gets its groups unrolled: iteration kg
      // runs k-tiles kg .. kg + group - 1, each its place in the group.
      loop = scf::ForOp::create(b, loc, m.c(0), numK, m.c(group), init);
      if (versioned)
        disableUnrolling(loop);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(loop.getBody());
      SmallVector<Value> acc(loop.getRegionIterArgs());
      for (int64_t part = 0; part < group; ++part) {
        IndexMath mi(b, loc);
        Value kt = mi.add(loop.getInductionVar(), part);
        waitTile(b, global(mi, kt), ahead - 1);
        publish(b);
        Value fetch = mi.add(kt, ahead);
        emitIfLess(b, loc, fetch, numK, [&](OpBuilder &b) {
          IndexMath mm(b, loc);
          copyKTile(b, fetch, mm.rem(global(mm, fetch), stages));
        });
        commit(b);
        Value stage = mi.rem(global(mi, kt), stages);
        acc = step->computeGroupStage(b, loc, stage, acc, part);
        if (tma && tma->warpSpecialized) {
          // The MMAs of tile kt - lag are done: its stage goes back to the
          // producer.
          eitherPath(
              b,
              [&](OpBuilder &b) {
                IndexMath mr(b, loc);
                Value done = global(mr, mr.sub(kt, mr.c(lag)));
                Value release =
                    refilled(mr, mr.lt(mr.c(lag - 1), kt), Value(), done, kEnd);
                emitIfTrue(b, loc, release, [&](OpBuilder &b) {
                  IndexMath ms(b, loc);
                  emitTmaRelease(b, loc, ctx, *tma, ms.rem(done, stages));
                });
              },
              [](OpBuilder &) {});
        }
      }
      scf::YieldOp::create(b, loc, acc);
    }
    return SmallVector<Value>(loop.getResults());
  };
  // Drain: no cp.async may be in flight when the kernel exits, and no MMA
  // when the accumulators are read.
  auto drain = [&](OpBuilder &b) {
    waitGroups(b, 0);
    step->drain(b, loc);
  };
  // `compute` runs the main loop and the epilogue of the block's current
  // output tile; seq is a persistent block's place in its sequence of
  // tiles (the epilogue's turn).
  int64_t epilogueBytes = 0;
  auto compute = [&](OpBuilder &b, Value kBase, Value seq, Value kEnd) {
    if (seq)
      waitTurn(b, loc, turns.mainLoop, seq);
    // The end of a main loop: teams pass the main-loop turn before
    // draining, so that the next team's MMAs follow this one's last
    // without a gap; a persistent block then hands its last stages back.
    auto finish = [&](OpBuilder &b) {
      if (seq)
        passTurn(b, loc, ctx, turns.mainLoop);
      drain(b);
      if (kBase && tma && lag > 0) {
        // A persistent block goes on to its next tile: the stages of the
        // last `lag` k-tiles, retired by the drain, go back to the producer.
        eitherPath(
            b,
            [&](OpBuilder &b) {
              IndexMath mr(b, loc);
              for (int64_t d = 1; d <= lag; ++d) {
                Value kt = mr.sub(numK, mr.c(d));
                Value release =
                    refilled(mr, mr.lt(mr.c(-1), kt), kBase, kt, kEnd);
                emitIfTrue(b, loc, release, [&](OpBuilder &b) {
                  IndexMath ms(b, loc);
                  emitTmaRelease(b, loc, ctx, *tma,
                                 ms.rem(ms.add(kBase, kt), stages));
                });
              }
            },
            [](OpBuilder &) {});
      }
    };
    SmallVector<Value> results;
    if (!versioned) {
      results = mainLoop(b, kBase, kEnd, {});
      finish(b);
    } else {
      // The versions share their zero accumulators and descriptors.
      SmallVector<Value> init = step->initAccumulators(b, loc);
      auto ifOp = scf::IfOp::create(b, loc, ValueRange(init).getTypes(),
                                    tma->useTma, /*withElseRegion=*/true);
      for (bool path : {true, false}) {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(path ? ifOp.thenBlock() : ifOp.elseBlock());
        loopPath = path;
        SmallVector<Value> acc = mainLoop(b, kBase, kEnd, init);
        // Each version drains its own MMAs: ptxas reads a wgmma's stage as
        // lasting, in program order, up to the wait that retires it, and
        // the other version's accumulator set-up lies between the two
        // (C7515, every wgmma serialized); the TMA version issues no
        // cp.async, so LLVM keeps the two drains apart.
        finish(b);
        scf::YieldOp::create(b, loc, acc);
        loopPath.reset();
      }
      results.assign(ifOp.getResults().begin(), ifOp.getResults().end());
    }
    if (seq)
      waitTurn(b, loc, turns.epilogue, seq);
    // The epilogue runs under `store` where it is set: a split tile of the
    // last wave is stored by the block that finishes its slices last, which
    // adds them first; a persistent pair's second block past the last tile
    // stores nothing (tileValid, null without pairs).
    Value store;
    if (ctx.fixup)
      results = emitFixupReduction(b, ctx, *step, results, store);
    else if (kBase)
      store = ctx.tileValid;
    auto epilogue = [&](OpBuilder &b) {
      epilogueBytes = emitEpilogue(b, ctx, *step, results);
    };
    if (store)
      emitIfTrue(b, loc, store, epilogue);
    else
      epilogue(b);
    if (seq)
      passTurn(b, loc, ctx, turns.epilogue);
  };

  if (persistent) {
    buildPersistentBlock(b, loc, ctx, *tma, numK,
                         [&](OpBuilder &b, Value kBase, Value seq, Value kEnd) {
                           makeSources(b);
                           compute(b, kBase, seq, kEnd);
                         });
  } else if (!ctx.warpSpecialized) {
    compute(b, Value(), Value(), Value());
  } else {
    // The last warpgroup issues every k-tile's copies.
    auto block = [&](OpBuilder &b) {
      emitWarpSpecialized(
          b, loc, ctx, *tma,
          [&](OpBuilder &b) { emitTmaProducer(b, loc, ctx, *tma, numK); },
          [&](OpBuilder &b) { compute(b, Value(), Value(), Value()); });
    };
    // Multicast: a last block past the tiles only joined the cluster
    // barrier.
    if (ctx.tileValid)
      emitIfTrue(b, loc, ctx.tileValid, block);
    else
      block(b);
  }
  // A persistent block stages its epilogue after the ring, which stays
  // live; the others reuse the ring's memory.
  int64_t dynamicBytes =
      persistent ? (epilogueBytes ? stagingOffset + epilogueBytes : smemBytes)
                 : std::max(smemBytes, epilogueBytes);
  if (ctx.warpSpecialized)
    fixEntryRegisters(b, *ctx.target, dynamicBytes);
  if (int64_t cluster = cfg.getMulticast(); cluster > 1) {
    // The cluster shape is compiled in (.reqnctapercluster): a plain launch
    // forms the pairs, and the host rounds grid.x up to whole clusters.
    auto kernel =
        b.getInsertionBlock()->getParent()->getParentOfType<gpu::GPUFuncOp>();
    kernel->setAttr(NVVM::NVVMDialect::getClusterDimAttrName(),
                    b.getDenseI32ArrayAttr({int32_t(cluster), 1, 1}));
  }
  return dynamicBytes;
}
