//===- GemvMma.cpp - gemv with its products on mma.sync -------------------===//
//
// `kind = gemv` with instr = [8, 16, 16] serves GEMMs of a few rows (3 to
// 16: LLM decode with a batch), B stored N x K (tn, tt) or K x N (nn, nt). Like
// the FMA gemv (Gemv.cpp) it streams B through registers, reading it once, with
// no shared-memory pipeline; its products go to mma.sync m16n8k16 with the
// operands swapped (C^T = B A^T: 16 rows of B are the instruction's A, 8
// rows of A its B), so that the f32 FMAs of many rows of A no longer bound
// it:
//
//   block [BM, BN, BK], warps [1, W]: the block owns rows m0 .. m0 + BM - 1
//   of A and n0 .. n0 + BN - 1 of B; its W warps split K, warp w reading the
//   BK-element stretches w, w + W, ... . Lane l holds, as the m16n8k16
//   fragments place rows, rows l / 4 and l / 4 + 8 of each 16 of B and row
//   l / 4 of each 8 of A, and reads 16-byte chunks of them at k = 32 u +
//   8 (l % 4) of a stretch (u < U = BK / 32). A dot product does not depend
//   on the order of K: each 32 k of a row feed two instructions whose K is
//   the same permutation of them for both operands (gemvMmaChunkElement,
//   FragmentLayout.h, unit-tested on every lane).
//
// A B stored K x N (nn, nt) holds a row of the instruction's A (a column of
// B) in no 16-byte chunk, so a lane reads, for each of the 8 k rows of its
// chunk, 2 P consecutive columns (P = 1, 2 or 4 of the block's 16-row tiles:
// 4, 8 or 16 bytes); their pairs are rows l / 4 and l / 4 + 8 of P tiles
// (gemvMmaColumn, FragmentLayout.h, unit-tested). The k of each element is
// then the one the K-contiguous chunk gives it, and the epilogue stores tile
// rows to the columns gemvMmaColumn names. B is read in such loads where
// the block's columns lie inside N and the rows allow them; where the rows
// do not (an odd N) but the buffer is 16-byte aligned, 16-byte loads are
// each the two aligned blocks holding their columns, funnel-shifted by the
// k row's offset (as the shifted rows below); else element by element
// (columns clamped to N).
//
// The W warps' m16n8 sums meet in shared memory (W x BM x BN f32) and are
// added in warp order (the same sizes give the same bits); each thread then
// applies the epilogue to elements of the BM x BN tile, consecutive threads
// on consecutive columns of C.
//
// Rows past the edge of A or B are read clamped into the matrix (their sums
// are never stored). The host never packs a gemv kernel's operands
// (readsOperandsInPlace); each lane reads its rows where they are, on one of
// four paths chosen at run time:
//   - 16-byte loads of both operands (K-contiguous, 16-byte aligned rows);
//   - shifted rows: both K-contiguous in 16-byte aligned buffers, rows that
//     need not start on a 16-byte boundary (f16 with an odd K). Each lane
//     loads the two aligned blocks holding its chunk and funnel-shifts them
//     by its row's own offset, so rows of any pitch share a warp;
//   - 16-byte loads of B, element loads of A (A strided: tt with M > 1);
//   - element loads of both through the strides, clamped to K.
// Each covers the iterations whose loads lie inside the rows, then the rest
// element by element, predicated on K. With stages = 2 (a B stored N x K)
// the first path issues each iteration's loads before the products of the
// one before (a double buffer in registers; same products, same bits).
//
//===----------------------------------------------------------------------===//

#include "NVGPUKernel.h"
#include "gemm/Target/TileConfig.h"
#include "gemm/Utils/FragmentLayout.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include <functional>

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::detail;

namespace {
/// How an operand's chunks are read in one path.
enum class ChunkLoad {
  /// One 16-byte load at the chunk.
  vector,
  /// The two aligned 16-byte blocks holding the chunk, shifted.
  shifted,
  /// Element loads through the strides, clamped to K, zero past it.
  element,
};
} // namespace

