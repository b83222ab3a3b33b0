//===- Dispatch.h - Kernel families chosen per shape ------------*- C++ -*-===//
//
// One config cannot serve every shape: a 128 x 256 tile leaves most of the
// GPU idle on a decode GEMM (M = 1, N = 4096: 16 blocks), on a K-heavy one
// (M = N = 64: one block) or on a narrow one (N = 32: seven eighths of every
// tile wasted). A gemm.matmul whose sizes are not all known is lowered to a
// family of kernels and host code that picks one from the actual sizes
// before the launch; static sizes get the member the same rules pick.
//
// The rules are ordered; the first whose bounds hold is taken, and the last
// holds always. Their bounds are over M, N, K, batch, the member's own
// block count and whether A and B allow 16-byte copies, so any runtime can
// evaluate them from the manifest and the operands (docs/dispatch.md). Split-K
// members run `slices` K slices (SplitPolicy) and a reduction that applies the
// epilogue once.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_TUNING_DISPATCH_H
#define GEMM_TUNING_DISPATCH_H

#include "gemm/Target/TargetInfo.h"
#include "gemm/Target/TileConfig.h"
#include "llvm/ADT/ArrayRef.h"
#include <optional>
#include <string>
#include <vector>

namespace mlir::gemm {

/// The number of K slices a split-K kernel runs (config split_k > 1):
///   slices = maxSlices,
///   min(slices, floor(fillBlocks / blocks)) if fillBlocks > 0 (the grid
///   stays within fillBlocks: a second wave of a few blocks would cost as
///   much as the first),
///   min(slices, ceil(K / minKPerSlice)),
///   min(slices, c) if clusterCapacity is set, c the largest s with
///   blocks <= clusterCapacity[s - 1] (the grid's clusters of s blocks run
///   in one wave; the capacities do not increase with s),
///   and at least 1,
/// with blocks = batch * ceil(M / BM) * ceil(N / BN). An explicit config's
/// split_k = S is {S, 0, BK}: S slices, none of them empty when K allows.
struct SplitPolicy {
  int64_t maxSlices = 1;
  int64_t fillBlocks = 0;
  int64_t minKPerSlice = 1;
  /// `reduction = cluster` members: TargetInfo::clusterCapacity.
  std::vector<int64_t> clusterCapacity;

  int64_t slices(int64_t k, int64_t blocks) const;
  bool operator==(const SplitPolicy &o) const {
    return maxSlices == o.maxSlices && fillBlocks == o.fillBlocks &&
           minKPerSlice == o.minKPerSlice &&
           clusterCapacity == o.clusterCapacity;
  }
};

/// The split policy of an explicit config: split_k slices of at least one
/// k-tile each.
SplitPolicy explicitSplitPolicy(const TileConfig &config);

/// Whether A and B allow 16-byte copies: a 16-byte aligned first element,
/// an inner stride of 1 and outer strides of whole 16 bytes (what the
/// kernels' vector copies need and what decides packing, docs/runtime.md);
/// std::nullopt where unknown (at compile time).
struct OperandAlignment {
  std::optional<bool> a = true, b = true;
};

/// A grid's fit to whole waves against another tile's: holds when
///   weight * ceil(blocks / wave) <= versusWeight * ceil(versusBlocks / wave)
/// with blocks = batch * ceil(M / BM) * ceil(N / BN) for the rule's tile and
/// versusBlocks the same for a versusBM x versusBN tile (the family's
/// default), both holding as many blocks per SM (a wave is the SMs times
/// that). The weights are the tiles' areas scaled by the gain the rule asks
/// for, in lowest terms: 128 x 192 tiles that must cover the grid in whole
/// waves with 6% less area than 128 x 256 ones have 75 and 94 (192 x 100 :
/// 256 x 94). Grids of 128 x 256 tiles that end in a short last wave (3072
/// x 3072: 288 tiles, 2.2 waves of 132, so 3 waves) fill nearly whole waves
/// of 128 x 192 ones (384 tiles, 2.9 waves; 75 x 3 <= 94 x 3).
struct WaveFit {
  int64_t wave = 1;
  int64_t versusBM = 1, versusBN = 1;
  int64_t weight = 1, versusWeight = 1;

