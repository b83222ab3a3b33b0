//===- DispatchTest.cpp - tests of gemm/Tuning/Dispatch.h -----------------===//
//
// Every member of every family is legal, the last member is the default and
// holds always, the rules pick the kernel each shape class was built for,
// and the split-K slice count follows its formula (which the host code and
// python/gemm_mlir/dispatch.py implement again).
//
//===----------------------------------------------------------------------===//

#include "gemm/Tuning/Dispatch.h"
#include "gemm/Target/Legality.h"
#include "gemm/Tuning/DefaultConfig.h"
#include "gemm/Utils/FragmentLayout.h"
#include "gtest/gtest.h"

#include <limits>
#include <tuple>

using namespace mlir::gemm;

namespace {
GemmSignature f16tn() { return GemmSignature(); }

const TargetInfo &chip(llvm::StringRef name) { return *lookupTarget(name); }

std::string ruleFor(const std::vector<DispatchRule> &rules, int64_t m,
                    int64_t n, int64_t k, int64_t batch = 1) {
  return rules[chooseRule(rules, m, n, k, batch)].name;
}

/// ruleFor on operands that rule out 16-byte copies: B alone, or A too.
std::string ruleForUnalignedB(const std::vector<DispatchRule> &rules, int64_t m,
                              int64_t n, int64_t k, int64_t batch = 1,
                              bool aAligned = true) {
  return rules[chooseRule(rules, m, n, k, batch, aAligned, /*bAligned=*/false)]
      .name;
}
} // namespace

TEST(Dispatch, EveryMemberLegalAndTheDefaultLast) {
  const std::pair<ElemKind, ElemKind> types[] = {
      {ElemKind::f16, ElemKind::f32},  {ElemKind::f16, ElemKind::f16},
      {ElemKind::bf16, ElemKind::f32}, {ElemKind::f32, ElemKind::f32},
      {ElemKind::f64, ElemKind::f64},  {ElemKind::i8, ElemKind::i32}};
  unsigned checked = 0;
  for (const TargetInfo &target : allTargets())
    for (auto [a, acc] : types)
      for (bool transA : {false, true})
        for (bool transB : {false, true}) {
          GemmSignature sig;
          sig.a = a, sig.acc = acc, sig.transA = transA, sig.transB = transB;
          TileConfig d = getDefaultConfig(sig, target, /*allowTf32=*/false);
          if (!checkConfig(d, sig, target).empty())
            continue; // no lowering for these types here
          std::vector<DispatchRule> rules =
              getDispatchRules(sig, target, /*allowTf32=*/false);
          ASSERT_FALSE(rules.empty());
          EXPECT_EQ(rules.back().config, d);
          EXPECT_TRUE(rules.back().when.empty());
          for (const DispatchRule &r : rules) {
            std::string where =
                target.name.str() + " " + r.name + ": " + r.config.str();
            EXPECT_EQ(checkConfig(r.config, sig, target), "") << where;
            llvm::StringRef name(r.name);
            EXPECT_EQ(r.config.splitK > 1, name.starts_with("split-k") ||
                                               name.ends_with("-split") ||
                                               name.ends_with("-cluster"))
                << where;
            EXPECT_EQ(r.config.clusterReduce, name.ends_with("-cluster"))
                << where;
            EXPECT_EQ(r.split.clusterCapacity.empty(), !r.config.clusterReduce)
                << where;
            // On wgmma chips every wgmma member whose tiles TMA can load
            // loads through it (but the decode-wgmma members, which
            // measured faster on cp.async); other kinds never do.
            EXPECT_EQ(r.config.tmaLoad, d.tmaLoad &&
                                            tmaLoadsTiles(r.config, sig) &&
                                            !name.starts_with("decode-wgmma"))
                << where;
            ++checked;
          }
        }
  EXPECT_GT(checked, 100u);
}

namespace {
const DispatchRule *findRule(const std::vector<DispatchRule> &rules,
                             llvm::StringRef name) {
  for (const DispatchRule &r : rules)
    if (r.name == name)
      return &r;
  return nullptr;
}
} // namespace