FailureOr<int64_t> mlir::gemm::detail::buildGemvMmaKernel(OpBuilder &b,
                                                          KernelContext &ctx) {
  Location loc = ctx.op.getLoc();
  MatmulOp op = ctx.op;
  ConfigAttr cfg = ctx.config;
  setupCoordinates(b, ctx);

  Type elem = op.getAElementType();
  ElemKind kind = ctx.operandKind;
  if (kind != ElemKind::f16 && kind != ElemKind::bf16)
    return op.emitOpError("gemv on mma.sync supports f16/bf16 operands");
  const int64_t lanes = ctx.target->warpSize;
  const int64_t elemBytes = elem.getIntOrFloatBitWidth() / 8;
  const int64_t laneElems = gemvLaneElems(elemBytes);
  const int64_t stretch = kGemvMmaLanesPerRow * laneElems;
  const int64_t bk = cfg.getBK(), unroll = bk / stretch;
  const int64_t rowsA = cfg.getBM(), rowsB = cfg.getBN();
  const int64_t tilesA = rowsA / 8, tilesB = rowsB / 16;
  const int64_t warps = cfg.getWarps()[1];

  IndexMath m(b, loc), mx(b, loc, /*useIndex=*/true);
  StreamedOperand a =
      streamOperand(b, loc, ctx, ctx.a, !op.isTransposedA(), laneElems);
  // Streamed as [n][k] (tn, tt) or [k][n] (nn, nt: the "K" stride is then
  // N's and the "MN" stride the pitch of a k row).
  StreamedOperand bOp = streamOperand(b, loc, ctx, ctx.b, true, laneElems);
  const bool columnsB = !op.isTransposedB();
  // stages = 2: the 16-byte path of a B stored N x K double-buffers its
  // loads in registers (loopKPipelined; checkGemv rejects it on a B stored
  // K x N).
  const bool pipelined = cfg.getStages() == 2 && !columnsB;

  Value warp = m.div(ctx.tid, lanes);
  Value group = m.div(ctx.lane, kGemvMmaLanesPerRow);
  Value quad = m.rem(ctx.lane, kGemvMmaLanesPerRow);
  Value lastM = m.sub(ctx.m, m.c(1)), lastN = m.sub(ctx.n, m.c(1));
  // The lane's rows: of B, 16 t + 8 h + l / 4 (tile t, half h of the
  // instruction's A fragment); of A, 8 s + l / 4 (tile s, the instruction's
  // B fragment). Rows past the edge read the last row.
  SmallVector<Value> rowOffB, rowOffA;
  for (int64_t t = 0; t < (columnsB ? 0 : tilesB); ++t)
    for (int64_t h = 0; h < 2; ++h) {
      Value n = m.min(m.add(ctx.tileN0, m.add(group, 16 * t + 8 * h)), lastN);
      rowOffB.push_back(mx.add(bOp.base, mx.mul(m.idx(n), bOp.mnStride)));
    }
  for (int64_t s = 0; s < tilesA; ++s) {
    Value row = m.min(m.add(ctx.tileM0, m.add(group, 8 * s)), lastM);
    rowOffA.push_back(mx.add(a.base, mx.mul(m.idx(row), a.mnStride)));
  }
  SmallVector<ShiftedRow> shiftedB, shiftedA;
  for (Value off : rowOffB)
    shiftedB.push_back(shiftRow(b, loc, off, laneElems, elemBytes));
  for (Value off : rowOffA)
    shiftedA.push_back(shiftRow(b, loc, off, laneElems, elemBytes));

  Value laneK = m.mul(quad, laneElems);
  Value lastK = m.sub(ctx.k, m.c(1));
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elem));
  auto vecType = VectorType::get({laneElems}, elem);
  IntegerAttr align = b.getI64IntegerAttr(16);

  // The elements of a loaded vector.
  auto elementsOf = [&](OpBuilder &b, Value v) {
    SmallVector<Value> out;
    for (int64_t j = 0, e = cast<VectorType>(v.getType()).getNumElements();
         j < e; ++j)
      out.push_back(vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{j}));
    return out;
  };
  // The lane's chunk of a row at k = kc in one 16-byte load.
  auto loadVector = [&](OpBuilder &b, const StreamedOperand &o, Value rowOff,
                        Value kc) -> Value {
    IndexMath m(b, loc), mx(b, loc, /*useIndex=*/true);
    return vector::LoadOp::create(b, loc, vecType, o.linear,
                                  ValueRange{mx.add(rowOff, m.idx(kc))},
                                  /*nontemporal=*/false, align);
  };
  // The lane's k of stretch u of the iteration at k0.
  auto laneKc = [&](IndexMath &m, Value k0, int64_t u) {
    return m.add(k0, m.add(laneK, u * stretch));
  };
  // The lane's chunk of a row at k = kc.
  auto loadChunk = [&](OpBuilder &b, const StreamedOperand &o, Value rowOff,
                       const ShiftedRow &shifted, Value kc,
                       ChunkLoad how) -> SmallVector<Value> {
    IndexMath m(b, loc), mx(b, loc, /*useIndex=*/true);
    SmallVector<Value> out;
    switch (how) {
    case ChunkLoad::vector:
      return elementsOf(b, loadVector(b, o, rowOff, kc));
    case ChunkLoad::shifted:
      return loadShiftedChunk(b, loc, o.linear, shifted, kc, laneElems, elem);
    case ChunkLoad::element:
      for (int64_t j = 0; j < laneElems; ++j) {
        Value k = m.add(kc, j);
        Value off = mx.add(rowOff, mx.mul(m.idx(m.min(k, lastK)), o.kStride));
        Value v = memref::LoadOp::create(b, loc, o.linear, ValueRange{off});
        out.push_back(m.select(m.lt(k, ctx.k), v, zero));
      }
      return out;
    }
    llvm_unreachable("chunk load");
  };

  // B stored K x N: each load reads the column pairs of P tiles
  // (gemvMmaColumn). The column of the block's tile that row l / 4 + 8 h of
  // tile t stands for, an affine function of the lane's group: where its
  // loads start (h = 0 of a load's first tile) and where the epilogue
  // stores its sums.
  const int64_t tilesPerLoad = gemvMmaColumnTilesPerLoad(tilesB);
  const int64_t colElems = 2 * tilesPerLoad;
  const int64_t loadsPerRow = tilesB / tilesPerLoad;
  auto laneColumn = [&](IndexMath &m, int64_t t, int64_t h) {
    int64_t first = gemvMmaColumn(t, 0, h, tilesPerLoad);
    int64_t perGroup = gemvMmaColumn(t, 1, h, tilesPerLoad) - first;
    return m.add(m.mul(group, perGroup), m.c(first));
  };
  SmallVector<Value> laneCols;
  Value colVectorOk, inside;
  if (columnsB) {
    for (int64_t i = 0; i < loadsPerRow; ++i)
      laneCols.push_back(
          m.add(ctx.tileN0, laneColumn(m, i * tilesPerLoad, /*h=*/0)));
    // Loads of colElems elements: N's stride 1, aligned base, offset and
    // pitch, and every column of the block inside N.
    colVectorOk =
        m.andI1(bOp.unitK, emitVectorCopiesOk(b, loc, ctx.b, colElems));
    inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle,
                                   m.add(ctx.tileN0, m.c(rowsB)), ctx.n);
  }
  auto colVecType = VectorType::get({colElems}, elem);
  IntegerAttr colAlign = b.getI64IntegerAttr(colElems * elemBytes);
  // The lane's virtual chunks of B at kc (B stored K x N), in the order of
  // the K-contiguous chunks ([tile][half]): element c of chunk (t, h) is
  // B[kc + c][gemvMmaColumn(t, l / 4, h)]. Element loads clamp the columns
  // to N, and with `guardK` the rows to K (zero past it).
  auto loadColumnsB = [&](OpBuilder &b, Value kc, ChunkLoad how, bool guardK) {
    IndexMath m(b, loc), mx(b, loc, /*useIndex=*/true);
    SmallVector<SmallVector<Value>> chunks(tilesB * 2,
                                           SmallVector<Value>(laneElems));
    for (int64_t c = 0; c < laneElems; ++c) {
      Value k = m.add(kc, c);
      Value inK = guardK ? m.lt(k, ctx.k) : Value();
      Value row = guardK ? m.min(k, lastK) : k;
      Value rowStart = mx.add(bOp.base, mx.mul(m.idx(row), bOp.mnStride));
      for (int64_t i = 0; i < loadsPerRow; ++i) {
        SmallVector<Value> elems;
        if (how == ChunkLoad::vector) {
          elems = elementsOf(
              b, vector::LoadOp::create(
                     b, loc, colVecType, bOp.linear,
                     ValueRange{mx.add(rowStart, m.idx(laneCols[i]))},
                     /*nontemporal=*/false, colAlign));
        } else if (how == ChunkLoad::shifted) {
          // The two aligned loads' blocks holding the columns (the first
          // again where they start one: never a block past the row),
          // shifted by this row's own offset.
          assert(!guardK && "shifted columns: whole rows only");
          Value start = mx.add(rowStart, m.idx(laneCols[i]));
          ShiftedRow shifted = shiftRow(b, loc, start, colElems, elemBytes);
          Value last = mx.add(start, mx.c(colElems - 1));
          shifted.next = mx.sub(last, mx.rem(last, colElems));
          elems = loadShiftedChunk(b, loc, bOp.linear, shifted, m.c(0),
                                   colElems, elem);
        } else {
          for (int64_t e = 0; e < colElems; ++e) {
            Value n = m.min(m.add(laneCols[i], e), lastN);
            Value v = memref::LoadOp::create(
                b, loc, bOp.linear,
                ValueRange{mx.add(rowStart, mx.mul(m.idx(n), bOp.kStride))});
            elems.push_back(guardK ? m.select(inK, v, zero) : v);
          }
        }
        for (int64_t e = 0; e < colElems; ++e)
          chunks[(i * tilesPerLoad + e / 2) * 2 + e % 2][c] = elems[e];
      }
    }
    return chunks;
  };

  // The fragments of instruction step `step` from chunks: the
  // instruction's A (vector<4x2>) from the chunks of rows l / 4 and
  // l / 4 + 8 of B, its B (vector<2x2>) from the chunk of row l / 4 of A.
  auto fragment = [&](OpBuilder &b, MmaOperand which,
                      ArrayRef<SmallVector<Value>> rows, int64_t step) {
    FragmentShape shape = *mmaSyncFragmentShape(kind, which);
    SmallVector<Value> elems;
    for (unsigned r = 0; r < shape.regs; ++r)
      for (unsigned e = 0; e < shape.elemsPerReg; ++e) {
        AffineLaneMap map = mmaSyncFragmentAffine(kind, which, r, e);
        // A's row is l / 4 plus 0 or 8 (the row of `rows`); B's column l / 4.
        int64_t row = which == MmaOperand::A ? map.base.row / 8 : 0;
        elems.push_back(rows[row][gemvMmaChunkElement(which, r, e, step)]);
      }
    auto type = VectorType::get(
        {int64_t(shape.regs), int64_t(shape.elemsPerReg)}, elem);
    return vector::FromElementsOp::create(b, loc, type, elems).getResult();
  };

  auto accType = VectorType::get({2, 2}, b.getF32Type());
  // The products of `count` stretches of chunks (chunksB [u][tile][half],
  // chunksA [u][tile]) added to accIn, stretch by stretch.
  auto multiply = [&](OpBuilder &b, ArrayRef<SmallVector<Value>> chunksB,
                      ArrayRef<SmallVector<Value>> chunksA, int64_t count,
                      ValueRange accIn) {
    SmallVector<Value> acc(accIn);
    for (int64_t u = 0; u < count; ++u)
      for (int64_t step = 0; step < 2; ++step)
        for (int64_t t = 0; t < tilesB; ++t) {
          Value fa = fragment(b, MmaOperand::A,
                              chunksB.slice((u * tilesB + t) * 2, 2), step);
          for (int64_t s = 0; s < tilesA; ++s) {
            Value fb = fragment(b, MmaOperand::B,
                                chunksA.slice(u * tilesA + s, 1), step);
            Value &c = acc[t * tilesA + s];
            c = emitMmaSync(b, loc, kind, {16, 8, 16}, fa, fb, c);
          }
        }
    return acc;
  };
  // `count` 32-element stretches of each row from k = first: all chunks
  // are loaded first (the bytes in flight), then multiplied.
  auto stretches = [&](OpBuilder &b, Value first, int64_t count, ChunkLoad howB,
                       ChunkLoad howA, bool guardK, ValueRange accIn) {
    IndexMath m(b, loc);
    SmallVector<SmallVector<Value>> chunksB, chunksA;
    SmallVector<Value> kcs;
    for (int64_t u = 0; u < count; ++u) {
      Value kc = laneKc(m, first, u);
      kcs.push_back(kc);
      if (columnsB)
        llvm::append_range(chunksB, loadColumnsB(b, kc, howB, guardK));
      for (auto [off, shifted] : llvm::zip(rowOffB, shiftedB))
        chunksB.push_back(loadChunk(b, bOp, off, shifted, kc, howB));
    }
    for (Value kc : kcs)
      for (auto [off, shifted] : llvm::zip(rowOffA, shiftedA))
        chunksA.push_back(loadChunk(b, a, off, shifted, kc, howA));
    return multiply(b, chunksB, chunksA, count, accIn);
  };
  // stages = 2 (16-byte loads of both operands, B stored N x K): the
  // 16-byte vectors of one iteration at k0, B's [u][tile][half] then A's
  // [u][tile], as `stretches` orders its chunks.
  auto loadVectors = [&](OpBuilder &b, Value k0) {
    IndexMath m(b, loc);
    SmallVector<Value> vecs;
    auto load = [&](const StreamedOperand &o, ArrayRef<Value> rowOffs) {
      for (int64_t u = 0; u < unroll; ++u) {
        Value kc = laneKc(m, k0, u);
        for (Value off : rowOffs)
          vecs.push_back(loadVector(b, o, off, kc));
      }
    };
    load(bOp, rowOffB);
    load(a, rowOffA);
    return vecs;
  };
  // One iteration: the stretch [k0, k0 + BK). The 16-byte path loads its U
  // stretches at once. The others (element loads: a register per element
  // and an address per load; shifted: two blocks per chunk) go through
  // them in a loop, one stretch an iteration: ptxas gives the whole kernel
  // the registers of its hungriest path, and with U stretches at once
  // those paths held the 16 x 32 x 64 tile at 142 registers (one block an
  // SM) where the 16-byte path alone needs 80; one at a time, 128 (two, 4%
  // faster on average; three blocks of the 16-byte path alone measured
  // slower than two, docs/design-notes.md). The products meet the
  // accumulators in the same order either way. Not on a B stored K x N:
  // there element loads of B (odd N) or of A (misaligned A rows) are the
  // paths whole rules were chosen for (gemv-mma-n-unaligned, -unaligned-a),
  // and their U loads a lane in flight are what those rules measured; one
  // stretch at a time made f16 nn 3x7169x4096 (gemv-mma-n-unaligned) 44.7 us
  // against 32.1 (H200, docs/perf-data/decode-tn-2026-12-05, run 1).
  auto iteration = [&](OpBuilder &b, Value k0, ChunkLoad howB, ChunkLoad howA,
                       bool guardK, ValueRange accIn) -> SmallVector<Value> {
    if (columnsB || (howB == ChunkLoad::vector && howA == ChunkLoad::vector))
      return stretches(b, k0, unroll, howB, howA, guardK, accIn);
    IndexMath m(b, loc);
    return emitForYielding(
        b, loc, m.idx(k0), m.idx(m.add(k0, m.c(bk))), m.idx(m.c(stretch)),
        accIn, [&](OpBuilder &b, Value first, ValueRange acc) {
          return stretches(b, first, 1, howB, howA, guardK, acc);
        });
  };
  // Warp w's stretches of [begin, end): begin + (slot + i W) BK, slot = w
  // unless given.
  auto loopK = [&](OpBuilder &b, Value begin, Value end, ChunkLoad howB,
                   ChunkLoad howA, ValueRange init, bool guardK = false,
                   Value slot = {}) {
    IndexMath m(b, loc);
    return emitForYielding(b, loc,
                           m.idx(m.add(begin, m.mul(slot ? slot : warp, bk))),
                           m.idx(end), m.idx(m.c(warps * bk)), init,
                           [&](OpBuilder &b, Value k0, ValueRange acc) {
                             return iteration(b, k0, howB, howA, guardK, acc);
                           });
  };

  // stages = 2: warp w's whole iterations of [0, end) with the next
  // iteration's 16-byte loads issued before this one's products, so a lane
  // keeps two iterations of loads in flight (measured: that did not lift
  // the decode rows it was built for, docs/design-notes.md). The loop runs one
  // iteration more than the warp has: the first multiplies zeros (adding +0 to
  // sums that start at +0, so the bits are those of stages = 1) while its loads
  // fly, the last loads its predecessor's chunks again (L1 hits) rather than
  // read past `end`. A prologue load would not do: LLVM folds a phi of two
  // loads into one load of a phi of addresses, at the top of the loop, which
  // undoes the double buffer.
  auto loopKPipelined = [&](OpBuilder &b, Value end, ValueRange init) {
    IndexMath m(b, loc);
    Value start = m.mul(warp, bk), stride = m.c(warps * bk);
    Value zeroVec = arith::ConstantOp::create(b, loc, b.getZeroAttr(vecType));
    int64_t numVecs = unroll * (rowOffB.size() + rowOffA.size());
    Value upper = m.select(m.lt(start, end), m.add(end, stride), start);
    SmallVector<Value> carried(init);
    carried.append(numVecs, zeroVec);
    int64_t numAcc = init.size();
    SmallVector<Value> out = emitForYielding(
        b, loc, m.idx(start), m.idx(upper), m.idx(stride), carried,
        [&](OpBuilder &b, Value k0, ValueRange args) {
          IndexMath m(b, loc);
          SmallVector<Value> nextVecs =
              loadVectors(b, m.select(m.lt(k0, end), k0, m.sub(k0, stride)));
          SmallVector<SmallVector<Value>> chunks;
          for (Value v : args.drop_front(numAcc))
            chunks.push_back(elementsOf(b, v));
          size_t numB = unroll * rowOffB.size();
          SmallVector<Value> acc =
              multiply(b, ArrayRef(chunks).take_front(numB),
                       ArrayRef(chunks).drop_front(numB), unroll,
                       args.take_front(numAcc));
          llvm::append_range(acc, nextVecs);
          return acc;
        });
    out.resize(numAcc);
    return out;
  };

  Value zeroAcc = arith::ConstantOp::create(b, loc, b.getZeroAttr(accType));
  SmallVector<Value> init(tilesA * tilesB, zeroAcc);
  SmallVector<Type> accTypes(init.size(), accType);
  // The stretches below `whole`, then the rest element by element. The
  // rest continues the warps' turns: its first stretch goes to the warp
  // after the one with the last whole stretch (slot (w - whole / BK) mod
  // W), not to warp 0, which may already have had one stretch more than
  // others (K = 3432: warps 0-4 seven whole stretches, 5-7 six; the rest
  // goes to warp 5).
  auto wholeThenRest = [&](OpBuilder &b, Value whole, ChunkLoad howB,
                           ChunkLoad howA) {
    IndexMath mt(b, loc);
    SmallVector<Value> acc =
        pipelined && howB == ChunkLoad::vector && howA == ChunkLoad::vector
            ? loopKPipelined(b, whole, init)
            : loopK(b, mt.c(0), whole, howB, howA, init);
    Value turn = mt.rem(mt.div(whole, bk), warps);
    Value slot = mt.rem(mt.sub(mt.add(warp, warps), turn), warps);
    acc = loopK(b, whole, ctx.k, ChunkLoad::element, ChunkLoad::element, acc,
                /*guardK=*/true, slot);
    scf::YieldOp::create(b, loc, acc);
  };
  auto choose = [&](OpBuilder &b, Value cond,
                    function_ref<void(OpBuilder &)> then,
                    function_ref<void(OpBuilder &)> otherwise) {
    return emitIfElse(b, loc, accTypes, cond, then, otherwise);
  };
  auto yieldOf = [&](OpBuilder &b, scf::IfOp inner) {
    scf::YieldOp::create(b, loc, inner.getResults());
  };
  // Whole stretches: K rounded down to BK. On the shifted path a chunk's
  // second block reaches up to 8 elements past the stretch: only the
  // stretches that end 8 elements before K.
  Value whole = m.sub(ctx.k, m.rem(ctx.k, bk));
  Value shiftedSpan = m.max(m.sub(ctx.k, m.c(laneElems)), m.c(0));
  Value wholeShifted = m.sub(shiftedSpan, m.rem(shiftedSpan, bk));
  // The paths, most preferred first: each operand in 16-byte loads where
  // its rows allow, else shifted where its blocks can be loaded, else
  // element by element; the last, element loads of both.
  struct Path {
    Value cond;
    ChunkLoad b, a;
  };
  // B stored K x N: its loads where the block's columns and the rows allow
  // them, else shifted (rows that start anywhere in a 16-byte aligned
  // buffer: an odd N), else element loads.
  Value vectorB = columnsB ? m.andI1(inside, colVectorOk) : bOp.vectorOk;
  SmallVector<Path> choices = {
      {m.andI1(vectorB, a.vectorOk), ChunkLoad::vector, ChunkLoad::vector},
      {m.andI1(vectorB, a.blocksOk), ChunkLoad::vector, ChunkLoad::shifted},
      {vectorB, ChunkLoad::vector, ChunkLoad::element}};
  // Shifted columns only where a load is 16 bytes (the 16-byte blocks of
  // loadShiftBlocks: two loads for 8 element loads). Shifting the 4- and
  // 8-byte loads in blocks of their own width was tried (2026-12-07) and
  // cost registers for nothing: a 4-byte pair takes two loads either way
  // (the 16 x 16 tile went from 76 registers to 112), and the bf16 16 x 32
  // x 32 tile went from 80 to 92, too many for the three blocks an SM its
  // dispatch rule assumes.
  if (columnsB && colElems * elemBytes == 16) {
    Value shiftedB = m.andI1(inside, bOp.blocksOk);
    choices.push_back(
        {m.andI1(shiftedB, a.vectorOk), ChunkLoad::shifted, ChunkLoad::vector});
    choices.push_back({m.andI1(shiftedB, a.blocksOk), ChunkLoad::shifted,
                       ChunkLoad::shifted});
  }
  if (columnsB) {
    choices.push_back({a.vectorOk, ChunkLoad::element, ChunkLoad::vector});
    choices.push_back({a.blocksOk, ChunkLoad::element, ChunkLoad::shifted});
  } else {
    choices.push_back({m.andI1(bOp.blocksOk, a.blocksOk), ChunkLoad::shifted,
                       ChunkLoad::shifted});
    choices.push_back({bOp.blocksOk, ChunkLoad::shifted, ChunkLoad::element});
  }
  std::function<scf::IfOp(OpBuilder &, size_t)> chain = [&](OpBuilder &b,
                                                            size_t i) {
    const Path &p = choices[i];
    // A shifted chunk along K reads up to a block past its stretch; B's
    // shifted columns (stored K x N) stay inside their k row.
    bool shifted =
        p.a == ChunkLoad::shifted || (!columnsB && p.b == ChunkLoad::shifted);
    return choose(
        b, p.cond,
        [&](OpBuilder &b) {
          wholeThenRest(b, shifted ? wholeShifted : whole, p.b, p.a);
        },
        [&](OpBuilder &b) {
          if (i + 1 < choices.size()) {
            yieldOf(b, chain(b, i + 1));
            return;
          }
          IndexMath mt(b, loc);
          scf::YieldOp::create(b, loc,
                               loopK(b, mt.c(0), ctx.k, ChunkLoad::element,
                                     ChunkLoad::element, init,
                                     /*guardK=*/true));
        });
  };
  scf::IfOp paths = chain(b, 0);

  // The warps' sums meet in shared memory, [warp][row of A][row of B].
  return emitWarpSumsEpilogue(
      b, loc, ctx, warps, rowsA, rowsB, [&](OpBuilder &b, Value staging) {
        IndexMath m(b, loc);
        for (int64_t t = 0; t < tilesB; ++t)
          for (int64_t s = 0; s < tilesA; ++s) {
            Value acc = paths.getResult(t * tilesA + s);
            for (unsigned r = 0; r < 2; ++r)
              for (unsigned e = 0; e < 2; ++e) {
                // The accumulator's (row, col) is (row of B, row of A).
                AffineLaneMap map =
                    mmaSyncFragmentAffine(kind, MmaOperand::C, r, e);
                Value rowB = m.add(m.add(m.c(16 * t + map.base.row),
                                         m.mul(group, map.perGroup.row)),
                                   m.mul(quad, map.perThread.row));
                if (columnsB) {
                  // Row l / 4 + base of tile t: the column gemvMmaColumn
                  // gives it (the accumulator's rows are l / 4 and l / 4 +
                  // 8).
                  assert(map.perGroup.row == 1 && map.perThread.row == 0 &&
                         map.base.row % 8 == 0 && "m16n8 accumulator rows");
                  rowB = laneColumn(m, t, map.base.row / 8);
                }
                Value rowA = m.add(m.add(m.c(8 * s + map.base.col),
                                         m.mul(group, map.perGroup.col)),
                                   m.mul(quad, map.perThread.col));
                Value at =
                    m.add(m.mul(m.add(m.mul(warp, rowsA), rowA), rowsB), rowB);
                Value v = vector::ExtractOp::create(b, loc, acc,
                                                    ArrayRef<int64_t>{r, e});
                memref::StoreOp::create(b, loc, v, staging,
                                        ValueRange{m.idx(at)});
              }
          }
      });
}
