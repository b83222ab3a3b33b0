//===- MainLoop.cpp - AMD: LDS staging and the register-staged pipeline ---===//
//
// CDNA has no asynchronous global-to-LDS copy that the amdgpu dialect
// exposes, so tiles travel through registers: each thread owns a fixed set of
// 16-byte chunks of a k-tile (chunk t + i * threads), loads them with
// vector.load and writes them to LDS with vector.store.
//
// Loads: interior k-tiles of aligned operands (16-byte aligned base, offset
// and strides, checked at run time) load whole chunks unpredicated; edge
// tiles and unaligned or strided operands load each element from a clamped,
// always-valid address and select zero outside the matrix. Both produce the
// same chunk vectors, so the pipeline does not care which path ran.
//
// Pipeline with S stages (S >= 2), one barrier per k-tile:
//   prologue: tiles 0 .. S-2 loaded and written to LDS stages 0 .. S-2
//   for kt in 0 .. numK-1:
//     barrier (tile kt is visible; every wave is done with stage (kt-1) % S)
//     load tile kt+S-1 into registers (if it exists)
//     MFMAs on stage kt % S (global loads in flight meanwhile)
//     write the registers to stage (kt+S-1) % S = (kt-1) % S
// With S = 1: barrier, load, write, barrier, MFMAs.
//
//===----------------------------------------------------------------------===//

#include "AMDGPUKernel.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::detail;

namespace {
/// How one thread copies its part of one operand's k-tile.
struct ChunkCopy {
  const SmemTile *tile;
  GlobalSource src;
  /// i1: interior tiles may load whole chunks (the operand is aligned and
  /// the block's M/N extent is inside the matrix); null: never.
  Value fastMN;
  int64_t perChunk;     ///< elements per chunk
  int64_t chunksPerRow; ///< chunks per stored row
  int64_t chunks;       ///< chunks per tile
  int64_t slots;        ///< chunks per thread
  unsigned storeWidth;  ///< bytes per LDS store (<= chunk, keeps alignment)
  VectorType chunkType;
  int64_t threadsPerSlot = 0; ///< the block's threads
  bool exact = true;          ///< chunks % threads == 0

  /// The tile row and column of this thread's chunk `slot` (clamped to the
  /// last chunk for threads past the end; their stores are skipped).
  std::pair<Value, Value> position(IndexMath &m, Value tid,
                                   int64_t slot) const {
    Value c = m.add(tid, slot * threadsPerSlot);
    if (!exact)
      c = m.min(c, m.c(chunks - 1));
    return {m.div(c, chunksPerRow), m.mul(m.rem(c, chunksPerRow), perChunk)};
  }
};
} // namespace

static ChunkCopy planCopy(OpBuilder &b, Location loc, KernelContext &ctx,
                          const SmemTile &tile, Value memref,
                          int64_t threads) {
  ChunkCopy p;
  p.tile = &tile;
  p.src = makeGlobalSource(b, loc, ctx, memref, tile);
  unsigned chunkBytes = ldsCopyChunkBytes(tile.ldsShape());
  p.perChunk = chunkBytes / tile.elemBytes;
  p.chunksPerRow = tile.cols / p.perChunk;
  p.chunks = tile.rows * p.chunksPerRow;
  p.slots = (p.chunks + threads - 1) / threads;
  p.threadsPerSlot = threads;
  p.exact = p.chunks % threads == 0;
  p.storeWidth = ldsAccessWidth(tile.ldsShape(), tile.ldsLayout(), chunkBytes);
  // The operand's own type: A's and B's may differ (f8E4M3FN x f8E5M2).
  p.chunkType = VectorType::get(
      {p.perChunk}, cast<MemRefType>(memref.getType()).getElementType());
  if (p.src.vectorOk && p.perChunk > 1) {
    IndexMath m(b, loc);
    p.fastMN = m.andI1(p.src.vectorOk, emitTileInsideMN(b, loc, ctx, tile));
  }
  return p;
}

