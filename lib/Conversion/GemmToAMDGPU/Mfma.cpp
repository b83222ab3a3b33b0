//===- Mfma.cpp - amdgpu.mfma compute step --------------------------------===//
//
// One LDS stage multiplied into the wave's accumulators with amdgpu.mfma. A
// wave tile is tilesM x tilesN instruction tiles of m x (n * blocks); each
// k-step loads every A and B fragment of the wave from LDS (one vector load
// per fragment when K is the tile's contiguous dimension, one load per slot
// otherwise) and issues tilesM * tilesN MFMAs. The lane maps are read off
// mfmaLaneAffine (gemm/Utils/MfmaLayout.h), whose unit tests check them
// against AMD's tables.
//
//===----------------------------------------------------------------------===//

#include "AMDGPUKernel.h"
#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::detail;

namespace {
class MfmaStep : public WarpTiledStep {
public:
  explicit MfmaStep(KernelContext &ctx)
      : WarpTiledStep(ctx),
        shape(*findMfmaShape(*ctx.target, ctx.operandKind,
                             *getElemKind(ctx.accType), ctx.config.getInstr()[0],
                             ctx.config.getInstr()[1],
                             ctx.config.getInstr()[2])) {
    ConfigAttr cfg = ctx.config;
    tilesM = cfg.getWarpTileM() / shape.m;
    tilesN = cfg.getWarpTileN() / (shape.n * shape.blocks);
    instrTileM = shape.m;
    instrTileN = shape.n * shape.blocks;
    ksteps = cfg.getBK() / shape.k;
    auto type = [&](MmaOperand which, Type t) -> Type {
      unsigned slots = mfmaSlotsPerLane(shape, which);
      return slots == 1 ? t : VectorType::get({slots}, t);
    };
    // A's and B's own types: they may differ (f8E4M3FN x f8E5M2).
    aType = type(MmaOperand::A, ctx.op.getAElementType());
    bType = type(MmaOperand::B, ctx.op.getBElementType());
    cType = type(MmaOperand::C, ctx.accType);
    accTileType = cType;
  }

  int64_t numKSteps() override { return ksteps; }

  /// A fragments (tilesM of them) then B fragments (tilesN).
  SmallVector<Value> loadFragments(OpBuilder &b, Location loc, Value stage,
                                   int64_t ks) override {
    IndexMath m(b, loc);
    SmallVector<Value> f;
    for (int64_t i = 0; i < tilesM; ++i)
      f.push_back(loadFragment(m, MmaOperand::A, stage, ks, i));
    for (int64_t j = 0; j < tilesN; ++j)
      f.push_back(loadFragment(m, MmaOperand::B, stage, ks, j));
    return f;
  }

protected:
  Value emitInstruction(OpBuilder &b, Location loc, Value a, Value bv,
                        Value acc) override {
    return amdgpu::MFMAOp::create(b, loc, cType, shape.m, shape.n, shape.k,
                                  shape.blocks, a, bv, acc);
  }

  unsigned accSlots() const override {
    return mfmaSlotsPerLane(shape, MmaOperand::C);
  }

  std::pair<Value, Value> accSlotCoord(IndexMath &m, unsigned slot) override {
    return laneCoord(m, MmaOperand::C, slot);
  }

  Value accSlotValue(OpBuilder &b, Location loc, Value acc,
                     unsigned slot) override {
    if (accSlots() == 1)
      return acc;
    return vector::ExtractOp::create(b, loc, acc, ArrayRef<int64_t>{slot});
  }

private:
  /// Operand-space coordinate of slot `slot` of this lane in one instruction
  /// tile (mfmaLaneAffine), as (row, col) values.
  std::pair<Value, Value> laneCoord(IndexMath &m, MmaOperand which,
                                    unsigned slot) {
    MfmaLaneAffine a = mfmaLaneAffine(shape, which, slot);
    auto eval = [&](int64_t base, ArrayRef<LaneTerm> terms) {
      Value v = m.c(base);
      for (const LaneTerm &t : terms)
        v = m.add(v, m.mul(m.rem(m.div(ctx.lane, t.div), t.mod), t.scale));
      return v;
    };
    return {eval(a.base.row, a.rowTerms), eval(a.base.col, a.colTerms)};
  }

  /// The fragment of instruction tile `t` (along M for A, N for B) of k-step
  /// `ks` from LDS stage `stage`.
  Value loadFragment(IndexMath &m, MmaOperand which, Value stage, int64_t ks,
                     int64_t t) {
    OpBuilder &b = m.b;
    Location loc = m.loc;
    const SmemTile &tile = which == MmaOperand::A ? ctx.tileA : ctx.tileB;
    Type type = which == MmaOperand::A ? aType : bType;
    unsigned slots = mfmaSlotsPerLane(shape, which);
    Type elem = getElementTypeOrSelf(type);
    // Operand-space origin of this instruction tile inside the block tile.
    auto origin = [&](Value row, Value col) -> std::pair<Value, Value> {
      if (which == MmaOperand::A)
        return {m.add(m.add(ctx.warpM0, t * shape.m), row),
                m.add(col, ks * shape.k)};
      return {m.add(row, ks * shape.k),
              m.add(m.add(ctx.warpN0, t * shape.n * shape.blocks), col)};
    };
    auto offsetOf = [&](unsigned slot) {
      auto [r, c] = laneCoord(m, which, slot);
      auto [row, col] = origin(r, c);
      auto [sr, sc] = tile.toStorage(row, col);
      return tile.offset(m, stage, sr, sc);
    };
    if (slots == 1)
      return memref::LoadOp::create(b, loc, tile.buffer,
                                    ValueRange{m.idx(offsetOf(0))});
    if (tile.kContiguous) {
      // The slots are consecutive along K, the tile's contiguous dimension:
      // vector loads as wide as the row pitch keeps them aligned.
      unsigned width = ldsAccessWidth(tile.ldsShape(), tile.ldsLayout(),
                                      slots * tile.elemBytes);
      unsigned per = width / tile.elemBytes;
      if (per == slots)
        return vector::LoadOp::create(b, loc, cast<VectorType>(type),
                                      tile.buffer,
                                      ValueRange{m.idx(offsetOf(0))},
                                      /*nontemporal=*/false, llvm::MaybeAlign(width));
      // Narrower aligned loads, concatenated (shuffles lower straight to
      // LLVM).
      auto pieceType = VectorType::get({per}, elem);
      Value frag;
      for (unsigned s = 0; s < slots; s += per) {
        Value piece = vector::LoadOp::create(
            b, loc, pieceType, tile.buffer, ValueRange{m.idx(offsetOf(s))},
            /*nontemporal=*/false, llvm::MaybeAlign(width));
        if (!frag) {
          frag = piece;
          continue;
        }
        SmallVector<int64_t> mask;
        for (int64_t i = 0; i < int64_t(s + per); ++i)
          mask.push_back(i);
        frag = vector::ShuffleOp::create(b, loc, frag, piece, mask);
      }
      return frag;
    }
    SmallVector<Value> elems;
    for (unsigned s = 0; s < slots; ++s)
      elems.push_back(memref::LoadOp::create(b, loc, tile.buffer,
                                             ValueRange{m.idx(offsetOf(s))}));
    return vector::FromElementsOp::create(b, loc, cast<VectorType>(type),
                                          elems);
  }

  MmaShape shape;
  int64_t ksteps;
  Type aType, bType, cType;
};
} // namespace

std::unique_ptr<ComputeStep>
mlir::gemm::detail::createMfmaStep(KernelContext &ctx) {
  return std::make_unique<MfmaStep>(ctx);
}
