//===- LatticeTest.cpp - tests of the config lattice ----------------------===//
//
// The lattice must hold exactly the configs gemm/Target/Legality.h accepts:
// every point of the raw parameter product is checked both ways, for several
// type/layout combinations and chips; and the model's picks must lower.
//
//===----------------------------------------------------------------------===//

#include "gemm/Tuning/Lattice.h"
#include "gemm/Conversion/Passes.h"
#include "gemm/Dialect/Gemm/IR/GemmDialect.h"
#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "gemm/Tuning/CostModel.h"
#include "gemm/Tuning/DefaultConfig.h"
#include "gemm/Utils/FragmentLayout.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "gtest/gtest.h"

#include <limits>
#include <set>

using namespace mlir;
using namespace mlir::gemm;

namespace {
struct Case {
  const char *a, *acc, *c, *layout;
  bool allowTf32;
};

/// A module with one gemm.matmul of the case's types.
std::string moduleText(const Case &k) {
  std::string t = std::string("func.func @f(%a: memref<?x?x") + k.a +
                  ">, %b: memref<?x?x" + k.a + ">, %c: memref<?x?x" + k.c +
                  ">) {\n  gemm.matmul " + k.layout + " ins(%a, %b : memref<?x?x" +
                  k.a + ">, memref<?x?x" + k.a + ">) outs(%c : memref<?x?x" +
                  k.c + ">) acc(" + k.acc + ")\n  return\n}\n";
  return t;
}

/// The case's types on a 4096^3 problem (past the gemv points, which only
/// GEMMs of at most kMaxGemvRows rows get: GemvPointsForFewRows).
GemmProblem problemOf(const Case &k) {
  GemmProblem p;
  p.m = p.n = p.k = 4096;
  p.a = *parseElemKind(k.a);
  p.acc = *parseElemKind(k.acc);
  p.c = *parseElemKind(k.c);
  parseLayout(k.layout, p.transA, p.transB);
  p.allowTf32 = k.allowTf32;
  return p;
}

std::string key(const TileConfig &c) { return c.str(); }

/// Checks that the lattice holds exactly the points of the raw parameter
/// product (every kind and instruction shape of the table, simt tiles, every
/// range value) that gemm/Target/Legality.h accepts, less the one policy on
/// top of legality: exact f32 stays off tf32 tensor cores unless allowed.
/// (The lowerings and the verifiers call the same rules, so this is what
/// they accept; lit tests check the diagnostics they emit.)
void checkExact(const Case &k, llvm::StringRef chip,
                const LatticeRanges &ranges) {
  const TargetInfo &target = *lookupTarget(chip);
  GemmProblem problem = problemOf(k);
  std::set<std::string> lattice;
  for (const TileConfig &c : enumerateLattice(problem, target, ranges))
    lattice.insert(key(c));
  llvm::SmallVector<std::pair<InstrKind, std::array<int64_t, 3>>> instrs;
  for (int64_t tm : ranges.simtTile)
    for (int64_t tn : ranges.simtTile)
      instrs.push_back({InstrKind::simt, {tm, tn, 1}});
  for (const MmaShape &s : target.mmaShapes) {
    std::pair<InstrKind, std::array<int64_t, 3>> point{s.kind,
                                                       {s.m, s.n, s.k}};
    // (Shapes repeat across operand types.)
    if (llvm::find(instrs, point) == instrs.end())
      instrs.push_back(point);
    // The promoted f8 wgmma tiles, narrower than the table's.
    if (s.kind == InstrKind::wgmma && isFloat8(s.operand)) {
      for (int64_t n : {int64_t(128), kWgmmaPromotedMaxN}) {
        point.second[1] = std::min<int64_t>(s.n, n);
        if (llvm::find(instrs, point) == instrs.end())
          instrs.push_back(point);
      }
    }
  }
  size_t accepted = 0;
  for (auto [kind, instr] : instrs)
    for (int64_t bm : ranges.blockMN)
      for (int64_t bn : ranges.blockMN)
        for (int64_t bk : ranges.blockK)
          for (int64_t wm : ranges.warpGrid)
            for (int64_t wn : ranges.warpGrid)
              for (int64_t stages : ranges.stages)
                for (SmemKind smem : ranges.smem) {
                  TileConfig c;
                  c.kind = kind;
                  c.bm = bm, c.bn = bn, c.bk = bk, c.wm = wm, c.wn = wn;
                  c.im = instr[0], c.in = instr[1], c.ik = instr[2];
                  c.stages = stages, c.smem = smem, c.group = ranges.group;
                  bool exactF32 = problem.a == ElemKind::f32 &&
                                  !problem.allowTf32 &&
                                  instrOperandKind(problem.a, kind) ==
                                      ElemKind::tf32;
                  // f8 wgmma tiles that would not promote their partial
                  // sums are legal, but never lattice points.
                  ElemKind operand = instrOperandKind(problem.a, kind);
                  bool fastF8 = kind == InstrKind::wgmma && isFloat8(operand) &&
                                !wgmmaPromotesPartialSums(operand, c.in);
                  // wgmma reads tf32, i8 and f8 K-major only: on operands
                  // stored MN-major its configs are legal on the transposed
                  // copies the lowering makes (layout tn).
                  GemmProblem legalOn = problem;
                  static_cast<GemmSignature &>(legalOn) = getKernelSignature(
                      problem, getOperandTransposes(problem, target,
                                                    problem.allowTf32, kind));
                  c.tmaLoad = tmaLoadsTiles(c, legalOn);
                  bool legal = !exactF32 && !fastF8 &&
                               checkConfig(c, legalOn, target).empty();
                  EXPECT_EQ(legal, lattice.count(key(c)) == 1)
                      << chip.str() << " " << k.a << "/" << k.acc << " "
                      << k.layout << ": " << key(c);
                  accepted += legal;
                }
  EXPECT_EQ(accepted, lattice.size());
  EXPECT_GT(accepted, 0u);
}

/// Smaller ranges for the sweeps over many type combinations.
LatticeRanges reducedRanges() {
  LatticeRanges r;
  r.blockMN = {16, 64, 128, 256};
  r.blockK = {8, 32, 64};
  r.warpGrid = {1, 2, 4};
  r.stages = {1, 3, 6};
  r.simtTile = {1, 4, 8};
  return r;
}
} // namespace

