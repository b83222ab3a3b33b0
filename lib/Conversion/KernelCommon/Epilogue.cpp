//===- Epilogue.cpp - the gemm.matmul epilogue in registers ---------------===//
//
// Applies the epilogue region to one accumulator element: C is loaded only if
// the region reads it (and, for `beta * C` with a scalar beta, only when beta
// is nonzero at run time), extra operands are loaded per their broadcast, the
// region's ops are cloned in place and the yielded value is stored; all of it
// predicated on the element lying inside C. Without a region the accumulator
// is converted to C's element type (saturating for narrower integers).
//
//===----------------------------------------------------------------------===//

#include "Epilogue.h"
#include "KernelSetup.h"
#include "SplitK.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::detail;

/// Converts `v` to `to`: float extension/truncation, integer sign extension,
/// or saturating integer truncation.
static Value convertAccumulator(OpBuilder &b, Location loc, Value v, Type to) {
  Type from = v.getType();
  if (from == to)
    return v;
  if (isa<FloatType>(from)) {
    unsigned fromBits = from.getIntOrFloatBitWidth();
    unsigned toBits = to.getIntOrFloatBitWidth();
    if (toBits > fromBits)
      return arith::ExtFOp::create(b, loc, to, v);
    // Two formats of one width (an f16 accumulator stored to bf16): through
    // f32, which holds both exactly.
    if (toBits == fromBits)
      v = arith::ExtFOp::create(b, loc, b.getF32Type(), v);
    return arith::TruncFOp::create(b, loc, to, v);
  }
  unsigned fromBits = from.getIntOrFloatBitWidth();
  unsigned toBits = to.getIntOrFloatBitWidth();
  if (toBits > fromBits)
    return arith::ExtSIOp::create(b, loc, to, v);
  APInt lo = APInt::getSignedMinValue(toBits).sext(fromBits);
  APInt hi = APInt::getSignedMaxValue(toBits).sext(fromBits);
  Value loV = arith::ConstantOp::create(b, loc, b.getIntegerAttr(from, lo));
  Value hiV = arith::ConstantOp::create(b, loc, b.getIntegerAttr(from, hi));
  Value clamped = arith::MinSIOp::create(
      b, loc, arith::MaxSIOp::create(b, loc, v, loV), hiV);
  return arith::TruncIOp::create(b, loc, to, clamped);
}

/// If the region reads C only as `C * beta` (possibly after an extension),
/// with beta a scalar extra, returns the index of that extra: C need not be
/// loaded when beta is zero (the BLAS convention; it also keeps NaNs or
/// uninitialized memory in C from leaking into the result).
static std::optional<unsigned> findBetaExtra(MatmulOp op) {
  Block &body = op.getEpilogue().front();
  Value c = body.getArgument(1);
  if (!c.hasOneUse())
    return std::nullopt;
  Operation *user = *c.getUsers().begin();
  if (isa<arith::ExtFOp, arith::ExtSIOp, arith::SIToFPOp>(user)) {
    if (!user->getResult(0).hasOneUse())
      return std::nullopt;
    c = user->getResult(0);
    user = *c.getUsers().begin();
  }
  if (!isa<arith::MulFOp, arith::MulIOp>(user))
    return std::nullopt;
  Value other = user->getOperand(0) == c ? user->getOperand(1)
                                         : user->getOperand(0);
  auto arg = dyn_cast<BlockArgument>(other);
  if (!arg || arg.getOwner() != &body || arg.getArgNumber() < 2)
    return std::nullopt;
  unsigned extra = arg.getArgNumber() - 2;
  if (op.getExtraBroadcast(extra) != Broadcast::scalar)
    return std::nullopt;
  return extra;
}

/// Loads C through `load` unless the region reads it only as `beta * C`
/// and beta is zero at run time (then zeros of `type`).
static Value loadC(OpBuilder &b, Location loc, const KernelContext &ctx,
                   Type type, function_ref<Value(OpBuilder &)> load) {
  std::optional<unsigned> beta = findBetaExtra(MatmulOp(ctx.op));
  if (!beta)
    return load(b);
  Value betaV = ctx.extras[*beta];
  Value zeroBeta =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(betaV.getType()));
  Value nonZero = isa<FloatType>(betaV.getType())
                      ? Value(arith::CmpFOp::create(
                            b, loc, arith::CmpFPredicate::UNE, betaV, zeroBeta))
                      : Value(arith::CmpIOp::create(
                            b, loc, arith::CmpIPredicate::ne, betaV, zeroBeta));
  return scf::IfOp::create(
             b, loc, nonZero,
             [&](OpBuilder &b, Location loc) {
               scf::YieldOp::create(b, loc, ValueRange{load(b)});
             },
             [&](OpBuilder &b, Location loc) {
               scf::YieldOp::create(
                   b, loc,
                   ValueRange{arith::ConstantOp::create(
                       b, loc, cast<TypedAttr>(b.getZeroAttr(type)))});
             })
      .getResult(0);
}