TEST(Dispatch, ShapeClassesOnSm90a) {
  std::vector<DispatchRule> rules =
      getDispatchRules(f16tn(), chip("sm_90a"), false);
  // M = 1 with N >= 66 x 16: gemv (tn and tt, K >= 256); narrower N, the
  // decode rules.
  EXPECT_EQ(ruleFor(rules, 1, 4096, 4096), "gemv");
  EXPECT_EQ(ruleFor(rules, 1, 1056, 256), "gemv");
  EXPECT_EQ(ruleFor(rules, 1, 1040, 4096), "decode-split");
  EXPECT_EQ(ruleFor(rules, 1, 4096, 255), "small");
  GemmSignature tt = f16tn();
  tt.transA = true;
  EXPECT_EQ(ruleFor(getDispatchRules(tt, chip("sm_90a"), false), 1, 4096, 4096),
            "gemv");
  // M = 2: gemv's tile with two rows of A, while the decode tile's grid
  // (16 x 128) would fill less than half the SMs (N <= 65 x 128); odd K
  // too (rows read in place, shifted).
  EXPECT_EQ(ruleFor(rules, 2, 4096, 4096), "gemv-2");
  EXPECT_EQ(ruleFor(rules, 2, 4097, 4093), "gemv-2");
  EXPECT_EQ(ruleFor(rules, 2, 1056, 256), "gemv-2");
  EXPECT_EQ(ruleFor(rules, 2, 8320, 4096), "gemv-2");
  EXPECT_EQ(ruleFor(rules, 2, 8321, 4096), "decode");
  EXPECT_EQ(ruleFor(rules, 2, 1040, 4096), "decode-split");
  // B stored K x N (nn, nt): gemv on an N-contiguous B for one and two
  // rows, in 32 columns a block: from half a wave to one wave eight warps
  // of eight loads (deep), past it four warps; K from one whole iteration
  // of the tile (512 and 256 k rows), odd N too (read in place).
  GemmSignature nn = f16tn();
  nn.transB = false;
  std::vector<DispatchRule> nnGemv =
      getDispatchRules(nn, chip("sm_90a"), false);
  EXPECT_EQ(ruleFor(nnGemv, 1, 4096, 4096), "gemv-n-deep");
  EXPECT_EQ(ruleFor(nnGemv, 1, 2112, 4096), "gemv-n-deep");
  EXPECT_EQ(ruleFor(nnGemv, 1, 4224, 4096), "gemv-n-deep");
  EXPECT_EQ(ruleFor(nnGemv, 1, 4225, 4096), "gemv-n");
  EXPECT_EQ(ruleFor(nnGemv, 1, 14039, 1158), "gemv-n");
  EXPECT_EQ(ruleFor(nnGemv, 1, 4096, 512), "gemv-n-deep");
  EXPECT_EQ(ruleFor(nnGemv, 1, 14336, 256), "gemv-n");
  EXPECT_NE(ruleFor(nnGemv, 1, 4096, 511), "gemv-n-deep");
  EXPECT_NE(ruleFor(nnGemv, 1, 14336, 255), "gemv-n");
  EXPECT_EQ(ruleFor(nnGemv, 2, 4096, 4096), "gemv-n-2-deep");
  EXPECT_EQ(ruleFor(nnGemv, 2, 11008, 4096), "gemv-n-2");
  // Below half a wave of 32-column blocks, decode splits K.
  EXPECT_EQ(ruleFor(nnGemv, 1, 2048, 8192), "decode-split");
  const DispatchRule *deepRule = findRule(nnGemv, "gemv-n-deep");
  ASSERT_NE(deepRule, nullptr);
  EXPECT_TRUE(isGemvColumns(deepRule->config));
  EXPECT_EQ(deepRule->config.bn, 32);
  EXPECT_EQ(deepRule->config.wn, 8);
  EXPECT_EQ(gemvUnroll(deepRule->config, 32), 8);
  GemmSignature nt = nn;
  nt.transA = true;
  EXPECT_EQ(ruleFor(getDispatchRules(nt, chip("sm_90a"), false), 1, 4096, 4096),
            "gemv-n-deep");
  // Not the K-contiguous members: gemv, gemv-2 and gemv-mma are tn/tt's.
  EXPECT_EQ(findRule(nnGemv, "gemv"), nullptr);
  EXPECT_EQ(findRule(rules, "gemv-n"), nullptr);
  // 3 to 16 rows with a K-contiguous B: gemv on mma.sync, 8-row tiles of
  // A up to 8 rows (N >= 66 x 16), 16-row ones up to 16 (N >= 66 x 32, or
  // from 33 x 32 with K <= 6144: gemv-mma-16-few), K >= 256, odd K too
  // (rows read in place, shifted).
  EXPECT_EQ(ruleFor(rules, 3, 4096, 4096), "gemv-mma");
  EXPECT_EQ(ruleFor(rules, 8, 11008, 2048), "gemv-mma");
  EXPECT_EQ(ruleFor(rules, 4, 14336, 2048), "gemv-mma");
  EXPECT_EQ(ruleFor(rules, 8, 8448, 8192), "gemv-mma");
  EXPECT_EQ(ruleFor(rules, 8, 22528, 4096), "gemv-mma");
  EXPECT_EQ(ruleFor(rules, 5, 4097, 4093), "gemv-mma");
  EXPECT_EQ(ruleFor(rules, 8, 1056, 256), "gemv-mma");
  EXPECT_EQ(ruleFor(rules, 8, 16384, 256), "gemv-mma");
  EXPECT_EQ(ruleFor(rules, 9, 4096, 4096), "gemv-mma-16");
  EXPECT_EQ(ruleFor(rules, 16, 4096, 11008), "gemv-mma-16");
  EXPECT_EQ(ruleFor(rules, 11, 4097, 4093), "gemv-mma-16");
  EXPECT_EQ(ruleFor(rules, 16, 1056, 4096), "gemv-mma-16-few");
  EXPECT_EQ(ruleFor(rules, 12, 2080, 6144), "gemv-mma-16-few");
  EXPECT_EQ(ruleFor(rules, 16, 2112, 16384), "gemv-mma-16");
  // Fewer blocks with a longer K: K split into slices.
  EXPECT_EQ(ruleFor(rules, 16, 1536, 8192), "decode-split");
  EXPECT_EQ(ruleFor(rules, 9, 2080, 16384), "decode-split");
  // In tt (A read element by element) gemv on mma.sync only on small
  // weights: K <= 4096 and N <= 8192 (6 to 8 rows K <= 3072), 9-16 rows
  // from half the SMs of blocks; the decode members elsewhere, except
  // where B's rows rule out 16-byte copies (the decode tile would pack
  // B).
  {
    GemmSignature ttSig = f16tn();
    ttSig.transA = true;
    std::vector<DispatchRule> ttRules =
        getDispatchRules(ttSig, chip("sm_90a"), false);
    EXPECT_EQ(ruleFor(ttRules, 9, 4096, 4096), "gemv-mma-16");
    EXPECT_EQ(ruleFor(ttRules, 16, 5120, 1024), "gemv-mma-16");
    EXPECT_EQ(ruleFor(ttRules, 16, 4096, 11008), "decode-split");
    EXPECT_EQ(ruleFor(ttRules, 16, 11008, 4096), "decode");
    EXPECT_EQ(ruleFor(ttRules, 16, 1536, 4096), "decode-split");
    EXPECT_EQ(ruleFor(ttRules, 3, 4096, 4096), "gemv-mma");
    EXPECT_EQ(ruleFor(ttRules, 5, 7000, 3000), "gemv-mma");
    EXPECT_EQ(ruleFor(ttRules, 3, 11008, 4096), "decode");
    EXPECT_EQ(ruleFor(ttRules, 8, 7000, 3000), "gemv-mma-6");
    EXPECT_EQ(ruleFor(ttRules, 8, 4096, 4096), "decode-split");
    EXPECT_EQ(ruleFor(ttRules, 8, 4096, 11008), "decode-split");
    EXPECT_EQ(ruleForUnalignedB(ttRules, 5, 4097, 4093), "gemv-mma");
    EXPECT_EQ(ruleForUnalignedB(ttRules, 7, 4097, 4093),
              "gemv-mma-unaligned-b");
    EXPECT_EQ(ruleForUnalignedB(ttRules, 7, 11009, 8191),
              "gemv-mma-unaligned-b");
    EXPECT_EQ(ruleForUnalignedB(ttRules, 12, 11009, 8191),
              "gemv-mma-16-unaligned-b");
  }
  EXPECT_EQ(ruleFor(rules, 16, 1024, 4096), "decode-split");
  EXPECT_EQ(ruleFor(rules, 8, 1040, 4096), "decode-split");
  EXPECT_EQ(ruleFor(rules, 8, 4096, 255), "small");
  // On a B stored K x N (nn, nt) gemv on mma.sync too, for K up to 4096,
  // on grids that spread evenly over the SMs: 16 columns a block below one
  // block per SM (from 66 blocks), 32 at 115-132 blocks and, for 3 to 8
  // rows, 344-396 (three an SM), 64 at 199-264 (two an SM); the decode
  // tiles elsewhere and for longer K.
  std::vector<DispatchRule> nnRules =
      getDispatchRules(nn, chip("sm_90a"), false);
  EXPECT_EQ(ruleFor(nnRules, 3, 4096, 4096), "gemv-mma-n");
  EXPECT_EQ(ruleFor(nnRules, 8, 3680, 4096), "gemv-mma-n");
  EXPECT_EQ(ruleFor(nnRules, 8, 3648, 4096), "decode-split");
  EXPECT_EQ(ruleFor(nnRules, 6, 3000, 2000), "decode-split");
  EXPECT_EQ(ruleFor(nnRules, 8, 4224, 4096), "gemv-mma-n");
  EXPECT_EQ(ruleFor(nnRules, 8, 4225, 4096), "decode-split");
  EXPECT_EQ(ruleFor(nnRules, 7, 5000, 3000), "decode-split");
  // (K = 2048 here: from K = 4096 on decode-wgmma-n takes these grids.)
  EXPECT_EQ(ruleFor(nnRules, 8, 8417, 2048), "decode");
  EXPECT_EQ(ruleFor(nnRules, 8, 10976, 2048), "decode");
  EXPECT_EQ(ruleFor(nnRules, 8, 10977, 2048), "gemv-mma-n-many");
  EXPECT_EQ(ruleFor(nnRules, 8, 11008, 2048), "gemv-mma-n-many");
  EXPECT_EQ(ruleFor(nnRules, 8, 12672, 2048), "gemv-mma-n-many");
  EXPECT_EQ(ruleFor(nnRules, 8, 12673, 2048), "gemv-mma-n-wide");
  EXPECT_EQ(ruleFor(nnRules, 4, 14336, 2048), "gemv-mma-n-wide");
  EXPECT_EQ(ruleFor(nnRules, 4, 16896, 2048), "gemv-mma-n-wide");
  EXPECT_EQ(ruleFor(nnRules, 4, 16897, 2048), "decode");
  EXPECT_EQ(ruleFor(nnRules, 6, 8888, 2896, /*batch=*/2), "decode");
  EXPECT_EQ(ruleFor(nnRules, 4, 2048, 1024), "gemv-mma-n-narrow");
  EXPECT_EQ(ruleFor(nnRules, 4, 2096, 1024), "gemv-mma-n-narrow");
  EXPECT_EQ(ruleFor(nnRules, 4, 2097, 1024), "decode-split");
  EXPECT_EQ(ruleFor(nnRules, 5, 4097, 4093), "gemv-mma-n");
  EXPECT_EQ(ruleFor(nnRules, 8, 4096, 4097), "decode-split");
  EXPECT_EQ(ruleFor(nnRules, 8, 4096, 255), "small");
  EXPECT_EQ(ruleFor(nnRules, 13, 1056, 4096), "gemv-mma-16-n-narrow");
  EXPECT_EQ(ruleFor(nnRules, 16, 4096, 4096), "gemv-mma-16-n");
  EXPECT_EQ(ruleFor(nnRules, 11, 4097, 4093), "gemv-mma-16-n");
  EXPECT_EQ(ruleFor(nnRules, 16, 14336, 2048), "decode");
  EXPECT_EQ(ruleFor(nnRules, 16, 1024, 4096), "decode-split");
  // 3 to 16 rows, K from 4096 and 64 x 128 tiles on more than half the SMs
  // (67 blocks) up to one wave (132), or two waves the second of which is
  // at least 4/5 full (212-264): decode-64x128's tile on cp.async (eight
  // stages); not for one or two rows, 17, shorter K, other grids or the
  // mma.sync family of sm_90.
  EXPECT_EQ(ruleFor(nnRules, 8, 11008, 4096), "decode-wgmma-n");
  EXPECT_EQ(ruleFor(nnRules, 4, 14336, 4096), "decode-wgmma-n");
  EXPECT_EQ(ruleFor(nnRules, 16, 14336, 4096), "decode-wgmma-n");
  EXPECT_EQ(ruleFor(nnRules, 3, 8449, 4096), "decode-wgmma-n");
  EXPECT_EQ(ruleFor(nnRules, 16, 16896, 4096), "decode-wgmma-n");
  EXPECT_EQ(ruleFor(nnRules, 8, 8192, 4096, /*batch=*/2), "decode-wgmma-n");
  EXPECT_EQ(ruleFor(nnRules, 12, 28672, 8192), "decode-wgmma-n-two-waves");
  EXPECT_EQ(ruleFor(nnRules, 4, 32000, 4096), "decode-wgmma-n-two-waves");
  EXPECT_EQ(ruleFor(nnRules, 16, 27009, 4096), "decode-wgmma-n-two-waves");
  EXPECT_EQ(ruleFor(nnRules, 16, 33792, 4096), "decode-wgmma-n-two-waves");
  for (auto [m, n, k] : {std::tuple<int64_t, int64_t, int64_t>{3, 8448, 4096},
                         {8, 8192, 8192},
                         {16, 16897, 4096},
                         {16, 27008, 4096},
                         {16, 33793, 4096},
                         {16, 128256, 4096}})
    EXPECT_FALSE(
        llvm::StringRef(ruleFor(nnRules, m, n, k)).starts_with("decode-wgmma"))
        << m << "x" << n << "x" << k;
  // decode-64x128's tile, loaded by all warps through cp.async.
  auto expectDecode64x128OnCpAsync = [](const std::vector<DispatchRule> &rules,
                                        llvm::StringRef name) {
    TileConfig wgmma = findRule(rules, name)->config;
    TileConfig tma = findRule(rules, "decode-64x128")->config;
    EXPECT_FALSE(wgmma.tmaLoad) << name.str();
    EXPECT_FALSE(wgmma.producerWarp) << name.str();
    wgmma.tmaLoad = tma.tmaLoad;
    wgmma.producerWarp = tma.producerWarp;
    EXPECT_EQ(wgmma, tma) << name.str();
  };
  expectDecode64x128OnCpAsync(nnRules, "decode-wgmma-n");
  EXPECT_NE(ruleFor(nnRules, 3, 7168, 4096), "decode-wgmma-n");
  EXPECT_NE(ruleFor(nnRules, 8, 11008, 4095), "decode-wgmma-n");
  EXPECT_EQ(ruleFor(nnRules, 2, 8192, 8192), "gemv-n-2");
  EXPECT_EQ(ruleFor(nnRules, 17, 8192, 8192), "decode-32-cluster");
  // On a K-contiguous B (tn) the same tile and grids for aligned rows, K
  // from 4096 (3 to 8 rows) or 2048 (9 to 16); not for tt, misaligned rows
  // (gemv-mma reads them in place) or sm_90.
  EXPECT_EQ(ruleFor(rules, 8, 11008, 4096), "decode-wgmma");
  EXPECT_EQ(ruleFor(rules, 3, 8449, 4096), "decode-wgmma");
  EXPECT_EQ(ruleFor(rules, 4, 32000, 8192), "decode-wgmma-two-waves");
  EXPECT_EQ(ruleFor(rules, 16, 11008, 4096), "decode-wgmma-16");
  EXPECT_EQ(ruleFor(rules, 12, 14336, 2048), "decode-wgmma-16");
  EXPECT_EQ(ruleFor(rules, 12, 28672, 8192), "decode-wgmma-16-two-waves");
  EXPECT_EQ(ruleFor(rules, 16, 14336, 2047), "gemv-mma-16");
  EXPECT_EQ(ruleFor(rules, 16, 22528, 4096), "gemv-mma-16");
  EXPECT_EQ(ruleFor(rules, 16, 8192, 8192), "gemv-mma-16");
  EXPECT_EQ(rules[chooseRule(rules, 16, 11008, 4096, 1, /*aAligned=*/false,
                             /*bAligned=*/false)]
                .name,
            "gemv-mma-16");
  expectDecode64x128OnCpAsync(rules, "decode-wgmma");
  EXPECT_EQ(findRule(rules, "decode-wgmma-16")->config,
            findRule(rules, "decode-wgmma")->config);
  EXPECT_EQ(
      findRule(getDispatchRules(tt, chip("sm_90a"), false), "decode-wgmma"),
      nullptr);
  EXPECT_EQ(
      findRule(getDispatchRules(nn, chip("sm_90"), false), "decode-wgmma-n"),
      nullptr);
  EXPECT_EQ(
      findRule(getDispatchRules(f16tn(), chip("sm_90"), false), "decode-wgmma"),
      nullptr);
  EXPECT_EQ(findRule(nnRules, "gemv-mma-16-n-many"), nullptr);
  // A B whose rows rule out 16-byte copies (odd N): the gemv-mma tiles
  // whatever the grid and K from 256 on, where the others would pack B;
  // 16 columns while one wave of three blocks an SM holds them (396), then
  // 32, then (3 to 8 rows) 64. A misaligned A alone changes nothing.
  EXPECT_EQ(ruleForUnalignedB(nnRules, 5, 4097, 4093),
            "gemv-mma-n-unaligned-narrow");
  EXPECT_EQ(ruleForUnalignedB(nnRules, 5, 4097, 4093, 1, /*aAligned=*/false),
            "gemv-mma-n-unaligned-narrow");
  EXPECT_EQ(ruleForUnalignedB(nnRules, 3, 1056, 4096),
            "gemv-mma-n-unaligned-narrow");
  EXPECT_EQ(ruleForUnalignedB(nnRules, 3, 1040, 4096), "decode-split");
  EXPECT_EQ(ruleForUnalignedB(nnRules, 3, 1040, 4096, /*batch=*/2),
            "gemv-mma-n-unaligned-narrow");
  EXPECT_EQ(ruleForUnalignedB(nnRules, 8, 6336, 100000),
            "gemv-mma-n-unaligned-narrow");
  EXPECT_EQ(ruleForUnalignedB(nnRules, 8, 6337, 4096), "gemv-mma-n-unaligned");
  EXPECT_EQ(ruleForUnalignedB(nnRules, 8, 8417, 4096), "gemv-mma-n-unaligned");
  EXPECT_EQ(ruleForUnalignedB(nnRules, 8, 12672, 4096), "gemv-mma-n-unaligned");
  EXPECT_EQ(ruleForUnalignedB(nnRules, 8, 12673, 4096),
            "gemv-mma-n-unaligned-wide");
  EXPECT_EQ(ruleForUnalignedB(nnRules, 4, 65536, 8192),
            "gemv-mma-n-unaligned-wide");
  EXPECT_EQ(ruleForUnalignedB(nnRules, 6, 8888, 2896, /*batch=*/2),
            "gemv-mma-n-unaligned-wide");
  EXPECT_EQ(ruleForUnalignedB(nnRules, 12, 5001, 3000),
            "gemv-mma-16-n-unaligned-narrow");
  EXPECT_EQ(ruleForUnalignedB(nnRules, 16, 8193, 8192),
            "gemv-mma-16-n-unaligned");
  // 16 rows: one load a lane where its grid (265 to 396 blocks of 32
  // columns) is one wave of three blocks an SM and two loads' is not.
  EXPECT_EQ(ruleForUnalignedB(nnRules, 16, 8447, 4096),
            "gemv-mma-16-n-unaligned");
  EXPECT_EQ(ruleForUnalignedB(nnRules, 16, 8449, 4096),
            "gemv-mma-16-n-unaligned-many");
  EXPECT_EQ(ruleForUnalignedB(nnRules, 9, 9999, 1000),
            "gemv-mma-16-n-unaligned-many");
  EXPECT_EQ(ruleForUnalignedB(nnRules, 13, 12671, 2048),
            "gemv-mma-16-n-unaligned-many");
  EXPECT_EQ(ruleForUnalignedB(nnRules, 13, 12673, 2048),
            "gemv-mma-16-n-unaligned");
  EXPECT_EQ(ruleForUnalignedB(nnRules, 16, 30001, 1024),
            "gemv-mma-16-n-unaligned");
  EXPECT_EQ(ruleForUnalignedB(nnRules, 8, 4096, 255), "small");
  EXPECT_EQ(ruleForUnalignedB(nnRules, 17, 4096, 4096), "decode-32-split");
  EXPECT_EQ(ruleForUnalignedB(nnRules, 8, 11009, 4096), "gemv-mma-n-unaligned");
  EXPECT_EQ(ruleFor(nnRules, 8, 8577, 4096), "decode-wgmma-n");
  // A misaligned alone: the same tiles for 3 to 8 rows and K up to 2048 on
  // the grids the aligned rules leave to decode; decode past that.
  auto ruleForUnalignedA = [&](int64_t m, int64_t n, int64_t k) {
    return nnRules[chooseRule(nnRules, m, n, k, 1, /*aAligned=*/false,
                              /*bAligned=*/true)]
        .name;
  };
  EXPECT_EQ(ruleForUnalignedA(8, 8577, 4096), "decode-wgmma-n");
  EXPECT_EQ(ruleForUnalignedA(8, 6000, 2047), "gemv-mma-n-unaligned-a-narrow");
  EXPECT_EQ(ruleForUnalignedA(3, 3000, 511), "gemv-mma-n-unaligned-a-narrow");
  EXPECT_EQ(ruleForUnalignedA(7, 10000, 1023), "gemv-mma-n-unaligned-a");
  EXPECT_EQ(ruleForUnalignedA(4, 30000, 2048), "gemv-mma-n-unaligned-a-wide");
  EXPECT_EQ(ruleForUnalignedA(8, 6000, 2049), "decode-cluster");
  EXPECT_EQ(ruleForUnalignedA(12, 5000, 1999), "decode-split");
  EXPECT_EQ(ruleForUnalignedA(8, 4096, 2047), "gemv-mma-n");
  EXPECT_EQ(nnRules[chooseRule(nnRules, 7, 5000, 1023, /*batch=*/2,
                               /*aAligned=*/false, /*bAligned=*/true)]
                .name,
            "decode");
  // The same kernels as the members for aligned rows for 3 to 8 rows.
  EXPECT_EQ(findRule(nnRules, "gemv-mma-n-unaligned-narrow")->config,
            findRule(nnRules, "gemv-mma-n-narrow")->config);
  EXPECT_EQ(findRule(nnRules, "gemv-mma-n-unaligned")->config,
            findRule(nnRules, "gemv-mma-n")->config);
  EXPECT_EQ(findRule(nnRules, "gemv-mma-n-unaligned-wide")->config,
            findRule(nnRules, "gemv-mma-n-wide")->config);
  // But for 16 rows the 32-column tile keeps two loads a lane and row in
  // flight (one on aligned rows): one more kernel.
  EXPECT_EQ(findRule(nnRules, "gemv-mma-16-n-unaligned")->config,
            makeGemvMmaConfig(16, 32, 8, /*unroll=*/2));
  EXPECT_NE(findRule(nnRules, "gemv-mma-16-n-unaligned")->config,
            findRule(nnRules, "gemv-mma-16-n")->config);
  EXPECT_EQ(findRule(nnRules, "gemv-mma-16-n-unaligned-narrow")->config,
            findRule(nnRules, "gemv-mma-16-n-narrow")->config);
  EXPECT_EQ(findRule(nnRules, "gemv-mma-16-n-unaligned-many")->config,
            findRule(nnRules, "gemv-mma-16-n")->config);
  EXPECT_EQ(findRule(rules, "gemv-mma-n-unaligned"), nullptr);
  const DispatchRule *mmaN = findRule(nnRules, "gemv-mma-n-wide");
  ASSERT_NE(mmaN, nullptr);
  EXPECT_TRUE(isGemvMma(mmaN->config));
  EXPECT_EQ(mmaN->config.bn, 64);
  EXPECT_EQ(findRule(rules, "gemv-mma-n"), nullptr);
  EXPECT_EQ(findRule(nnRules, "gemv-mma"), nullptr);
  // Not for 8-bit operands: the decode tiles.
  GemmSignature i8 = f16tn();
  i8.a = ElemKind::i8, i8.acc = ElemKind::i32;
  EXPECT_EQ(ruleFor(getDispatchRules(i8, chip("sm_90a"), false), 4, 4096, 4096),
            "decode-split");
  // Decode: M <= 16 (here nn) and long K; split while the 16 x 128 grid
  // fills less than half the SMs.
  EXPECT_EQ(ruleFor(nnRules, 16, 4096, 11008), "decode-split");
  // (nn from K = 4096 on: decode-wgmma-n on these grids.)
  EXPECT_EQ(ruleFor(nnRules, 16, 14336, 3000), "decode");
  EXPECT_EQ(ruleFor(nnRules, 8, 11008, 8192), "decode-wgmma-n");
  EXPECT_EQ(ruleFor(rules, 17, 4096, 4096), "decode-32-split");
  EXPECT_EQ(ruleFor(rules, 32, 14336, 4096), "decode-32");
  // Reduced in clusters where the clusters run as many slices as the
  // workspace would (45 to 65 blocks: 2 slices).
  EXPECT_EQ(ruleFor(nnRules, 3, 7168, 8192), "decode-cluster");
  EXPECT_EQ(ruleFor(nnRules, 16, 5633, 8192), "decode-cluster");
  EXPECT_EQ(ruleFor(nnRules, 16, 5632, 8192), "decode-split");
  EXPECT_EQ(ruleFor(rules, 24, 7168, 4096), "decode-32-cluster");
  // 33 <= M <= 256 with K >= 512: the widest wgmma tile whose grid fits
  // one wave: 128 x 128 past 64 rows from half a wave on, one row of
  // 64 x 64 tiles up to 64 rows from a quarter wave on, else 64 x 128.
  EXPECT_EQ(ruleFor(rules, 33, 4096, 4096), "decode-64x64");
  EXPECT_EQ(ruleFor(rules, 64, 4096, 4096), "decode-64x64");
  EXPECT_EQ(ruleFor(rules, 64, 8448, 4096), "decode-64x64");
  EXPECT_EQ(ruleFor(rules, 64, 8449, 4096), "decode-64x128");
  EXPECT_EQ(ruleFor(rules, 48, 14336, 4096), "decode-64x128");
  EXPECT_EQ(ruleFor(rules, 65, 4096, 4096), "decode-64x128");
  EXPECT_EQ(ruleFor(rules, 128, 4096, 4096), "decode-64x128");
  EXPECT_EQ(ruleFor(rules, 65, 8320, 4096), "decode-64x128");
  EXPECT_EQ(ruleFor(rules, 65, 8448, 4096), "decode-128x128");
  EXPECT_EQ(ruleFor(rules, 128, 11008, 4096), "decode-128x128");
  EXPECT_EQ(ruleFor(rules, 77, 5001, 2000), "decode-64x128");
  EXPECT_EQ(ruleFor(rules, 96, 2112, 4096), "decode-64x128");
  // Long K on at most half a wave of 64 x 64 tiles: two slices.
  EXPECT_EQ(ruleFor(rules, 64, 4096, 11008), "decode-64x64-split");
  EXPECT_EQ(ruleFor(rules, 96, 4096, 11008), "decode-64x128");
  // K from 512 (one fill of the ring), 129-192 rows in 192 x 128 tiles and
  // 193-256 in 128 x 64 ones from half a wave on, else 64 x 128.
  EXPECT_EQ(ruleFor(rules, 64, 4096, 1000), "decode-64x64");
  EXPECT_EQ(ruleFor(rules, 96, 4096, 768), "decode-64x128");
  EXPECT_EQ(ruleFor(rules, 48, 8192, 512), "decode-64x64");
  EXPECT_EQ(ruleFor(rules, 256, 4096, 4096), "decode-128x64");
  EXPECT_EQ(ruleFor(rules, 193, 4096, 4096), "decode-128x64");
  EXPECT_EQ(ruleFor(rules, 224, 2112, 1024), "decode-128x64");
  // 128 x 64 below half a wave: 64 x 128 (the same blocks).
  EXPECT_EQ(ruleFor(rules, 256, 2048, 8192), "decode-64x128");
  EXPECT_EQ(ruleFor(rules, 160, 4096, 4096), "decode-64x128");
  EXPECT_EQ(ruleFor(rules, 129, 11008, 4096), "decode-192x128");
  EXPECT_EQ(ruleFor(rules, 192, 11008, 4096), "decode-192x128");
  EXPECT_NE(ruleFor(rules, 193, 11008, 4096).substr(0, 6), "decode");
  EXPECT_NE(ruleFor(rules, 257, 4096, 4096).substr(0, 6), "decode");
  // Below a quarter wave of 64 x 64 tiles: decode-64-split (from the same
  // K: below it, the small-K members).
  EXPECT_EQ(ruleFor(rules, 48, 2048, 4096), "decode-64-split");
  EXPECT_EQ(ruleFor(rules, 64, 4096, 500), "small");
  EXPECT_EQ(ruleFor(rules, 64, 65536, 1024), "short-m");
  EXPECT_EQ(ruleFor(rules, 64, 16897, 4096), "short-m");
  // K-heavy: too few blocks, long K.
  EXPECT_EQ(ruleFor(rules, 64, 64, 65536), "split-k-narrow");
  EXPECT_EQ(ruleFor(rules, 96, 80, 32768), "split-k");
  // Problems one wave of 64 x 64 tiles covers.
  EXPECT_EQ(ruleFor(rules, 8, 8, 8), "small");
  EXPECT_EQ(ruleFor(rules, 128, 128, 128), "small");
  EXPECT_EQ(ruleFor(rules, 333, 517, 271), "small");
  // K within one mma.sync step, up to 8 blocks of 64 x 64 per SM.
  EXPECT_EQ(ruleFor(rules, 1000, 1001, 1), "tiny-k");
  EXPECT_EQ(ruleFor(rules, 2000, 1500, 16), "tiny-k");
  EXPECT_EQ(ruleFor(rules, 100, 100, 1), "small");
  // K within two k-tiles over more than a wave of default tiles.
  EXPECT_EQ(ruleFor(rules, 4096, 4096, 1), "short-k");
  EXPECT_EQ(ruleFor(rules, 4096, 4096, 64), "short-k");
  EXPECT_EQ(ruleFor(rules, 384, 384, 128, 48), "short-k");
  EXPECT_EQ(ruleFor(rules, 2048, 2048, 32), "default");
  EXPECT_EQ(ruleFor(rules, 4096, 4096, 129), "default");
  EXPECT_EQ(ruleFor(rules, 65536, 48, 100), "narrow-n");
  // K within two k-tiles and N in (BN/4, BN/2]: short-k's kernel from two
  // waves of its tiles.
  EXPECT_EQ(ruleFor(rules, 619, 65, 90, 36), "short-k-narrow");
  EXPECT_EQ(ruleFor(rules, 619, 100, 90, 36), "short-k-narrow");
  EXPECT_EQ(ruleFor(rules, 65536, 128, 128), "short-k"); // 1024 blocks
  EXPECT_EQ(ruleFor(rules, 20000, 100, 128), "short-k-narrow");
  EXPECT_EQ(findRule(rules, "short-k-narrow")->config,
            findRule(rules, "short-k")->config);
  // Past one wave, N within half the default's width: mid's tile.
  EXPECT_EQ(ruleFor(rules, 619, 65, 300, 36), "half-n");
  EXPECT_EQ(ruleFor(rules, 65536, 128, 4096), "half-n");
  // Just past it, 128 x 192 tiles (wave-fit: as many blocks, a quarter
  // less area).
  EXPECT_EQ(ruleFor(rules, 65536, 129, 4096), "wave-fit");
  EXPECT_EQ(findRule(rules, "half-n")->config, findRule(rules, "mid")->config);
  // Short K cannot be split: M <= 64 takes the short tile.
  EXPECT_EQ(ruleFor(rules, 20, 16384, 256), "short-m");
  // Tall-skinny.
  EXPECT_EQ(ruleFor(rules, 65536, 48, 4096), "narrow-n");
  // One wave of half-wide tiles; 2048^3 (two waves of them) keeps the
  // default, measured faster.
  EXPECT_EQ(ruleFor(rules, 1024, 2048, 256), "mid");
  EXPECT_EQ(ruleFor(rules, 2048, 2048, 2048), "default");
  // Large square shapes: the default tile, walked persistently on whole
  // tiles.
  EXPECT_EQ(ruleFor(rules, 4096, 4096, 4096), "persistent");
  EXPECT_EQ(ruleFor(rules, 8192, 8192, 8192), "persistent");
  EXPECT_EQ(ruleFor(rules, 8192, 8192, 8191), "persistent");
  EXPECT_EQ(ruleFor(rules, 8191, 8192, 8192), "default");
  // The batch counts toward the blocks.
  EXPECT_EQ(ruleFor(rules, 128, 128, 4096, 1), "split-k");
  EXPECT_EQ(ruleFor(rules, 256, 256, 64, 32), "mid");
  EXPECT_EQ(ruleFor(rules, 128, 128, 4096, 512), "half-n");
  EXPECT_EQ(ruleFor(rules, 256, 256, 4096, 512), "default");
}