TEST(Lattice, ExactlyTheLegalConfigsF16TnSm90FullRanges) {
  checkExact({"f16", "f32", "f16", "tn", false}, "sm_90", LatticeRanges());
}

TEST(Lattice, ExactlyTheLegalConfigsAcrossTypesAndChips) {
  const Case cases[] = {
      {"f16", "f16", "f16", "nn", false}, {"bf16", "f32", "bf16", "nt", false},
      {"i8", "i32", "i32", "tn", false},  {"i8", "i32", "i32", "tt", false},
      {"f32", "f32", "f32", "nn", false}, {"f32", "f32", "f32", "tn", true},
      {"f64", "f64", "f64", "tt", false}, {"f16", "f32", "f16", "nt", false}};
  for (llvm::StringRef chip : {"sm_80", "sm_86", "sm_90a"})
    for (const Case &k : cases)
      checkExact(k, chip, reducedRanges());
}

// f8 on NVIDIA is lowered by wgmma only (sm_90a, K-major: tn), with 128-byte
// K rows (BK = 128).
TEST(Lattice, ExactlyTheLegalF8ConfigsOnSm90a) {
  LatticeRanges r = reducedRanges();
  r.blockK = {64, 128};
  checkExact({"f8E4M3FN", "f32", "f16", "tn", false}, "sm_90a", r);
  r.blockK = {128};
  r.stages = {2, 3};
  // Outside tn the lowering transposes the operands first (Pack.cpp): the
  // lattice holds the tn points (it was empty before the transposing copy:
  // nothing lowered f8 nn).
  const TargetInfo &sm90a = *lookupTarget("sm_90a");
  GemmProblem tn = problemOf({"f8E4M3FN", "f32", "f16", "tn", false});
  // (Less the tiles promoting over several k-tiles, refused on transposed
  // operands: checkConfigOnTransposedOperands.)
  std::set<std::string> tnKeys;
  size_t pairs = 0;
  for (const TileConfig &c : enumerateLattice(tn, sm90a, r)) {
    if (checkConfigOnTransposedOperands(c, ElemKind::f8E4M3FN).empty())
      tnKeys.insert(key(c));
    else
      ++pairs;
  }
  EXPECT_GT(pairs, 0u);
  for (const char *layout : {"nn", "nt", "tt"}) {
    GemmProblem other = problemOf({"f8E4M3FN", "f32", "f16", layout, false});
    std::set<std::string> keys;
    for (const TileConfig &c : enumerateLattice(other, sm90a, r))
      keys.insert(key(c));
    EXPECT_FALSE(keys.empty()) << layout;
    EXPECT_EQ(keys, tnKeys) << layout;
  }
}

