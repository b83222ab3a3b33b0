//===- MmaSync.cpp - nvgpu.mma.sync compute step --------------------------===//
//
// One shared-memory stage multiplied into the warp's accumulators with
// nvgpu.mma.sync. Fragments come from nvgpu.ldmatrix (x4 for A, x4 covering
// two n-tiles for B, x2 for an odd last n-tile; transposed when the shared
// tile stores M or N innermost) where the element type allows it, and from
// element loads otherwise (f64; tf32 and i8 with M/N innermost). All lane
// maps are read off gemm/Utils/FragmentLayout.h, whose unit tests check them
// against the PTX ISA tables.
//
// Within a stage the k-steps are unrolled, and all fragments of k-step s+1
// are loaded before the MMAs of step s consume theirs, so ptxas can overlap
// shared-memory loads with tensor-core work (register double-buffering).
//
//===----------------------------------------------------------------------===//

#include "NVGPUKernel.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::detail;

namespace {
class MmaSyncStep : public WarpTiledStep {
public:
  explicit MmaSyncStep(KernelContext &ctx) : WarpTiledStep(ctx) {
    ConfigAttr cfg = ctx.config;
    kind = ctx.operandKind;
    im = cfg.getInstr()[0];
    in = cfg.getInstr()[1];
    ik = cfg.getInstr()[2];
    tilesM = cfg.getWarpTileM() / im;
    tilesN = cfg.getWarpTileN() / in;
    instrTileM = im;
    instrTileN = in;
    ksteps = cfg.getBK() / ik;
    Type elem = ctx.op.getAElementType();
    auto vec = [&](MmaOperand which, Type t) {
      FragmentShape s = *mmaSyncFragmentShape(kind, which);
      return VectorType::get({s.regs, s.elemsPerReg}, t);
    };
    aType = vec(MmaOperand::A, elem);
    bType = vec(MmaOperand::B, elem);
    cType = vec(MmaOperand::C, ctx.accType);
    accTileType = cType;
  }

  int64_t numKSteps() override { return ksteps; }

  /// A fragments (tilesM of them) then B fragments (tilesN).
  SmallVector<Value> loadFragments(OpBuilder &b, Location loc, Value stage,
                                   int64_t ks) override {
    IndexMath m(b, loc);
    SmallVector<Value> f;
    for (int64_t mi = 0; mi < tilesM; ++mi)
      f.push_back(roundTf32(b, loc, loadA(m, stage, ks, mi)));
    for (int64_t ni = 0; ni < tilesN;) {
      bool pair = ni + 1 < tilesN &&
                  canUseLdmatrix(kind, MmaOperand::B, ctx.tileB.kContiguous);
      SmallVector<Value> frags = loadB(m, stage, ks, ni, pair ? 2 : 1);
      for (Value frag : frags)
        f.push_back(roundTf32(b, loc, frag));
      ni += frags.size();
    }
    return f;
  }

protected:
  Value emitInstruction(OpBuilder &b, Location loc, Value a, Value bv,
                        Value acc) override {
    return emitMma(b, loc, a, bv, acc);
  }

  unsigned accSlots() const override {
    FragmentShape s = *mmaSyncFragmentShape(kind, MmaOperand::C);
    return s.regs * s.elemsPerReg;
  }

  std::pair<Value, Value> accSlotCoord(IndexMath &m, unsigned slot) override {
    FragmentShape s = *mmaSyncFragmentShape(kind, MmaOperand::C);
    return laneCoord(m, MmaOperand::C, slot / s.elemsPerReg,
                     slot % s.elemsPerReg);
  }

  Value accSlotValue(OpBuilder &b, Location loc, Value acc,
                     unsigned slot) override {
    FragmentShape s = *mmaSyncFragmentShape(kind, MmaOperand::C);
    return vector::ExtractOp::create(
        b, loc, acc,
        ArrayRef<int64_t>{int64_t(slot / s.elemsPerReg),
                          int64_t(slot % s.elemsPerReg)});
  }

private:
  /// tf32 MMAs read only the top 19 bits of each f32: round the fragment to
  /// nearest (cvt.rna.tf32.f32) instead of letting the hardware truncate, as
  /// cuBLAS does; truncation doubles the worst-case product error.
  Value roundTf32(OpBuilder &b, Location loc, Value frag) {
    if (kind != ElemKind::tf32)
      return frag;
    auto type = cast<VectorType>(frag.getType());
    Value out = frag;
    for (int64_t r = 0; r < type.getDimSize(0); ++r)
      for (int64_t e = 0; e < type.getDimSize(1); ++e) {
        Value v =
            vector::ExtractOp::create(b, loc, frag, ArrayRef<int64_t>{r, e});
        Value t = NVVM::ConvertFloatToTF32Op::create(
            b, loc, b.getI32Type(), v, NVVM::FPRoundingMode::RNA);
        Value f = arith::BitcastOp::create(b, loc, b.getF32Type(), t);
        out = vector::InsertOp::create(b, loc, f, out,
                                       ArrayRef<int64_t>{r, e});
      }
    return out;
  }

