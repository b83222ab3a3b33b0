//===- CostModelTest.cpp - tests of the analytical cost model -------------===//

#include "gemm/Tuning/CostModel.h"
#include "gemm/Tuning/Lattice.h"
#include "gtest/gtest.h"
#include <cmath>
#include <limits>

using namespace mlir::gemm;

namespace {
TileConfig mma(int64_t bm, int64_t bn, int64_t bk, int64_t wm, int64_t wn,
               int64_t stages, SmemKind smem = SmemKind::swizzle) {
  TileConfig c;
  c.kind = InstrKind::mma_sync;
  c.bm = bm, c.bn = bn, c.bk = bk, c.wm = wm, c.wn = wn;
  c.im = 16, c.in = 8, c.ik = 16;
  c.stages = stages;
  c.smem = smem;
  c.group = 8;
  return c;
}

GemmProblem f16(int64_t m, int64_t n, int64_t k) {
  GemmProblem p;
  p.m = m, p.n = n, p.k = k;
  return p;
}

const TargetInfo &sm90() { return *lookupTarget("sm_90"); }

Cost cost(const TileConfig &c, const GemmProblem &p) {
  EXPECT_EQ(checkConfig(c, p, sm90()), "") << c.str();
  return *estimateCost(c, p, sm90());
}
} // namespace

TEST(CostModel, GlobalTrafficIsOneOverBMPlusOneOverBN) {
  GemmProblem p = f16(4096, 4096, 4096);
  Cost big = cost(mma(128, 128, 64, 2, 2, 3), p);
  Cost small = cost(mma(64, 64, 64, 2, 2, 3), p);
  // (1/BM + 1/BN) x 2 bytes / 2 FLOP per multiply-add.
  EXPECT_DOUBLE_EQ(big.globalBytesPerFlop, (1.0 / 128 + 1.0 / 128) * 2 / 2);
  EXPECT_DOUBLE_EQ(small.globalBytesPerFlop, 2 * big.globalBytesPerFlop);
}

TEST(CostModel, WaveQuantizationOverTheSMs) {
  // 4096^2 in 128x256 tiles: 512 tiles over 132 SMs x blocks per SM.
  GemmProblem p = f16(4096, 4096, 4096);
  Cost c = cost(mma(128, 256, 32, 2, 4, 3), p);
  EXPECT_EQ(c.tiles, 512);
  int64_t slots = 132 * c.blocksPerSM;
  EXPECT_EQ(c.rounds, (512 / 132 + (512 % 132 ? 1 : 0) + c.blocksPerSM - 1) /
                          c.blocksPerSM);
  EXPECT_DOUBLE_EQ(c.waveEfficiency, 512.0 / (c.rounds * slots));
  EXPECT_LT(c.waveEfficiency, 1.0);
  // Exactly one wave of one block per SM is fully efficient.
  Cost one = cost(mma(128, 128, 64, 2, 2, 3), f16(128 * 132, 128, 4096));
  EXPECT_EQ(one.tiles, 132);
  EXPECT_DOUBLE_EQ(one.waveEfficiency, 1.0 / one.blocksPerSM);
}

TEST(CostModel, MonotoneInWorkAndPenalizesBadChoices) {
  GemmProblem p = f16(4096, 4096, 4096);
  TileConfig base = mma(128, 128, 64, 2, 2, 3);
  EXPECT_LT(cost(base, p).timeUs, cost(base, f16(4096, 4096, 8192)).timeUs);
  EXPECT_LT(cost(base, f16(2048, 2048, 4096)).timeUs, cost(base, p).timeUs);
  // Bank conflicts of plain 128-byte rows; exposed latency without stages.
  EXPECT_LT(cost(base, p).timeUs,
            cost(mma(128, 128, 64, 2, 2, 3, SmemKind::plain), p).timeUs);
  // One 256x128 block per SM (registers): nothing hides a 1-stage pipeline.
  TileConfig big = mma(256, 128, 64, 4, 4, 3);
  EXPECT_EQ(cost(big, p).blocksPerSM, 1);
  EXPECT_LT(cost(big, p).timeUs, cost(mma(256, 128, 64, 4, 4, 1), p).timeUs);
  // 512 threads leave 128 registers per thread, all of which the
  // accumulators of 64x64 warp tiles take: illegal, not merely slow.
  EXPECT_EQ(checkConfig(mma(256, 256, 64, 4, 4, 2), p, sm90()),
            "config's accumulators take 128 registers per thread, at least "
            "the 128 each of a block's 512 threads gets on sm_90");
  // A 16x16 tile re-reads the operands 8x more often than 128x128.
  EXPECT_LT(cost(base, p).timeUs, cost(mma(16, 16, 64, 1, 1, 3), p).timeUs);
  // Epilogues that read C cost more.
  GemmProblem withC = p;
  withC.epilogue = EpilogueClass::reads_c;
  EXPECT_LT(cost(base, p).timeUs, cost(base, withC).timeUs);
  // Ragged shapes compute padded tiles.
  EXPECT_LT(cost(base, f16(4099, 4097, 4095)).paddedFraction, 1.0);
}