/// Indices into memref extra `i` for the element at absolute (row, col),
/// per its broadcast (batch index prepended for a batched extra).
static SmallVector<Value> extraIndices(OpBuilder &b, Location loc,
                                       const KernelContext &ctx, unsigned i,
                                       Value row, Value col) {
  IndexMath m(b, loc);
  auto type = cast<MemRefType>(ctx.extras[i].getType());
  SmallVector<Value> idx;
  bool batched = false;
  switch (MatmulOp(ctx.op).getExtraBroadcast(i)) {
  case Broadcast::row:
    idx = {row};
    batched = type.getRank() == 2;
    break;
  case Broadcast::col:
    idx = {col};
    batched = type.getRank() == 2;
    break;
  case Broadcast::full:
    idx = {row, col};
    batched = type.getRank() == 3;
    break;
  case Broadcast::scalar:
    llvm_unreachable("memref extras are never scalar");
  }
  if (batched)
    idx.insert(idx.begin(), ctx.batch);
  for (Value &v : idx)
    v = m.idx(v);
  return idx;
}

/// Clones the epilogue region on `acc`. `operand(i)` gives the value of the
/// region's block argument i (1: C, 2 + j: extra j) at the element; it is
/// called once for each argument the region uses.
static Value cloneRegion(OpBuilder &b, MatmulOp op, Value acc,
                         function_ref<Value(unsigned)> operand) {
  Block &body = op.getEpilogue().front();
  IRMapping map;
  map.map(body.getArgument(0), acc);
  for (unsigned i = 1; i < body.getNumArguments(); ++i)
    if (!body.getArgument(i).use_empty())
      map.map(body.getArgument(i), operand(i));
  for (Operation &inner : body.without_terminator())
    b.clone(inner, map);
  return map.lookup(body.getTerminator()->getOperand(0));
}

/// The value of the region's block argument `arg` (>= 1) at the element at
/// absolute (row, col), which lies inside C at `cIndices`: C, a scalar
/// extra, or an element of a memref extra per its broadcast.
static Value loadElementOperand(OpBuilder &b, Location loc,
                                const KernelContext &ctx, unsigned arg,
                                Value row, Value col, ValueRange cIndices) {
  if (arg == 1)
    return loadC(
        b, loc, ctx, MatmulOp(ctx.op).getCElementType(), [&](OpBuilder &b) {
          return memref::LoadOp::create(b, loc, ctx.c, cIndices).getResult();
        });
  Value extra = ctx.extras[arg - 2];
  if (!isa<MemRefType>(extra.getType()))
    return extra;
  return memref::LoadOp::create(b, loc, extra,
                                extraIndices(b, loc, ctx, arg - 2, row, col));
}

/// The epilogue's value for the accumulator `acc` of the element at
/// absolute (row, col), which lies inside C at `cIndices`: C and the extras
/// are loaded as the region reads them.
static Value applyEpilogue(OpBuilder &b, Location loc, KernelContext &ctx,
                           Value row, Value col, Value acc,
                           ValueRange cIndices) {
  MatmulOp op = ctx.op;
  if (!op.hasEpilogue())
    return convertAccumulator(b, loc, acc, op.getCElementType());
  return cloneRegion(b, op, acc, [&](unsigned arg) {
    return loadElementOperand(b, loc, ctx, arg, row, col, cIndices);
  });
}

void mlir::gemm::detail::emitEpilogueElement(
    OpBuilder &b, Location loc, KernelContext &ctx, Value row, Value col,
    Value acc, function_ref<void(OpBuilder &, Value result)> store) {
  IndexMath m(b, loc);
  Value inside = m.andI1(m.lt(row, ctx.m), m.lt(col, ctx.n));
  emitIfTrue(b, loc, inside, [&](OpBuilder &b) {
    SmallVector<Value> cIndices = ctx.globalIndices(b, loc, row, col);
    Value result = applyEpilogue(b, loc, ctx, row, col, acc, cIndices);
    if (store)
      store(b, result);
    else
      memref::StoreOp::create(b, loc, result, ctx.c, cIndices);
  });
}