  Value emitMma(OpBuilder &b, Location loc, Value a, Value bf, Value c) {
    return emitMmaSync(b, loc, kind, {im, in, ik}, a, bf, c);
  }

  /// (row, col) of fragment element (reg, elem) of this lane, operand space.
  std::pair<Value, Value> laneCoord(IndexMath &m, MmaOperand which,
                                    unsigned reg, unsigned elem) {
    AffineLaneMap map = mmaSyncFragmentAffine(kind, which, reg, elem);
    Value g = m.div(ctx.lane, 4), c = m.rem(ctx.lane, 4);
    Value row = m.add(m.add(m.c(map.base.row), m.mul(g, map.perGroup.row)),
                      m.mul(c, map.perThread.row));
    Value col = m.add(m.add(m.c(map.base.col), m.mul(g, map.perGroup.col)),
                      m.mul(c, map.perThread.col));
    return {row, col};
  }

  /// A fragment assembled from element loads (no ldmatrix form).
  Value loadElements(IndexMath &m, const SmemTile &tile, MmaOperand which,
                     Value stage, Value row0, Value col0, VectorType type) {
    // Built with vector.insert of scalars: 2-D vectors lower to arrays of
    // 1-D vectors, which insert (unlike n-D from_elements) handles directly.
    Value frag = arith::ConstantOp::create(m.b, m.loc, m.b.getZeroAttr(type));
    for (int64_t r = 0; r < type.getDimSize(0); ++r)
      for (int64_t e = 0; e < type.getDimSize(1); ++e) {
        auto [row, col] = laneCoord(m, which, r, e);
        auto [sr, sc] = tile.toStorage(m.add(row0, row), m.add(col0, col));
        Value off = tile.offset(m, stage, sr, sc);
        Value v = memref::LoadOp::create(m.b, m.loc, tile.buffer,
                                         ValueRange{m.idx(off)});
        frag = vector::InsertOp::create(m.b, m.loc, v, frag,
                                        ArrayRef<int64_t>{r, e});
      }
    return frag;
  }

  /// ldmatrix of `numTiles` 8-row matrices; matrix j starts at storage
  /// coordinate (rowVar + rowConst, colVar + colConst) + (j % 2) * step1 +
  /// (j / 2) * step2. The Var parts hold the warp origin (a multiple of the
  /// warp tile), the Const parts the instruction tile and k-step.
  Value ldmatrix(IndexMath &m, const SmemTile &tile, Value stage,
                 Value rowVar, int64_t rowConst, Value colVar,
                 int64_t colConst, int64_t colWarpAlign, Coord step1,
                 Coord step2, int64_t numTiles, VectorType type) {
    Value j = m.rem(m.div(ctx.lane, 8), numTiles);
    Value j1 = m.rem(j, 2), j2 = m.div(j, 2);
    Value row = m.add(rowVar, m.add(m.rem(ctx.lane, 8),
                                    m.add(m.mul(j1, step1.row),
                                          m.mul(j2, step2.row))));
    Value col = m.add(colVar, m.add(m.mul(j1, step1.col),
                                    m.mul(j2, step2.col)));
    int64_t perChunk = 16 / tile.elemBytes;
    int64_t laneColMax = (numTiles > 1 ? step1.col : 0) +
                         (numTiles > 2 ? step2.col : 0);
    Value off = tile.offsetSplit(m, stage, row, rowConst, col, colConst,
                                 laneColMax / perChunk + 1,
                                 colWarpAlign / perChunk);
    return nvgpu::LdMatrixOp::create(m.b, m.loc, type, tile.buffer,
                                     ValueRange{m.idx(off)},
                                     /*transpose=*/!tile.kContiguous,
                                     uint32_t(numTiles));
  }

  /// Splits operand-space (warp origin + constant) coordinates of `tile`
  /// into storage (rowVar, rowConst, colVar, colConst, colWarpAlign).
  struct SplitOrigin {
    Value rowVar, colVar;
    int64_t rowConst, colConst, colWarpAlign;
  };
  SplitOrigin splitOrigin(IndexMath &m, const SmemTile &tile, Value warpMN,
                          int64_t warpExtent, int64_t mnConst, int64_t kConst) {
    // K-contiguous storage is (mn, k); otherwise (k, mn).
    if (tile.kContiguous)
      return {warpMN, m.c(0), mnConst, kConst, /*no warp part in col*/ 1 << 30};
    return {m.c(0), warpMN, kConst, mnConst, warpExtent};
  }

  Value loadA(IndexMath &m, Value stage, int64_t ks, int64_t mi) {
    const SmemTile &tile = ctx.tileA;
    if (!canUseLdmatrix(kind, MmaOperand::A, tile.kContiguous))
      return loadElements(m, tile, MmaOperand::A, stage,
                          m.add(ctx.warpM0, mi * im), m.c(ks * ik), aType);
    SplitOrigin o = splitOrigin(m, tile, ctx.warpM0,
                                ctx.config.getWarpTileM(), mi * im, ks * ik);
    Coord o0 = ldmatrixMatrixOrigin(kind, MmaOperand::A, tile.kContiguous, 0);
    Coord o1 = ldmatrixMatrixOrigin(kind, MmaOperand::A, tile.kContiguous, 1);
    Coord o2 = ldmatrixMatrixOrigin(kind, MmaOperand::A, tile.kContiguous, 2);
    return ldmatrix(m, tile, stage, o.rowVar, o.rowConst + o0.row, o.colVar,
                    o.colConst + o0.col, o.colWarpAlign, o1 - o0, o2 - o0, 4,
                    aType);
  }