TEST(Dispatch, DecodeAndShortKTiles) {
  // f16 tn on sm_90a: a 16-row mma.sync tile 256 bytes deep with the most
  // stages that fit (6 x 36 KiB), the split member the same tile.
  std::vector<DispatchRule> rules =
      getDispatchRules(f16tn(), chip("sm_90a"), false);
  const DispatchRule *decode = findRule(rules, "decode");
  const DispatchRule *split = findRule(rules, "decode-split");
  ASSERT_TRUE(decode && split);
  EXPECT_EQ(decode->config.kind, InstrKind::mma_sync);
  EXPECT_EQ(decode->config.bm, 16);
  EXPECT_EQ(decode->config.bn, 128);
  EXPECT_EQ(decode->config.bk, 128);
  EXPECT_EQ(decode->config.stages, 6);
  EXPECT_EQ(*decode->when.mMax, 16);
  EXPECT_EQ(*decode->when.blocksMin, 66);
  EXPECT_EQ(split->split.fillBlocks, 132);
  EXPECT_EQ(split->split.minKPerSlice, 512);
  // tt: 4 stages (ptxas spilled at 5 and 6); i8 outside tn: none.
  GemmSignature tt = f16tn();
  tt.transA = true;
  std::vector<DispatchRule> ttRules =
      getDispatchRules(tt, chip("sm_90a"), false);
  ASSERT_TRUE(findRule(ttRules, "decode"));
  EXPECT_EQ(findRule(ttRules, "decode")->config.stages, 4);
  GemmSignature i8nn;
  i8nn.a = ElemKind::i8, i8nn.acc = ElemKind::i32, i8nn.transB = false;
  std::vector<DispatchRule> i8nnRules =
      getDispatchRules(i8nn, chip("sm_90a"), false);
  EXPECT_EQ(findRule(i8nnRules, "decode"), nullptr);
  GemmSignature i8tn;
  i8tn.a = ElemKind::i8, i8tn.acc = ElemKind::i32;
  std::vector<DispatchRule> i8tnRules =
      getDispatchRules(i8tn, chip("sm_90a"), false);
  const DispatchRule *i8decode = findRule(i8tnRules, "decode");
  ASSERT_TRUE(i8decode);
  EXPECT_EQ(i8decode->config.bk, 256);
  EXPECT_EQ(i8decode->config.ik, 32);
  // A100's 163 KiB hold 4 stages of the same tile.
  std::vector<DispatchRule> a100Rules =
      getDispatchRules(f16tn(), chip("sm_80"), false);
  const DispatchRule *a100 = findRule(a100Rules, "decode");
  ASSERT_TRUE(a100);
  EXPECT_EQ(a100->config.stages, 4);
  // decode-32: 32-row tiles for 17 <= M <= 32, at most 4 stages.
  const DispatchRule *decode32 = findRule(rules, "decode-32");
  ASSERT_TRUE(decode32 && findRule(rules, "decode-32-split"));
  EXPECT_EQ(decode32->config.bm, 32);
  EXPECT_EQ(decode32->config.stages, 4);
  EXPECT_EQ(*decode32->when.mMin, 17);
  EXPECT_EQ(*decode32->when.mMax, 32);
  // tiny-k: mma.sync one step deep, one stage; short-k: quarter wgmma tiles
  // with two stages, sm_90a only (measured for wgmma defaults).
  const DispatchRule *tiny = findRule(rules, "tiny-k");
  ASSERT_TRUE(tiny);
  EXPECT_EQ(tiny->config.kind, InstrKind::mma_sync);
  EXPECT_EQ(tiny->config.bk, 16);
  EXPECT_EQ(tiny->config.stages, 1);
  EXPECT_EQ(*tiny->when.kMax, 16);
  const DispatchRule *shortK = findRule(rules, "short-k");
  ASSERT_TRUE(shortK);
  EXPECT_EQ(shortK->config.bm, 64);
  EXPECT_EQ(shortK->config.bn, 128);
  EXPECT_EQ(shortK->config.stages, 2);
  EXPECT_EQ(*shortK->when.blocksMin, 4 * 132 + 1);
  std::vector<DispatchRule> sm90Rules =
      getDispatchRules(f16tn(), chip("sm_90"), false);
  EXPECT_EQ(findRule(sm90Rules, "short-k"), nullptr);
}