/// Elements of `elem` (C's type, or the accumulators') in one 16-byte chunk.
static int64_t chunkElems(Type elem) {
  return 16 / std::max<int64_t>(elem.getIntOrFloatBitWidth() / 8, 1);
}

namespace {
/// The columns [col0, col0 + cols) of the block tile that the epilogue
/// stages at once: all BN of them, or one of the tile's column slices when
/// the whole tile does not fit (a persistent block's staging area beside
/// its stage ring).
struct StagedSlice {
  int64_t col0, cols;
};
} // namespace

/// Row pitch (elements) of a staged slice of `cols` columns of `elem` (C's
/// values, or the raw accumulators of a region epilogue): one 16-byte chunk
/// of padding per row, so that the rows of an accumulator fragment fall
/// into different banks.
static int64_t stagedPitch(int64_t cols, Type elem) {
  return cols + chunkElems(elem);
}

/// True if the epilogue can stage C's values at all: an NVIDIA kernel
/// storing C (not split-K partial sums) of whole bytes up to 32 bits, with a
/// unit inner stride and rows of whole 16-byte chunks.
static bool stagesC(const KernelContext &ctx) {
  if (!ctx.target->isNVIDIA() || ctx.writesPartialSums() || ctx.clusterReduce)
    return false;
  Type cElem = MatmulOp(ctx.op).getCElementType();
  unsigned bits = cElem.getIntOrFloatBitWidth();
  if (bits < 8 || bits > 32 || bits % 8 != 0)
    return false;
  if (!hasUnitInnerStride(cast<MemRefType>(ctx.c.getType())))
    return false;
  return ctx.config.getBN() % chunkElems(cElem) == 0;
}

/// Shared memory for a staged slice of `cols` columns of `elem`.
static int64_t stagedBytes(const KernelContext &ctx, int64_t cols, Type elem) {
  return ctx.config.getBM() * stagedPitch(cols, elem) *
         (elem.getIntOrFloatBitWidth() / 8);
}

/// The block tile's rows inside C: min(M - tile row, BM).
static Value tileRowsInside(OpBuilder &b, Location loc,
                            const KernelContext &ctx) {
  IndexMath m(b, loc);
  return m.min(m.sub(ctx.m, ctx.tileM0), m.c(ctx.config.getBM()));
}

namespace {
/// Unit `idx` of a staged tile walked in units of `elems` elements: its
/// offset in the tile (rows of `pitch`) and its row and column in C.
struct StagedUnit {
  Value idx, src, row, col;
};
} // namespace

static StagedUnit stagedUnitAt(IndexMath &m, const KernelContext &ctx,
                               StagedSlice slice, Value idx, int64_t elems,
                               int64_t pitch) {
  int64_t perRow = slice.cols / elems;
  Value r = m.div(idx, perRow), c = m.mul(m.rem(idx, perRow), elems);
  return {idx, m.add(m.mul(r, pitch), c), m.add(ctx.tileM0, r),
          m.add(ctx.tileN0, m.add(c, slice.col0))};
}

/// Walks the `rowsInside` rows of the block tile's `slice` in units of `elems`
/// elements (rows of slice.cols / elems units), thread t taking units t,
/// t + threads, ...;
/// `body` gets the unit's offset in a staged tile of rows of `pitch`
/// elements and its row and column in C. (Only the rows inside C
/// (tileRowsInside) are walked: a 17 x 3 C in a 64 x 64 tile took 32 element
/// iterations per thread otherwise.)
static void
walkStagedTile(OpBuilder &b, Location loc, KernelContext &ctx,
               StagedSlice slice, Value rowsInside, int64_t elems,
               int64_t pitch,
               function_ref<void(OpBuilder &, Value, Value, Value)> body) {
  IndexMath m(b, loc);
  ConfigAttr cfg = ctx.config;
  int64_t threads = cfg.getNumWarps() * ctx.target->warpSize;
  int64_t perRow = slice.cols / elems;
  Value total = m.mul(rowsInside, perRow);
  auto loop =
      scf::ForOp::create(b, loc, m.c(0), m.ceilDiv(total, threads), m.c(1));
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(loop.getBody());
  IndexMath mi(b, loc);
  Value idx = mi.add(ctx.tid, mi.mul(loop.getInductionVar(), threads));
  emitIfTrue(b, loc, mi.lt(idx, total), [&](OpBuilder &b) {
    IndexMath mr(b, loc);
    StagedUnit u = stagedUnitAt(mr, ctx, slice, idx, elems, pitch);
    body(b, u.src, u.row, u.col);
  });
}