  /// B fragments of n-tiles ni .. ni+count-1 (count 1 or 2).
  SmallVector<Value> loadB(IndexMath &m, Value stage, int64_t ks, int64_t ni,
                           int64_t count) {
    const SmemTile &tile = ctx.tileB;
    if (!canUseLdmatrix(kind, MmaOperand::B, tile.kContiguous))
      return {loadElements(m, tile, MmaOperand::B, stage, m.c(ks * ik),
                           m.add(ctx.warpN0, ni * in), bType)};
    SplitOrigin o = splitOrigin(m, tile, ctx.warpN0,
                                ctx.config.getWarpTileN(), ni * in, ks * ik);
    Coord o0 = ldmatrixMatrixOrigin(kind, MmaOperand::B, tile.kContiguous, 0);
    Coord o1 = ldmatrixMatrixOrigin(kind, MmaOperand::B, tile.kContiguous, 1);
    // The next n-tile is 8 columns of N further: a storage row step when N
    // is the row dimension ([n][k]), a column step otherwise.
    Coord nextTile = tile.kContiguous ? Coord{in, 0} : Coord{0, in};
    int64_t regs = bType.getDimSize(0);
    auto type = VectorType::get({regs * count, bType.getDimSize(1)},
                                bType.getElementType());
    Value all = ldmatrix(m, tile, stage, o.rowVar, o.rowConst + o0.row,
                         o.colVar, o.colConst + o0.col, o.colWarpAlign,
                         o1 - o0, nextTile, regs * count, type);
    if (count == 1)
      return {all};
    // Split the registers per n-tile with row extracts/inserts, which lower
    // to plain LLVM aggregate operations.
    SmallVector<Value> frags;
    for (int64_t t = 0; t < count; ++t) {
      Value frag = arith::ConstantOp::create(m.b, m.loc, m.b.getZeroAttr(bType));
      for (int64_t r = 0; r < regs; ++r) {
        Value row = vector::ExtractOp::create(m.b, m.loc, all,
                                              ArrayRef<int64_t>{t * regs + r});
        frag = vector::InsertOp::create(m.b, m.loc, row, frag,
                                        ArrayRef<int64_t>{r});
      }
      frags.push_back(frag);
    }
    return frags;
  }

  ElemKind kind;
  int64_t im, in, ik, ksteps;
  VectorType aType, bType, cType;
};
} // namespace

std::unique_ptr<ComputeStep>
mlir::gemm::detail::createMmaSyncStep(KernelContext &ctx) {
  return std::make_unique<MmaSyncStep>(ctx);
}

/// One MMA. nvgpu.mma.sync covers every type but bf16, which its NVVM
/// lowering cannot type; bf16 goes to nvvm.mma.sync directly with the
/// fragments packed into 32-bit registers.
Value mlir::gemm::detail::emitMmaSync(OpBuilder &b, Location loc, ElemKind kind,
                                      ArrayRef<int64_t> shape, Value a,
                                      Value bf, Value c) {
  if (kind != ElemKind::bf16)
    return nvgpu::MmaSyncOp::create(b, loc, a, bf, c, shape,
                                    kind == ElemKind::tf32);
  auto packRows = [&](Value v) {
    SmallVector<Value> regs;
    auto vt = cast<VectorType>(v.getType());
    for (int64_t r = 0; r < vt.getDimSize(0); ++r) {
      Value row = vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{r});
      Value word = vector::BitCastOp::create(
          b, loc, VectorType::get({1}, b.getI32Type()), row);
      regs.push_back(
          vector::ExtractOp::create(b, loc, word, ArrayRef<int64_t>{0}));
    }
    return regs;
  };
  SmallVector<Value> cs;
  for (int64_t r = 0; r < 2; ++r)
    for (int64_t e = 0; e < 2; ++e)
      cs.push_back(
          vector::ExtractOp::create(b, loc, c, ArrayRef<int64_t>{r, e}));
  Type f32 = b.getF32Type();
  auto resType =
      LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});
  Value d = NVVM::MmaOp::create(
      b, loc, resType, packRows(a), packRows(bf), cs, shape, std::nullopt,
      std::nullopt,
      std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16, NVVM::MMATypes::bf16},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  Value out = arith::ConstantOp::create(b, loc, b.getZeroAttr(c.getType()));
  for (int64_t i = 0; i < 4; ++i) {
    Value v = LLVM::ExtractValueOp::create(b, loc, d, ArrayRef<int64_t>{i});
    out = vector::InsertOp::create(b, loc, v, out,
                                   ArrayRef<int64_t>{i / 2, i % 2});
  }
  return out;
}
