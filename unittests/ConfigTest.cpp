//===- ConfigTest.cpp - tests of #gemm.config and its estimates -----------===//

#include "gemm/Dialect/Gemm/IR/GemmAttrs.h"
#include "gemm/Dialect/Gemm/IR/GemmDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::gemm;

namespace {
struct ConfigTest : ::testing::Test {
  ConfigTest() { ctx.loadDialect<GemmDialect>(); }
  ConfigAttr make(Kind kind, ArrayRef<int64_t> block, ArrayRef<int64_t> warps,
                  ArrayRef<int64_t> instr, int64_t stages,
                  SmemLayout smem = SmemLayout::swizzle) {
    // Diagnostics of rejected configs are expected here; keep them quiet.
    ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
    return ConfigAttr::getChecked(
        mlir::detail::getDefaultDiagnosticEmitFn(&ctx), &ctx, kind, block,
        warps, instr, stages, smem, Raster::row, int64_t(1), int64_t(1),
        Reduction::workspace, Load::cp_async, Schedule::tile, int64_t(1));
  }
  MLIRContext ctx;
};
} // namespace

TEST_F(ConfigTest, SharedMemoryEstimate) {
  ConfigAttr c = make(Kind::mma_sync, {128, 128, 32}, {2, 2}, {16, 8, 16}, 4);
  ASSERT_TRUE(c);
  EXPECT_EQ(c.getWarpTileM(), 64);
  EXPECT_EQ(c.getNumWarps(), 4);
  // 4 stages x (128 + 128) rows x 32 halfs x 2 bytes.
  EXPECT_EQ(estimateSharedMemory(toTileConfig(c), 2), 4 * 256 * 32 * 2);
  ConfigAttr p =
      make(Kind::mma_sync, {128, 128, 32}, {2, 2}, {16, 8, 16}, 4,
           SmemLayout::pad);
  // Padding adds 8 halfs (16 bytes) per row.
  EXPECT_EQ(estimateSharedMemory(toTileConfig(p), 2), 4 * 256 * 40 * 2);
}

TEST_F(ConfigTest, RegisterEstimate) {
  ConfigAttr c = make(Kind::mma_sync, {128, 128, 32}, {2, 2}, {16, 8, 16}, 3);
  // 64x64 f32 accumulators over 32 lanes = 128 registers, fragments
  // 2 x (64 + 64) x 16 halfs / 2 / 32 = 64, plus 40.
  EXPECT_EQ(estimateRegisters(toTileConfig(c), 2, 4, 32), 128 + 64 + 40);
}

TEST_F(ConfigTest, StructuralVerifierRejects) {
  EXPECT_FALSE(make(Kind::mma_sync, {128, 128}, {2, 2}, {16, 8, 16}, 3));
  EXPECT_FALSE(make(Kind::mma_sync, {128, 96, 32}, {2, 5}, {16, 8, 16}, 3));
  EXPECT_FALSE(make(Kind::mma_sync, {128, 128, 32}, {2, 2}, {16, 8, 16}, 9));
  EXPECT_FALSE(make(Kind::simt, {64, 64, 8}, {2, 2}, {4, 4, 2}, 2));
  EXPECT_FALSE(make(Kind::wgmma, {128, 128, 64}, {2, 2}, {16, 8, 16}, 3));
  EXPECT_TRUE(make(Kind::wgmma, {128, 128, 64}, {2, 2}, {64, 64, 16}, 3));
}