// tf32 and i8 outside tn on sm_90a: the wgmma points legal on the
// transposed copies, beside the mma.sync points legal in place.
TEST(Lattice, ExactlyTheLegalTransposedWgmmaConfigsOnSm90a) {
  LatticeRanges r = reducedRanges();
  r.blockK = {32, 128};
  r.stages = {3};
  for (const Case &k : {Case{"f32", "f32", "f32", "nn", true},
                        Case{"f32", "f32", "f32", "tt", true}})
    checkExact(k, "sm_90a", r);
  // The wgmma points of each layout are those of tn.
  const TargetInfo &sm90a = *lookupTarget("sm_90a");
  auto wgmmaKeys = [&](const Case &k) {
    std::set<std::string> keys;
    for (const TileConfig &c : enumerateLattice(problemOf(k), sm90a, r))
      if (c.kind == InstrKind::wgmma)
        keys.insert(key(c));
    return keys;
  };
  for (const char *layout : {"nn", "nt", "tt"}) {
    std::set<std::string> tf32 = wgmmaKeys({"f32", "f32", "f32", layout, true});
    std::set<std::string> i8 = wgmmaKeys({"i8", "i32", "i32", layout, false});
    EXPECT_FALSE(tf32.empty()) << layout;
    EXPECT_FALSE(i8.empty()) << layout;
    EXPECT_EQ(tf32, wgmmaKeys({"f32", "f32", "f32", "tn", true})) << layout;
    EXPECT_EQ(i8, wgmmaKeys({"i8", "i32", "i32", "tn", false})) << layout;
  }
  // Exact f32 stays off tensor cores in every layout.
  EXPECT_TRUE(wgmmaKeys({"f32", "f32", "f32", "nn", false}).empty());
}

// The AMD lattice: shapes with tested lane maps, whole 4-block f64 tiles per
// wave, the chip's i8 widths.
TEST(Lattice, ExactlyTheLegalConfigsOnAMD) {
  LatticeRanges r = reducedRanges();
  r.blockMN = {16, 32, 64, 128};
  r.blockK = {4, 16, 64};
  r.stages = {1, 2};
  const Case cases[] = {{"f16", "f32", "f16", "tn", false},
                        {"bf16", "f32", "f32", "nt", false},
                        {"f32", "f32", "f32", "nn", false},
                        {"f64", "f64", "f64", "tt", false},
                        {"i8", "i32", "i32", "tn", false}};
  for (llvm::StringRef chip : {"gfx90a", "gfx942"})
    for (const Case &k : cases)
      checkExact(k, chip, r);
  checkExact({"f8E4M3FN", "f32", "f32", "tn", false}, "gfx950", r);
}

TEST(Lattice, ContainsTheDefaultsAndRespectsLimits) {
  GemmProblem p;
  p.m = p.n = p.k = 4096;
  const TargetInfo &sm90 = *lookupTarget("sm_90");
  std::vector<TileConfig> lattice = enumerateLattice(p, sm90);
  EXPECT_GT(lattice.size(), 1000u);
  TileConfig def;
  def.kind = InstrKind::mma_sync;
  def.bm = 128, def.bn = 128, def.bk = 64, def.wm = 2, def.wn = 2;
  def.im = 16, def.in = 8, def.ik = 16, def.stages = 3, def.group = 8;
  EXPECT_NE(std::find(lattice.begin(), lattice.end(), def), lattice.end());
  for (const TileConfig &c : lattice) {
    EXPECT_LE(estimateSharedMemory(c, 2), sm90.maxSharedMemPerBlock);
    EXPECT_LE(c.numWarps() * 32, sm90.maxThreadsPerBlock);
    EXPECT_TRUE(c.kind == InstrKind::mma_sync || c.kind == InstrKind::simt);
  }
  // sm_86 has less shared memory: a strict subset.
  std::vector<TileConfig> small = enumerateLattice(p, *lookupTarget("sm_86"));
  EXPECT_LT(small.size(), lattice.size());
}