TEST(Dispatch, WideDecodeTiles) {
  // f16 tn on sm_90a: 128 x 128 (6 stages), 192 x 128 (5), 128 x 64,
  // 64 x 128 and 64 x 64 (8 stages), TMA loads fed by a producer warpgroup,
  // one K slice
  // but for the two of decode-64x64-split; 33 to 256 rows, K >= 512.
  std::vector<DispatchRule> rules =
      getDispatchRules(f16tn(), chip("sm_90a"), false);
  const DispatchRule *wide = findRule(rules, "decode-128x128");
  const DispatchRule *tall = findRule(rules, "decode-192x128");
  const DispatchRule *mid = findRule(rules, "decode-64x128");
  const DispatchRule *split = findRule(rules, "decode-64x64-split");
  const DispatchRule *narrow = findRule(rules, "decode-64x64");
  const DispatchRule *low = findRule(rules, "decode-128x64");
  ASSERT_TRUE(wide && tall && mid && split && narrow && low);
  for (const DispatchRule *r : {wide, tall, low, mid, split, narrow}) {
    EXPECT_EQ(r->config.kind, InstrKind::wgmma) << r->name;
    EXPECT_TRUE(r->config.tmaLoad && r->config.producerWarp) << r->name;
    // One wave in plain row order (the default groups 8 rows of tiles).
    EXPECT_EQ(r->config.group, 1) << r->name;
    if (r == split)
      continue;
    EXPECT_EQ(*r->when.kMin, 512) << r->name;
    EXPECT_EQ(*r->when.blocksMax, 132) << r->name;
  }
  EXPECT_EQ(*narrow->when.mMax, 64);
  EXPECT_EQ(*split->when.mMax, 64);
  EXPECT_EQ(*wide->when.mMax, 128);
  EXPECT_EQ(*tall->when.mMin, 129);
  EXPECT_EQ(*tall->when.mMax, 192);
  EXPECT_EQ(*mid->when.mMax, 256);
  EXPECT_EQ(tall->config.bm, 192);
  EXPECT_EQ(tall->config.wm, 3);
  EXPECT_EQ(tall->config.stages, 5);
  EXPECT_EQ(*tall->when.blocksMin, 66);
  EXPECT_EQ(low->config.bm, 128);
  EXPECT_EQ(low->config.bn, 64);
  EXPECT_EQ(low->config.wm, 2);
  EXPECT_EQ(low->config.stages, 8);
  EXPECT_EQ(*low->when.mMin, 193);
  EXPECT_EQ(*low->when.mMax, 256);
  EXPECT_EQ(*low->when.blocksMin, 66);
  EXPECT_EQ(wide->config.bm, 128);
  EXPECT_EQ(wide->config.bn, 128);
  EXPECT_EQ(wide->config.stages, 6);
  EXPECT_EQ(*wide->when.mMin, 65);
  EXPECT_EQ(*wide->when.blocksMin, 66);
  EXPECT_EQ(mid->config.bm, 64);
  EXPECT_EQ(mid->config.bn, 128);
  EXPECT_EQ(mid->config.stages, 8);
  EXPECT_EQ(*mid->when.mMin, 33);
  EXPECT_EQ(*mid->when.blocksMin, 33);
  EXPECT_EQ(narrow->config.bn, 64);
  EXPECT_EQ(narrow->config.splitK, 1);
  EXPECT_EQ(*narrow->when.blocksMin, 33);
  EXPECT_EQ(split->config.splitK, 2);
  EXPECT_EQ(split->split.maxSlices, 2);
  EXPECT_EQ(split->split.minKPerSlice, 4096);
  EXPECT_EQ(*split->when.kMin, 8192);
  EXPECT_EQ(*split->when.blocksMax, 66);
  EXPECT_EQ(split->split.slices(11008, 64), 2);
  // In this order: the 64 x 64 members before decode-64x128, which takes
  // what they leave, and mid-64x64 after it.
  const DispatchRule *midNarrow = findRule(rules, "mid-64x64");
  ASSERT_TRUE(midNarrow);
  EXPECT_TRUE(wide < tall && tall < low && low < split && split < narrow &&
              narrow < mid && mid < midNarrow);
  // mid-64x64: decode-64x64's config (one kernel for both rules) past 64
  // rows, any M, from a quarter wave of 64 x 64 tiles to one wave.
  EXPECT_EQ(midNarrow->config, narrow->config);
  EXPECT_EQ(*midNarrow->when.mMin, 65);
  EXPECT_FALSE(midNarrow->when.mMax);
  EXPECT_EQ(*midNarrow->when.kMin, 512);
  EXPECT_EQ(*midNarrow->when.blocksMin, 33);
  EXPECT_EQ(*midNarrow->when.blocksMax, 132);
  // Mid-size shapes whose 64 x 128 tiles make less than a quarter wave.
  EXPECT_EQ(ruleFor(rules, 181, 1048, 2512), "mid-64x64");
  EXPECT_EQ(ruleFor(rules, 300, 700, 2000), "mid-64x64");
  EXPECT_EQ(ruleFor(rules, 100, 2048, 1536), "mid-64x64");
  EXPECT_EQ(ruleFor(rules, 1000, 500, 2000), "mid-64x64");
  // Past 256 rows where 64 x 64 tiles pass a wave: decode-64x128's kernel.
  const DispatchRule *midWide = findRule(rules, "mid-64x128");
  ASSERT_TRUE(midWide);
  EXPECT_EQ(midWide->config, mid->config);
  EXPECT_EQ(*midWide->when.mMin, 257);
  EXPECT_FALSE(midWide->when.mMax);
  EXPECT_EQ(ruleFor(rules, 524, 1105, 534), "mid-64x128");
  EXPECT_EQ(ruleFor(rules, 1000, 1000, 2000), "mid-64x128");
  // Past 64 rows, fewer than a quarter wave of 64 x 64 tiles (8 to 32), K
  // in [2048, 16384]: decode-64x64-split's kernel in up to 4 slices.
  const DispatchRule *few = findRule(rules, "split-k-64x64");
  ASSERT_TRUE(few);
  EXPECT_EQ(few->config, split->config);
  EXPECT_EQ(few->split.maxSlices, 4);
  EXPECT_EQ(few->split.slices(3058, 28), 3);
  EXPECT_EQ(*few->when.mMin, 65);
  EXPECT_EQ(few->split.slices(4096, 16), 4);
  EXPECT_EQ(ruleFor(rules, 447, 219, 3058), "split-k-64x64");
  // Shorter K there: decode-64x64's kernel unsplit.
  const DispatchRule *fewShort = findRule(rules, "mid-64x64-few");
  ASSERT_TRUE(fewShort);
  EXPECT_EQ(fewShort->config, narrow->config);
  EXPECT_EQ(ruleFor(rules, 96, 1024, 1024), "mid-64x64-few");
  EXPECT_EQ(ruleFor(rules, 96, 1024, 2047), "mid-64x64-few");
  EXPECT_EQ(ruleFor(rules, 96, 1024, 2048), "split-k-64x64");
  EXPECT_EQ(ruleFor(rules, 96, 1024, 511), "small");
  EXPECT_EQ(ruleFor(rules, 231, 250, 2840), "split-k-64x64");
  // Outside its bounds: split-k.
  EXPECT_EQ(ruleFor(rules, 96, 80, 32768), "split-k");
  EXPECT_EQ(ruleFor(rules, 231, 250, 1024), "mid-64x64-few");
  EXPECT_EQ(ruleFor(rules, 120, 120, 1024), "split-k"); // 4 blocks
  // Every layout; not for mma.sync defaults, f32 sums of f16 only, 8-bit
  // types or tf32.
  GemmSignature nn = f16tn();
  nn.transB = false;
  EXPECT_TRUE(
      findRule(getDispatchRules(nn, chip("sm_90a"), false), "decode-64x128"));
  EXPECT_EQ(findRule(getDispatchRules(f16tn(), chip("sm_90"), false),
                     "decode-64x128"),
            nullptr);
  GemmSignature f16acc = f16tn();
  f16acc.acc = ElemKind::f16;
  GemmSignature i8tn;
  i8tn.a = ElemKind::i8, i8tn.acc = ElemKind::i32;
  for (const GemmSignature &sig : {f16acc, i8tn})
    EXPECT_EQ(
        findRule(getDispatchRules(sig, chip("sm_90a"), false), "decode-64x64"),
        nullptr);
}

