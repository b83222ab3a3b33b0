//===- Gemv.cpp - the gemv kind: rows of B streamed through registers -----===//
//
// `kind = gemv` serves GEMMs of a few rows (M = 1, LLM decode) whose B is
// K-contiguous (N x K: layouts tn and tt). Such a GEMM reads B once and
// does two flops per byte of it: what decides its speed is how many bytes
// of B are in flight, not the multiplier. The kernel has no shared memory
// and no pipeline:
//
//   block [BM, BN, BK], warps [1, W]: warp w of the block owns the R = BN / W
//   rows n0 + w + r W (r < R) of B (rows of C's columns) and the BM rows
//   m0 .. m0 + BM - 1 of A. Lane l reads the 16-byte chunks k = l V + j 32 V
//   (V = 16 / element bytes) of each of its rows: U = BK / (32 V) chunks per
//   row and iteration, all issued before the first is used, and the chunk
//   of A at the same k, and accumulates the products in f32 (BM x R sums a
//   lane). A butterfly of shuffles then adds the lanes' sums (each lane adds
//   in a fixed order: the same sizes give the same bits), and lane 0
//   applies the epilogue to the warp's BM x R elements.
//
// Rows past the edge of A or B are read clamped into the matrix (their sums
// are never stored). The host never packs the operands of a gemv kernel
// (readsOperandsInPlace): the kernel reads rows where they are, on one of
// five paths chosen at run time:
//   - 16-byte loads of B and A (both K-contiguous, 16-byte aligned rows);
//   - shifted rows: both K-contiguous in a 16-byte aligned buffer, but rows
//     that do not start on a 16-byte boundary (f16 with an odd K). Each row
//     of B is read in 16-byte loads from its first aligned element h (the
//     h before it one per lane); A's chunk at the same k is two aligned
//     16-byte loads and a funnel shift by a constant number of elements.
//     W rows apart share h, which is why a warp's rows are W apart;
//   - 16-byte loads of B alone (A strided: K x M with M > 1 in tt);
//   - element loads at constant offsets (K's stride 1, unaligned buffer);
//   - element loads through the strides, clamped to K.
// Each runs its whole iterations, then the last, partial one element by
// element, predicated on K. Measured on the H200 (docs/performance.md):
// f16 tn 1x4096x4096 in 8.5-9.1 us, 86-94% of a copy of the same bytes,
// where the 16-row mma.sync decode tile split in K took 11.5 us.
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

StreamedOperand mlir::gemm::detail::streamOperand(OpBuilder &b, Location loc,
                                                  const KernelContext &ctx,
                                                  Value memref,
                                                  bool kContiguous,
                                                  int64_t laneElems) {
  auto type = cast<MemRefType>(memref.getType());
  int64_t rank = type.getRank();
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  LinearSource source = makeLinearSource(b, loc, ctx, memref, meta);
  StreamedOperand s;
  s.base = source.base;
  s.linear = source.linear;
  // Storage [mn][k] when K is contiguous, else [k][mn].
  Value outer = source.rowStride, inner = meta.getStrides()[rank - 1];
  s.mnStride = kContiguous ? outer : inner;
  s.kStride = kContiguous ? inner : outer;
  bool unitInner = mayHaveUnitInnerStride(type);
  IndexMath ma(b, loc, /*useIndex=*/true);
  auto eq = [&](Value x, int64_t v) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, ma.c(v));
  };
  s.unitK = eq(s.kStride, 1);
  s.blocksOk =
      ma.andI1(emitBaseAlignedTo(b, loc, memref, meta, 1, {}), s.unitK);
  if (kContiguous) {
    s.vectorOk = unitInner
                     ? emitVectorCopiesOk(b, loc, memref, laneElems)
                     : arith::ConstantIntOp::create(b, loc, 0, 1).getResult();
    return s;
  }
  // Stored K x MN (A in tt): K's stride is 1 where the operand is one
  // column (K x 1, the one-row GEMM) or a transposed view; the rows are
  // then 16 bytes apart or only one is read.
  SmallVector<int64_t> batchDim;
  if (rank == 3)
    batchDim.push_back(0);
  Value ok = ma.andI1(
      emitBaseAlignedTo(b, loc, memref, meta, laneElems, batchDim), s.unitK);
  Value oneRow = eq(meta.getSizes()[rank - 1], 1);
  s.vectorOk =
      ma.andI1(ok, arith::OrIOp::create(b, loc, oneRow,
                                        eq(ma.rem(s.mnStride, laneElems), 0)));
  return s;
}

