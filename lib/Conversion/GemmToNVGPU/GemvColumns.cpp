//===- GemvColumns.cpp - gemv on an N-contiguous B ------------------------===//
//
// `kind = gemv` with instr = [1, V, 1] (V = 16 / element bytes) serves GEMMs
// of a few rows whose B is stored K x N (layouts nn and nt: decode with the
// weight stored as the GEMM reads it). Like the K-contiguous gemv (Gemv.cpp)
// it streams B once through registers, with no shared-memory pipeline; here
// a 16-byte chunk of B holds V columns of one k row, so lanes split N and K:
//
//   block [BM, BN, BK], warps [1, W]: the block owns columns n0 .. n0 + BN - 1
//   and rows m0 .. m0 + BM - 1 of C. L = BN / V lanes side by side read one
//   row of B (lane l the chunk at column n0 + (l mod L) V), so a warp reads
//   G = 32 / L rows at once and the block R = W G. Lane group r = w G + l / L
//   owns the k rows r U + u (u < U = BK / R) of every iteration: U chunks of
//   B in flight a lane, all issued before the first is used, and the U
//   elements of A's rows at the same k. Each lane sums BM x V products in f32;
//   shuffles add the G groups of a warp (xor over the lane bits above L), the
//   warps' sums meet in shared memory, and one thread per element of the
//   BM x BN tile adds the W of them in warp order (the same sizes give the
//   same bits) and applies the epilogue.
//
// Rows of A past M are read clamped (never stored); columns past N are read
// clamped by the last block only, on the element path. The operands are read
// in place (readsOperandsInPlace), on one of three paths for B chosen per
// block at run time:
//   - 16-byte loads: N's stride 1, a 16-byte aligned base, offset and pitch;
//   - shifted chunks: N's stride 1 and a 16-byte aligned buffer, but rows
//     that do not start on a 16-byte boundary (f16 with an odd N): each
//     chunk is the two aligned blocks holding it, funnel-shifted;
//   - element loads through the strides, columns clamped to N (a strided
//     view, or the last block when N is not a multiple of BN).
// A is read element by element through its strides (its few rows stay in
// L1). The whole iterations run unguarded; the last, partial one clamps its
// k rows to K and keeps the sums of rows past K out.
//
//===----------------------------------------------------------------------===//

#include "NVGPUKernel.h"
#include "gemm/Target/Legality.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::detail;

namespace {
/// How a lane reads its chunks of B.
enum class ColumnLoad {
  /// One 16-byte load a chunk.
  vector,
  /// The aligned 16-byte blocks holding the chunk, shifted.
  shifted,
  /// Element loads through the strides, columns clamped to N.
  element,
};
} // namespace