TEST(Dispatch, ClusterMembers) {
  std::vector<DispatchRule> rules =
      getDispatchRules(f16tn(), chip("sm_90a"), false);
  const DispatchRule *cluster = findRule(rules, "decode-cluster");
  const DispatchRule *split = findRule(rules, "decode-split");
  ASSERT_TRUE(cluster && split && findRule(rules, "decode-32-cluster"));
  EXPECT_TRUE(cluster->config.clusterReduce);
  EXPECT_EQ(cluster->config.splitK, kMaxClusterSlices);
  EXPECT_EQ(cluster->config.bm, 16);
  EXPECT_EQ(*cluster->when.blocksMin, 45);
  EXPECT_EQ(cluster->split.clusterCapacity,
            std::vector<int64_t>(chip("sm_90a").clusterCapacity.begin(),
                                 chip("sm_90a").clusterCapacity.end()));
  // Clusters of 4 run 30 at a time on the H200: 32 blocks get 3 slices in
  // clusters where the workspace takes 4; from 45 blocks on both take 2.
  EXPECT_EQ(cluster->split.slices(4096, 32), 3);
  EXPECT_EQ(split->split.slices(4096, 32), 4);
  for (int64_t blocks = 45; blocks <= 65; ++blocks)
    EXPECT_EQ(cluster->split.slices(1 << 20, blocks),
              split->split.slices(1 << 20, blocks))
        << blocks;
  EXPECT_EQ(cluster->split.slices(4096, 200), 1);
  // K bounds the slices as it does through the workspace.
  EXPECT_EQ(cluster->split.slices(600, 45), 2);
  EXPECT_EQ(cluster->split.slices(512, 45), 1);
  // No 64-row cluster member (it lost to the workspace); tt at 3 stages.
  EXPECT_EQ(findRule(rules, "decode-64-cluster"), nullptr);
  GemmSignature tt = f16tn();
  tt.transA = true;
  std::vector<DispatchRule> ttRules =
      getDispatchRules(tt, chip("sm_90a"), false);
  ASSERT_TRUE(findRule(ttRules, "decode-cluster"));
  EXPECT_EQ(findRule(ttRules, "decode-cluster")->config.stages, 3);
  // Clusters exist from sm_90 on only.
  std::vector<DispatchRule> a100Rules =
      getDispatchRules(f16tn(), chip("sm_80"), false);
  EXPECT_EQ(findRule(a100Rules, "decode-cluster"), nullptr);
  EXPECT_TRUE(findRule(a100Rules, "decode-split"));
}