  /// Whether it holds for `blocks` of the rule's tile, m, n and batch.
  bool holds(int64_t blocks, int64_t m, int64_t n, int64_t batch) const;
  bool operator==(const WaveFit &o) const {
    return wave == o.wave && versusBM == o.versusBM && versusBN == o.versusBN &&
           weight == o.weight && versusWeight == o.versusWeight;
  }
};

/// Inclusive bounds on a GEMM's sizes, and conditions on its operands'
/// alignment; an absent bound always holds. `blocks` is batch * ceil(M /
/// BM) * ceil(N / BN) for the rule's tile. `aAligned` (`bAligned`) holds
/// when A's (B's) OperandAlignment is that value: a rule for operands whose
/// rows rule out 16-byte copies, which the other members would pack.
/// `waveFit` holds when the rule's tile fills whole waves better than
/// another tile (WaveFit). `wholeTiles` holds when whether M and N are
/// multiples of the rule's BM and BN (no ragged edge tile) is that value.
struct SizeBounds {
  std::optional<int64_t> mMin, mMax, nMin, nMax, kMin, kMax, batchMin, batchMax,
      blocksMin, blocksMax;
  std::optional<bool> aAligned, bAligned, wholeTiles;
  std::optional<WaveFit> waveFit;

  /// For known sizes and alignment (both operands aligned by default).
  bool holds(int64_t m, int64_t n, int64_t k, int64_t batch, int64_t bm,
             int64_t bn, bool aAligned = true, bool bAligned = true) const;
  /// holds() for sizes and alignment that may be unknown (std::nullopt,
  /// e.g. dynamic at compile time): false if a known fact fails its bound,
  /// true if every bounded fact is known and holds, std::nullopt otherwise.
  std::optional<bool> decide(std::optional<int64_t> m, std::optional<int64_t> n,
                             std::optional<int64_t> k,
                             std::optional<int64_t> batch, int64_t bm,
                             int64_t bn, OperandAlignment align = {}) const;
  bool empty() const;
  /// The bounds of both `this` and `other` (each size's larger minimum and
  /// smaller maximum, the alignment conditions of both, the wave fit of
  /// either); std::nullopt if no GEMM satisfies them, or if both have wave
  /// fits and they differ (one SizeBounds holds one: the family's rules
  /// carry them, the bounds they are intersected with never do).
  std::optional<SizeBounds> intersect(const SizeBounds &other) const;
};

/// batch * ceil(m / bm) * ceil(n / bn), saturating at INT64_MAX.
int64_t countBlocks(int64_t m, int64_t n, int64_t batch, int64_t bm,
                    int64_t bn);

/// One member of a kernel family and when it runs.
struct DispatchRule {
  SizeBounds when;
  TileConfig config;
  /// Meaningful when config.splitK > 1.
  SplitPolicy split;
  /// The shape class the rule serves ("split-k", "narrow-n", "default"...),
  /// for the manifest and remarks.
  std::string name;
  /// False: the member serves a gemm.matmul without an epilogue region only
  /// (its measurements were of the plain GEMM; a fused region ran slower
  /// in it). Families of a matmul with a region leave it out.
  bool regionEpilogues = true;
};

/// The kernel family of a GEMM of signature `sig` on `target` (ordered; the
/// last rule is the default config and holds always). Every config is legal
/// for the signature (unittests/DispatchTest.cpp).
std::vector<DispatchRule> getDispatchRules(const GemmSignature &sig,
                                           const TargetInfo &target,
                                           bool allowTf32);

/// The index of the first rule of `rules` that holds for the sizes and the
/// operands' alignment.
size_t chooseRule(llvm::ArrayRef<DispatchRule> rules, int64_t m, int64_t n,
                  int64_t k, int64_t batch, bool aAligned = true,
                  bool bAligned = true);

} // namespace mlir::gemm

#endif // GEMM_TUNING_DISPATCH_H