FailureOr<int64_t>
mlir::gemm::detail::buildGemvColumnsKernel(OpBuilder &b, KernelContext &ctx) {
  Location loc = ctx.op.getLoc();
  MatmulOp op = ctx.op;
  ConfigAttr cfg = ctx.config;
  setupCoordinates(b, ctx);

  Type elem = op.getAElementType();
  Type f32 = b.getF32Type();
  const int64_t lanes = ctx.target->warpSize;
  const int64_t elemBytes = elem.getIntOrFloatBitWidth() / 8;
  const int64_t laneElems = cfg.getInstr()[1];
  const int64_t rowsA = cfg.getBM(), cols = cfg.getBN();
  const int64_t warps = cfg.getWarps()[1];
  const int64_t lanesPerRow = cols / laneElems;
  const int64_t groups = lanes / lanesPerRow;
  const int64_t unroll = gemvUnroll(toTileConfig(cfg), lanes);
  const int64_t bk = cfg.getBK();

  IndexMath m(b, loc), mx(b, loc, /*useIndex=*/true);
  StreamedOperand a =
      streamOperand(b, loc, ctx, ctx.a, !op.isTransposedA(), laneElems);
  // B stored [k][n] is read in chunks along N: streamed as a "K-contiguous"
  // operand its kStride is N's stride and its mnStride the pitch of a k row,
  // and vectorOk / blocksOk are the checks of 16-byte chunks along N.
  StreamedOperand bOp =
      streamOperand(b, loc, ctx, ctx.b, /*kContiguous=*/true, laneElems);
  Value nStride = bOp.kStride, rowPitch = bOp.mnStride;
  Value vectorOk = bOp.vectorOk, blocksOk = bOp.blocksOk;
  // The block's columns lie inside N: the fast paths read whole chunks.
  Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle,
                                       m.add(ctx.tileN0, m.c(cols)), ctx.n);

  Value warp = m.div(ctx.tid, lanes);
  Value group = m.add(m.mul(warp, groups), m.div(ctx.lane, lanesPerRow));
  Value col = m.add(ctx.tileN0, m.mul(m.rem(ctx.lane, lanesPerRow), laneElems));
  Value lastM = m.sub(ctx.m, m.c(1)), lastN = m.sub(ctx.n, m.c(1));
  Value lastK = m.sub(ctx.k, m.c(1));
  SmallVector<Value> rowOffA;
  for (int64_t i = 0; i < rowsA; ++i)
    rowOffA.push_back(mx.add(
        a.base, mx.mul(m.idx(m.min(m.add(ctx.tileM0, i), lastM)), a.mnStride)));
  // The lane's first k row of an iteration, and its chunk's first element
  // in row 0 (vector and shifted paths: N's stride is 1 there).
  Value laneK = m.mul(group, unroll);
  Value chunkOff = mx.add(bOp.base, m.idx(col));
  auto vecType = VectorType::get({laneElems}, elem);
  IntegerAttr align = b.getI64IntegerAttr(16);

  // The lane's chunk of row k (clamped to K when `guard`).
  auto loadChunkB = [&](OpBuilder &b, Value k, ColumnLoad how,
                        bool guard) -> SmallVector<Value> {
    IndexMath m(b, loc), mx(b, loc, /*useIndex=*/true);
    Value row = guard ? m.min(k, lastK) : k;
    SmallVector<Value> out;
    if (how == ColumnLoad::element) {
      for (int64_t j = 0; j < laneElems; ++j) {
        Value n = m.min(m.add(col, j), lastN);
        Value off = mx.add(mx.add(bOp.base, mx.mul(m.idx(row), rowPitch)),
                           mx.mul(m.idx(n), nStride));
        out.push_back(memref::LoadOp::create(b, loc, bOp.linear, off));
      }
      return out;
    }
    Value start = mx.add(chunkOff, mx.mul(m.idx(row), rowPitch));
    if (how == ColumnLoad::shifted) {
      ShiftedRow shifted = shiftRow(b, loc, start, laneElems, elemBytes);
      // The second block holds the chunk's last element: the first again
      // where the chunk starts one (never past the end of the buffer).
      Value last = mx.add(start, mx.c(laneElems - 1));
      shifted.next = mx.sub(last, mx.rem(last, laneElems));
      return loadShiftedChunk(b, loc, bOp.linear, shifted, m.c(0), laneElems,
                              elem);
    }
    Value v =
        vector::LoadOp::create(b, loc, vecType, bOp.linear, ValueRange{start},
                               /*nontemporal=*/false, align);
    for (int64_t j = 0; j < laneElems; ++j)
      out.push_back(vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{j}));
    return out;
  };
  auto widen = [&](OpBuilder &b, Value v) -> Value {
    return v.getType() == f32 ? v : arith::ExtFOp::create(b, loc, f32, v);
  };

  // One iteration from k0: the lane's U chunks of B first (the bytes in
  // flight), then each row of A's U elements with their products. Rows past
  // K (the last iteration, `guard`) read row K - 1 and add nothing.
  auto iteration = [&](OpBuilder &b, Value k0, ColumnLoad how, bool guard,
                       ValueRange accIn) {
    IndexMath m(b, loc), mx(b, loc, /*useIndex=*/true);
    SmallVector<Value> acc(accIn);
    SmallVector<Value> ks;
    SmallVector<SmallVector<Value>> chunks;
    for (int64_t u = 0; u < unroll; ++u) {
      ks.push_back(m.add(k0, m.add(laneK, u)));
      chunks.push_back(loadChunkB(b, ks.back(), how, guard));
    }
    for (int64_t u = 0; u < unroll; ++u) {
      Value row = guard ? m.min(ks[u], lastK) : ks[u];
      Value inK = guard ? m.lt(ks[u], ctx.k) : Value();
      for (int64_t i = 0; i < rowsA; ++i) {
        Value x = widen(
            b,
            memref::LoadOp::create(
                b, loc, a.linear,
                ValueRange{mx.add(rowOffA[i], mx.mul(m.idx(row), a.kStride))}));
        for (int64_t j = 0; j < laneElems; ++j) {
          Value &c = acc[i * laneElems + j];
          Value sum = LLVM::FMAOp::create(b, loc, x, widen(b, chunks[u][j]), c);
          c = guard ? m.select(inK, sum, c) : sum;
        }
      }
    }
    return acc;
  };

  Value zeroF = arith::ConstantOp::create(b, loc, b.getZeroAttr(f32));
  SmallVector<Value> init(rowsA * laneElems, zeroF);
  SmallVector<Type> accTypes(init.size(), f32);
  // The whole iterations, then the last, partial one guarded.
  auto path = [&](OpBuilder &b, ColumnLoad how) {
    IndexMath mt(b, loc);
    Value whole = mt.sub(ctx.k, mt.rem(ctx.k, bk));
    SmallVector<Value> acc = emitForYielding(
        b, loc, mt.idx(mt.c(0)), mt.idx(whole), mt.idx(mt.c(bk)), init,
        [&](OpBuilder &b, Value k0, ValueRange acc) {
          return iteration(b, k0, how, /*guard=*/false, acc);
        });
    auto tail = [&](OpBuilder &b) {
      scf::YieldOp::create(b, loc,
                           iteration(b, whole, how, /*guard=*/true, acc));
    };
    scf::IfOp last =
        emitIfElse(b, loc, accTypes, mt.lt(whole, ctx.k), tail,
                   [&](OpBuilder &b) { scf::YieldOp::create(b, loc, acc); });
    scf::YieldOp::create(b, loc, last.getResults());
  };
  scf::IfOp paths = emitIfElse(
      b, loc, accTypes, m.andI1(inside, vectorOk),
      [&](OpBuilder &b) { path(b, ColumnLoad::vector); },
      [&](OpBuilder &b) {
        scf::IfOp inner = emitIfElse(
            b, loc, accTypes, m.andI1(inside, blocksOk),
            [&](OpBuilder &b) { path(b, ColumnLoad::shifted); },
            [&](OpBuilder &b) { path(b, ColumnLoad::element); });
        scf::YieldOp::create(b, loc, inner.getResults());
      });

  // The groups of a warp: a butterfly over the lane bits above L.
  SmallVector<Value> sums;
  for (Value v : paths.getResults()) {
    for (int64_t offset = lanes / 2; offset >= lanesPerRow; offset /= 2) {
      auto shuffle = gpu::ShuffleOp::create(
          b, loc, v, int32_t(offset), int32_t(lanes), gpu::ShuffleMode::XOR);
      v = arith::AddFOp::create(b, loc, v, shuffle.getShuffleResult());
    }
    sums.push_back(v);
  }
  // The warps' sums meet in shared memory, [warp][row of A][column]: lanes
  // 0 .. L - 1 of each warp stage its BM x BN.
  int64_t elems = rowsA * cols;
  return emitWarpSumsEpilogue(
      b, loc, ctx, warps, rowsA, cols, [&](OpBuilder &b, Value staging) {
        emitIfLess(b, loc, ctx.lane, m.c(lanesPerRow), [&](OpBuilder &b) {
          IndexMath ms(b, loc);
          Value first = ms.add(ms.mul(warp, elems), ms.sub(col, ctx.tileN0));
          for (int64_t i = 0; i < rowsA; ++i)
            for (int64_t j = 0; j < laneElems; ++j)
              memref::StoreOp::create(
                  b, loc, sums[i * laneElems + j], staging,
                  ValueRange{ms.idx(ms.add(first, i * cols + j))});
        });
      });
}