TEST(Dispatch, F8PastOneWaveRunsTheDefault) {
  // f8's default tile (192 x 128, three compute warpgroups, promoted)
  // serves every grid past one wave: persistent multicast pairs and 128 x
  // 192 tiles of two warpgroups were measured there and not kept
  // (docs/dispatch.md). The 128 x 192 config itself is legal (promoted
  // m64n192), for the tuner and explicit configs.
  GemmSignature f8 = f16tn();
  f8.a = ElemKind::f8E4M3FN;
  const TargetInfo &sm90a = chip("sm_90a");
  std::vector<DispatchRule> rules = getDispatchRules(f8, sm90a, false);
  const TileConfig &d = rules.back().config;
  EXPECT_EQ(d.bm, 192);
  EXPECT_EQ(d.bn, 128);
  EXPECT_EQ(ruleFor(rules, 4096, 4096, 4096), "default");
  EXPECT_EQ(ruleFor(rules, 16384, 4096, 4096), "default");
  for (const DispatchRule &r : rules) {
    EXPECT_FALSE(r.config.persistent) << r.name;
    EXPECT_EQ(r.config.multicast, 1) << r.name;
  }
  TileConfig two = d;
  two.bm = 128, two.wm = 2, two.bn = 192, two.in = 192, two.stages = 5;
  EXPECT_TRUE(wgmmaPromotesPartialSums(f8.a, two.in));
  EXPECT_EQ(checkConfig(two, f8, sm90a), "");
}

