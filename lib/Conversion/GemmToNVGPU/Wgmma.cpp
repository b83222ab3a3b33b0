//===- Wgmma.cpp - Hopper wgmma.mma_async compute step --------------------===//
//
// One shared-memory stage multiplied into a warpgroup's accumulators with
// nvvm.wgmma.mma_async (sm_90a). Each warpgroup (4 warps, 128 threads) owns a
// 64 x N or 128 x N tile of the block tile and issues one m64nNk* instruction
// per 64 rows and k-step, each into an accumulator of its own;
// the operands are read by the tensor cores straight from shared memory
// through 64-bit matrix descriptors, so there are no fragment loads.
//
// Shared layout (gemm/Utils/FragmentLayout.h, unit-tested against the
// hardware's canonical layouts): the 128-byte swizzle. K-major tiles have
// rows of exactly 128 bytes (BK = 64 f16/bf16, 32 tf32, 128 i8) and are the
// swizzled tiles the cp.async copies already write; MN-major tiles (f16/bf16
// only) are stored as panels of 128-byte rows (SmemTile::panelCols). Every
// stage is 1024-byte aligned, as the swizzle is a function of the address.
//
// Per stage: wgmma.fence, the k-steps' wgmma.mma_async, one commit group and
// a wait until at most one group (this one) is pending: with 3 or more
// stages the tensor cores work on stage kt while the warps publish and issue
// stage kt+1, and the main loop fetches one tile less far ahead so that the
// buffer it overwrites is one the barrier has retired (stagesInFlight). The
// accumulators are read after a final wait for all groups (drain).
// The main loop fences the cp.async data into the async proxy
// (fence.proxy.async.shared::cta) before the barrier that publishes a stage.
//
// f8 promotion (wgmmaPromotesPartialSums: f8 with N <= 192): the tensor
// cores' f8 accumulator keeps fewer bits than f32 (the error grows with K),
// so the MMAs of a group of k-tiles (wgmmaPromotionKTiles: 256 K where the
// registers allow, else one k-tile) write a fresh partial sum (the first
// with scale-d = 0), which the f32 sum in registers adds once the group's
// last wgmma group has completed (CUTLASS's GmmaFP8Accumulation does the
// same every four k32 MMAs). Inside a group one wgmma group stays in
// flight, as without promotion; the main loop unrolls the group's k-tiles
// (kTilesPerGroup), so that which k-tile starts or ends a partial sum is
// static. The add waits for every wgmma group: ptxas serializes every wgmma
// of a kernel that reads accumulator registers while any group is in
// flight, so two partial sums taking turns (one in flight while the other
// is added) cost more than they would hide.
//
//===----------------------------------------------------------------------===//

#include "NVGPUKernel.h"
#include "gemm/Target/Legality.h"
#include "gemm/Target/TileConfig.h"
#include "gemm/Utils/FragmentLayout.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::detail;

/// The wgmma type of an operand or accumulator kind checkWgmmaConfig admits.
static NVVM::WGMMATypes wgmmaType(ElemKind kind) {
  switch (kind) {
  case ElemKind::f16:
    return NVVM::WGMMATypes::f16;
  case ElemKind::bf16:
    return NVVM::WGMMATypes::bf16;
  case ElemKind::tf32:
    return NVVM::WGMMATypes::tf32;
  case ElemKind::i8:
    return NVVM::WGMMATypes::s8;
  case ElemKind::f8E4M3FN:
    return NVVM::WGMMATypes::e4m3;
  case ElemKind::f8E5M2:
    return NVVM::WGMMATypes::e5m2;
  case ElemKind::f32:
    return NVVM::WGMMATypes::f32;
  case ElemKind::i32:
    return NVVM::WGMMATypes::s32;
  default:
    llvm_unreachable("type rejected by checkWgmmaConfig");
  }
}

namespace {
class WgmmaStep : public ComputeStep {
public:
  explicit WgmmaStep(KernelContext &ctx) : ctx(ctx) {
    ArrayRef<int64_t> instr = ctx.config.getInstr();
    n = instr[1];
    ik = instr[2];
    ksteps = ctx.config.getBK() / ik;
    mTiles = ctx.config.getWarpTileM() / 64;
    // An M-major A panel must be exactly the warpgroup's 64 rows (true for
    // the 16-bit types, the only ones read MN-major).
    assert(!ctx.tileA.panelCols ||
           ctx.config.getWarpTileM() % ctx.tileA.panelCols == 0);
    Type elem = ctx.accType;
    accStruct = LLVM::LLVMStructType::getLiteral(
        ctx.op.getContext(), SmallVector<Type>(n / 2, elem));
    promote = wgmmaPromotesPartialSums(ctx.operandKind, n);
    // Persistent blocks (opt-in schedules, not checked on a GPU with
    // groups) keep a partial sum per k-tile.
    promoteGroup = promotionKTiles(toTileConfig(ctx.config), ctx.operandKind);
  }