TEST(Lattice, KindsFollowTheTable) {
  GemmProblem f32;
  f32.m = 4096;
  f32.a = ElemKind::f32;
  f32.c = ElemKind::f32;
  const TargetInfo &sm90 = *lookupTarget("sm_90");
  // Exact f32 is simt only; with tf32 allowed, mma_sync joins.
  EXPECT_EQ(latticeKinds(f32, sm90).size(), 1u);
  f32.allowTf32 = true;
  EXPECT_EQ(latticeKinds(f32, sm90).front(), InstrKind::mma_sync);
  // AMD chips: convert-gemm-to-amdgpu lowers mfma only (f32 included: the
  // f32 MFMAs are exact).
  GemmProblem f16;
  const TargetInfo &gfx942 = *lookupTarget("gfx942");
  llvm::SmallVector<InstrKind, 4> mfmaOnly = {InstrKind::mfma};
  EXPECT_EQ(latticeKinds(f16, gfx942), mfmaOnly);
  f32.allowTf32 = false;
  EXPECT_EQ(latticeKinds(f32, gfx942), mfmaOnly);
  EXPECT_FALSE(enumerateLattice(f16, gfx942).empty());
}

// GEMMs of at most kMaxGemvRows rows get the FMA gemv points, of at most
// kMaxGemvMmaRowsA the mma.sync ones (NVIDIA, a K-contiguous B, 16-bit
// types), each legal and at least M rows tall; the dispatch's gemv tile
// (1 x 16 x 512, 8 warps) among them.
TEST(Lattice, GemvPointsForFewRows) {
  const TargetInfo &sm90 = *lookupTarget("sm_90");
  GemmProblem p = problemOf({"f16", "f32", "f16", "tn", false});
  auto gemvPoints = [&](const GemmProblem &q, const TargetInfo &t, bool mma) {
    std::vector<TileConfig> out;
    for (const TileConfig &c : enumerateLattice(q, t))
      if (c.kind == InstrKind::gemv && isGemvMma(c) == mma)
        out.push_back(c);
    return out;
  };
  EXPECT_TRUE(gemvPoints(p, sm90, false).empty());
  EXPECT_TRUE(gemvPoints(p, sm90, true).empty());
  p.m = 1;
  std::vector<TileConfig> one = gemvPoints(p, sm90, false);
  // bm 1, 2, 4 x 2 warp counts x 3 rows of B x 4 unrolls.
  EXPECT_EQ(one.size(), 3u * 2 * 3 * 4);
  bool dispatchTile = false;
  for (const TileConfig &c : one) {
    EXPECT_TRUE(checkConfig(c, p, sm90).empty()) << key(c);
    EXPECT_GE(c.bm, p.m);
    EXPECT_EQ(estimateSharedMemory(c, 2), 0);
    dispatchTile |= c.bm == 1 && c.bn == 16 && c.bk == 512 && c.wn == 8;
  }
  EXPECT_TRUE(dispatchTile);
  // bm 8, 16 x (16 or 32 rows of B x 4 unrolls, or 64 x 2) x 3 warp
  // counts, the warps' sums meeting in shared memory; each also with its
  // loads double-buffered (stages = 2) where the registers allow.
  const size_t mmaPerBM = 2 * 3 * 4 + 3 * 2;
  auto singleStage = [](const std::vector<TileConfig> &points) {
    return llvm::count_if(points,
                          [](const TileConfig &c) { return c.stages == 1; });
  };
  std::vector<TileConfig> mma = gemvPoints(p, sm90, true);
  EXPECT_EQ(singleStage(mma), std::ptrdiff_t(2 * mmaPerBM));
  std::set<std::string> keys;
  for (const TileConfig &c : mma)
    keys.insert(key(c));
  size_t doubled = 0;
  for (const TileConfig &c : mma) {
    EXPECT_TRUE(checkConfig(c, p, sm90).empty()) << key(c);
    EXPECT_EQ(estimateSharedMemory(c, 2), c.wn * c.bm * c.bn * 4);
    if (c.stages != 1)
      continue;
    // The twin with stages = 2 is a point exactly when it is legal (its
    // registers: twice the loads in flight).
    TileConfig twin = c;
    twin.stages = 2;
    bool legal = checkConfig(twin, p, sm90).empty();
    EXPECT_EQ(keys.count(key(twin)), size_t(legal)) << key(twin);
    doubled += legal;
  }
  EXPECT_EQ(mma.size(), 2 * mmaPerBM + doubled);
  // The dispatched tiles (8 x 16 x 64 and 16 x 32 x 64) double-buffer.
  EXPECT_EQ(keys.count(key(makeGemvMmaConfig(8, 16, 8, 2, 2))), 1u);
  EXPECT_EQ(keys.count(key(makeGemvMmaConfig(16, 32, 8, 2, 2))), 1u);
  p.m = 3;
  EXPECT_EQ(gemvPoints(p, sm90, false).size(), 2u * 3 * 4); // bm = 3 only
  p.m = kMaxGemvRows + 1;
  EXPECT_TRUE(gemvPoints(p, sm90, false).empty());
  EXPECT_EQ(singleStage(gemvPoints(p, sm90, true)),
            std::ptrdiff_t(2 * mmaPerBM));
  p.m = 9;
  EXPECT_EQ(singleStage(gemvPoints(p, sm90, true)),
            std::ptrdiff_t(mmaPerBM)); // bm = 16 only
  p.m = kMaxGemvMmaRowsA + 1;
  EXPECT_TRUE(gemvPoints(p, sm90, true).empty());
  // Not on f32 operands (mma.sync has no f32 x f32).
  GemmProblem f32 = problemOf({"f32", "f32", "f32", "tn", false});
  f32.m = 4;
  EXPECT_TRUE(gemvPoints(f32, sm90, true).empty());
  EXPECT_FALSE(gemvPoints(f32, sm90, false).empty());
  // An N-contiguous B gets the column points (bm 1, 2, 4 x 16 to 64
  // columns x 2 warp counts x 2 unrolls), their warps' sums in shared
  // memory, and the mma.sync ones of a K-contiguous B. Column points are
  // not tn's.
  GemmProblem nn = problemOf({"f16", "f32", "f16", "nn", false});
  nn.m = 1;
  std::vector<TileConfig> columns = gemvPoints(nn, sm90, false);
  EXPECT_EQ(columns.size(), 3u * 3 * 2 * 2);
  for (const TileConfig &c : columns) {
    EXPECT_TRUE(isGemvColumns(c)) << key(c);
    EXPECT_TRUE(checkConfig(c, nn, sm90).empty()) << key(c);
    EXPECT_EQ(estimateSharedMemory(c, 2), c.wn * c.bm * c.bn * 4);
  }
  for (const TileConfig &c : one)
    EXPECT_FALSE(isGemvColumns(c)) << key(c);
  nn.m = 3;
  EXPECT_EQ(gemvPoints(nn, sm90, true).size(), 2 * mmaPerBM);
  p.m = 1;
  EXPECT_TRUE(gemvPoints(p, *lookupTarget("gfx942"), false).empty());
  EXPECT_TRUE(gemvPoints(p, *lookupTarget("gfx942"), true).empty());
}