TEST(CostModel, PicksFitTheProblem) {
  const TargetInfo &target = sm90();
  std::optional<RankedConfig> big = pickConfig(f16(4096, 4096, 4096), target);
  ASSERT_TRUE(big);
  EXPECT_EQ(big->config.kind, InstrKind::mma_sync);
  EXPECT_GE(big->config.bm * big->config.bn, 64 * 128);
  // M = 1 (GEMV): a large M tile would be almost all padding.
  std::optional<RankedConfig> gemv = pickConfig(f16(1, 4096, 4096), target);
  ASSERT_TRUE(gemv);
  EXPECT_LE(gemv->config.bm, 32);
  // Exact f32 stays on simt; allowed tf32 moves to tensor cores.
  GemmProblem f32 = f16(1024, 1024, 1024);
  f32.a = f32.c = ElemKind::f32;
  EXPECT_EQ(pickConfig(f32, target)->config.kind, InstrKind::simt);
  f32.allowTf32 = true;
  EXPECT_EQ(pickConfig(f32, target)->config.kind, InstrKind::mma_sync);
  // AMD chips pick among the MFMA configs convert-gemm-to-amdgpu lowers.
  std::optional<RankedConfig> amd =
      pickConfig(f16(4096, 4096, 4096), *lookupTarget("gfx942"));
  ASSERT_TRUE(amd);
  EXPECT_EQ(amd->config.kind, InstrKind::mfma);
}

TEST(CostModel, FrontierIsNonDominatedAndHoldsThePick) {
  std::vector<RankedConfig> ranked =
      rankLattice(f16(4099, 4097, 4095), sm90());
  ASSERT_FALSE(ranked.empty());
  for (size_t i = 1; i < ranked.size(); ++i)
    EXPECT_LE(ranked[i - 1].cost.timeUs, ranked[i].cost.timeUs);
  std::vector<size_t> frontier = paretoFrontier(ranked);
  ASSERT_FALSE(frontier.empty());
  EXPECT_EQ(frontier.front(), 0u);
  EXPECT_LT(frontier.size(), ranked.size());
  for (size_t i : frontier)
    for (size_t j = 0; j < ranked.size(); ++j) {
      const Cost &a = ranked[j].cost, &b = ranked[i].cost;
      bool dominates = a.timeUs <= b.timeUs &&
                       a.globalBytesPerFlop <= b.globalBytesPerFlop &&
                       a.sharedBytesPerFlop <= b.sharedBytesPerFlop &&
                       a.occupancy >= b.occupancy &&
                       a.pipelineCover >= b.pipelineCover &&
                       (a.timeUs < b.timeUs ||
                        a.globalBytesPerFlop < b.globalBytesPerFlop ||
                        a.sharedBytesPerFlop < b.sharedBytesPerFlop ||
                        a.occupancy > b.occupancy ||
                        a.pipelineCover > b.pipelineCover);
      ASSERT_FALSE(dominates) << ranked[j].config.str() << " dominates "
                              << ranked[i].config.str();
    }
}

