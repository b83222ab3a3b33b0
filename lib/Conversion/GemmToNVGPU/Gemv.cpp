//===- Gemv.cpp - the gemv kind: rows of B streamed through registers -----===//
//
// `kind = gemv` serves GEMMs of a few rows (M = 1, LLM decode) whose B is
// K-contiguous (N x K: layouts tn and tt). Such a GEMM reads B once and
// does two flops per byte of it: what decides its speed is how many bytes
// of B are in flight, not the multiplier. The kernel has no shared memory
// and no pipeline:
//
//   block [BM, BN, BK], warps [1, W]: warp w of the block owns the R = BN / W
//   rows n0 + w R .. n0 + w R + R - 1 of B (rows of C's columns) and the BM
//   rows m0 .. m0 + BM - 1 of A. Lane l reads the 16-byte chunks
//   k = l V + j 32 V (V = 16 / element bytes) of each of its rows: U = BK /
//   (32 V) chunks per row and iteration, all issued before the first is
//   used, and the chunk of A at the same k, and accumulates the products in
//   f32 (BM x R sums a lane). A butterfly of shuffles then adds the lanes'
//   sums (each lane adds in a fixed order: the same sizes give the same
//   bits), and lane 0 applies the epilogue to the warp's BM x R elements.
//
// Rows past the edge of A or B are read clamped into the matrix (their sums
// are never stored); the last, partial iteration of K and operands that are
// not 16-byte aligned (base, offset, row pitch) or not K-contiguous read
// element by element, predicated on K only in that last iteration where K's
// stride is 1. The host never packs the operands of a gemv kernel
// (readsOperandsInPlace): a row that rules out 16-byte loads costs the
// kernel element loads, where a packing would cost two more passes over B.
// Measured on the H200 (docs/ dispatch.md, "gemv"): f16 tn 1x4096x4096
// in 8.6-9.1 us, 86-94% of a copy of the same bytes, where the 16-row mma.sync
// decode tile split in K took 11.5 us.
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
/// An operand read through a 1-D view of its buffer: element (mn, k) is at
/// `base + mn * mnStride + k * kStride` (index values; the batch is in
/// base).
struct StreamedOperand {
  Value linear, base, mnStride, kStride;
  /// i1: 16-byte loads along K are legal: K's stride is 1 and the base,
  /// offset and the pitch of the rows read are 16-byte aligned.
  Value vectorOk;
};
} // namespace