/// Stores the staged `slice` of the block tile (`tile`, rows of stagedPitch
/// elements) to C.
/// When C allows 16-byte stores (checked at run time, the same for the whole
/// block), each thread copies 16-byte chunks, consecutive threads
/// consecutive chunks of a row, and the ragged right edge element by
/// element. Otherwise each thread copies single elements, consecutive
/// threads consecutive elements of a row, so that a warp's stores still
/// fill whole sectors (a thread storing its chunk's elements one by one
/// spreads each warp store over 16-byte steps: f16 1000 x 1001 x 1, where C's
/// rows are misaligned, took 10.9 us in its GEMM kernel that way).
static void emitStagedStore(OpBuilder &b, Location loc, KernelContext &ctx,
                            StagedSlice slice, Value tile) {
  Type cElem = ctx.op.getCElementType();
  int64_t v = chunkElems(cElem);
  int64_t pitch = stagedPitch(slice.cols, cElem);
  Value vectorOk = emitVectorCopiesOk(b, loc, ctx.c, v);
  auto vecType = VectorType::get({v}, cElem);
  IntegerAttr align = b.getI64IntegerAttr(16);
  Value rows = tileRowsInside(b, loc, ctx);
  auto storeElement = [&](OpBuilder &b, Value src, Value row, Value col) {
    IndexMath me(b, loc);
    emitIfTrue(b, loc, me.lt(col, ctx.n), [&](OpBuilder &b) {
      IndexMath ms(b, loc);
      Value x = memref::LoadOp::create(b, loc, tile, ValueRange{ms.idx(src)});
      memref::StoreOp::create(b, loc, x, ctx.c,
                              ctx.globalIndices(b, loc, row, col));
    });
  };
  scf::IfOp::create(
      b, loc, vectorOk,
      [&](OpBuilder &b, Location loc) {
        walkStagedTile(
            b, loc, ctx, slice, rows, v, pitch,
            [&](OpBuilder &b, Value src, Value row, Value col) {
              IndexMath mr(b, loc);
              Value whole = arith::CmpIOp::create(
                  b, loc, arith::CmpIPredicate::sle, mr.add(col, v), ctx.n);
              scf::IfOp::create(
                  b, loc, whole,
                  [&](OpBuilder &b, Location loc) {
                    IndexMath mv(b, loc);
                    Value chunk = vector::LoadOp::create(
                        b, loc, vecType, tile, ValueRange{mv.idx(src)},
                        /*nontemporal=*/false, align);
                    vector::StoreOp::create(b, loc, chunk, ctx.c,
                                            ctx.globalIndices(b, loc, row, col),
                                            /*nontemporal=*/false, align);
                    scf::YieldOp::create(b, loc);
                  },
                  [&](OpBuilder &b, Location loc) {
                    // The ragged right edge.
                    for (int64_t e = 0; e < v; ++e) {
                      IndexMath me(b, loc);
                      storeElement(b, me.add(src, e), row, me.add(col, e));
                    }
                    scf::YieldOp::create(b, loc);
                  });
            });
        scf::YieldOp::create(b, loc);
      },
      [&](OpBuilder &b, Location loc) {
        // C not 16-byte aligned.
        walkStagedTile(b, loc, ctx, slice, rows, 1, pitch,
                       [&](OpBuilder &b, Value src, Value row, Value col) {
                         storeElement(b, src, row, col);
                       });
        scf::YieldOp::create(b, loc);
      });
}

/// True if the epilogue stages the raw accumulators and runs its region on
/// them in a loop (a region, C staged at all, and C's 16-byte chunk a whole
/// number of 16-byte units of accumulators).
static bool stagesAccumulators(const KernelContext &ctx) {
  MatmulOp op = ctx.op;
  if (!op.hasEpilogue() || !stagesC(ctx))
    return false;
  unsigned bits = ctx.accType.getIntOrFloatBitWidth();
  int64_t v = chunkElems(op.getCElementType());
  return bits % 8 == 0 && (v * bits / 8) % 16 == 0;
}

namespace {
/// What the epilogue stages in shared memory: the raw accumulators (`acc`,
/// a region epilogue) or C's values, in slices of `cols` columns (BN: the
/// whole tile at once), `bytes` of it; cols == 0: nothing, each thread
/// stores its own elements.
struct StagingPlan {
  bool acc = false;
  int64_t cols = 0, bytes = 0;
};
} // namespace