/// Loads this thread's chunks of the k-tile starting at k0 into registers.
static SmallVector<Value> loadChunks(OpBuilder &b, Location loc,
                                     KernelContext &ctx, const ChunkCopy &p,
                                     Value k0) {
  IndexMath m(b, loc);
  const SmemTile &tile = *p.tile;
  GlobalSource src = p.src;
  (tile.kContiguous ? src.col0 : src.row0) = k0;
  // Whole chunks: aligned operand, block tile inside M/N, k-tile inside K.
  Value fast;
  if (p.fastMN)
    fast = m.andI1(p.fastMN, emitKTileInside(b, loc, ctx, tile, k0));
  auto vectorPath = [&](OpBuilder &b, Location loc) {
    IndexMath m(b, loc);
    SmallVector<Value> out;
    for (int64_t s = 0; s < p.slots; ++s) {
      auto [r, c] = p.position(m, ctx.tid, s);
      Value gr = m.add(src.row0, r), gc = m.add(src.col0, c);
      out.push_back(vector::LoadOp::create(
          b, loc, p.chunkType, src.memref, ctx.globalIndices(b, loc, gr, gc),
          /*nontemporal=*/false,
          llvm::MaybeAlign(p.perChunk * tile.elemBytes)));
    }
    return out;
  };
  auto elementPath = [&](OpBuilder &b, Location loc) {
    IndexMath m(b, loc);
    Type elemType = p.chunkType.getElementType();
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elemType));
    Value lastRow = m.sub(src.rows, m.c(1)), lastCol = m.sub(src.cols, m.c(1));
    SmallVector<Value> out;
    for (int64_t s = 0; s < p.slots; ++s) {
      auto [r, c] = p.position(m, ctx.tid, s);
      Value gr = m.add(src.row0, r);
      Value rowIn = m.lt(gr, src.rows);
      Value cr = m.min(gr, lastRow);
      SmallVector<Value> elems;
      for (int64_t e = 0; e < p.perChunk; ++e) {
        Value gc = m.add(m.add(src.col0, c), e);
        Value inside = m.andI1(rowIn, m.lt(gc, src.cols));
        Value v = memref::LoadOp::create(
            b, loc, src.memref,
            ctx.globalIndices(b, loc, cr, m.min(gc, lastCol)));
        elems.push_back(m.select(inside, v, zero));
      }
      out.push_back(
          vector::FromElementsOp::create(b, loc, p.chunkType, elems));
    }
    return out;
  };
  if (!fast)
    return elementPath(b, loc);
  auto ifOp = scf::IfOp::create(
      b, loc, fast,
      [&](OpBuilder &b, Location loc) {
        scf::YieldOp::create(b, loc, vectorPath(b, loc));
      },
      [&](OpBuilder &b, Location loc) {
        scf::YieldOp::create(b, loc, elementPath(b, loc));
      });
  return SmallVector<Value>(ifOp.getResults());
}

/// Writes this thread's chunks to LDS stage `stage`.
static void storeChunks(OpBuilder &b, Location loc, KernelContext &ctx,
                        const ChunkCopy &p, ValueRange chunks, Value stage) {
  IndexMath m(b, loc);
  const SmemTile &tile = *p.tile;
  int64_t per = p.storeWidth / tile.elemBytes;
  for (int64_t s = 0; s < p.slots; ++s) {
    auto store = [&](OpBuilder &b) {
      IndexMath m(b, loc);
      auto [r, c] = p.position(m, ctx.tid, s);
      for (int64_t e = 0; e < p.perChunk; e += per) {
        Value dst = tile.offset(m, stage, r, m.add(c, e));
        Value v = chunks[s];
        if (per != p.perChunk) {
          // Elements e .. e+per-1 (a shuffle lowers straight to LLVM).
          SmallVector<int64_t> mask;
          for (int64_t i = 0; i < per; ++i)
            mask.push_back(e + i);
          v = vector::ShuffleOp::create(b, loc, v, v, mask);
        }
        vector::StoreOp::create(b, loc, v, tile.buffer,
                                ValueRange{m.idx(dst)},
                                /*nontemporal=*/false,
                                llvm::MaybeAlign(p.storeWidth));
      }
    };
    bool lastPartial = !p.exact && s == p.slots - 1;
    if (!lastPartial) {
      store(b);
      continue;
    }
    Value c = m.add(ctx.tid, s * p.threadsPerSlot);
    auto ifIn = scf::IfOp::create(b, loc, m.lt(c, m.c(p.chunks)), false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifIn.getThenRegion().front());
    store(b);
  }
}