  /// The zero accumulators, and each operand's descriptor for stage 0, k-step 0
  /// of this warpgroup: the main loop calls this once before the loop, which
  /// hoists the descriptors' address math (loadFragments needs them).
  SmallVector<Value> initAccumulators(OpBuilder &b, Location loc) override {
    descA.clear();
    for (int64_t mi = 0; mi < mTiles; ++mi) {
      IndexMath m(b, loc);
      descA.push_back(
          baseDescriptor(b, loc, ctx.tileA, m.add(ctx.warpM0, mi * 64)));
    }
    descB = baseDescriptor(b, loc, ctx.tileB, ctx.warpN0);
    return SmallVector<Value>(mTiles, LLVM::ZeroOp::create(b, loc, accStruct));
  }

  int64_t numKSteps() override { return ksteps; }

  /// The descriptors for k-step `ks` of `stage`: A's of each 64 rows, then
  /// B's.
  SmallVector<Value> loadFragments(OpBuilder &b, Location loc, Value stage,
                                   int64_t ks) override {
    assert(!descA.empty() && descB &&
           "initAccumulators computes the descriptors");
    SmallVector<Value> frags;
    for (Value d : descA)
      frags.push_back(advance(b, loc, d, ctx.tileA, stage, ks));
    frags.push_back(advance(b, loc, descB, ctx.tileB, stage, ks));
    return frags;
  }

  SmallVector<Value> multiply(OpBuilder &b, Location loc, ValueRange frags,
                              ValueRange acc) override {
    SmallVector<Value> out;
    for (int64_t mi = 0; mi < mTiles; ++mi)
      out.push_back(emitMma(b, loc, frags[mi], frags.back(), acc[mi],
                            NVVM::WGMMAScaleOut::one));
    return out;
  }

  /// One wgmma.mma_async: `acc` + A * B, or A * B alone when `scaleOut` is
  /// zero (`acc` is then not read).
  Value emitMma(OpBuilder &b, Location loc, Value a, Value bDesc, Value acc,
                NVVM::WGMMAScaleOut scaleOut) {
    MLIRContext *mctx = b.getContext();
    auto layout = [&](const SmemTile &t) {
      // A: row = K-major, col = M-major; B: col = K-major, row = N-major.
      bool kMajorIsRow = t.role == MmaOperand::A;
      return t.kContiguous == kMajorIsRow ? NVVM::MMALayout::row
                                          : NVVM::MMALayout::col;
    };
    // A and B may differ only between the two f8 types.
    NVVM::WGMMATypes inA = wgmmaType(ctx.operandKind);
    NVVM::WGMMATypes inB =
        isFloat8(ctx.operandKind)
            ? wgmmaType(*getElemKind(ctx.op.getBElementType()))
            : inA;
    NVVM::WGMMATypes out = wgmmaType(*getElemKind(ctx.accType));
    return NVVM::WgmmaMmaAsyncOp::create(
        b, loc, accStruct, acc, a, bDesc,
        NVVM::MMAShapeAttr::get(mctx, 64, n, ik), inA, inB, out, scaleOut,
        NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one, layout(ctx.tileA),
        layout(ctx.tileB), NVVM::MMAIntOverflowAttr());
  }

  SmallVector<Value> computeStage(OpBuilder &b, Location loc, Value stage,
                                  ValueRange accIn) override {
    return computeGroupStage(b, loc, stage, accIn, 0);
  }

  int64_t kTilesPerGroup() const override { return promoteGroup; }