/// The narrowest column slice the epilogue stages: two barriers a slice,
/// and a region's chunk loop needs a few chunks a thread.
static constexpr int64_t kMinSliceCols = 32;

/// The staging of `ctx`'s epilogue: the accumulators where a region runs
/// (stagesAccumulators), else C's values; the whole block tile where it fits
/// in ctx.stagingLimit, else the widest column slice that does (halving BN,
/// in whole multiples of the step's columnSliceGranule() and of a 16-byte
/// chunk of C). With a region, sliced accumulators come before a whole tile
/// of C's values, whose region would run on every accumulator in registers.
static StagingPlan planStaging(const KernelContext &ctx,
                               const ComputeStep &step) {
  if (!stagesC(ctx))
    return {};
  int64_t bn = ctx.config.getBN();
  int64_t v = chunkElems(MatmulOp(ctx.op).getCElementType());
  int64_t granule = step.columnSliceGranule();
  auto fit = [&](bool acc) -> StagingPlan {
    for (int64_t cols = bn; cols > 0; cols /= 2) {
      if (cols != bn && (!granule || cols % granule || cols % v || bn % cols ||
                         cols < kMinSliceCols))
        break;
      int64_t bytes = stagedBytes(
          ctx, cols, acc ? ctx.accType : MatmulOp(ctx.op).getCElementType());
      if (bytes <= ctx.stagingLimit)
        return {acc, cols, bytes};
    }
    return {};
  };
  if (stagesAccumulators(ctx))
    if (StagingPlan plan = fit(/*acc=*/true); plan.cols)
      return plan;
  return fit(/*acc=*/false);
}

/// Chunks of C a thread runs the region on at once in the staged region
/// epilogue: their loads of C and the extras are all issued before the first
/// result is stored.
static constexpr int64_t kEpilogueChunksInFlight = 4;

namespace {
/// How the staged region epilogue reads one region operand for a chunk of C
/// (v elements of one row): as one vector of the chunk's elements, as one
/// value for the whole chunk, or element by element.
enum class ChunkRead { vector, once, element };
} // namespace

/// How block argument `arg` (>= 1) of the region is read for a chunk: C
/// and the column and full extras whose rows are contiguous as vectors, a
/// row extra and a scalar once, others (strided, sub-byte or index
/// elements) per element.
static ChunkRead chunkRead(const KernelContext &ctx, unsigned arg) {
  if (arg == 1)
    return ChunkRead::vector;
  auto type = dyn_cast<MemRefType>(ctx.extras[arg - 2].getType());
  if (!type)
    return ChunkRead::once;
  switch (MatmulOp(ctx.op).getExtraBroadcast(arg - 2)) {
  case Broadcast::row:
    return ChunkRead::once;
  case Broadcast::col:
  case Broadcast::full:
    break;
  case Broadcast::scalar:
    llvm_unreachable("memref extras are never scalar");
  }
  // (index elements have no bit width: per element.)
  if (!type.getElementType().isIntOrFloat())
    return ChunkRead::element;
  unsigned bits = type.getElementTypeBitWidth();
  if (bits < 8 || bits % 8 != 0 || !mayHaveUnitInnerStride(type))
    return ChunkRead::element;
  return ChunkRead::vector;
}

/// chunkRead of every block argument of the region (index 0, the
/// accumulator, unused), decided once per kernel.
static SmallVector<ChunkRead> chunkReads(const KernelContext &ctx) {
  unsigned args = MatmulOp(ctx.op).getEpilogue().front().getNumArguments();
  SmallVector<ChunkRead> reads(args, ChunkRead::element);
  for (unsigned arg = 1; arg < args; ++arg)
    reads[arg] = chunkRead(ctx, arg);
  return reads;
}

/// The alignment (bytes) of a chunk of `v` elements of `elem` at a column
/// that is a multiple of v, in a memref that passed
/// emitVectorCopiesOk(.., chunkMultiple(v, elem)).
static int64_t chunkAlign(int64_t v, Type elem) {
  return std::min<int64_t>(16, v * (elem.getIntOrFloatBitWidth() / 8));
}
static int64_t chunkMultiple(int64_t v, Type elem) {
  return chunkAlign(v, elem) / (elem.getIntOrFloatBitWidth() / 8);
}