TEST(Lattice, ShapeBuckets) {
  EXPECT_EQ(shapeBucket(1), 1);
  EXPECT_EQ(shapeBucket(4095), 4096);
  EXPECT_EQ(shapeBucket(4099), 4096);
  EXPECT_EQ(shapeBucket(11008), 8192);
  EXPECT_EQ(shapeBucket(14336), 16384);
  EXPECT_EQ(shapeBucket(3), 4);
}

// Which operand's contiguous rows are whole 16 bytes (A: K, or M when A is
// K x M; B: N, or K when B is N x K), also past 64-bit products.
TEST(Lattice, RowsAllowVectorCopies) {
  GemmProblem p;
  ASSERT_TRUE(parseLayout("nn", p.transA, p.transB));
  p.a = ElemKind::f16;
  p.m = 8, p.n = 8417, p.k = 4096;
  EXPECT_TRUE(p.rowsAllowVectorCopies(/*operandB=*/false));
  EXPECT_FALSE(p.rowsAllowVectorCopies(/*operandB=*/true));
  p.n = 8416, p.k = 2047;
  EXPECT_FALSE(p.rowsAllowVectorCopies(false));
  EXPECT_TRUE(p.rowsAllowVectorCopies(true));
  // tn: both operands' rows are K long; nt and tt: A's are M long.
  ASSERT_TRUE(parseLayout("tn", p.transA, p.transB));
  p.k = 4100;
  EXPECT_FALSE(p.rowsAllowVectorCopies(false));
  EXPECT_FALSE(p.rowsAllowVectorCopies(true));
  p.k = 4104;
  EXPECT_TRUE(p.rowsAllowVectorCopies(false));
  EXPECT_TRUE(p.rowsAllowVectorCopies(true));
  ASSERT_TRUE(parseLayout("tt", p.transA, p.transB));
  p.m = 7;
  EXPECT_FALSE(p.rowsAllowVectorCopies(false));
  EXPECT_TRUE(p.rowsAllowVectorCopies(true));
  // One-byte elements need multiples of 16, eight-byte ones of 2.
  p.a = ElemKind::i8, p.m = 24;
  EXPECT_FALSE(p.rowsAllowVectorCopies(false));
  p.a = ElemKind::f64, p.m = 26;
  EXPECT_TRUE(p.rowsAllowVectorCopies(false));
  p.m = std::numeric_limits<int64_t>::max();
  EXPECT_FALSE(p.rowsAllowVectorCopies(false));
}