int64_t mlir::gemm::detail::emitWarpSumsEpilogue(
    OpBuilder &b, Location loc, KernelContext &ctx, int64_t warps,
    int64_t rowsA, int64_t cols, function_ref<void(OpBuilder &, Value)> stage) {
  IndexMath m(b, loc);
  auto wg =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  int64_t elems = rowsA * cols, staged = warps * elems;
  Value smem = gpu::DynamicSharedMemoryOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                      MemRefLayoutAttrInterface(), wg));
  Value staging = memref::ViewOp::create(
      b, loc,
      MemRefType::get({staged}, b.getF32Type(), MemRefLayoutAttrInterface(),
                      wg),
      smem, arith::ConstantIndexOp::create(b, loc, 0), ValueRange{});
  stage(b, staging);
  gpu::BarrierOp::create(b, loc);
  int64_t threads = warps * ctx.target->warpSize;
  for (int64_t first = 0; first < elems; first += threads) {
    Value idx = m.add(ctx.tid, first);
    auto body = [&](OpBuilder &b) {
      IndexMath me(b, loc);
      Value sum;
      for (int64_t w = 0; w < warps; ++w) {
        Value v = memref::LoadOp::create(
            b, loc, staging, ValueRange{me.idx(me.add(idx, w * elems))});
        sum = sum ? arith::AddFOp::create(b, loc, sum, v).getResult() : v;
      }
      emitEpilogueElement(b, loc, ctx, me.add(ctx.tileM0, me.div(idx, cols)),
                          me.add(ctx.tileN0, me.rem(idx, cols)), sum);
    };
    if (first + threads <= elems)
      body(b);
    else
      emitIfLess(b, loc, idx, m.c(elems), body);
  }
  return staged * 4;
}