/// f16 and bf16 in every layout.
static std::vector<GemmSignature> sixteenBitSignatures() {
  std::vector<GemmSignature> sigs;
  for (ElemKind a : {ElemKind::f16, ElemKind::bf16}) {
    for (auto [transA, transB] :
         {std::pair(false, true), std::pair(false, false),
          std::pair(true, true), std::pair(true, false)}) {
      GemmSignature sig = f16tn();
      sig.a = a;
      sig.transA = transA;
      sig.transB = transB;
      sigs.push_back(sig);
    }
  }
  return sigs;
}

TEST(Dispatch, WaveFitTakesGridsEndingInAShortWave) {
  // f16 / bf16 in every layout: 128 x 192 tiles (two compute warpgroups of
  // m64n192) past one wave where they fill whole waves better than the
  // default's 128 x 256; the default elsewhere.
  const TargetInfo &sm90a = chip("sm_90a");
  for (const GemmSignature &sig : sixteenBitSignatures()) {
    std::vector<DispatchRule> rules = getDispatchRules(sig, sm90a, false);
    auto it = llvm::find_if(
        rules, [](const DispatchRule &r) { return r.name == "wave-fit"; });
    ASSERT_NE(it, rules.end()) << sig.layoutName().str();
    EXPECT_EQ(it->config.bm, 128);
    EXPECT_EQ(it->config.bn, 192);
    EXPECT_EQ(it->config.in, 192);
    EXPECT_EQ(it->config.wm * it->config.wn, 2);
    ASSERT_TRUE(it->when.waveFit);
    EXPECT_EQ(it->when.waveFit->wave, int64_t(sm90a.numSMs));
    EXPECT_EQ(it->when.waveFit->versusBM, rules.back().config.bm);
    EXPECT_EQ(it->when.waveFit->versusBN, rules.back().config.bn);
    EXPECT_EQ(ruleFor(rules, 3072, 3072, 4096), "wave-fit");
    EXPECT_EQ(ruleFor(rules, 2304, 2304, 4096), "wave-fit");
    EXPECT_EQ(ruleFor(rules, 4099, 4097, 4095), "wave-fit");
    // Whole tiles of the default past one wave: persistent.
    EXPECT_EQ(ruleFor(rules, 4096, 4096, 4096), "persistent");
    EXPECT_EQ(ruleFor(rules, 8192, 8192, 8192), "persistent");
    EXPECT_EQ(ruleFor(rules, 12288, 4096, 4096), "persistent");
    EXPECT_EQ(ruleFor(rules, 4100, 4096, 4096), "default");
    // Within one wave of its tiles the rules before it run, and the
    // default where that is one wave too.
    EXPECT_EQ(ruleFor(rules, 1024, 2048, 4096), "mid");
    EXPECT_EQ(ruleFor(rules, 2048, 2048, 4096), "default");
  }
  // Not for other operand types (their defaults differ or were not
  // measured with it), nor on AMD.
  GemmSignature f8 = f16tn();
  f8.a = ElemKind::f8E4M3FN;
  GemmSignature i8 = f16tn();
  i8.a = ElemKind::i8;
  i8.acc = ElemKind::i32;
  for (const GemmSignature &sig : {f8, i8})
    for (const DispatchRule &r : getDispatchRules(sig, sm90a, false))
      EXPECT_NE(r.name, "wave-fit");
  for (const DispatchRule &r : getDispatchRules(f16tn(), chip("gfx942"), false))
    EXPECT_FALSE(r.when.waveFit);
}

TEST(Dispatch, PersistentTakesWholeTilesOfAPlainGemm) {
  // f16 / bf16 in every layout: the default tile walked persistently (a
  // producer warpgroup), past one wave, where M and N are whole tiles, K
  // at least 1024 and one batch; never for a matmul with a region.
  const TargetInfo &sm90a = chip("sm_90a");
  for (const GemmSignature &sig : sixteenBitSignatures()) {
    std::vector<DispatchRule> rules = getDispatchRules(sig, sm90a, false);
    const DispatchRule *p = findRule(rules, "persistent");
    ASSERT_TRUE(p) << sig.layoutName().str();
    const TileConfig &d = rules.back().config;
    TileConfig same = p->config;
    EXPECT_TRUE(same.persistent && same.producerWarp && same.tmaLoad);
    same.persistent = d.persistent;
    same.producerWarp = d.producerWarp;
    EXPECT_EQ(same, d);
    EXPECT_FALSE(p->regionEpilogues);
    EXPECT_EQ(checkConfig(p->config, sig, sm90a), "");
    std::string layout = sig.layoutName().str();
    EXPECT_EQ(ruleFor(rules, 12288, 4096, 4096), "persistent") << layout;
    EXPECT_EQ(ruleFor(rules, 4096, 11008, 4096), "persistent") << layout;
    EXPECT_EQ(ruleFor(rules, 4096, 4096, 11008), "persistent") << layout;
    EXPECT_EQ(ruleFor(rules, 4096, 4096, 4097), "persistent") << layout;
    // A ragged edge, shorter K, a batch, one wave: not.
    EXPECT_EQ(ruleFor(rules, 4100, 4096, 4096), "default") << layout;
    EXPECT_EQ(ruleFor(rules, 4096, 4000, 4096), "default") << layout;
    EXPECT_EQ(ruleFor(rules, 8192, 8192, 1024), "persistent") << layout;
    EXPECT_EQ(ruleFor(rules, 8192, 8192, 1023), "default") << layout;
    EXPECT_EQ(ruleFor(rules, 4096, 4096, 4096, 2), "default") << layout;
    EXPECT_EQ(ruleFor(rules, 2048, 2048, 4096), "default") << layout;
    // Grids wave-fit fits keep it.
    EXPECT_EQ(ruleFor(rules, 3072, 3072, 4096), "wave-fit") << layout;
  }
  // Whole tiles at compile time: a known ragged size decides, one unknown
  // size with the other whole leaves it to run time.
  SizeBounds whole;
  whole.wholeTiles = true;
  EXPECT_EQ(whole.decide(std::nullopt, 4097, 4096, 1, 128, 256), false);
  EXPECT_EQ(whole.decide(4100, std::nullopt, 4096, 1, 128, 256), false);
  EXPECT_EQ(whole.decide(std::nullopt, 4096, 4096, 1, 128, 256), std::nullopt);
  EXPECT_EQ(whole.decide(4096, 4096, std::nullopt, 1, 128, 256), true);
  SizeBounds ragged;
  ragged.wholeTiles = false;
  EXPECT_TRUE(ragged.holds(4100, 4096, 64, 1, 128, 256));
  EXPECT_FALSE(ragged.holds(4096, 4096, 64, 1, 128, 256));
  EXPECT_FALSE(whole.intersect(ragged));
  EXPECT_EQ(whole.intersect(SizeBounds())->wholeTiles, true);
  EXPECT_FALSE(whole.empty());
  // Not for other operand types, nor on AMD.
  GemmSignature f8 = f16tn();
  f8.a = ElemKind::f8E4M3FN;
  GemmSignature tf32 = f16tn();
  tf32.a = ElemKind::f32;
  for (const GemmSignature &sig : {f8, tf32})
    for (const DispatchRule &r : getDispatchRules(sig, sm90a, true))
      EXPECT_NE(r.name, "persistent");
  for (const DispatchRule &r : getDispatchRules(f16tn(), chip("gfx942"), false))
    EXPECT_FALSE(r.when.wholeTiles);
}