// The model's frontier goes through convert-gemm-to-nvgpu: the kernels are
// built, not only checked.
TEST(Lattice, FrontierPointsLower) {
  MLIRContext ctx;
  ctx.loadDialect<GemmDialect, func::FuncDialect>();
  const Case cases[] = {{"f16", "f32", "f16", "tn", false},
                        {"bf16", "f32", "bf16", "nn", false},
                        {"i8", "i32", "i32", "tn", false},
                        {"f32", "f32", "f32", "nt", false}};
  const int64_t shapes[][3] = {{4096, 4096, 4096}, {1, 4096, 4096},
                               {4099, 4097, 4095}};
  const TargetInfo &sm90 = *lookupTarget("sm_90");
  size_t lowered = 0;
  for (const Case &k : cases) {
    GemmProblem problem = problemOf(k);
    std::set<std::string> seen;
    for (const int64_t *s : shapes) {
      problem.m = s[0], problem.n = s[1], problem.k = s[2];
      std::vector<RankedConfig> ranked = rankLattice(problem, sm90);
      std::vector<size_t> frontier = paretoFrontier(ranked);
      // The fastest 8 frontier points of each shape.
      for (size_t i = 0; i < frontier.size() && i < 8; ++i) {
        const TileConfig &c = ranked[frontier[i]].config;
        if (!seen.insert(key(c)).second)
          continue;
        OwningOpRef<ModuleOp> module =
            parseSourceString<ModuleOp>(moduleText(k), &ctx);
        ASSERT_TRUE(module);
        module->walk([&](MatmulOp op) {
          op.setConfigAttr(getConfigAttr(&ctx, c));
        });
        PassManager pm(&ctx);
        ConvertGemmToNVGPUOptions options;
        options.chip = "sm_90";
        pm.addPass(createConvertGemmToNVGPU(options));
        EXPECT_TRUE(succeeded(pm.run(*module))) << key(c);
        ++lowered;
      }
    }
  }
  EXPECT_GT(lowered, 20u);
}