static StreamedOperand streamOperand(OpBuilder &b, Location loc,
                                     const KernelContext &ctx, Value memref,
                                     bool kContiguous, int64_t laneElems) {
  auto type = cast<MemRefType>(memref.getType());
  int64_t rank = type.getRank();
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  IndexMath m(b, loc), mx(b, loc, /*useIndex=*/true);
  StreamedOperand s;
  s.base = meta.getOffset();
  if (ctx.batch)
    s.base = mx.add(s.base, mx.mul(m.idx(ctx.batch), meta.getStrides()[0]));
  // Storage [mn][k] when K is contiguous, else [k][mn].
  Value outer = meta.getStrides()[rank - 2],
        inner = meta.getStrides()[rank - 1];
  s.mnStride = kContiguous ? outer : inner;
  s.kStride = kContiguous ? inner : outer;
  s.linear = emitLinearView(b, loc, memref, meta);
  SmallVector<int64_t> strides;
  int64_t offset;
  bool unitInner =
      succeeded(type.getStridesAndOffset(strides, offset)) &&
      (ShapedType::isDynamic(strides.back()) || strides.back() == 1);
  if (kContiguous) {
    s.vectorOk = unitInner
                     ? emitVectorCopiesOk(b, loc, memref, laneElems)
                     : arith::ConstantIntOp::create(b, loc, 0, 1).getResult();
    return s;
  }
  // Stored K x MN (A in tt): K's stride is 1 where the operand is one
  // column (K x 1, the one-row GEMM) or a transposed view; the rows are
  // then 16 bytes apart or only one is read.
  IndexMath ma(b, loc, /*useIndex=*/true);
  auto eq = [&](Value x, int64_t v) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, ma.c(v));
  };
  Value ptr = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value ok = ma.andI1(eq(ma.rem(ptr, 16), 0),
                      eq(ma.rem(meta.getOffset(), laneElems), 0));
  if (rank == 3)
    ok = ma.andI1(ok, eq(ma.rem(meta.getStrides()[0], laneElems), 0));
  ok = ma.andI1(ok, eq(s.kStride, 1));
  Value oneRow = eq(meta.getSizes()[rank - 1], 1);
  s.vectorOk =
      ma.andI1(ok, arith::OrIOp::create(b, loc, oneRow,
                                        eq(ma.rem(s.mnStride, laneElems), 0)));
  return s;
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

  // The element offsets of (row, k = 0) of the warp's rows, clamped into
  // the matrix.
  Value n0 = m.add(ctx.tileN0, ctx.warpN0);
  Value lastM = m.sub(ctx.m, m.c(1)), lastN = m.sub(ctx.n, m.c(1));
  SmallVector<Value> rowOffA, rowOffB;
  for (int64_t i = 0; i < rowsA; ++i)
    rowOffA.push_back(mx.add(
        a.base, mx.mul(m.idx(m.min(m.add(ctx.tileM0, i), lastM)), a.mnStride)));
  for (int64_t r = 0; r < rowsB; ++r)
    rowOffB.push_back(mx.add(
        bOp.base, mx.mul(m.idx(m.min(m.add(n0, r), lastN)), bOp.mnStride)));

  Value laneK = m.mul(ctx.lane, laneElems);
  Value lastK = m.sub(ctx.k, m.c(1));
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elem));
  auto vecType = VectorType::get({laneElems}, elem);
  IntegerAttr align = b.getI64IntegerAttr(16);

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

  // One iteration: the k range [k0, k0 + BK). All chunks of B are loaded
  // first (the bytes in flight), then each chunk of A with its products.
  auto iteration = [&](OpBuilder &b, Value k0, bool vectorB, bool vectorA,
                       bool guard, bool unit, ValueRange accIn) {
    IndexMath m(b, loc);
    SmallVector<Value> acc(accIn);
    SmallVector<SmallVector<Value>> chunksB;
    SmallVector<Value> kcs;
    for (int64_t u = 0; u < unroll; ++u) {
      Value kc = m.add(k0, m.add(laneK, u * lanes * laneElems));
      kcs.push_back(kc);
      for (int64_t r = 0; r < rowsB; ++r)
        chunksB.push_back(
            loadChunk(b, bOp, rowOffB[r], kc, vectorB, guard, unit));
    }
    for (int64_t u = 0; u < unroll; ++u)
      for (int64_t i = 0; i < rowsA; ++i) {
        SmallVector<Value> chunkA =
            loadChunk(b, a, rowOffA[i], kcs[u], vectorA, guard, unit);
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
  // A loop of iterations over [begin, end) in steps of BK.
  auto loopK = [&](OpBuilder &b, Value begin, Value end, bool vectorB,
                   bool vectorA, bool guard, bool unit, ValueRange init) {
    IndexMath m(b, loc);
    auto loop = scf::ForOp::create(b, loc, m.idx(begin), m.idx(end),
                                   m.idx(m.c(cfg.getBK())), init);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    IndexMath mi(b, loc);
    scf::YieldOp::create(b, loc,
                         iteration(b, mi.from(loop.getInductionVar()), vectorB,
                                   vectorA, guard, unit,
                                   loop.getRegionIterArgs()));
    return SmallVector<Value>(loop.getResults());
  };

  Value zeroF = arith::ConstantOp::create(b, loc, b.getZeroAttr(f32));
  SmallVector<Value> init(rowsA * rowsB, zeroF);
  SmallVector<Type> accTypes(init.size(), f32);
  // Four paths, each over the whole iterations then the last, partial one
  // element by element: 16-byte loads of B and of A when both allow them;
  // of B alone (A a strided view, or K x M with M > 1 in tt); else, where
  // K's stride is 1 in both (rows that rule out 16-byte loads: f16 with an
  // odd K), element loads at constant offsets from a lane's first; else
  // element loads through the strides, each clamped to K.
  Value unit = m.andI1(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                             bOp.kStride, mx.c(1)),
                       arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                             a.kStride, mx.c(1)));
  auto wholeThenRest = [&](OpBuilder &b, bool vectorB, bool vectorA,
                           bool unitStride) {
    IndexMath mt(b, loc);
    Value whole = mt.sub(ctx.k, mt.rem(ctx.k, cfg.getBK()));
    SmallVector<Value> acc =
        loopK(b, mt.c(0), whole, vectorB, vectorA, false, unitStride, init);
    acc = loopK(b, whole, ctx.k, false, false, true, false, acc);
    scf::YieldOp::create(b, loc, acc);
  };
  // scf.if `cond` yielding the sums of `then` or `otherwise`.
  auto choose = [&](OpBuilder &b, Value cond,
                    function_ref<void(OpBuilder &)> then,
                    function_ref<void(OpBuilder &)> otherwise) {
    auto ifOp = scf::IfOp::create(b, loc, accTypes, cond,
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    then(b);
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    otherwise(b);
    return ifOp;
  };
  auto yieldOf = [&](OpBuilder &b, scf::IfOp inner) {
    scf::YieldOp::create(b, loc, inner.getResults());
  };
  scf::IfOp paths = choose(
      b, bOp.vectorOk,
      [&](OpBuilder &b) {
        yieldOf(
            b,
            choose(
                b, a.vectorOk,
                [&](OpBuilder &b) { wholeThenRest(b, true, true, false); },
                [&](OpBuilder &b) { wholeThenRest(b, true, false, false); }));
      },
      [&](OpBuilder &b) {
        yieldOf(b,
                choose(
                    b, unit,
                    [&](OpBuilder &b) { wholeThenRest(b, false, false, true); },
                    [&](OpBuilder &b) {
                      IndexMath mt(b, loc);
                      scf::YieldOp::create(b, loc,
                                           loopK(b, mt.c(0), ctx.k, false,
                                                 false, true, false, init));
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
        emitEpilogueElement(b, loc, ctx, me.add(ctx.tileM0, i), me.add(n0, r),
                            sums[i * rowsB + r]);
      }
  });
  return int64_t(0);
}