  /// Promoting, k-tile `part` of a group of promoteGroup MMAs into the
  /// group's partial sum (the first with scale-d = 0: its input, undefined,
  /// is not read), which the group's last k-tile adds to `accIn` once the
  /// tensor cores are done with it. The partial sum passes from one part
  /// to the next in `partial` (the parts are emitted in order in one loop
  /// body); only the f32 sums are loop-carried.
  SmallVector<Value> computeGroupStage(OpBuilder &b, Location loc, Value stage,
                                       ValueRange accIn,
                                       int64_t part) override {
    NVVM::WgmmaFenceAlignedOp::create(b, loc);
    SmallVector<Value> acc(accIn);
    if (promote) {
      if (part == 0)
        partial.assign(mTiles, LLVM::UndefOp::create(b, loc, accStruct));
      acc = partial;
    }
    for (int64_t ks = 0; ks < ksteps; ++ks) {
      SmallVector<Value> frags = loadFragments(b, loc, stage, ks);
      for (int64_t mi = 0; mi < mTiles; ++mi)
        acc[mi] =
            emitMma(b, loc, frags[mi], frags.back(), acc[mi],
                    promote && part == 0 && ks == 0 ? NVVM::WGMMAScaleOut::zero
                                                    : NVVM::WGMMAScaleOut::one);
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
    bool last = part + 1 == promoteGroup;
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc,
                                       promote && last ? 0 : stagesInFlight());
    if (!promote)
      return acc;
    if (!last) {
      partial = acc;
      return SmallVector<Value>(accIn);
    }
    for (int64_t mi = 0; mi < mTiles; ++mi)
      acc[mi] = addAccumulators(b, loc, accIn[mi], acc[mi]);
    return acc;
  }

  bool readsThroughAsyncProxy() const override { return true; }

  /// One stage's group stays in flight while the next stage is published
  /// and issued, when there are enough stages to fetch ahead at all; none
  /// when promoting, as the partial sum is read at the end of its stage.
  int64_t stagesInFlight() const override {
    if (promote)
      return promoteGroup > 1 ? 1 : 0;
    return TileConfig::wgmmaStagesInFlight(ctx.config.getStages());
  }

  void drain(OpBuilder &b, Location loc) override {
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  }

  void forEachElement(OpBuilder &b, Location loc, ValueRange acc,
                      function_ref<void(Value, Value, Value)> fn) override {
    forEachElementInColumns(b, loc, acc, 0, n, fn);
  }

  /// A warpgroup's tile spanning the block tile's columns holds the columns
  /// [8j, 8j + 8) in its accumulators 4j .. 4j + 3 (every lane), so any run
  /// of 8-column blocks is a run of accumulators.
  int64_t columnSliceGranule() const override {
    return n == ctx.config.getBN() ? 8 : 0;
  }

  void
  forEachElementInColumns(OpBuilder &b, Location loc, ValueRange acc,
                          int64_t begin, int64_t end,
                          function_ref<void(Value, Value, Value)> fn) override {
    walkElements(b, loc, begin, end, [&](int64_t mi, int64_t i, Value row,
                                         Value col) {
      fn(row, col,
         LLVM::ExtractValueOp::create(b, loc, acc[mi], ArrayRef<int64_t>{i}));
    });
  }

  SmallVector<Value>
  mapElements(OpBuilder &b, Location loc, ValueRange accIn,
              function_ref<Value(Value, Value, Value)> fn) override {
    SmallVector<Value> acc(accIn);
    walkElements(b, loc, 0, n, [&](int64_t mi, int64_t i, Value row,
                                   Value col) {
      Value v =
          LLVM::ExtractValueOp::create(b, loc, acc[mi], ArrayRef<int64_t>{i});
      acc[mi] = LLVM::InsertValueOp::create(b, loc, acc[mi], fn(row, col, v),
                                            ArrayRef<int64_t>{i});
    });
    return acc;
  }

private:
  /// Calls `fn(mi, i, row, col)` for element i of accumulator struct mi in
  /// the columns [begin, end) of the warpgroup's tile (whole 8-column
  /// blocks), row and col relative to the block tile.
  void walkElements(
      OpBuilder &b, Location loc, int64_t begin, int64_t end,
      function_ref<void(int64_t mi, int64_t i, Value row, Value col)> fn) {
    assert(begin % 8 == 0 && end % 8 == 0 && end <= n &&
           "slices of whole 8-column blocks of the warpgroup's tile");
    IndexMath m(b, loc);
    // The accumulator map is affine in (warp, lane / 4, lane % 4); its
    // coefficients are read off wgmmaAccumulatorCoord.
    Coord origin = wgmmaAccumulatorCoord(0, 0);
    Coord perWarp = wgmmaAccumulatorCoord(32, 0) - origin;
    Coord perGroup = wgmmaAccumulatorCoord(4, 0) - origin;
    Coord perThread = wgmmaAccumulatorCoord(1, 0) - origin;
    Value t = m.rem(ctx.tid, 128);
    Value w = m.div(t, 32), g = m.div(ctx.lane, 4), c = m.rem(ctx.lane, 4);
    auto axis = [&](Value base, int64_t pw, int64_t pg, int64_t pt) {
      return m.add(base, m.add(m.mul(w, pw), m.add(m.mul(g, pg), m.mul(c, pt))));
    };
    Value row0 = axis(ctx.warpM0, perWarp.row, perGroup.row, perThread.row);
    Value col0 = axis(ctx.warpN0, perWarp.col, perGroup.col, perThread.col);
    for (int64_t mi = 0; mi < mTiles; ++mi) {
      for (int64_t i = begin / 2; i < end / 2; ++i) {
        Coord e = wgmmaAccumulatorCoord(0, i);
        assert(e.col >= begin && e.col < end);
        fn(mi, i, m.add(row0, e.row + mi * 64), m.add(col0, e.col));
      }
    }
  }

