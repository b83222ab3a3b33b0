//===- Simt.cpp - FMA-per-thread compute step -----------------------------===//
//
// The SIMT kind: each thread of a warp owns a TM x TN block of the warp tile
// (threads laid out row-major over the warp tile) and accumulates it with
// scalar FMAs (floats, exactly in the accumulator type) or multiply-adds on
// sign-extended integers (i8 -> i32). Used for f32 (exact), f64 and wherever
// tensor cores do not apply.
//
//===----------------------------------------------------------------------===//

#include "NVGPUKernel.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::detail;

namespace {
class SimtStep : public ComputeStep {
public:
  explicit SimtStep(KernelContext &ctx) : ctx(ctx) {
    tm = ctx.config.getInstr()[0];
    tn = ctx.config.getInstr()[1];
    threadsN = ctx.config.getWarpTileN() / tn;
    // i8 x i8 -> i32 runs on DP4A: four k at a time.
    dp4a = ctx.op.getAElementType().isSignlessInteger(8) &&
           ctx.accType.isSignlessInteger(32) && ctx.config.getBK() % 4 == 0;
  }

  SmallVector<Value> initAccumulators(OpBuilder &b, Location loc) override {
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(ctx.accType));
    return SmallVector<Value>(tm * tn, zero);
  }

  int64_t numKSteps() override {
    return dp4a ? ctx.config.getBK() / 4 : ctx.config.getBK();
  }

  /// The thread's TM values of A then TN values of B at k = ks, widened.
  SmallVector<Value> loadFragments(OpBuilder &b, Location loc, Value stage,
                                   int64_t ks) override {
    IndexMath m(b, loc);
    auto [row0, col0] = threadOrigin(m);
    SmallVector<Value> f;
    if (dp4a) {
      for (int64_t i = 0; i < tm; ++i)
        f.push_back(loadK4(m, ctx.tileA, stage, m.add(row0, i), 4 * ks));
      for (int64_t j = 0; j < tn; ++j)
        f.push_back(loadK4(m, ctx.tileB, stage, m.add(col0, j), 4 * ks));
      return f;
    }
    Value k = m.c(ks);
    for (int64_t i = 0; i < tm; ++i)
      f.push_back(load(m, ctx.tileA, stage, m.add(row0, i), k));
    for (int64_t j = 0; j < tn; ++j)
      f.push_back(load(m, ctx.tileB, stage, k, m.add(col0, j)));
    return f;
  }

  SmallVector<Value> multiply(OpBuilder &b, Location loc, ValueRange f,
                              ValueRange accIn) override {
    SmallVector<Value> acc(accIn);
    for (int64_t i = 0; i < tm; ++i)
      for (int64_t j = 0; j < tn; ++j) {
        Value &c = acc[i * tn + j];
        Value a = f[i], bv = f[tm + j];
        if (dp4a)
          c = NVVM::DotAccumulate4WayOp::create(
              b, loc, b.getI32Type(), a, NVVM::DotAccumulateType::SIGNED, bv,
              NVVM::DotAccumulateType::SIGNED, c);
        else if (isa<FloatType>(ctx.accType))
          // llvm.intr.fma rather than math.fma: the latter becomes a
          // libdevice call (__nv_fmaf) on NVVM.
          c = LLVM::FMAOp::create(b, loc, a, bv, c);
        else
          c = arith::AddIOp::create(b, loc, c,
                                    arith::MulIOp::create(b, loc, a, bv));
      }
    return acc;
  }

  void forEachElement(OpBuilder &b, Location loc, ValueRange acc,
                      function_ref<void(Value, Value, Value)> fn) override {
    IndexMath m(b, loc);
    auto [row0, col0] = threadOrigin(m);
    for (int64_t i = 0; i < tm; ++i)
      for (int64_t j = 0; j < tn; ++j)
        fn(m.add(row0, i), m.add(col0, j), acc[i * tn + j]);
  }

private:
  /// Block-tile (row, col) of this thread's TM x TN block: threads are laid
  /// out row-major over the warp tile.
  std::pair<Value, Value> threadOrigin(IndexMath &m) {
    return {m.add(ctx.warpM0, m.mul(m.div(ctx.lane, threadsN), tm)),
            m.add(ctx.warpN0, m.mul(m.rem(ctx.lane, threadsN), tn))};
  }

  /// The four i8 values at k0 .. k0+3 for row m of A or column n of B, as a
  /// vector<4xi8>: one 4-byte shared load when K is the contiguous storage
  /// dimension (4 consecutive k never straddle a 16-byte chunk), else four
  /// element loads.
  Value loadK4(IndexMath &m, const SmemTile &tile, Value stage, Value mn,
               int64_t k0) {
    auto type = VectorType::get({4}, m.b.getI8Type());
    if (tile.kContiguous) {
      Value off = tile.offset(m, stage, mn, m.c(k0));
      return vector::LoadOp::create(m.b, m.loc, type, tile.buffer,
                                    ValueRange{m.idx(off)});
    }
    SmallVector<Value> elems;
    for (int64_t d = 0; d < 4; ++d) {
      Value off = tile.offset(m, stage, m.c(k0 + d), mn);
      elems.push_back(memref::LoadOp::create(m.b, m.loc, tile.buffer,
                                             ValueRange{m.idx(off)}));
    }
    return vector::FromElementsOp::create(m.b, m.loc, type, elems);
  }

  /// Loads operand-space element (row, col) of `tile` (A: (m, k), B: (k, n))
  /// and widens it to the accumulator type.
  Value load(IndexMath &m, const SmemTile &tile, Value stage, Value row,
             Value col) {
    auto [sr, sc] = tile.toStorage(row, col);
    Value off = tile.offset(m, stage, sr, sc);
    Value v =
        memref::LoadOp::create(m.b, m.loc, tile.buffer, ValueRange{m.idx(off)});
    Type from = v.getType();
    if (from == ctx.accType)
      return v;
    if (isa<FloatType>(ctx.accType))
      return arith::ExtFOp::create(m.b, m.loc, ctx.accType, v);
    return arith::ExtSIOp::create(m.b, m.loc, ctx.accType, v);
  }

  KernelContext &ctx;
  int64_t tm, tn, threadsN;
  bool dp4a = false;
};
} // namespace

std::unique_ptr<ComputeStep>
mlir::gemm::detail::createSimtStep(KernelContext &ctx) {
  return std::make_unique<SimtStep>(ctx);
}