/// True (i1) if every extra the region reads as vectors allows chunk loads
/// at run time (aligned base, rows and offset; unit inner stride).
static Value emitChunkExtrasOk(OpBuilder &b, Location loc,
                               const KernelContext &ctx,
                               ArrayRef<ChunkRead> reads, int64_t v) {
  IndexMath m(b, loc);
  Block &body = MatmulOp(ctx.op).getEpilogue().front();
  Value ok = arith::ConstantIntOp::create(b, loc, 1, 1);
  for (unsigned arg = 2; arg < body.getNumArguments(); ++arg) {
    if (body.getArgument(arg).use_empty() || reads[arg] != ChunkRead::vector)
      continue;
    Value extra = ctx.extras[arg - 2];
    Type elem = cast<MemRefType>(extra.getType()).getElementType();
    ok = m.andI1(ok, emitVectorCopiesOk(b, loc, extra, chunkMultiple(v, elem)));
  }
  return ok;
}

/// The region's operands for the chunk of `v` elements at absolute (row,
/// col ... col + v - 1), indexed by block argument: the ones read as
/// vectors or once are loaded here (null for the rest and unused ones), so
/// that a thread can issue the loads of several chunks before it computes.
static SmallVector<Value> loadChunkOperands(OpBuilder &b, Location loc,
                                            const KernelContext &ctx,
                                            ArrayRef<ChunkRead> reads,
                                            Value row, Value col, int64_t v) {
  Block &body = MatmulOp(ctx.op).getEpilogue().front();
  SmallVector<Value> loaded(body.getNumArguments());
  for (unsigned arg = 1; arg < body.getNumArguments(); ++arg) {
    if (body.getArgument(arg).use_empty())
      continue;
    switch (reads[arg]) {
    case ChunkRead::element:
      break;
    case ChunkRead::once:
      loaded[arg] = loadElementOperand(b, loc, ctx, arg, row, col, {});
      break;
    case ChunkRead::vector: {
      Value src = arg == 1 ? ctx.c : ctx.extras[arg - 2];
      Type elem = cast<MemRefType>(src.getType()).getElementType();
      auto type = VectorType::get({v}, elem);
      auto load = [&](OpBuilder &b) -> Value {
        SmallVector<Value> idx =
            arg == 1 ? ctx.globalIndices(b, loc, row, col)
                     : extraIndices(b, loc, ctx, arg - 2, row, col);
        return vector::LoadOp::create(b, loc, type, src, idx,
                                      /*nontemporal=*/false,
                                      b.getI64IntegerAttr(chunkAlign(v, elem)));
      };
      loaded[arg] = arg == 1 ? loadC(b, loc, ctx, type, load) : load(b);
      break;
    }
    }
  }
  return loaded;
}