  /// Element-wise `x + y` of two accumulator structs (f32: promotion is
  /// for f8 only).
  Value addAccumulators(OpBuilder &b, Location loc, Value x, Value y) {
    Value sum = x;
    for (int64_t i = 0; i < n / 2; ++i) {
      auto at = [&](Value v) {
        return LLVM::ExtractValueOp::create(b, loc, v, ArrayRef<int64_t>{i});
      };
      Value s = arith::AddFOp::create(b, loc, at(x), at(y));
      sum = LLVM::InsertValueOp::create(b, loc, sum, s, ArrayRef<int64_t>{i});
    }
    return sum;
  }

  /// The descriptor of `tile`'s stage 0 for the warpgroup whose M (A) or N
  /// (B) origin in the block tile is `mn0`.
  Value baseDescriptor(OpBuilder &b, Location loc, const SmemTile &tile,
                       Value mn0) {
    IndexMath m(b, loc);
    int64_t rowBytes = kWgmmaSwizzleBytes;
    // Byte offset of the warpgroup's rows: K-major tiles store one MN row per
    // 128-byte row; MN-major tiles one 128-byte panel per panelCols of MN.
    Value offset = tile.panelCols
                       ? m.mul(m.div(mn0, tile.panelCols), tile.rows * rowBytes)
                       : m.mul(mn0, rowBytes);
    int64_t leading = tile.panelCols ? tile.rows * rowBytes : 16;
    uint64_t bits = wgmmaDescriptorBits(leading, /*strideBytes=*/8 * rowBytes);
    Type i64 = b.getI64Type();
    Value ptr = memref::ExtractAlignedPointerAsIndexOp::create(b, loc,
                                                               tile.buffer);
    Value addr = arith::IndexCastUIOp::create(b, loc, i64, ptr);
    Value off = arith::ExtUIOp::create(b, loc, i64, offset);
    addr = arith::AddIOp::create(b, loc, addr, off);
    auto c64 = [&](int64_t v) {
      return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
    };
    Value start = arith::ShRUIOp::create(
        b, loc, arith::AndIOp::create(b, loc, addr, c64(0x3FFFF)), c64(4));
    return arith::OrIOp::create(b, loc, start, c64(int64_t(bits)));
  }

  /// `base` moved to k-step `ks` of `stage` (the start address is bits
  /// 0-13 in 16-byte units; tiles never wrap the 256 KiB window, so adding
  /// cannot carry into the other fields).
  Value advance(OpBuilder &b, Location loc, Value base, const SmemTile &tile,
                Value stage, int64_t ks) {
    IndexMath m(b, loc);
    int64_t kBytes = tile.kContiguous ? ks * ik * tile.elemBytes
                                      : ks * ik * kWgmmaSwizzleBytes;
    Value bytes = m.add(m.mul(stage, tile.stageElems * tile.elemBytes), kBytes);
    Value units = arith::ExtUIOp::create(b, loc, b.getI64Type(),
                                         m.div(bytes, 16));
    return arith::AddIOp::create(b, loc, base, units);
  }

  KernelContext &ctx;
  /// Instruction N and K, k-steps per stage, and 64-row instructions per
  /// warpgroup tile.
  int64_t n, ik, ksteps, mTiles;
  /// f8 partial sums are promoted into f32 registers every promoteGroup
  /// k-tiles; `partial` is the group's partial sum between its k-tiles.
  bool promote;
  int64_t promoteGroup = 1;
  SmallVector<Value> partial;
  Type accStruct;
  /// The stage-0, k-step-0 descriptors: A's of each 64 rows, B's.
  SmallVector<Value> descA;
  Value descB;
};
} // namespace

std::unique_ptr<ComputeStep>
mlir::gemm::detail::createWgmmaStep(KernelContext &ctx) {
  return std::make_unique<WgmmaStep>(ctx);
}