// On sm_90a wgmma reads tf32, i8 and f8 K-major only; outside tn its
// configs run on transposed copies, whose cost the model adds. The pick for
// tf32 nn 4096^3 is then wgmma (measured 344 TF/s, against 88 for the
// mma.sync tile in place), f8 nn gets a config at all, and a one-row GEMM,
// whose transposing copy would cost more than its whole GEMM, stays in
// place.
TEST(CostModel, TransposedOperandsOnSm90a) {
  const TargetInfo &sm90a = *lookupTarget("sm_90a");
  GemmProblem nn = f16(4096, 4096, 4096);
  nn.a = nn.c = nn.acc = ElemKind::f32;
  nn.allowTf32 = true;
  nn.transA = false, nn.transB = false;
  GemmProblem tn = nn;
  tn.transB = true;
  std::optional<RankedConfig> pickNN = pickConfig(nn, sm90a);
  std::optional<RankedConfig> pickTN = pickConfig(tn, sm90a);
  ASSERT_TRUE(pickNN && pickTN);
  EXPECT_EQ(pickNN->config.kind, InstrKind::wgmma);
  EXPECT_GT(pickNN->cost.transposeUs, 0.0);
  EXPECT_EQ(pickTN->cost.transposeUs, 0.0);
  // The same tile costs its tn time plus the copy of B (64 MB, read and
  // written).
  Cost onNN = *estimateCost(pickTN->config, nn, sm90a);
  EXPECT_DOUBLE_EQ(onNN.timeUs, pickTN->cost.timeUs + onNN.transposeUs);
  EXPECT_GT(onNN.transposeUs, 20.0);
  EXPECT_LT(onNN.transposeUs, 80.0);
  // f8 outside tn: only wgmma lowers it.
  GemmProblem f8 = f16(4096, 4096, 4096);
  f8.a = ElemKind::f8E4M3FN;
  f8.acc = ElemKind::f32;
  f8.transA = false, f8.transB = false;
  std::optional<RankedConfig> pickF8 = pickConfig(f8, sm90a);
  ASSERT_TRUE(pickF8);
  EXPECT_EQ(pickF8->config.kind, InstrKind::wgmma);
  // i8 nt: both operands MN-major. In place, mma.sync gathers both
  // fragments element by element (a shared load a byte): the model counts
  // that, and the transposed wgmma tile wins (measured 813 TF/s, against 36
  // for the mma.sync tile in place).
  GemmProblem i8nt = f16(4096, 4096, 4096);
  i8nt.a = ElemKind::i8;
  i8nt.acc = i8nt.c = ElemKind::i32;
  i8nt.transA = true, i8nt.transB = false;
  std::optional<RankedConfig> pickI8 = pickConfig(i8nt, sm90a);
  ASSERT_TRUE(pickI8);
  EXPECT_EQ(pickI8->config.kind, InstrKind::wgmma);
  // One row: in place.
  GemmProblem row = nn;
  row.m = 1;
  std::optional<RankedConfig> pickRow = pickConfig(row, sm90a);
  ASSERT_TRUE(pickRow);
  EXPECT_NE(pickRow->config.kind, InstrKind::wgmma);
}

TEST(CostModel, ParametersByName) {
  ModelParams p;
  EXPECT_EQ(p.set("warp-half", 3.0), "");
  EXPECT_DOUBLE_EQ(p.warpHalf, 3.0);
  EXPECT_EQ(p.set("no-such-parameter", 1.0)
                .rfind("unknown model parameter 'no-such-parameter' (names: "
                       "warp-half, ",
                       0),
            0u);
  EXPECT_EQ(ModelParams::names().size(), 17u);
  EXPECT_EQ(p.set("transpose-fraction-4b", 0.5), "");
  EXPECT_DOUBLE_EQ(p.transposeFraction4B, 0.5);
  // Out of range values leave the parameter as it was.
  EXPECT_EQ(p.set("warp-half", std::nan("")),
            "model parameter 'warp-half' must be a finite number of at least "
            "0, got nan");
  EXPECT_EQ(p.set("launch-us", -1.0),
            "model parameter 'launch-us' must be a finite number of at least "
            "0, got -1");
  EXPECT_EQ(p.set("overlap-power", 0.0),
            "model parameter 'overlap-power' must be a finite number above 0, "
            "got 0");
  EXPECT_EQ(p.set("l2-scale", HUGE_VAL),
            "model parameter 'l2-scale' must be a finite number of at least "
            "0, got inf");
  EXPECT_DOUBLE_EQ(p.warpHalf, 3.0);
  EXPECT_EQ(p.set("launch-us", 0.0), "");
}

TEST(CostModel, SizesNearTheLimit) {
  // Tile counts past 2^62 saturate; the wave efficiency is taken of the
  // saturated count, as the rounds are (it read 2 at M = 2^63 - 1).
  const int64_t big = std::numeric_limits<int64_t>::max();
  for (GemmProblem p : {f16(big, 1, 1), f16(big, big, big), f16(1, big, 64)}) {
    Cost c = cost(mma(128, 128, 64, 2, 2, 3), p);
    EXPECT_GT(c.waveEfficiency, 0.0);
    EXPECT_LE(c.waveEfficiency, 1.0);
    EXPECT_GT(c.paddedFraction, 0.0);
    EXPECT_LE(c.paddedFraction, 1.0);
    EXPECT_TRUE(std::isfinite(c.timeUs));
  }
}