/// The epilogue region over the accumulators of `slice` staged in `tile`
/// (rows of stagedPitch), over the chunks of v elements of one 16-byte
/// chunk of C in the slice's rows inside C, consecutive threads consecutive
/// chunks of a row. Each thread takes up to kEpilogueChunksInFlight chunks
/// an iteration (threads apart). Where all of them lie inside C, and C and the
/// extras the region reads as vectors allow 16-byte copies (chunkRead), it
/// first loads every chunk's accumulators, C and extras, each as one vector (a
/// row extra once), then runs the region on every element and only then
/// stores the chunks as 16-byte vectors: stored chunk by chunk, the loads of
/// the next chunk could not be issued before the store of the last (the
/// compiler cannot tell C from a residual apart). (A residual read element
/// by element took 8 loads a chunk; docs/performance.md.) Otherwise (the
/// ragged edge, unaligned operands) the chunks go one by one, element by
/// element.
static void emitAccStagedEpilogue(OpBuilder &b, Location loc,
                                  KernelContext &ctx, StagedSlice slice,
                                  Value tile) {
  Type cElem = ctx.op.getCElementType();
  int64_t v = chunkElems(cElem);
  int64_t pitch = stagedPitch(slice.cols, ctx.accType);
  int64_t threads = ctx.config.getNumWarps() * ctx.target->warpSize;
  int64_t perRow = slice.cols / v;
  // No more chunks an iteration than the slice holds a thread: an
  // iteration past the slice's last chunk takes the element path (a slice
  // of 128 x 32 f16 has 512 chunks, 2 for each of 256 threads).
  const int64_t inFlight = std::clamp<int64_t>(
      ctx.config.getBM() * perRow / threads, 1, kEpilogueChunksInFlight);
  SmallVector<ChunkRead> reads = chunkReads(ctx);
  Value vectorOk =
      IndexMath(b, loc).andI1(emitVectorCopiesOk(b, loc, ctx.c, v),
                              emitChunkExtrasOk(b, loc, ctx, reads, v));
  IntegerAttr align = b.getI64IntegerAttr(16);
  auto accType = VectorType::get({v}, ctx.accType);
  IndexMath m(b, loc);
  Value total = m.mul(tileRowsInside(b, loc, ctx), perRow);
  auto loop = scf::ForOp::create(
      b, loc, m.c(0), m.ceilDiv(total, threads * inFlight), m.c(1));
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(loop.getBody());
  IndexMath mi(b, loc);
  Value first = mi.add(ctx.tid, mi.mul(loop.getInductionVar(),
                                       threads * inFlight));
  auto chunkAt = [&](IndexMath &m, Value idx) {
    return stagedUnitAt(m, ctx, slice, idx, v, pitch);
  };
  SmallVector<StagedUnit> chunks;
  Value fast = vectorOk;
  for (int64_t u = 0; u < inFlight; ++u) {
    chunks.push_back(chunkAt(mi, mi.add(first, u * threads)));
    fast = mi.andI1(fast, arith::CmpIOp::create(b, loc,
                                                arith::CmpIPredicate::sle,
                                                mi.add(chunks.back().col, v),
                                                ctx.n));
  }
  fast = mi.andI1(fast, mi.lt(chunks.back().idx, total));
  auto loadAccs = [&](OpBuilder &b, Value src) {
    IndexMath ml(b, loc);
    return vector::LoadOp::create(b, loc, accType, tile,
                                  ValueRange{ml.idx(src)},
                                  /*nontemporal=*/false, align)
        .getResult();
  };
  auto elementAt = [&](OpBuilder &b, Value vec, int64_t e) -> Value {
    return vector::ExtractOp::create(b, loc, vec, ArrayRef<int64_t>{e});
  };
  scf::IfOp::create(
      b, loc, fast,
      [&](OpBuilder &b, Location loc) {
        // Every chunk's loads first, then the region on each element.
        SmallVector<Value> accs;
        SmallVector<SmallVector<Value>> operands;
        for (const StagedUnit &ch : chunks) {
          accs.push_back(loadAccs(b, ch.src));
          operands.push_back(
              loadChunkOperands(b, loc, ctx, reads, ch.row, ch.col, v));
        }
        SmallVector<Value> results;
        for (auto [ch, chAccs, chOperands] :
             llvm::zip(chunks, accs, operands)) {
          SmallVector<Value> elems;
          for (int64_t e = 0; e < v; ++e) {
            elems.push_back(cloneRegion(
                b, ctx.op, elementAt(b, chAccs, e), [&](unsigned arg) -> Value {
                  switch (reads[arg]) {
                  case ChunkRead::vector:
                    return elementAt(b, chOperands[arg], e);
                  case ChunkRead::once:
                    return chOperands[arg];
                  case ChunkRead::element:
                    break;
                  }
                  IndexMath me(b, loc);
                  Value at = me.add(ch.col, e);
                  return loadElementOperand(
                      b, loc, ctx, arg, ch.row, at,
                      ctx.globalIndices(b, loc, ch.row, at));
                }));
          }
          results.push_back(vector::FromElementsOp::create(
              b, loc, VectorType::get({v}, cElem), elems));
        }
        for (auto [ch, chunk] : llvm::zip(chunks, results))
          vector::StoreOp::create(b, loc, chunk, ctx.c,
                                  ctx.globalIndices(b, loc, ch.row, ch.col),
                                  /*nontemporal=*/false, align);
        scf::YieldOp::create(b, loc);
      },
      [&](OpBuilder &b, Location loc) {
        // One chunk at a time (a loop: the region is cloned once more per
        // element, not per chunk), element by element.
        IndexMath me(b, loc);
        auto each =
            scf::ForOp::create(b, loc, me.c(0), me.c(inFlight), me.c(1));
        {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPointToStart(each.getBody());
          IndexMath mu(b, loc);
          StagedUnit ch = chunkAt(
              mu, mu.add(first, mu.mul(each.getInductionVar(), threads)));
          emitIfTrue(b, loc, mu.lt(ch.idx, total), [&](OpBuilder &b) {
            Value accs = loadAccs(b, ch.src);
            for (int64_t e = 0; e < v; ++e) {
              IndexMath mc(b, loc);
              emitEpilogueElement(b, loc, ctx, ch.row, mc.add(ch.col, e),
                                  elementAt(b, accs, e));
            }
          });
        }
        scf::YieldOp::create(b, loc);
      });
}