std::pair<LdsLayout, LdsLayout>
mlir::gemm::detail::getLdsLayouts(const KernelContext &ctx) {
  TileConfig config = toTileConfig(ctx.config);
  return mfmaLdsLayouts(
      getMfmaTileProblem(config, MatmulOp(ctx.op).getSignature(), *ctx.target),
      config.smem);
}

FailureOr<int64_t> mlir::gemm::detail::buildAMDMainLoop(OpBuilder &b,
                                                        KernelContext &ctx) {
  Location loc = ctx.op.getLoc();
  IndexMath m(b, loc);
  ConfigAttr cfg = ctx.config;
  int64_t threads = cfg.getNumWarps() * ctx.target->warpSize;
  int64_t stages = cfg.getStages();

  auto [layoutA, layoutB] = getLdsLayouts(ctx);
  int64_t lds = setupBlock(b, ctx, layoutA.padElems, layoutB.padElems);
  ChunkCopy copyA = planCopy(b, loc, ctx, ctx.tileA, ctx.a, threads);
  ChunkCopy copyB = planCopy(b, loc, ctx, ctx.tileB, ctx.b, threads);

  auto load = [&](OpBuilder &b, Value kt) {
    IndexMath m(b, loc);
    Value k0 = ctx.kTileOrigin(m, kt);
    SmallVector<Value> regs = loadChunks(b, loc, ctx, copyA, k0);
    llvm::append_range(regs, loadChunks(b, loc, ctx, copyB, k0));
    return regs;
  };
  auto store = [&](OpBuilder &b, ValueRange regs, Value stage) {
    storeChunks(b, loc, ctx, copyA, regs.take_front(copyA.slots), stage);
    storeChunks(b, loc, ctx, copyB, regs.drop_front(copyA.slots), stage);
  };

  std::unique_ptr<ComputeStep> step = createMfmaStep(ctx);
  // This pipeline has no asynchronous MMAs and no async-proxy reads.
  assert(step->stagesInFlight() == 0 && !step->readsThroughAsyncProxy());
  Value numK = ctx.numKTiles(m);
  if (stages > 1) {
    auto prologue =
        scf::ForOp::create(b, loc, m.c(0), m.c(stages - 1), m.c(1));
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(prologue.getBody());
    Value s = prologue.getInductionVar();
    emitIfLess(b, loc, s, numK, [&](OpBuilder &b) { store(b, load(b, s), s); });
  }
  SmallVector<Value> init = step->initAccumulators(b, loc);
  auto loop = scf::ForOp::create(b, loc, m.c(0), numK, m.c(1), init);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    IndexMath mi(b, loc);
    Value kt = loop.getInductionVar();
    gpu::BarrierOp::create(b, loc);
    Value stage = m.c(0);
    Value fetch;
    SmallVector<Value> regs;
    if (stages == 1) {
      store(b, load(b, kt), stage);
      gpu::BarrierOp::create(b, loc);
    } else {
      stage = mi.rem(kt, stages);
      fetch = mi.add(kt, stages - 1);
      // Registers for tile kt+S-1 (zeros past the end, never stored).
      SmallVector<Type> types(copyA.slots, copyA.chunkType);
      types.append(copyB.slots, copyB.chunkType);
      auto ifFetch = scf::IfOp::create(
          b, loc, mi.lt(fetch, numK),
          [&](OpBuilder &b, Location loc) {
            scf::YieldOp::create(b, loc, load(b, fetch));
          },
          [&](OpBuilder &b, Location loc) {
            SmallVector<Value> zeros;
            for (Type t : types)
              zeros.push_back(
                  arith::ConstantOp::create(b, loc, b.getZeroAttr(t)));
            scf::YieldOp::create(b, loc, zeros);
          });
      regs.assign(ifFetch.getResults().begin(), ifFetch.getResults().end());
    }
    SmallVector<Value> acc(loop.getRegionIterArgs());
    acc = step->computeStage(b, loc, stage, acc);
    if (stages > 1)
      emitIfLess(b, loc, fetch, numK, [&](OpBuilder &b) {
        IndexMath mm(b, loc);
        store(b, regs, mm.rem(fetch, stages));
      });
    scf::YieldOp::create(b, loc, acc);
  }
  int64_t epilogueBytes = emitEpilogue(b, ctx, *step, loop.getResults());
  return std::max(lds, epilogueBytes);
}