FailureOr<int64_t> mlir::gemm::detail::buildGemvKernel(OpBuilder &b,
                                                       KernelContext &ctx) {
  Location loc = ctx.op.getLoc();
  MatmulOp op = ctx.op;
  ConfigAttr cfg = ctx.config;
  setupCoordinates(b, ctx);

  Type elem = op.getAElementType();
  Type f32 = b.getF32Type();
  const int64_t lanes = ctx.target->warpSize;
  const int64_t laneElems = cfg.getInstr()[2];
  const int64_t unroll = gemvUnroll(toTileConfig(cfg), lanes);
  const int64_t rowsA = cfg.getBM(), rowsB = cfg.getWarpTileN();
  const bool aKContiguous = !op.isTransposedA();

  IndexMath m(b, loc), mx(b, loc, /*useIndex=*/true);
  StreamedOperand a =
      streamOperand(b, loc, ctx, ctx.a, aKContiguous, laneElems);
  StreamedOperand bOp = streamOperand(b, loc, ctx, ctx.b, true, laneElems);

  // Warp w of the W along N owns rows n0 + w + r W of B, r < R: with W a
  // multiple of the lane's elements (or a pitch that makes it so), they
  // start at the same offset within a 16-byte block, so the shifted path
  // below loads all of them from one shift. Rows past the edge read the
  // warp's first row (or the last row of B, where even that is past it):
  // their sums are never stored.
  const int64_t warpsN = cfg.getWarps()[1];
  Value lastM = m.sub(ctx.m, m.c(1)), lastN = m.sub(ctx.n, m.c(1));
  Value firstRow = m.add(ctx.tileN0, m.div(ctx.warpN0, rowsB));
  Value repRow = m.min(firstRow, lastN);
  SmallVector<Value> rowOffA, rowOffB, rowsN;
  for (int64_t i = 0; i < rowsA; ++i)
    rowOffA.push_back(mx.add(
        a.base, mx.mul(m.idx(m.min(m.add(ctx.tileM0, i), lastM)), a.mnStride)));
  for (int64_t r = 0; r < rowsB; ++r) {
    Value n = m.add(firstRow, r * warpsN);
    rowsN.push_back(n);
    Value row = r == 0 ? repRow : m.select(m.lt(n, ctx.n), n, repRow);
    rowOffB.push_back(mx.add(bOp.base, mx.mul(m.idx(row), bOp.mnStride)));
  }

  Value laneK = m.mul(ctx.lane, laneElems);
  Value lastK = m.sub(ctx.k, m.c(1));
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elem));
  auto vecType = VectorType::get({laneElems}, elem);
  IntegerAttr align = b.getI64IntegerAttr(16);

  // The shifted path, for rows of B and A whose 16-byte blocks are loadable
  // but which do not start on one (f16 with an odd K): each row of B is
  // read from its first aligned element, h = (-offset) mod V, in 16-byte
  // loads; the h elements before it are read one per lane. A's chunk at
  // the same k starts e = (offset of A's row + h) mod V elements into a
  // 16-byte block: the lane loads that block and the next and selects the
  // eight words' four from e (a funnel shift; e is the same in every
  // iteration and lane).
  Value h =
      mx.rem(mx.sub(mx.c(laneElems), mx.rem(rowOffB[0], laneElems)), laneElems);
  SmallVector<Value> rowOffBShifted;
  SmallVector<ShiftedRow> shiftedA;
  for (Value off : rowOffB)
    rowOffBShifted.push_back(mx.add(off, h));
  const int64_t elemSize = elem.getIntOrFloatBitWidth() / 8;
  for (Value off : rowOffA)
    shiftedA.push_back(shiftRow(b, loc, mx.add(off, h), laneElems, elemSize));

  // How the chunks of an iteration are read.
  struct Loads {
    bool vectorB = false, vectorA = false;
    /// Rows read from their first aligned element (both operands' K
    /// stride 1; k relative to h).
    bool shifted = false;
    /// Element loads clamped to K, zero past it (the last, partial
    /// iteration).
    bool guard = false;
    /// Element loads at constant offsets from a lane's first (K's stride
    /// is 1 in both).
    bool unit = false;
  };
  Loads vectorBoth, vectorBOnly, shiftedRows, guarded, unitStride;
  vectorBoth.vectorB = vectorBoth.vectorA = vectorBOnly.vectorB = true;
  shiftedRows.shifted = guarded.guard = unitStride.unit = true;

  // The lane's chunk of one row at k = kc: a 16-byte load, or laneElems
  // element loads (clamped to K and zero past it when `guard`; at constant
  // offsets from the first when `unit`: K's stride is 1).
  auto loadChunk = [&](OpBuilder &b, const StreamedOperand &o, Value rowOff,
                       Value kc, bool vector, bool guard,
                       bool unit) -> SmallVector<Value> {
    IndexMath m(b, loc), mx(b, loc, /*useIndex=*/true);
    SmallVector<Value> out;
    if (vector) {
      Value off = mx.add(rowOff, m.idx(kc));
      Value v =
          vector::LoadOp::create(b, loc, vecType, o.linear, ValueRange{off},
                                 /*nontemporal=*/false, align);
      for (int64_t j = 0; j < laneElems; ++j)
        out.push_back(
            vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{j}));
      return out;
    }
    bool constantOffsets = unit && !guard;
    Value first = constantOffsets ? mx.add(rowOff, m.idx(kc)) : Value();
    for (int64_t j = 0; j < laneElems; ++j) {
      Value k = m.add(kc, j);
      Value at = guard ? m.min(k, lastK) : k;
      Value off = constantOffsets
                      ? mx.add(first, j)
                      : mx.add(rowOff, mx.mul(m.idx(at), o.kStride));
      Value v = memref::LoadOp::create(b, loc, o.linear, ValueRange{off});
      out.push_back(guard ? m.select(m.lt(k, ctx.k), v, zero) : v);
    }
    return out;
  };
  auto widen = [&](OpBuilder &b, Value v) -> Value {
    return v.getType() == f32 ? v : arith::ExtFOp::create(b, loc, f32, v);
  };

  // One iteration: the k range [k0, k0 + count 32 V). All chunks of B are
  // loaded first (the bytes in flight), then each chunk of A with its
  // products.
  auto iteration = [&](OpBuilder &b, Value k0, Loads loads, int64_t count,
                       ValueRange accIn) {
    IndexMath m(b, loc);
    SmallVector<Value> acc(accIn);
    SmallVector<SmallVector<Value>> chunksB;
    SmallVector<Value> kcs;
    ArrayRef<Value> offB = loads.shifted ? rowOffBShifted : rowOffB;
    for (int64_t u = 0; u < count; ++u) {
      Value kc = m.add(k0, m.add(laneK, u * lanes * laneElems));
      kcs.push_back(kc);
      for (int64_t r = 0; r < rowsB; ++r)
        chunksB.push_back(loadChunk(b, bOp, offB[r], kc,
                                    loads.vectorB || loads.shifted, loads.guard,
                                    loads.unit));
    }
    for (int64_t u = 0; u < count; ++u)
      for (int64_t i = 0; i < rowsA; ++i) {
        SmallVector<Value> chunkA =
            loads.shifted ? loadShiftedChunk(b, loc, a.linear, shiftedA[i],
                                             kcs[u], laneElems, elem)
                          : loadChunk(b, a, rowOffA[i], kcs[u], loads.vectorA,
                                      loads.guard, loads.unit);
        for (int64_t j = 0; j < laneElems; ++j) {
          Value x = widen(b, chunkA[j]);
          for (int64_t r = 0; r < rowsB; ++r) {
            Value &c = acc[i * rowsB + r];
            c = LLVM::FMAOp::create(b, loc, x,
                                    widen(b, chunksB[u * rowsB + r][j]), c);
          }
        }
      }
    return acc;
  };
  // A loop of iterations of `count` chunks a lane over [begin, end).
  auto loopK = [&](OpBuilder &b, Value begin, Value end, Loads loads,
                   int64_t count, ValueRange init) {
    IndexMath m(b, loc);
    return emitForYielding(b, loc, m.idx(begin), m.idx(end),
                           m.idx(m.c(count * lanes * laneElems)), init,
                           [&](OpBuilder &b, Value k0, ValueRange acc) {
                             return iteration(b, k0, loads, count, acc);
                           });
  };

  Value zeroF = arith::ConstantOp::create(b, loc, b.getZeroAttr(f32));
  SmallVector<Value> init(rowsA * rowsB, zeroF);
  SmallVector<Type> accTypes(init.size(), f32);
  // The whole iterations from k = 0, then the last, partial one element by
  // element.
  auto wholeThenRest = [&](OpBuilder &b, Loads loads) {
    IndexMath mt(b, loc);
    Value whole = mt.sub(ctx.k, mt.rem(ctx.k, cfg.getBK()));
    SmallVector<Value> acc = loopK(b, mt.c(0), whole, loads, unroll, init);
    acc = loopK(b, whole, ctx.k, guarded, unroll, acc);
    scf::YieldOp::create(b, loc, acc);
  };
  // scf.if `cond` yielding the sums of `then` or `otherwise`.
  auto choose = [&](OpBuilder &b, Value cond,
                    function_ref<void(OpBuilder &)> then,
                    function_ref<void(OpBuilder &)> otherwise) {
    return emitIfElse(b, loc, accTypes, cond, then, otherwise);
  };
  auto yieldOf = [&](OpBuilder &b, scf::IfOp inner) {
    scf::YieldOp::create(b, loc, inner.getResults());
  };
  // The shifted path: the h head elements (lane l < h reads element l of
  // each row), the iterations whose chunks and A's next blocks lie before
  // K (h + k + V < K for every chunk), as many more of one chunk a lane,
  // then the rest element by element.
  auto shiftedPath = [&](OpBuilder &b) {
    IndexMath mt(b, loc), mtx(b, loc, /*useIndex=*/true);
    Value hk = mt.from(h);
    Value inHead = mt.lt(ctx.lane, mt.min(hk, ctx.k));
    scf::IfOp head = choose(
        b, inHead,
        [&](OpBuilder &b) {
          IndexMath mh(b, loc), mhx(b, loc, /*useIndex=*/true);
          SmallVector<Value> acc(init);
          Value k = mh.idx(ctx.lane);
          for (int64_t i = 0; i < rowsA; ++i) {
            Value x = widen(
                b, memref::LoadOp::create(b, loc, a.linear,
                                          ValueRange{mhx.add(rowOffA[i], k)}));
            for (int64_t r = 0; r < rowsB; ++r) {
              Value y = widen(b, memref::LoadOp::create(
                                     b, loc, bOp.linear,
                                     ValueRange{mhx.add(rowOffB[r], k)}));
              Value &c = acc[i * rowsB + r];
              c = LLVM::FMAOp::create(b, loc, x, y, c);
            }
          }
          scf::YieldOp::create(b, loc, acc);
        },
        [&](OpBuilder &b) { scf::YieldOp::create(b, loc, init); });
    Value avail = mt.max(mt.sub(mt.sub(ctx.k, hk), mt.c(1)), mt.c(0));
    Value whole = mt.sub(avail, mt.rem(avail, cfg.getBK()));
    SmallVector<Value> acc =
        loopK(b, mt.c(0), whole, shiftedRows, unroll, head.getResults());
    if (unroll > 1) {
      Value more = mt.sub(avail, whole);
      Value end = mt.add(whole, mt.sub(more, mt.rem(more, lanes * laneElems)));
      acc = loopK(b, whole, end, shiftedRows, 1, acc);
      whole = end;
    }
    acc = loopK(b, mt.add(hk, whole), ctx.k, guarded, unroll, acc);
    scf::YieldOp::create(b, loc, acc);
  };
  // Five paths, each over the whole iterations then the last, partial one
  // element by element: 16-byte loads of B and of A when both allow them;
  // the shifted path where both have K's stride 1 and loadable blocks
  // (and the warp's rows share their shift); 16-byte loads of B alone (A
  // a strided view, or K x M with M > 1 in tt); else, where K's stride is
  // 1 in both, element loads at constant offsets from a lane's first; else
  // element loads through the strides, each clamped to K.
  Value unit = m.andI1(bOp.unitK, a.unitK);
  Value shiftOk = m.andI1(bOp.blocksOk, a.blocksOk);
  if (rowsB > 1)
    shiftOk = m.andI1(shiftOk,
                      arith::CmpIOp::create(
                          b, loc, arith::CmpIPredicate::eq,
                          mx.rem(mx.mul(bOp.mnStride, mx.c(warpsN)), laneElems),
                          mx.c(0)));
  auto withoutVectorB = [&](OpBuilder &b) {
    yieldOf(b, choose(
                   b, unit, [&](OpBuilder &b) { wholeThenRest(b, unitStride); },
                   [&](OpBuilder &b) {
                     IndexMath mt(b, loc);
                     scf::YieldOp::create(
                         b, loc,
                         loopK(b, mt.c(0), ctx.k, guarded, unroll, init));
                   }));
  };
  scf::IfOp paths = choose(
      b, m.andI1(bOp.vectorOk, a.vectorOk),
      [&](OpBuilder &b) { wholeThenRest(b, vectorBoth); },
      [&](OpBuilder &b) {
        yieldOf(b, choose(b, shiftOk, shiftedPath, [&](OpBuilder &b) {
                  yieldOf(b, choose(
                                 b, bOp.vectorOk,
                                 [&](OpBuilder &b) {
                                   wholeThenRest(b, vectorBOnly);
                                 },
                                 withoutVectorB));
                }));
      });

  // The lanes' sums: a butterfly over the warp; lane 0 stores.
  SmallVector<Value> sums;
  for (Value v : paths.getResults()) {
    for (int64_t offset = lanes / 2; offset > 0; offset /= 2) {
      auto shuffle = gpu::ShuffleOp::create(
          b, loc, v, int32_t(offset), int32_t(lanes), gpu::ShuffleMode::XOR);
      v = arith::AddFOp::create(b, loc, v, shuffle.getShuffleResult());
    }
    sums.push_back(v);
  }
  Value lane0 =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, ctx.lane, m.c(0));
  emitIfTrue(b, loc, lane0, [&](OpBuilder &b) {
    IndexMath me(b, loc);
    for (int64_t i = 0; i < rowsA; ++i)
      for (int64_t r = 0; r < rowsB; ++r) {
        emitEpilogueElement(b, loc, ctx, me.add(ctx.tileM0, i), rowsN[r],
                            sums[i * rowsB + r]);
      }
  });
  return int64_t(0);
}