/// A view of `bytes` of dynamic shared memory as `elem`s, from the
/// context's staging offset.
static Value stagingView(OpBuilder &b, Location loc, const KernelContext &ctx,
                         int64_t bytes, Type elem) {
  auto wg =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  Value smem = gpu::DynamicSharedMemoryOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                      MemRefLayoutAttrInterface(), wg));
  int64_t elems = bytes / (elem.getIntOrFloatBitWidth() / 8);
  return memref::ViewOp::create(
      b, loc, MemRefType::get({elems}, elem, MemRefLayoutAttrInterface(), wg),
      smem,
      ctx.stagingOffset ? ctx.stagingOffset
                        : arith::ConstantIndexOp::create(b, loc, 0).getResult(),
      ValueRange{});
}

int64_t mlir::gemm::detail::emitEpilogue(OpBuilder &b, KernelContext &ctx,
                                         ComputeStep &step, ValueRange acc) {
  if (ctx.clusterReduce)
    return emitClusterReduction(b, ctx, step, acc);
  Location loc = ctx.op.getLoc();
  int64_t bn = ctx.config.getBN();
  StagingPlan plan = planStaging(ctx, step);
  if (plan.cols) {
    // With a region, the raw accumulators go to shared memory and the region
    // runs in a loop over C's chunks (emitAccStagedEpilogue): applied to each
    // accumulator in registers, the region is unrolled over all of them (128
    // a thread for m64n256), which outran the instruction cache (bias + GELU
    // cost two thirds of the GEMM's time). Without one, C's values go there
    // and leave in 16-byte coalesced stores (emitStagedStore).
    Type elem = plan.acc ? ctx.accType : ctx.op.getCElementType();
    int64_t pitch = stagedPitch(plan.cols, elem);
    Value tile;
    // The slices one after the other, in straight-line code: a slice's
    // registers are free once it is written. (A loop over the slices, with
    // each slice's writes under a test of the slice index so that the copy
    // code is emitted once, made ptxas serialize every wgmma of the kernel,
    // C7514: 18% slower at 8192^3; design-notes.md.)
    for (int64_t col0 = 0; col0 < bn; col0 += plan.cols) {
      StagedSlice slice{col0, plan.cols};
      // Every thread is done with what the staging area held before: the
      // operand tiles, or the previous slice.
      ctx.emitComputeBarrier(b, loc);
      if (!tile)
        tile = stagingView(b, loc, ctx, plan.bytes, elem);
      // Each thread's elements of the slice, at their place in it.
      auto stage = [&](OpBuilder &b, Value row, Value col, Value value) {
        IndexMath m(b, loc);
        Value at = m.add(m.mul(row, pitch), m.sub(col, m.c(col0)));
        memref::StoreOp::create(b, loc, value, tile, ValueRange{m.idx(at)});
      };
      auto each = [&](Value row, Value col, Value value) {
        if (plan.acc)
          return stage(b, row, col, value);
        IndexMath m(b, loc);
        emitEpilogueElement(
            b, loc, ctx, m.add(ctx.tileM0, row), m.add(ctx.tileN0, col), value,
            [&](OpBuilder &b, Value result) { stage(b, row, col, result); });
      };
      if (plan.cols == bn)
        step.forEachElement(b, loc, acc, each);
      else
        step.forEachElementInColumns(b, loc, acc, col0, col0 + plan.cols, each);
      ctx.emitComputeBarrier(b, loc);
      if (plan.acc)
        emitAccStagedEpilogue(b, loc, ctx, slice, tile);
      else
        emitStagedStore(b, loc, ctx, slice, tile);
    }
    return plan.bytes;
  }
  step.forEachElement(b, loc, acc, [&](Value row, Value col, Value value) {
    IndexMath m(b, loc);
    Value absRow = m.add(ctx.tileM0, row);
    Value absCol = m.add(ctx.tileN0, col);
    if (!ctx.writesPartialSums()) {
      emitEpilogueElement(b, loc, ctx, absRow, absCol, value);
      return;
    }
    // Split-K: the slice's partial sum, unconverted; the reduction kernel
    // (SplitK.cpp) adds the slices and runs the epilogue once.
    Value inside = m.andI1(m.lt(absRow, ctx.m), m.lt(absCol, ctx.n));
    scf::IfOp::create(b, loc, inside, [&](OpBuilder &b, Location loc) {
      IndexMath mi(b, loc);
      Value batch = mi.idx(ctx.batch ? ctx.batch : mi.c(0));
      memref::StoreOp::create(
          b, loc, value, ctx.workspace,
          ValueRange{batch, mi.idx(ctx.slice), mi.idx(absRow), mi.idx(absCol)});
      scf::YieldOp::create(b, loc);
    });
  });
  return 0;
}