TEST(Dispatch, AMDFamilyIsSplitKAndDefault) {
  std::vector<DispatchRule> rules =
      getDispatchRules(f16tn(), chip("gfx942"), false);
  ASSERT_EQ(rules.size(), 2u);
  EXPECT_EQ(rules[0].name, "split-k");
  EXPECT_EQ(rules[1].name, "default");
}

TEST(Dispatch, Bounds) {
  SizeBounds b;
  EXPECT_TRUE(b.empty());
  EXPECT_TRUE(b.holds(1, 1, 1, 1, 64, 64));
  b.mMax = 16;
  b.kMin = 512;
  EXPECT_FALSE(b.empty());
  EXPECT_TRUE(b.holds(16, 1, 512, 1, 64, 64));
  EXPECT_FALSE(b.holds(17, 1, 512, 1, 64, 64));
  EXPECT_FALSE(b.holds(16, 1, 511, 1, 64, 64));
  SizeBounds blocks;
  blocks.blocksMax = 4;
  // 2 x 2 tiles of 64 x 64, times the batch.
  EXPECT_TRUE(blocks.holds(128, 128, 1, 1, 64, 64));
  EXPECT_FALSE(blocks.holds(129, 128, 1, 1, 64, 64));
  EXPECT_FALSE(blocks.holds(128, 128, 1, 2, 64, 64));
  // Unknown sizes: decided only where the known ones settle it.
  EXPECT_EQ(b.decide(std::nullopt, 1, 512, 1, 64, 64), std::nullopt);
  EXPECT_EQ(b.decide(std::nullopt, 1, 511, 1, 64, 64), false);
  EXPECT_EQ(b.decide(16, std::nullopt, 512, std::nullopt, 64, 64), true);
  EXPECT_EQ(blocks.decide(128, std::nullopt, 1, 1, 64, 64), std::nullopt);
  // Alignment conditions: held by the operands' alignment, undecided while
  // it is unknown.
  SizeBounds unaligned;
  unaligned.bAligned = false;
  EXPECT_FALSE(unaligned.empty());
  EXPECT_FALSE(unaligned.holds(1, 1, 1, 1, 64, 64));
  EXPECT_TRUE(unaligned.holds(1, 1, 1, 1, 64, 64, /*aAligned=*/true,
                              /*bAligned=*/false));
  EXPECT_EQ(unaligned.decide(1, 1, 1, 1, 64, 64, {true, std::nullopt}),
            std::nullopt);
  EXPECT_EQ(unaligned.decide(1, 1, 1, 1, 64, 64, {std::nullopt, false}), true);
  // A known size that fails decides whatever the alignment.
  unaligned.mMax = 8;
  EXPECT_EQ(unaligned.decide(9, 1, 1, 1, 64, 64, {std::nullopt, std::nullopt}),
            false);
  SizeBounds aligned;
  aligned.aAligned = true;
  EXPECT_TRUE(aligned.holds(1, 1, 1, 1, 64, 64));
  EXPECT_FALSE(aligned.holds(1, 1, 1, 1, 64, 64, /*aAligned=*/false, true));
  // Saturates rather than wrapping.
  EXPECT_EQ(
      countBlocks(int64_t(1) << 40, int64_t(1) << 40, int64_t(1) << 40, 1, 1),
      std::numeric_limits<int64_t>::max());
}

TEST(Dispatch, SliceCount) {
  SplitPolicy p{128, 264, 256};
  // floor(264 / 32 blocks) = 8 slices (256 blocks: one wave of two per SM),
  // K allows 16.
  EXPECT_EQ(p.slices(4096, 32), 8);
  // K allows ceil(1000 / 256) = 4.
  EXPECT_EQ(p.slices(1000, 1), 4);
  // The maximum.
  EXPECT_EQ(p.slices(1 << 20, 1), 128);
  // At least one, for K = 0 and for grids over the fill.
  EXPECT_EQ(p.slices(0, 1), 1);
  EXPECT_EQ(p.slices(4096, 1000), 1);
  // An explicit config: exactly split_k, unless K has fewer k-tiles.
  TileConfig c;
  c.bk = 64;
  c.splitK = 4;
  SplitPolicy e = explicitSplitPolicy(c);
  EXPECT_EQ(e.slices(4096, 1 << 20), 4);
  EXPECT_EQ(e.slices(100, 1), 2);
}

TEST(Dispatch, SizeBoundsIntersect) {
  SizeBounds a, b;
  a.mMax = 255;
  a.kMin = 1024;
  b.mMin = 17;
  b.mMax = 32;
  b.blocksMin = 66;
  std::optional<SizeBounds> r = a.intersect(b);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->mMin, std::optional<int64_t>(17));
  EXPECT_EQ(r->mMax, std::optional<int64_t>(32));
  EXPECT_EQ(r->kMin, std::optional<int64_t>(1024));
  EXPECT_EQ(r->blocksMin, std::optional<int64_t>(66));
  EXPECT_FALSE(r->nMin || r->nMax || r->kMax);
  // Disjoint ranges of M: nothing satisfies both.
  SizeBounds c;
  c.mMin = 256;
  EXPECT_FALSE(a.intersect(c));
  // Alignment conditions: both kept, and contradicting ones satisfy nothing.
  SizeBounds bUnaligned, bAligned, aAligned;
  bUnaligned.bAligned = false;
  bAligned.bAligned = true;
  aAligned.aAligned = true;
  EXPECT_FALSE(bUnaligned.intersect(bAligned));
  std::optional<SizeBounds> both = bUnaligned.intersect(aAligned);
  ASSERT_TRUE(both);
  EXPECT_EQ(both->aAligned, std::optional<bool>(true));
  EXPECT_EQ(both->bAligned, std::optional<bool>(false));
  // The empty bounds are the identity.
  std::optional<SizeBounds> same = a.intersect(SizeBounds());
  ASSERT_TRUE(same);
  EXPECT_EQ(same->mMax, a.mMax);
  EXPECT_EQ(same->kMin, a.kMin);
  // A wave fit is kept from either side; two different ones satisfy
  // nothing that one SizeBounds could say.
  SizeBounds fit, otherFit;
  fit.waveFit = WaveFit{132, 128, 256, 75, 94};
  otherFit.waveFit = WaveFit{132, 128, 256, 5, 6};
  std::optional<SizeBounds> kept = a.intersect(fit);
  ASSERT_TRUE(kept && kept->waveFit);
  EXPECT_EQ(*kept->waveFit, *fit.waveFit);
  EXPECT_TRUE(fit.intersect(fit));
  EXPECT_FALSE(fit.intersect(otherFit));
  EXPECT_FALSE(fit.empty());
}

TEST(Dispatch, WaveFitCountsWholeWaves) {
  // 128 x 192 tiles against 128 x 256 ones, waves of 132 blocks, weights
  // 75 : 94 (192 x 100 : 256 x 94).
  SizeBounds when;
  when.waveFit = WaveFit{132, 128, 256, 75, 94};
  // 3072^2: 384 tiles in 3 waves against 288 in 3: 225 <= 282.
  EXPECT_TRUE(when.holds(3072, 3072, 4096, 1, 128, 192));
  // 4096^2: 704 tiles in 6 waves against 512 in 4: 450 > 376.
  EXPECT_FALSE(when.holds(4096, 4096, 4096, 1, 128, 192));
  // 4099 x 4097: 726 in 6 against 561 in 5: 450 <= 470.
  EXPECT_TRUE(when.holds(4099, 4097, 4095, 1, 128, 192));
  // Batches multiply the blocks of both tiles: 4 x 1536^2, 384 in 3
  // against 288 in 3.
  EXPECT_TRUE(when.holds(1536, 1536, 64, 4, 128, 192));
  // Equal waves of equal tiles hold (<=), and K plays no part.
  SizeBounds same;
  same.waveFit = WaveFit{132, 128, 192, 1, 1};
  EXPECT_TRUE(same.holds(1000, 1000, 1, 1, 128, 192));
  // Unknown M, N or batch leave it undecided; a known bound that fails
  // decides it.
  EXPECT_EQ(when.decide(std::nullopt, 3072, 4096, 1, 128, 192), std::nullopt);
  EXPECT_EQ(when.decide(3072, 3072, std::nullopt, 1, 128, 192),
            std::optional<bool>(true));
  when.mMax = 100;
  EXPECT_EQ(when.decide(3072, std::nullopt, 4096, 1, 128, 192),
            std::optional<bool>(false));
  // Saturates rather than wrapping: two waves of the largest weight
  // against one of weight 1.
  SizeBounds huge;
  huge.waveFit = WaveFit{1, 2, 1, std::numeric_limits<int64_t>::max(), 1};
  EXPECT_FALSE(huge.holds(2, 1, 1, 1, 1, 1));
}