TEST(CostModel, SplitK) {
  // Decode (1 x 4096 x 4096 in 16 x 128 tiles: 32 blocks on 132 SMs):
  // slices put the idle SMs to work; the reduction costs a second launch.
  GemmProblem decode = f16(1, 4096, 4096);
  TileConfig tile = mma(16, 128, 128, 1, 4, 6);
  Cost whole = cost(tile, decode);
  TileConfig split = tile;
  split.splitK = 4;
  Cost four = cost(split, decode);
  EXPECT_EQ(four.tiles, 4 * whole.tiles);
  EXPECT_LT(four.timeUs, whole.timeUs);
  // K-heavy (one 64 x 64 tile, K = 65536): 64 slices win by far.
  GemmProblem kHeavy = f16(64, 64, 65536);
  TileConfig small = mma(64, 64, 64, 2, 2, 3);
  TileConfig many = small;
  many.splitK = 64;
  EXPECT_LT(cost(many, kHeavy).timeUs, cost(small, kHeavy).timeUs / 4);
  // A GPU already full gains nothing and pays the reduction.
  GemmProblem large = f16(4096, 4096, 4096);
  TileConfig big = mma(128, 128, 64, 2, 2, 3);
  TileConfig bigSplit = big;
  bigSplit.splitK = 2;
  EXPECT_GT(cost(bigSplit, large).timeUs, cost(big, large).timeUs);
  // Slices beyond the k-tiles are not launched.
  TileConfig tooMany = tile;
  tooMany.splitK = 1000;
  EXPECT_EQ(cost(tooMany, decode).tiles, whole.tiles * 32);
  // In clusters: no second launch, but only the clusters the chip
  // co-schedules run at once (30 of 4 blocks on the H200 table): 32
  // clusters of 4 take two rounds where 33 x 4 blocks through the
  // workspace take one.
  TileConfig cluster = split;
  cluster.clusterReduce = true;
  Cost inCluster = cost(cluster, decode);
  EXPECT_EQ(inCluster.rounds, 2);
  EXPECT_EQ(four.rounds, 1);
  GemmProblem wide = f16(2, 8192, 8192);
  TileConfig two = tile, twoCluster = tile;
  two.splitK = twoCluster.splitK = 2;
  twoCluster.clusterReduce = true;
  EXPECT_LT(cost(twoCluster, wide).timeUs, cost(two, wide).timeUs);
}

TEST(CostModel, GemvMmaColumnsResidency) {
  // The gemv-mma tiles on a B stored K x N (16 rows, 32 columns, 8 warps):
  // one load a lane and k row took 80 registers from ptxas (three blocks
  // of 256 threads an SM), two took 92 (two an SM). The dispatch rules
  // that choose between them (gemv-mma-16-n-unaligned-many) count on it.
  GemmProblem p = f16(16, 8193, 8192);
  ASSERT_TRUE(parseLayout("nn", p.transA, p.transB));
  const TargetInfo &chip = *lookupTarget("sm_90a");
  Cost one = *estimateCost(makeGemvMmaConfig(16, 32, 8, 1), p, chip);
  Cost two = *estimateCost(makeGemvMmaConfig(16, 32, 8, 2), p, chip);
  EXPECT_EQ(one.blocksPerSM, 3);
  EXPECT_EQ(two.blocksPerSM, 2);
}

TEST(CostModel, FixupSplitsTheLastPartialWave) {
  // The sm_90a f16 default tile (128 x 256) on 4099x4097x4095: 561 tiles,
  // 4.25 waves of 132. With `reduction = fixup` the last 33 tiles run in 4
  // K slices (a quarter of a round) instead of a fifth round of whole
  // tiles; on whole waves (4096^3: 512 tiles, 116 past the third wave,
  // 132 / 116 = 1 slice) nothing is split and the estimate is the
  // unsplit one.
  const TargetInfo &chip = *lookupTarget("sm_90a");
  TileConfig d;
  d.kind = InstrKind::wgmma;
  d.bm = 128, d.bn = 256, d.bk = 64, d.wm = 2, d.wn = 1;
  d.im = 64, d.in = 256, d.ik = 16;
  d.stages = 4, d.group = 8, d.tmaLoad = true;
  TileConfig fix = d;
  fix.splitK = 4, fix.fixupReduce = true;
  GemmProblem ragged = f16(4099, 4097, 4095);
  ASSERT_EQ(checkConfig(fix, ragged, chip), "");
  Cost whole = *estimateCost(d, ragged, chip);
  Cost split = *estimateCost(fix, ragged, chip);
  EXPECT_EQ(whole.rounds, 5);
  EXPECT_EQ(split.rounds, 5);
  EXPECT_EQ(split.tiles, whole.tiles);
  EXPECT_LT(split.timeUs, 0.9 * whole.timeUs);
  GemmProblem square = f16(4096, 4096, 4096);
  EXPECT_EQ(estimateCost(fix, square, chip)->timeUs,
            estimateCost(d, square, chip)->timeUs);
}
