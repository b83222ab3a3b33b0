//===- Dispatch.cpp - Kernel families chosen per shape at run time --------===//
//
// The family is derived from the signature's default config
// (DefaultConfig.cpp) by resizing its block tile for the shape classes one
// tile serves badly, each member kept only if it is legal
// (gemm/Target/Legality.h):
//
//   split-k-narrow, split-k
//             the grid of a small tile does not fill one wave and K is long:
//             K-heavy GEMMs (M, N below 100) and decode (M up to 16, N in
//             the thousands) get their parallelism from K slices;
//   gemv, gemv-2
//             M = 1 (M = 2 where the decode tile would split K) with a
//             K-contiguous B (tn, tt) and N in the thousands: no shared
//             memory, each warp streams two rows of B through registers
//             (Gemv.cpp);
//   gemv-mma, gemv-mma-16
//             3 to 8 (9 to 16) rows of A, likewise, the products on
//             mma.sync (GemvMma.cpp);
//   gemv-mma-n-unaligned(-narrow, -wide), gemv-mma-16-n-unaligned(-narrow)
//             the same on a B stored K x N (nn, nt) whose rows rule out
//             16-byte copies (the rules on the operands' alignment),
//             whatever the grid and K: the others would pack B;
//             gemv-mma-n-unaligned-a(-narrow, -wide) the same tiles for
//             misaligned rows of A alone and K up to 2048;
//   gemv-mma-n(-narrow, -many, -wide), gemv-mma-16-n(-narrow)
//             the same on a B stored K x N (nn, nt) for K up to 4096, on
//             grids of at most one block per SM or two to three;
//   decode-128x128, decode-192x128, decode-64x64(-split), decode-64x128
//             33 to 256 rows of A, N in the thousands, K >= 512, on wgmma:
//             the widest tile whose grid stays within one wave, deep
//             pipelines fed by a producer warpgroup, one K slice;
//   mid-64x64 the decode-64x64 kernel past 64 rows where 64 x 128 tiles
//             make less than a quarter wave; mid-64x128 the decode-64x128
//             kernel past 256 rows; split-k-64x64 the decode-64x64-split
//             kernel in up to 4 slices below a quarter wave (K >= 2048),
//             mid-64x64-few decode-64x64's unsplit there for shorter K;
//   decode, decode-cluster, decode-split (and -32-)
//             M <= 16 (32) and K long: a 16-row (32-row) mma.sync tile
//             with the deepest pipeline shared memory holds, split in K
//             while its grid fills less than half the SMs (LLM decode
//             streams B once): up to 8 slices reduced inside a cluster,
//             more through the workspace for narrower grids;
//   small     the whole problem fits one wave of 64 x 64 tiles: those,
//             with two stages (tiny and odd-sized GEMMs);
//   tiny-k    K within one mma.sync step: one-stage 64 x 64 tiles, the
//             work being the store of C (K = 1 outer products);
//   short-k   K within two k-tiles over more than a wave of default tiles:
//             quarter tiles, four blocks per SM overlapping stores and
//             loads (small-K and batched GEMMs); short-k-narrow the same
//             kernel when N fits half the default's width;
//   short-m   M <= BM / 2: a tile half as tall wastes half as much;
//   narrow-n  N <= BN / 4: likewise for N (tall-skinny GEMMs);
//   mid       half-wide tiles while their grid fits one wave (twice the
//             blocks of a default grid that would fill half of it);
//   half-n    mid's kernel past one wave when N fits half the default's
//             width;
//   default   everything else.
//
// docs/dispatch.md gives the measurements behind the thresholds.
//
//===----------------------------------------------------------------------===//

#include "gemm/Tuning/Dispatch.h"
#include "gemm/Target/Legality.h"
#include "gemm/Tuning/DefaultConfig.h"
#include "llvm/Support/MathExtras.h"
#include <limits>

using namespace mlir::gemm;

/// The most slices a dispatched split-K kernel runs (its workspace holds
/// slices * M * N partial sums).
static constexpr int64_t kMaxDispatchSlices = 128;

int64_t SplitPolicy::slices(int64_t k, int64_t blocks) const {
  int64_t s = maxSlices;
  if (fillBlocks > 0)
    s = std::min<int64_t>(s, fillBlocks / std::max<int64_t>(blocks, 1));
  s = std::min<int64_t>(s,
                        llvm::divideCeil(std::max<int64_t>(k, 0),
                                         std::max<int64_t>(minKPerSlice, 1)));
  if (!clusterCapacity.empty()) {
    int64_t fits = 0;
    for (int64_t capacity : clusterCapacity)
      fits += blocks <= capacity;
    s = std::min(s, fits);
  }
  return std::max<int64_t>(s, 1);
}

SplitPolicy mlir::gemm::explicitSplitPolicy(const TileConfig &config) {
  return {config.splitK, 0, config.bk};
}

bool SizeBounds::holds(int64_t m, int64_t n, int64_t k, int64_t batch,
                       int64_t bm, int64_t bn, bool aAligned,
                       bool bAligned) const {
  // Every fact is known, so the answer is.
  return *decide(m, n, k, batch, bm, bn, {aAligned, bAligned});
}

std::optional<bool>
SizeBounds::decide(std::optional<int64_t> m, std::optional<int64_t> n,
                   std::optional<int64_t> k, std::optional<int64_t> batch,
                   int64_t bm, int64_t bn, OperandAlignment align) const {
  bool undecided = false;
  auto in = [&](std::optional<int64_t> v, std::optional<int64_t> lo,
                std::optional<int64_t> hi) {
    if (!lo && !hi)
      return true;
    if (!v) {
      undecided = true;
      return true;
    }
    return (!lo || *v >= *lo) && (!hi || *v <= *hi);
  };
  auto is = [&](std::optional<bool> v, std::optional<bool> want) {
    if (!want)
      return true;
    if (!v) {
      undecided = true;
      return true;
    }
    return *v == *want;
  };
  // Whole tiles: false as soon as one known size is ragged.
  std::optional<bool> whole;
  if ((m && *m % bm != 0) || (n && *n % bn != 0))
    whole = false;
  else if (m && n)
    whole = true;
  bool ok = in(m, mMin, mMax) && in(n, nMin, nMax) && in(k, kMin, kMax) &&
            in(batch, batchMin, batchMax) && is(align.a, aAligned) &&
            is(align.b, bAligned) && is(whole, wholeTiles);
  if (ok && (blocksMin || blocksMax)) {
    std::optional<int64_t> blocks;
    if (m && n && batch)
      blocks = countBlocks(*m, *n, *batch, bm, bn);
    ok = in(blocks, blocksMin, blocksMax);
  }
  if (ok && waveFit) {
    if (m && n && batch)
      ok = waveFit->holds(countBlocks(*m, *n, *batch, bm, bn), *m, *n, *batch);
    else
      undecided = true;
  }
  if (!ok)
    return false;
  if (undecided)
    return std::nullopt;
  return true;
}

bool SizeBounds::empty() const {
  return !mMin && !mMax && !nMin && !nMax && !kMin && !kMax && !batchMin &&
         !batchMax && !blocksMin && !blocksMax && !aAligned && !bAligned &&
         !wholeTiles && !waveFit;
}

/// ceil(blocks / wave) * weight, saturating at INT64_MAX.
static int64_t weighWaves(int64_t blocks, int64_t wave, int64_t weight) {
  bool overflow = false;
  uint64_t w = llvm::SaturatingMultiply(
      uint64_t(llvm::divideCeil(uint64_t(std::max<int64_t>(blocks, 0)),
                                uint64_t(std::max<int64_t>(wave, 1)))),
      uint64_t(std::max<int64_t>(weight, 0)), &overflow);
  return int64_t(std::min<uint64_t>(w, std::numeric_limits<int64_t>::max()));
}

bool WaveFit::holds(int64_t blocks, int64_t m, int64_t n, int64_t batch) const {
  return weighWaves(blocks, wave, weight) <=
         weighWaves(countBlocks(m, n, batch, versusBM, versusBN), wave,
                    versusWeight);
}

std::optional<SizeBounds> SizeBounds::intersect(const SizeBounds &other) const {
  SizeBounds r;
  bool ok = true;
  auto both = [&](std::optional<int64_t> SizeBounds::*lo,
                  std::optional<int64_t> SizeBounds::*hi) {
    auto pick = [](std::optional<int64_t> a, std::optional<int64_t> b,
                   bool larger) -> std::optional<int64_t> {
      if (!a || !b)
        return a ? a : b;
      return larger ? std::max(*a, *b) : std::min(*a, *b);
    };
    r.*lo = pick(this->*lo, other.*lo, /*larger=*/true);
    r.*hi = pick(this->*hi, other.*hi, /*larger=*/false);
    if (r.*lo && r.*hi && *(r.*lo) > *(r.*hi))
      ok = false;
  };
  both(&SizeBounds::mMin, &SizeBounds::mMax);
  both(&SizeBounds::nMin, &SizeBounds::nMax);
  both(&SizeBounds::kMin, &SizeBounds::kMax);
  both(&SizeBounds::batchMin, &SizeBounds::batchMax);
  both(&SizeBounds::blocksMin, &SizeBounds::blocksMax);
  auto same = [&](std::optional<bool> SizeBounds::*c) {
    if (this->*c && other.*c && *(this->*c) != *(other.*c))
      ok = false;
    r.*c = this->*c ? this->*c : other.*c;
  };
  same(&SizeBounds::aAligned);
  same(&SizeBounds::bAligned);
  same(&SizeBounds::wholeTiles);
  if (waveFit && other.waveFit && !(*waveFit == *other.waveFit))
    ok = false;
  r.waveFit = waveFit ? waveFit : other.waveFit;
  if (!ok)
    return std::nullopt;
  return r;
}

int64_t mlir::gemm::countBlocks(int64_t m, int64_t n, int64_t batch, int64_t bm,
                                int64_t bn) {
  uint64_t tm = llvm::divideCeil(std::max<int64_t>(m, 0), bm);
  uint64_t tn = llvm::divideCeil(std::max<int64_t>(n, 0), bn);
  bool overflow = false;
  uint64_t blocks = llvm::SaturatingMultiply(tm, tn, &overflow);
  blocks = llvm::SaturatingMultiply(
      blocks, uint64_t(std::max<int64_t>(batch, 0)), &overflow);
  return int64_t(
      std::min<uint64_t>(blocks, std::numeric_limits<int64_t>::max()));
}

/// `d` with a bm x bn block tile. wgmma: one warpgroup per 64 rows, each
/// issuing m64nBN. Others: the warp grid of `d` (all of its warps along M
/// if `warpsAlongM`: narrow tiles keep square warp tiles that way, where
/// 64 x 16 warp tiles spilled), narrowed where a warp tile would fall below
/// the instruction.
static TileConfig resize(const TileConfig &d, int64_t bm, int64_t bn,
                         bool warpsAlongM = false) {
  TileConfig c = d;
  c.bm = bm;
  c.bn = bn;
  if (c.kind == InstrKind::wgmma) {
    c.wm = std::max<int64_t>(bm / 64, 1);
    c.wn = 1;
    c.in = bn;
    return c;
  }
  if (warpsAlongM) {
    c.wm = d.wm * d.wn;
    c.wn = 1;
  }
  while (c.wm > 1 && c.bm / c.wm < c.im)
    c.wm /= 2;
  while (c.wn > 1 && c.bn / c.wn < c.in)
    c.wn /= 2;
  return c;
}

/// K-tiles a decode kernel's K slice holds at least.
static constexpr int64_t kDecodeMinKTiles = 4;

/// Blocks per SM up to which the tiny-k tile beats the default's.
static constexpr int64_t kTinyKBlocksPerSM = 8;

/// An mma.sync config of `d`'s signature with a bm x bn x bk block tile
/// (bk in bytes of the operands), a wm x wn warp grid, m16n8 instructions
/// one 32-byte K step deep, and `stages` stages. None where mma.sync has no
/// such instruction for the operands (f64, f32 without tf32) or the target
/// no mma.sync.
static std::optional<TileConfig>
makeMmaSyncConfig(const TileConfig &d, const GemmSignature &sig,
                  const TargetInfo &target, int64_t bm, int64_t bn,
                  int64_t bkBytes, int64_t wm, int64_t wn, int64_t stages) {
  if (!target.isNVIDIA() || !target.supportsKind(InstrKind::mma_sync))
    return std::nullopt;
  if (d.kind != InstrKind::wgmma && d.kind != InstrKind::mma_sync)
    return std::nullopt;
  ElemKind operand = instrOperandKind(sig.a, InstrKind::mma_sync);
  int64_t bytes = elemBytes(operand);
  TileConfig c = d;
  c.kind = InstrKind::mma_sync;
  c.bm = bm;
  c.bn = bn;
  c.bk = bkBytes / bytes;
  c.wm = wm;
  c.wn = wn;
  c.im = 16;
  c.in = 8;
  c.ik = 32 / bytes;
  c.stages = stages;
  c.smem = SmemKind::swizzle;
  c.rasterColumn = false;
  c.group = 1;
  c.splitK = 1;
  c.tmaLoad = false;
  c.producerWarp = false;
  if (!target.hasShape(c.kind, operand, sig.acc, c.im, c.in, c.ik))
    return std::nullopt;
  return c;
}

/// The decode tile: bm x 128 blocks (bm = 16 or 32) of 256-byte k rows (two
/// 128-byte swizzle rows: 16 x 64 tiles of 128-byte rows took 13.1 us
/// against 11.8 on f16 tn 1x4096x4096), four warps side by side along N,
/// and the most stages shared memory holds (6 for 2-byte operands at
/// bm = 16: 216 KiB, one block per SM). Not for i8 outside tn, whose
/// fragments are gathered element by element (ptxas spilled 208 bytes at
/// any stage count); at most 4 stages for tt and for 32 rows, where ptxas
/// 13.0 spilled 20 bytes (tt, 5 and 6 stages) and 4 bytes (batched nn, 5).
static std::optional<TileConfig> getDecodeConfig(const TileConfig &d,
                                                 const GemmSignature &sig,
                                                 const TargetInfo &target,
                                                 int64_t bm) {
  bool tn = !sig.transA && sig.transB;
  if (sig.a == ElemKind::i8 && !tn)
    return std::nullopt;
  std::optional<TileConfig> c =
      makeMmaSyncConfig(d, sig, target, bm, 128, 256, 1, 4, 1);
  if (!c)
    return std::nullopt;
  int64_t maxStages =
      sig.layoutName() == "tt" || bm > 16 ? 4 : kMaxConfigStages;
  for (c->stages = maxStages; c->stages >= 2; --c->stages)
    if (checkConfig(*c, sig, target).empty())
      return c;
  return std::nullopt;
}

/// The gemv tile (docs/dispatch.md, "gemv"): `rowsOfA` rows of A, 8 warps of 2
/// rows of B each, two 16-byte loads per lane and row in flight (f16 tn
/// 1x4096x4096 on the H200: 8.6 us, against 9.1-9.8 us with 1 or 4 rows a
/// warp, 4 or 8 loads, or 4 warps). Checked for the signature by the
/// caller (checkConfig: K-contiguous B, f16/bf16/f32, NVIDIA).
static TileConfig getGemvConfig(const GemmSignature &sig,
                                const TargetInfo &target, int64_t rowsOfA) {
  return makeGemvConfig(rowsOfA, /*rowsPerWarp=*/2, /*warps=*/8,
                        /*unroll=*/2, elemBytes(sig.a), target.warpSize);
}

/// The gemv-mma tiles (docs/dispatch.md, "gemv on mma.sync"): 8 rows of A
/// and 16 of B a block, two 16-byte chunks a lane and row in flight; 16
/// rows of A and 32 of B. Eight warps split K. (H200, f16 tn, the best of
/// 16 tiles on 19 shapes: 8 x 16 x 64 within 4% of the fastest on all but
/// 8x11008x4096 and 3x9000x1500; for 9 to 16 rows, 16 x 32 x 64 lost 25%
/// less than 16 x 16 x 128 on 16x4096x11008.)
///
/// Their loads are not double-buffered (stages = 1): with stages = 2 the
/// family ran 3-4% slower over 28 decode rows (H100, 8x4096x4096 10.8 us
/// against 9.6, 16x4096x11008 38.4 against 38.5; tt 8x4096x4096 15.2
/// against 16.8 the one clear gain; docs/perf-data/gemv-pipelined-2026-12-06).
static TileConfig getGemvMmaConfig(int64_t rowsOfA) {
  return rowsOfA <= 8
             ? makeGemvMmaConfig(rowsOfA, /*bn=*/16, /*warps=*/8, /*unroll=*/2)
             : makeGemvMmaConfig(rowsOfA, /*bn=*/32, /*warps=*/8, /*unroll=*/2);
}

/// gemv-mma serves K from one iteration of one warp's stretches (8 x 16 x
/// 256 tied the family, 6.5 us, on 8x16384x256) and N from this many rows
/// per SM over half the SMs (1056 rows on the H200: 13x1056x4096 in 16 x 32
/// tiles, 33 blocks, 8.5 us against 10.2).
static constexpr int64_t kGemvMmaMinK = 256;

/// gemv-mma-16 on fewer blocks than half the SMs (33 to 65 of 16 x 32)
/// only up to this K, and in tn only: past it the decode members split K
/// into slices instead (in a cluster or through a workspace). H100, f16
/// tn, 9-16 rows on N 1056-2048 (docs/perf-data/gemv-pipelined-2026-12-06,
/// runs 2 and 3): at K = 4096 gemv-mma-16 took 8.6-9.1 us against 10.2-11.2
/// for decode-split; at 8192 decode-split won by 5-12% (16x1536x8192 11.9
/// against 13.7), at 16384 by 13-36% (16x1536x16384 25.8 against 33.7,
/// 0.72x -> 0.94x cuBLAS); K = 5120 and 6144 tied (12x1056x6144 11.0
/// both). In tt the decode members won at 33-65 blocks from K = 4096 on
/// (f16 tt 16x1536x4096 10.8 against 13.1).
static constexpr int64_t kGemvMma16FewBlocksMaxK = 6144;

/// gemv-mma in tt (A stored K x M, read element by element) only up to
/// this K and N (and with 6 to 8 rows up to kGemvMmaTtSixRowsMaxK): past
/// them the decode members (mma.sync 16 x 128 through shared memory, K
/// split below half the SMs) read A faster, the more so the more rows A
/// has. H100, f16 tt (docs/perf-data/gemv-pipelined-2026-12-06, runs 3 and
/// 7), decode members against gemv-mma: 16x4096x11008 40.1 us against
/// 52.3, 16x11008x4096 35.6 against 48.0, 16x32000x4096 92.3 against 108.1,
/// 8x4096x11008 39.0 against 61.0, 8x8192x8192 51.4 against 67.9,
/// 5x11008x4096 38.5 against 49.0, 3x4096x11008 42.8 against 47.6;
/// gemv-mma kept 3x7000x3000 (16.8 against 26.8), 9x5120x1024 (8.1 against
/// 11.6), 3x4096x4096 (12.4 against 15.2), 9x4096x4096 (14.3 against
/// 16.2) and every row with K <= 2048. N between 7000 and 11008 at K <=
/// 4096 was not measured.
static constexpr int64_t kGemvMmaTtMaxK = 4096;
static constexpr int64_t kGemvMmaTtMaxN = 8192;
/// 6 to 8 rows in tt: 8x4096x4096 14.5 us in decode-split against 18.3,
/// 8x1056x4096 10.8 against 11.8; gemv-mma kept 8x7000x3000 (19.0 against
/// 21.4) and 8x5120x1024 (7.9 against 10.3). (5x4096x4096 tied, 15.6
/// against 16.0; 16x4096x4096 lost 10% in gemv-mma-16, kept for 9-12 rows.)
static constexpr int64_t kGemvMmaTtSixRowsMaxK = 3072;

/// Columns of C a gemv-n block owns: four lanes side by side on a row of B
/// (64 bytes of f16), so that N = 4096 makes 128 blocks.
static constexpr int64_t kGemvColumnsBlockN = 32;
static constexpr int64_t kGemvMmaMinRowsPerSM = 16;

/// Half the SMs, rounded up: the grids from which on the gemv and decode
/// tiles need no K split to keep the GPU busy.
static int64_t halfTheSMs(const TargetInfo &target) {
  return (target.numSMs + 1) / 2;
}

/// gemv-mma on a B stored K x N (nn, nt; GemvMma.cpp): up to this K. The
/// decode tile's K split beat it from K = 6144 on (H200, f16 nn
/// 8x4096x6144 17.8 us against 21.2, 16x4096x6144 18.0 against 23.2,
/// 12x2048x6144 11.5 against 14.1) and lost to it up to 4096 (8x4096x4096
/// 12.0 against 10.4, 16x4096x4096 12.6 against 11.6).
static constexpr int64_t kGemvMmaColumnsMaxK = 4096;
/// gemv-mma-n-unaligned-a (A's rows misaligned, B's not): up to this K.
/// H200, f16 nn against the decode tile on A packed (run 5 of
/// docs/perf-data/unaligned-2026-12-04): 8x6000x2047 10.8 us against 13.6,
/// 6x3000x1999 9.7 against 10.8, 7x10000x1023 10.9 against 11.8, 3x3000x511
/// 5.7 against 9.0; from K = 3001 on decode won or tied (7x5000x3001 14.8
/// against 15.4, 4x4096x8191 24.7 against 35.0), as it did for 12 to 16 rows
/// (12x5000x3001 15.6 against 18.4).
static constexpr int64_t kGemvMmaUnalignedAMaxK = 2048;
/// Blocks of 256 threads an SM holds of the 8 x 32 and 16 x 32 tiles (80
/// registers), of the 8 x 64 one (106) and of the 16 x 32 one with two
/// loads a lane (92; gemvMmaColumns32UnalignedConfig).
static constexpr int64_t kGemvMmaColumnsResidency = 3;
static constexpr int64_t kGemvMmaColumnsWideResidency = 2;
static constexpr int64_t kGemvMma16ColumnsTwoLoadsResidency = 2;
/// The decode-wgmma rules: the K from which on the 64 x 128 wgmma tile
/// outran the gemv-mma tiles (and on a B stored K x N the decode tile); on a
/// K-contiguous B from 9 rows on, from this shorter K.
static constexpr int64_t kDecodeWgmmaMinK = 4096;
static constexpr int64_t kDecodeWgmma16MinK = 2048;

/// The tiles of gemv-mma on a B stored K x N for `bm` rows of A (8 or 16),
/// eight warps each: 16 columns (4-byte column-pair loads, four (8 rows) or
/// two (16 rows) a lane and k row per iteration), 32 columns (8-byte loads;
/// for 16 rows one a lane and row keeps it at 80 registers too) and 64
/// columns (16-byte loads, two).
static TileConfig gemvMmaColumnsNarrowConfig(int64_t bm) {
  return makeGemvMmaConfig(bm, /*bn=*/16, /*warps=*/8,
                           /*unroll=*/bm == 8 ? 4 : 2);
}
static TileConfig gemvMmaColumns32Config(int64_t bm) {
  return makeGemvMmaConfig(bm, /*bn=*/32, /*warps=*/8,
                           /*unroll=*/bm == 8 ? 2 : 1);
}
/// The 32-column tile on rows that rule out 16-byte copies, where B is
/// read element by element: two loads a lane and row in flight for 16 rows
/// too, the loads' latency, not the blocks an SM holds, bounding it (92
/// registers: two blocks an SM against three of one load). H200, f16 nn
/// (docs/perf-data/gemv16-unaligned-2026-12-05, run 1): 16x8193x8192 66.3
/// us against 76.8 with one load, 11x8417x11008 87.6 against 101.7 (one
/// wave of two an SM); 16x16001x4096 67.9 against 87.4 and 16x30001x1024
/// 40.6 against 44.4 (both more than a wave of three an SM). But where one
/// load's grid is one wave of three an SM and two loads' is not, one load
/// wins: 9x9999x1000 (313 blocks) 14.6 us against 17.8, 13x12001x2048 (376)
/// 27.8 against 36.0.
static TileConfig gemvMmaColumns32UnalignedConfig(int64_t bm) {
  return makeGemvMmaConfig(bm, /*bn=*/32, /*warps=*/8, /*unroll=*/2);
}
static TileConfig gemvMmaColumnsWideConfig(int64_t bm) {
  return makeGemvMmaConfig(bm, /*bn=*/64, /*warps=*/8, /*unroll=*/2);
}

/// The fewest blocks of a gemv-mma-n grid that streams B about evenly over
/// the SMs with at most `perSM` blocks each: the busiest SM then streams at
/// most 15/13 (15%) more than the average.
static int64_t evenGridMinBlocks(const TargetInfo &target, int64_t perSM) {
  return llvm::divideCeil(perSM * target.numSMs * 13, 15);
}

/// Whether the family has the wide decode tiles (addWideDecodeRules): a
/// wgmma default of at least 128 x 128, f16/bf16 operands, f32 sums.
static bool hasWideDecodeTiles(const TileConfig &d, const GemmSignature &sig) {
  return d.kind == InstrKind::wgmma && d.bm >= 128 && d.bn >= 128 &&
         (sig.a == ElemKind::f16 || sig.a == ElemKind::bf16) &&
         sig.acc == ElemKind::f32;
}

/// A wide decode tile: `d` resized to bm x bn with `stages` stages, one K
/// slice, TMA loads from a producer warpgroup, plain row order; std::nullopt
/// where the family has none (hasWideDecodeTiles).
static std::optional<TileConfig> getWideDecodeTile(const TileConfig &d,
                                                   const GemmSignature &sig,
                                                   int64_t bm, int64_t bn,
                                                   int64_t stages) {
  if (!hasWideDecodeTiles(d, sig))
    return std::nullopt;
  TileConfig c = resize(d, bm, bn);
  c.stages = stages;
  c.splitK = 1;
  c.tmaLoad = true;
  c.producerWarp = true;
  // Plain row order: the grid is one wave, and grouped rasterization
  // (the default's group = 8) measured slower on 64 x 64 tiles (f16 tn
  // 64x4096x4096 0.58x cuBLAS against 0.73x, 48x4096x4096 0.74x against
  // 0.95x, 128x4096x4096 0.83x against 1.01x; faster only on 96 rows,
  // 0.91x against 0.75x) and the same on 64 x 128 and 128 x 128.
  c.group = 1;
  return c;
}

/// The eight stages of the wide decode tiles with 64-row tiles.
static constexpr int64_t kWideDecodeNarrowStages = 8;

/// The bounds of the members for 3 to 8 rows of A (`bm` = 8) or 9 to 16
/// (`bm` = 16) on the gemv-mma tiles and past them: those rows, K of at
/// least one gemv-mma stretch.
static SizeBounds gemvMmaRowsWhen(int64_t bm) {
  SizeBounds when;
  when.mMin = bm == 8 ? 3 : 9;
  when.mMax = bm;
  when.kMin = kGemvMmaMinK;
  return when;
}

/// The decode-wgmma rules' tile: decode-64x128's (one 64-row wgmma of which
/// 3 to 16 rows are A's, eight stages) loaded by all warps through cp.async,
/// not by a producer warpgroup through TMA (measured in the family, that
/// kernel was 1-5% slower on these shapes: run 2 of
/// docs/perf-data/decode-large-2026-12-05).
static std::optional<TileConfig> getDecodeWgmmaTile(const TileConfig &d,
                                                    const GemmSignature &sig) {
  std::optional<TileConfig> c =
      getWideDecodeTile(d, sig, 64, 128, kWideDecodeNarrowStages);
  if (c) {
    c->tmaLoad = false;
    c->producerWarp = false;
  }
  return c;
}

/// How full (in fifths of the SMs) the second wave of 64 x 128 blocks must
/// be for the decode-wgmma tile to serve two waves (addDecodeWgmmaGrids).
static constexpr int64_t kDecodeWgmmaLastWaveFifths = 4;

/// Adds `name` and `name`-two-waves: the decode-wgmma tile
/// (getDecodeWgmmaTile) under `when`, on the grids of 64 x 128 blocks it
/// served: more than half the SMs up to one wave, and two waves the second
/// of which is at least 4/5 full. The tile holds one block an SM (193 KiB
/// of shared memory), so a second wave that is mostly empty costs almost a
/// whole wave: f16 tn 8x22528x4096 (176 blocks) ran 57.9 us against 49.9 in
/// gemv-mma, where nearly full second waves won (bf16 12x28672x8192, 224
/// blocks, 114.2 against 120.2; 16x32000x4096, 250, 66.9 against 70.7).
/// Half a wave or less lost on every shape: f16 tn
/// 8x8192x8192 (64 blocks) 48.4 us against 37.1, f16 nn 8x8192x28672 142.3
/// against 107.8 (decode); from 67 blocks on it won or tied: f16 tn
/// 16x11008x4096 (86) 27.0 against 30.3, 4x10240x8192 (80) 48.5 against
/// 48.0, f16 nn 8x10240x8192 43.7 against 49.0. H200, same process
/// (docs/perf-data/decode-tn-2026-12-05, run 1). Past two waves it was not
/// measured on the H200; the rules before it stay there.
template <typename AddFn>
static void addDecodeWgmmaGrids(const std::string &name, SizeBounds when,
                                const TileConfig &tile,
                                const TargetInfo &target, AddFn &&add) {
  int64_t sms = target.numSMs;
  when.blocksMin = halfTheSMs(target) + 1;
  when.blocksMax = sms;
  add(name, when, tile);
  when.blocksMin = llvm::divideCeil(2 * sms * kDecodeWgmmaLastWaveFifths, 5);
  when.blocksMax = 2 * sms;
  add(name + "-two-waves", when, tile);
}

/// decode-wgmma, decode-wgmma-16 (tn, each with -two-waves): 3 to 8 (9 to
/// 16) rows of A and a K-contiguous B, where gemv-mma-16's 16 x 32 tiles
/// (two an SM) and gemv-mma's 8 x 16 ones (four an SM) make more than a wave
/// (both stream 64 columns an SM, so 66 blocks of 64 x 128 are one wave of
/// either): decode-64x128's tile on cp.async (getDecodeWgmmaTile), which
/// streams B in 64-row k-tiles through eight stages, on the grids of
/// addDecodeWgmmaGrids. K from 4096 for 3 to 8 rows (f16 tn 8x11008x2048:
/// 15.5 us against 14.3 in gemv-mma), from 2048 for 9 to 16 (16x14336x2048:
/// 18.5 against 21.0, 16x11008x2048 15.6 against 16.5). H200, same process
/// (docs/perf-data/decode-tn-2026-12-05, run 1), against gemv-mma: 3 to 8
/// rows f16 tn 4x14336x4096 32.0 us against 34.1, 8x11008x4096 26.9 against
/// 28.0, 8x16384x8192 65.6 against 68.4, 4x32000x8192 122.6 against 127.2;
/// 9 to 16 rows 16x11008x4096 27.0 against 30.3, 12x10240x8192 48.9
/// against 52.3, 16x14336x4096 32.4 against 36.4. Aligned rows only: gemv-mma
/// reads misaligned ones in place, where the wgmma tile would pack them.
template <typename AddFn>
static void addDecodeWgmmaRules(const TileConfig &d, const GemmSignature &sig,
                                const TargetInfo &target, AddFn &&add) {
  std::optional<TileConfig> wide = getDecodeWgmmaTile(d, sig);
  if (!wide)
    return;
  for (int64_t bm : {8, 16}) {
    SizeBounds when = gemvMmaRowsWhen(bm);
    when.kMin = bm == 8 ? kDecodeWgmmaMinK : kDecodeWgmma16MinK;
    when.aAligned = when.bAligned = true;
    addDecodeWgmmaGrids(bm == 8 ? "decode-wgmma" : "decode-wgmma-16", when,
                        *wide, target, add);
  }
}

/// gemv-mma-n(-narrow, -many, -wide), gemv-mma-16-n(-narrow): 3 to 8 (9 to
/// 16) rows of A and a B stored K x N of 16-bit elements, K in [256, 4096]:
/// B read once in place through registers, each lane loading 4, 8 or 16
/// bytes of columns in each of its k rows, the products on mma.sync, where
/// the decode tile splits K below half the SMs and packs both operands of
/// rows that rule out 16-byte copies. Each block streams its columns at
/// about the same rate, so the grids that serve are those that spread
/// evenly over the SMs (evenGridMinBlocks): 115 to 132 blocks of 32
/// columns, 344 to 396 (three an SM, all resident), or 199 to 264 of 64
/// columns (two an SM, all resident). Elsewhere some SMs stream more than
/// others and the decode tile stays: bf16 nn 7x5000x3000, 157 blocks of 8 x
/// 32, 17.7 us against 14.1; f16 nn 6x3000x2000, 94 blocks, 11.0 against
/// 10.1; bf16 nn 4x9648x3664, 302 blocks, 30.3 against 27.2; batched bf16
/// nn 2 x 6x8888x2896, 278 blocks of 64 columns (two waves), 59.6 against
/// 42.7 (docs/perf-data/gemv-mma-nn-2026-12-04, runs 2-4). Tiles from
/// a sweep of 14 (H200, f16 nn, docs/dispatch.md "gemv on mma.sync on a B
/// stored K x N"), against the family without them (run 5): 16 columns a
/// block while those make less than a wave (4x2048x1024 5.3 us against
/// 8.8, 13x1056x4096 8.6 against 10.3), 32 on the even grids (3x4096x4096
/// 9.9 against 11.9, odd N 11x4097x4093 24.6 against 35.3 packed;
/// 8x11008x4096 26.8 against 28.7 three an SM), 64 on two an SM
/// (8x12800x4096 29.5 against 31.1; 4x14336x4096 31.5 against 32.2, where
/// 32-column tiles took two waves, 43.3).
///
/// gemv-mma-n-unaligned(-narrow, -wide), gemv-mma-16-n-unaligned(-narrow,
/// -many): the same kernels (but two loads a lane and row for the 16 x 32
/// tile, gemvMmaColumns32UnalignedConfig), first, for a B whose rows rule
/// out 16-byte copies (odd N for 16-bit types; `bAligned` false), which
/// every other member would pack (a read and a write of B before the
/// GEMM's read), whatever the grid and K from 256 on. B is then read
/// element by element, so the most warps in flight win: 16 columns a block
/// while the grid is one wave of three blocks an SM, then 32 (16 rows: from
/// there on, with one load a lane on grids of 2 * numSMs + 1 to 3 * numSMs
/// blocks, gemv-mma-16-n-unaligned-many), then 64. f16 nn against
/// the family without them (H200, run 1 of
/// docs/perf-data/unaligned-2026-12-04): 8x8417x4096 34.1 us against 67.7
/// (packed B), 5x5001x3000 15.3 against 30.8, 4x4097x8192 39.0 against
/// 60.2, 8x4097x11008 52.0 against 79.4, 12x5001x3000 16.9 against 31.6,
/// 16x8193x8192 76.8 against 112.9, 3x3001x512 5.8 against 11.7. A
/// misaligned A alone (gemv-mma-n-unaligned-a) only for 3 to 8 rows and
/// short K, after the rules for aligned rows: elsewhere packing A's few rows
/// is cheap (kGemvMmaUnalignedAMaxK).
template <typename AddFn>
static void addGemvMmaColumnsRules(const TileConfig &d,
                                   const GemmSignature &sig,
                                   const TargetInfo &target, AddFn &&add) {
  int64_t sms = target.numSMs;
  int64_t halfSMs = halfTheSMs(target);
  // 16-column tiles from N = half the SMs x 16 rows (as on a K-contiguous
  // B).
  int64_t narrowMinBlocks = halfSMs * kGemvMmaMinRowsPerSM / 16;
  // The unaligned members: each wider tile from where the narrower one's
  // grid passes one wave (its blocks halve); below narrowMinBlocks the
  // decode tile.
  int64_t wave = kGemvMmaColumnsResidency * sms;
  auto addUnaligned = [&](const std::string &name, const SizeBounds &when,
                          int64_t bm) {
    SizeBounds narrowWhen = when;
    narrowWhen.blocksMin = narrowMinBlocks;
    narrowWhen.blocksMax = wave;
    add(name + "-narrow", narrowWhen, gemvMmaColumnsNarrowConfig(bm));
    if (bm == 16) {
      // One load a lane where its grid is one wave of three blocks an SM
      // and that of two loads is not.
      SizeBounds manyWhen = when;
      manyWhen.blocksMin = kGemvMma16ColumnsTwoLoadsResidency * sms + 1;
      manyWhen.blocksMax = wave;
      add(name + "-many", manyWhen, gemvMmaColumns32Config(bm));
    }
    SizeBounds colsWhen = when;
    colsWhen.blocksMin = wave / 2 + 1;
    if (bm == 8)
      colsWhen.blocksMax = wave;
    add(name, colsWhen, gemvMmaColumns32UnalignedConfig(bm));
    if (bm == 8) {
      SizeBounds wideWhen = when;
      wideWhen.blocksMin = wave / 2 + 1;
      add(name + "-wide", wideWhen, gemvMmaColumnsWideConfig(bm));
    }
  };
  for (int64_t bm : {8, 16}) {
    SizeBounds when = gemvMmaRowsWhen(bm);
    when.bAligned = false;
    addUnaligned(bm == 8 ? "gemv-mma-n-unaligned" : "gemv-mma-16-n-unaligned",
                 when, bm);
  }
  // decode-wgmma-n (and -two-waves): with K from 4096, decode-64x128's tile
  // on cp.async (one 64-row wgmma of which 3 to 16 rows are A's, eight
  // stages, all warps loading) on the grids of addDecodeWgmmaGrids streamed
  // B faster than the gemv-mma-n tiles (a lane loads a few columns of each k
  // row) and the 16-row decode tile. H200, same process, against the family
  // without it (docs/perf-data/decode-tn-2026-12-05, run 1): f16 nn
  // 8x11008x4096 24.5 us against 26.6 (gemv-mma-n-many), 16x10240x8192 43.6
  // against 49.7 (decode), 12x28672x8192 (224 blocks) 109.9 against 115.0,
  // f16 nt 8x11008x4096 28.7 against 39.3; 4x32000x4096 (250 blocks) 65.6
  // against 66.3. On 64 blocks it lost (8x8192x8192 43.3 against 35.5 in
  // decode), as did decode-64x128's TMA loads from a producer warpgroup in
  // the family (H100, run 2 of docs/perf-data/decode-large-2026-12-05: 1-5%
  // slower than the members before it on most of these shapes).
  if (std::optional<TileConfig> wide = getDecodeWgmmaTile(d, sig)) {
    SizeBounds when = gemvMmaRowsWhen(8);
    when.mMax = kMaxGemvMmaRowsA;
    when.kMin = kDecodeWgmmaMinK;
    addDecodeWgmmaGrids("decode-wgmma-n", when, *wide, target, add);
  }
  for (int64_t bm : {8, 16}) {
    SizeBounds when = gemvMmaRowsWhen(bm);
    when.kMax = kGemvMmaColumnsMaxK;
    std::string name = bm == 8 ? "gemv-mma-n" : "gemv-mma-16-n";
    // Narrow: 16 columns while the grid is below one block per SM.
    SizeBounds narrowWhen = when;
    narrowWhen.blocksMin = narrowMinBlocks;
    narrowWhen.blocksMax = sms - 1;
    add(name + "-narrow", narrowWhen, gemvMmaColumnsNarrowConfig(bm));
    // 32 columns up to one block per SM.
    TileConfig cols32 = gemvMmaColumns32Config(bm);
    SizeBounds oneWhen = when;
    oneWhen.blocksMin = evenGridMinBlocks(target, 1);
    oneWhen.blocksMax = sms;
    add(name, oneWhen, cols32);
    if (bm != 8)
      continue;
    // The same kernel at three blocks an SM, then 64 columns (past the 32
    // column tiles' three an SM) at two an SM.
    SizeBounds manyWhen = when;
    manyWhen.blocksMin = evenGridMinBlocks(target, kGemvMmaColumnsResidency);
    manyWhen.blocksMax = kGemvMmaColumnsResidency * sms;
    add(name + "-many", manyWhen, cols32);
    SizeBounds wideWhen = when;
    wideWhen.blocksMin = kGemvMmaColumnsResidency * sms / 2 + 1;
    wideWhen.blocksMax = kGemvMmaColumnsWideResidency * sms;
    add(name + "-wide", wideWhen, gemvMmaColumnsWideConfig(bm));
  }
  // A's rows misaligned (B's not: the first rules take those), 3 to 8 rows,
  // K up to 2048, one GEMM (batched, 2 x 7x5000x1023 ran 13.4 us against
  // 11.7 in decode), on the grids the rules above leave to decode: the
  // unaligned tiles, where the decode tile packs A first (its extra launch
  // costs more than gemv-mma's element loads of A while K is short).
  SizeBounds aWhen = gemvMmaRowsWhen(8);
  aWhen.kMax = kGemvMmaUnalignedAMaxK;
  aWhen.batchMax = 1;
  aWhen.aAligned = false;
  addUnaligned("gemv-mma-n-unaligned-a", aWhen, 8);
}

/// The rows of A from which on the wide decode tiles serve (below, the
/// 16- and 32-row decode tiles), the rows each tile height serves up to
/// (one row of 64 x 64 tiles; 128 x 128; 192 x 128; 64 x 128 up to two
/// rows of tiles that the default's 128-row tiles would leave mostly
/// empty), the K they need (one fill of the eight-stage ring), and the K
/// from which on two slices of a 64 x 64 grid that fills at most half the
/// SMs pay for their reduction.
static constexpr int64_t kWideDecodeMinM = 33;
static constexpr int64_t kWideDecodeNarrowMaxM = 64;
static constexpr int64_t kWideDecodeSquareMaxM = 128;
static constexpr int64_t kWideDecodeTallMaxM = 192;
static constexpr int64_t kWideDecodeMaxM = 256;
static constexpr int64_t kWideDecodeMinK = 512;
static constexpr int64_t kWideDecodeSplitMinK = 8192;
static constexpr int64_t kWideDecodeSlices = 2;
static constexpr int64_t kWideDecodeSplitKPerSlice = 4096;
/// split-k-64x64: 8 to numSMs / 4 - 1 blocks of 64 x 64, K in [2048,
/// 16384], at most 4 slices of at least 1024 (longer K, fewer blocks: the
/// K-heavy members with up to 128 slices).
static constexpr int64_t kWideDecodeFewMinBlocks = 8;
static constexpr int64_t kWideDecodeFewMinK = 2048;
static constexpr int64_t kWideDecodeFewMaxK = 16384;
static constexpr int64_t kWideDecodeFewSlices = 4;

/// decode-128x128, decode-192x128, decode-128x64, decode-64x64-split,
/// decode-64x64, decode-64x128 (and, on their kernels, mid-64x64,
/// mid-64x128, split-k-64x64 and mid-64x64-few for mid-size GEMMs, below):
/// 33 to 256 rows of A with N in the thousands and K >= 512 (LLM decode with a
/// batch, short prefill chunks) on wgmma chips, f16/bf16 with f32 sums. Such a
/// GEMM reads B once from memory and every tile of A once per column of tiles
/// from L2, so the tiles are as wide as the grid allows while it stays one wave
/// of one block per SM: 128 x 128 (65-128 rows), 192 x 128 (129-192 rows) and
/// 128 x 64 (193-256 rows) from half a wave on; up to 64 rows one row of 64 x
/// 64 tiles from a quarter wave on; else 64 x 128 from a quarter wave on. Eight
/// stages (six for 128 x 128, five for 192 x 128) fed by a producer warpgroup,
/// one K slice but for long K on half a wave of 64 x 64 tiles. H200, f16 tn
/// against the family before them (docs/dispatch.md, "Wide decode"):
/// 64x4096x4096 0.76x cuBLAS against 0.62x, 64x11008x4096 0.97x against 0.64x,
/// 128x11008x4096 0.92x against 0.67x, 192x11008x4096 0.84x against 0.68x,
/// 256x4096x4096 0.71x against 0.49x, 96x4096x768 0.81x against 0.39x. More
/// slices lost (64 x 128 in two slices on 64x11008x4096: 0.63x), as did the
/// grids past one wave (64 x 64 on 128x11008x4096: 0.52x).
template <typename AddFn>
static void addWideDecodeRules(const TileConfig &d, const GemmSignature &sig,
                               const TargetInfo &target, AddFn &&add) {
  if (!hasWideDecodeTiles(d, sig))
    return;
  int64_t sms = target.numSMs;
  int64_t halfSMs = halfTheSMs(target);
  auto tile = [&](int64_t bm, int64_t bn, int64_t stages) {
    return *getWideDecodeTile(d, sig, bm, bn, stages);
  };
  auto bounds = [&](int64_t mMin, std::optional<int64_t> mMax,
                    int64_t blocksMin) {
    SizeBounds when;
    when.mMin = mMin;
    when.mMax = mMax;
    when.kMin = kWideDecodeMinK;
    when.blocksMin = blocksMin;
    when.blocksMax = sms;
    return when;
  };
  // Past 64 rows, 128 x 128 tiles and then 192 x 128 ones (three compute
  // warpgroups, five stages) from half a wave on.
  add("decode-128x128",
      bounds(kWideDecodeNarrowMaxM + 1, kWideDecodeSquareMaxM, halfSMs),
      tile(128, 128, 6));
  add("decode-192x128",
      bounds(kWideDecodeSquareMaxM + 1, kWideDecodeTallMaxM, halfSMs),
      tile(192, 128, 5));
  // Past 192 rows, two rows of 128 x 64 tiles (two compute warpgroups, eight
  // stages) from half a wave on: 64-row tiles would make as many blocks with
  // one compute warpgroup each (f16 tn 224x4096x4096 0.90x cuBLAS against
  // 0.78x in 64 x 128 tiles, 256x4096x4096 0.84x against 0.72x,
  // 240x4096x1024 0.91x against 0.81x; 200x2560x4096, 80 blocks, 0.69x
  // against 0.75x).
  add("decode-128x64",
      bounds(kWideDecodeTallMaxM + 1, kWideDecodeMaxM, halfSMs),
      tile(128, 64, 8));
  // Up to 64 rows, one row of 64 x 64 tiles where it makes a quarter of a
  // wave (in two K slices for long K on at most half a wave); else 64 x 128
  // tiles from a quarter wave on: past 64 rows (64 x 64 tiles there, twice
  // the blocks, measured 0.62x cuBLAS against 0.72x on 80x4096x4096 and
  // 0.77x against 0.92x on 96x4096x4096), and up to 64 rows once 64 x 64
  // tiles would pass one wave.
  TileConfig narrow = tile(64, 64, kWideDecodeNarrowStages);
  int64_t quarterSMs = (halfSMs + 1) / 2;
  SizeBounds narrowWhen =
      bounds(kWideDecodeMinM, kWideDecodeNarrowMaxM, quarterSMs);
  SizeBounds splitWhen = narrowWhen;
  splitWhen.kMin = kWideDecodeSplitMinK;
  splitWhen.blocksMax = halfSMs;
  TileConfig split = narrow;
  split.splitK = kWideDecodeSlices;
  add("decode-64x64-split", splitWhen, split,
      SplitPolicy{kWideDecodeSlices, sms, kWideDecodeSplitKPerSlice});
  add("decode-64x64", narrowWhen, narrow);
  add("decode-64x128", bounds(kWideDecodeMinM, kWideDecodeMaxM, quarterSMs),
      tile(64, 128, kWideDecodeNarrowStages));
  // Past 64 rows where 64 x 128 tiles make less than a quarter wave (past
  // 256 rows: any count) but 64 x 64 ones a quarter to a whole wave, the
  // decode-64x64 kernel again (the family launches one kernel for both
  // rules): mid-size GEMMs that went to split-k's 64 x 128 tiles in many
  // slices (H200, f16 tn, docs/perf-data/mid-2026-12-04: 181x1048x2512
  // 10.7 us against 22.1, 300x700x2000 10.5 against 25.0, 100x2048x1536 8.5
  // against 15.9; cuBLAS 8.6, 19.1 and 7.3).
  add("mid-64x64", bounds(kWideDecodeNarrowMaxM + 1, std::nullopt, quarterSMs),
      narrow);
  // Past 256 rows, where 64 x 64 tiles would pass a wave but 64 x 128 ones
  // fit it, decode-64x128's kernel in one K slice (split-k split them into
  // slices whose reduction cost more than it saved: f16 tn 524x1105x534
  // 13.0 us against 25.5 in three slices; cuBLAS 25.6).
  add("mid-64x128", bounds(kWideDecodeMaxM + 1, std::nullopt, quarterSMs),
      tile(64, 128, 8));
  // Past 64 rows, fewer than a quarter wave of 64 x 64 tiles (from 8) and
  // K in [2048, 16384]: decode-64x64-split's kernel in up to four K slices,
  // enough to reach about one wave (split-k's 64 x 128 tiles in up to 128
  // slices of four stages lost: f16 tn 447x219x3058 16.3-16.9 us against 21-24,
  // 231x250x2840 11.1 against 12.4-13.8).
  SizeBounds fewWhen;
  // Up to 64 rows decode-64-split (measured there) stays.
  fewWhen.mMin = kWideDecodeNarrowMaxM + 1;
  fewWhen.kMin = kWideDecodeFewMinK;
  fewWhen.kMax = kWideDecodeFewMaxK;
  fewWhen.blocksMin = kWideDecodeFewMinBlocks;
  fewWhen.blocksMax = quarterSMs - 1;
  add("split-k-64x64", fewWhen, split,
      SplitPolicy{kWideDecodeFewSlices, sms, kWideDecodeFewMinK / 2});
  // Shorter K on as few tiles: decode-64x64's kernel unsplit (a reduction
  // costs more than the slices save there: f16 tn 96x1024x1024, 32 blocks,
  // 6.8 us against 9.1-10.3 in 2 to 9 slices; cuBLAS 6.0).
  SizeBounds shortWhen = fewWhen;
  shortWhen.kMin = kWideDecodeMinK;
  shortWhen.kMax = kWideDecodeFewMinK - 1;
  add("mid-64x64-few", shortWhen, narrow);
}

/// wave-fit's tile width and the weights of its WaveFit against the
/// default's 128 x 256: 192 x 100 : 256 x 94 in lowest terms, so that the
/// 128 x 192 tiles must cover the grid in whole waves with at least 6% less
/// area. Per unit of area they measured 2-6% slower than the default's
/// (H200: f16 tn 3072x3072x4096 134.4 us against 169.0 at an area ratio of
/// 0.75, 3840x3840x4096 221.2 against 229.6 at 0.94; 5000x5000x3000 at 0.96
/// gained 1.3%, 6144^2 x 4096 at 1.0 lost 1.6%; docs/dispatch.md).
static constexpr int64_t kWaveFitBN = 192;
static constexpr int64_t kWaveFitWeight = 75;
static constexpr int64_t kWaveFitVersusWeight = 94;

/// The shortest K the persistent member serves: the shortest it was
/// measured at (8192 x 8192 x 1024: 0.830 -> 0.858x cuBLAS; its store
/// is a larger share of the time there, which the overlap hides).
static constexpr int64_t kPersistentKMin = 1024;

std::vector<DispatchRule> mlir::gemm::getDispatchRules(const GemmSignature &sig,
                                                       const TargetInfo &target,
                                                       bool allowTf32) {
  TileConfig d = getDefaultConfig(sig, target, allowTf32);
  std::vector<DispatchRule> rules;
  auto add = [&](llvm::StringRef name, SizeBounds when, TileConfig c,
                 SplitPolicy split = {}) {
    // Members derived from a TMA default load through TMA where it can
    // load their tiles (wgmma members), else through cp.async.
    c.tmaLoad = c.tmaLoad && tmaLoadsTiles(c, sig);
    // A producer warpgroup (tma_ws) issues TMA loads only, at most
    // kMaxConsumerWarpgroups compute warpgroups wait on it, and it has no
    // cluster reduction.
    c.producerWarp = c.producerWarp && c.tmaLoad && !c.clusterReduce &&
                     c.wm * c.wn <= kMaxConsumerWarpgroups && c.stages >= 2;
    if (!checkConfig(c, sig, target).empty())
      return false;
    if (c == d && c.splitK == 1)
      return false; // the default rule comes last anyway
    rules.push_back({when, c, split, name.str()});
    return true;
  };
  int64_t sms = target.numSMs;
  int64_t halfSMs = halfTheSMs(target);

  // split-k: a small tile (a quarter of the default, at least 64 x 64 where
  // the instruction allows) whose grid does not fill one wave, and K long
  // enough for two slices of four k-tiles. Slices are added until the grid
  // holds two blocks per SM, the residency of the small tile.
  int64_t splitBM = std::min(std::max<int64_t>(d.bm / 2, 64), d.bm);
  int64_t splitBN = std::min(std::max<int64_t>(d.bn / 2, 64), d.bn);
  // split-k-narrow: split-k (below) for N <= 64, in 64 x 64 tiles where
  // split-k's are wider: twice the blocks per slice, and a tile three
  // blocks of which fit an SM (K-heavy 64x64x65536: 13.5 us against
  // 14.9-15.2 us in 64 x 128 tiles; docs/dispatch.md).
  if (target.isNVIDIA() && splitBN > 64 && d.bm >= 64 && d.bn >= 64) {
    TileConfig c = resize(d, 64, 64);
    c.splitK = kMaxDispatchSlices;
    SplitPolicy split{kMaxDispatchSlices, 3 * sms, 4 * c.bk};
    SizeBounds when;
    when.nMax = 64;
    when.blocksMax = sms;
    when.kMin = 2 * split.minKPerSlice;
    add("split-k-narrow", when, c, split);
  }
  // gemv: one row of A and a K-contiguous B (N x K: tn, tt) with rows
  // enough for half the SMs: streamed through registers, without the
  // reduction a split decode tile needs (f16 tn 1x4096x4096: 9.3 us against
  // 11.5). Its operands are read in place (readsOperandsInPlace): in tt the
  // K x 1 column of A is contiguous in K and takes 16-byte loads (f16 tt
  // 1x4096x4096: 10.5 us against 14.5 for decode-split on packed operands,
  // 58 us when gemv still read a packed A), and rows that rule out 16-byte
  // loads are read element by element, never packed (f16 tn 1x4097x4093:
  // 17.7 us against 34.7 packed).
  if (target.isNVIDIA()) {
    TileConfig c = getGemvConfig(sig, target, /*rowsOfA=*/1);
    SizeBounds when;
    when.mMax = c.bm;
    when.kMin = target.warpSize * c.ik;
    when.blocksMin = halfSMs;
    add("gemv", when, c);
    // gemv-2: the same tile for two rows of A, where the decode tile's grid
    // would fill less than half the SMs and decode would split K (N up to
    // 65 x 128 on the H200). Two rows of A per warp halve the FMAs a byte
    // of B costs per row of C; the split decode tile adds a reduction and,
    // for rows that rule out 16-byte copies, packs its operands (three
    // passes over B where gemv reads it once, shifting misaligned rows in
    // registers). f16 tn 2x4096x4096: 9.0 us against 11.9 (decode-split);
    // 2x4097x4093: 11.8 against 33.9 (decode-split on packed operands);
    // 2x2048x8192 1.19x against 1.08x cuBLAS; 2x1280x8192 0.98x against
    // 1.00x. From three rows on, the FMAs of the rows of A bound gemv
    // (docs/performance.md, "Two to four rows").
    if (std::optional<TileConfig> decode =
            getDecodeConfig(d, sig, target, /*bm=*/16)) {
      TileConfig two = getGemvConfig(sig, target, /*rowsOfA=*/2);
      SizeBounds twoWhen = when;
      twoWhen.mMin = twoWhen.mMax = 2;
      twoWhen.nMax = (halfSMs - 1) * decode->bn;
      add("gemv-2", twoWhen, two);
    }
  }
  // gemv-n, gemv-n-deep, gemv-n-2, gemv-n-2-deep: one or two rows of A and
  // an N-contiguous B (K x N: nn, nt), read in place (GemvColumns.cpp):
  // B streamed once in 16-byte chunks along N, 32 columns a block, every
  // warp on its own k rows, where the decode tile splits K below half the
  // SMs and packs rows that rule out 16-byte copies (odd N: three passes
  // over B). Eight warps of eight loads a lane while the grid is at most
  // one wave (the bytes in flight of one block per SM), four warps past it.
  // f16 nn on the H200 against the family without them (docs/dispatch.md,
  // "gemv on an N-contiguous B"): 1x4096x4096 8.8 us against 11.6
  // (decode-split), 1x14039x1158 and 1x11143x1242 (odd N) 1.18x and 1.66x
  // cuBLAS against 0.47x and 0.60x (packed), 2x4096x4096 1.11x against
  // 0.97x; 1x11008x4096 and 1x14336x4096 within the noise of decode.
  // Three and four rows lost to decode on aligned rows (4x11008x4096 0.82x
  // against 0.97x): A's rows are read element by element, so each row adds
  // loads to every chunk of B.
  if (target.isNVIDIA()) {
    for (int64_t rowsA : {1, 2}) {
      TileConfig deep = makeGemvColumnsConfig(
          rowsA, kGemvColumnsBlockN, /*warps=*/8, /*unroll=*/8,
          elemBytes(sig.a), target.warpSize);
      TileConfig many = makeGemvColumnsConfig(
          rowsA, kGemvColumnsBlockN, /*warps=*/4, /*unroll=*/8,
          elemBytes(sig.a), target.warpSize);
      SizeBounds when;
      when.mMin = when.mMax = rowsA;
      when.kMin = deep.bk;
      when.blocksMin = halfSMs;
      when.blocksMax = sms;
      std::string name = rowsA == 1 ? "gemv-n" : "gemv-n-2";
      add(name + "-deep", when, deep);
      when.kMin = many.bk;
      when.blocksMin = sms + 1;
      when.blocksMax.reset();
      add(name, when, many);
    }
  }
  // gemv-mma, gemv-mma-16: 3 to 8 (9 to 16) rows of A and a K-contiguous
  // B of 16-bit elements, on N of at least half the SMs times 16 rows: B
  // streamed through registers as in gemv, its products on mma.sync
  // (GemvMma.cpp), read in place whatever the rows' alignment, where the
  // decode tile's cp.async copies need 16-byte aligned rows and pack odd-K
  // operands first (three passes over B). f16 tn against the family
  // without them (H200, docs/performance.md, "gemv on mma.sync"):
  // 3x4096x4096 8.5 us against 12.1 (decode-split), 8x4096x4096 9.7
  // against 12.1, 11x4097x4093 15.8 against 34.0 (packed), 3x9000x1500
  // 14.5 against 31.5; within 5% either way where decode streams aligned
  // rows at 80% of a copy (4x14336x4096 34.9 against 33.6, 16x4096x11008
  // 31.4 against 29.9).
  // On a B stored K x N, addGemvMmaColumnsRules.
  if (target.isNVIDIA() && target.supportsKind(InstrKind::mma_sync)) {
    if (!sig.transB) {
      addGemvMmaColumnsRules(d, sig, target, add);
    } else {
      bool tn = sig.layoutName() == "tn";
      if (tn)
        addDecodeWgmmaRules(d, sig, target, add);
      for (int64_t bm : {8, 16}) {
        TileConfig c = getGemvMmaConfig(bm);
        SizeBounds when = gemvMmaRowsWhen(bm);
        std::string name = bm == 8 ? "gemv-mma" : "gemv-mma-16";
        // From half the SMs times 16 rows of B (gemv-mma: 66 blocks of 16
        // rows; gemv-mma-16: 33 of 32).
        int64_t minBlocks = halfSMs * kGemvMmaMinRowsPerSM / c.bn;
        if (minBlocks < halfSMs) {
          // gemv-mma-16-few: below half the SMs of blocks only with a short
          // K, and in tn only (kGemvMma16FewBlocksMaxK).
          if (tn) {
            SizeBounds few = when;
            few.blocksMin = minBlocks;
            few.blocksMax = halfSMs - 1;
            few.kMax = kGemvMma16FewBlocksMaxK;
            add(name + "-few", few, c);
          }
          minBlocks = halfSMs;
        }
        when.blocksMin = minBlocks;
        if (tn) {
          add(name, when, c);
          continue;
        }
        // tt's A (K x M) is read element by element: gemv-mma only on small
        // weights there (kGemvMmaTtMaxK, kGemvMmaTtMaxN; 6 to 8 rows
        // kGemvMmaTtSixRowsMaxK), and wherever B's rows rule out 16-byte
        // copies, which the decode members would pack.
        SizeBounds small = when;
        small.kMax = kGemvMmaTtMaxK;
        small.nMax = kGemvMmaTtMaxN;
        if (bm == 8) {
          SizeBounds six = small;
          small.mMax = 5;
          six.mMin = 6;
          six.kMax = kGemvMmaTtSixRowsMaxK;
          add(name, small, c);
          add("gemv-mma-6", six, c);
        } else {
          add(name, small, c);
        }
        SizeBounds unaligned = when;
        unaligned.bAligned = false;
        add(name + "-unaligned-b", unaligned, c);
      }
    }
  }
  // decode, decode-split: M fits one 16-row mma.sync tile and K is long:
  // the GEMM streams B once, and how fast is a matter of the bytes in
  // flight. A 16 x 128 tile with as many stages as shared memory holds
  // (wgmma's 64 rows would spend a third of each stage on padding rows of
  // A), one block per SM; split in K only while the grid fills less than
  // half the SMs, so that mid-sized N runs one kernel without the
  // reduction (docs/dispatch.md, "decode"). decode-32, decode-32-split:
  // the same with 32-row tiles for 17 <= M <= 32 (24x4096x4096 14.9 us
  // against 17.2 in the split-k tile; 64-row tiles lost to split-k and
  // short-m from M = 17 to 64 but for 48-64 rows with N <= 11008).
  addWideDecodeRules(d, sig, target, add);
  int64_t decodeMMin = 1;
  // decode-64 (33 <= M <= 64) has no unsplit member: with grids of half
  // the SMs or more, 64-row mma.sync tiles lost to short-m (64x65536x1024:
  // 49.7 us against 44.7).
  //
  // On wgmma chips decode-64-split takes the split-k member's 64 x BN/2
  // wgmma tile with the decode fill (one block per SM: 4 slices for 32
  // blocks): f16 tn 48x4096x4096 17.6 us against 19.9 in 64-row mma.sync
  // tiles and 24.5 with split-k's own fill of two blocks per SM (8 slices;
  // docs/tuning.md, "The sm_90a entries").
  for (int64_t bm : {16, 32, 64}) {
    std::optional<TileConfig> c = getDecodeConfig(d, sig, target, bm);
    if (!c)
      break;
    // K long enough for decode's four 256-byte k-tiles a slice, whatever
    // the tile (f16 tn 40x4096x300 in the wgmma tile took 15.2 us, 0.49x).
    int64_t minK = kDecodeMinKTiles * c->bk;
    if (bm == 64 && d.kind == InstrKind::wgmma && d.bm >= 64) {
      c = resize(d, 64, splitBN);
      c->splitK = 1;
    }
    std::string name = bm == 16 ? "decode" : "decode-" + std::to_string(bm);
    SizeBounds when;
    if (decodeMMin > 1)
      when.mMin = decodeMMin;
    when.mMax = c->bm;
    when.kMin = minK;
    when.blocksMin = halfSMs;
    if (bm < 64)
      add(name, when, *c);
    else
      when.blocksMax = halfSMs - 1;
    // -split: split in K through the workspace and a reduction kernel.
    TileConfig splitConfig = *c;
    splitConfig.splitK = kMaxDispatchSlices;
    SplitPolicy split{kMaxDispatchSlices, sms, minK};
    // -cluster (before -split): the slices of a tile in one cluster, which
    // adds them in the GEMM kernel (no workspace, no reduction kernel),
    // only for the grids whose clusters all run at once with as many
    // slices as -split would run. Fewer slices lost to -split with its
    // reduction (H200: clusters of 4 run 30 at a time, so 1x4096x4096 got
    // 3 slices in clusters, 12.0 us, against 4 through the workspace,
    // 11.5 us; 16x4096x11008 34.6 against 29; 24x4096x4096 16.9 against
    // 14.9); with as many it won (2x8192x8192, 2 slices: 36.4 us against
    // 40). Not for 64-row tiles (48x4096x4096: 23.2 us in clusters of 3
    // against 19.9 through the workspace).
    if (bm < 64) {
      TileConfig cluster = *c;
      cluster.splitK = kMaxClusterSlices;
      cluster.clusterReduce = true;
      // ptxas 13.0 spilled 8 bytes of the tt cluster kernel at 4 stages.
      if (sig.layoutName() == "tt")
        cluster.stages = std::min<int64_t>(cluster.stages, 3);
      SplitPolicy clusterSplit = split;
      clusterSplit.maxSlices = kMaxClusterSlices;
      clusterSplit.clusterCapacity.assign(
          target.clusterCapacity.begin(),
          target.clusterCapacity.begin() +
              std::min<size_t>(target.clusterCapacity.size(),
                               kMaxClusterSlices));
      // The grids (below the unsplit member's) from which on every grid
      // runs as many slices in clusters as through the workspace.
      int64_t lo = *when.blocksMin;
      for (int64_t blocks = lo - 1; blocks >= 1; --blocks) {
        int64_t slices = split.slices(kMaxConfigBlock, blocks);
        if (slices > kMaxClusterSlices ||
            clusterSplit.slices(kMaxConfigBlock, blocks) != slices)
          break;
        lo = blocks;
      }
      SizeBounds clusterWhen = when;
      clusterWhen.blocksMin = lo;
      if (lo < *when.blocksMin && !clusterSplit.clusterCapacity.empty())
        add(name + "-cluster", clusterWhen, cluster, clusterSplit);
    }
    when.blocksMin.reset();
    add(name + "-split", when, splitConfig, split);
    decodeMMin = bm + 1;
  }

  {
    TileConfig c = resize(d, splitBM, splitBN);
    c.splitK = kMaxDispatchSlices;
    SplitPolicy split{kMaxDispatchSlices, 2 * sms, 4 * c.bk};
    SizeBounds when;
    when.blocksMax = sms;
    when.kMin = 2 * split.minKPerSlice;
    add("split-k", when, c, split);
  }
  // The resized tiles below were measured on the H200 only; on AMD the
  // family is split-K and the default (the MFMA variants of short-m spilled
  // on gfx90a: test/Pipelines/gemm-to-hsaco-gfx90a.mlir).
  if (!target.isNVIDIA()) {
    rules.push_back({SizeBounds(), d, SplitPolicy(), "default"});
    return rules;
  }
  // small: the whole problem fits one wave of 64 x 64 tiles (and K is too
  // short to split): the smallest tile and two stages, whose short
  // prologue and small shared footprint win on tiny and odd-sized GEMMs
  // (H200, f16 tn against cuBLAS: 128^3 at 1.01x against 0.26x for the
  // 64 x 256 tile of short-m, 8^3 at 1.62x against 1.07x; docs/dispatch.md).
  {
    TileConfig c = resize(d, 64, 64);
    c.stages = 2;
    SizeBounds when;
    when.blocksMax = sms;
    add("small", when, c);
  }
  // tiny-k: K within one mma.sync step (K = 1 outer products, rank-16
  // updates of f16): each block loads one k-tile and stores its tile of C,
  // so the work is the store. 64 x 64 mma.sync tiles one step deep (wgmma's
  // k-tile is 64 deep, four times the loads of padding) and one stage,
  // while their grid is at most 8 blocks per SM: f16 tn 1000x1001x1 6.9 us
  // against 11.2 in 128 x 128 wgmma tiles and 8.8 in 64 x 64 ones,
  // 2000x2000x1 10.1 against 15.8; 4096x4096x8 (4096 blocks) ran 25.8 us
  // against 23.1 with the default (docs/dispatch.md).
  if (std::optional<TileConfig> c =
          makeMmaSyncConfig(d, sig, target, 64, 64, 32, 2, 2, 1)) {
    SizeBounds when;
    when.kMax = c->bk;
    when.blocksMax = kTinyKBlocksPerSM * sms;
    add("tiny-k", when, *c);
  }
  // short-k: K within two k-tiles of the default, on a grid of more than
  // one wave of default tiles (and N past narrow-n): each block loads a k-tile
  // or two and stores its tile, so the stores are the work, and the
  // default's one block per SM (by registers) cannot overlap one tile's
  // store with the next one's loads. Quarter tiles with two stages hold
  // four blocks per SM (H200: f16 48x384x384x128 batched 13.6 us against
  // 20.1, bf16 nn 8192x8192x128 71.7 against 86.2, f16 tn 4095x3001x100
  // 33.0 against 37.5; within one wave of default tiles the default won,
  // 2048x2048x32 8.2 us against 9.0; docs/dispatch.md). Measured for
  // wgmma defaults only.
  if (d.kind == InstrKind::wgmma && d.bm >= 128 && d.bn >= 256) {
    TileConfig c = resize(d, d.bm / 2, d.bn / 2);
    c.stages = 2;
    SizeBounds when;
    when.kMax = 2 * c.bk;
    when.nMin = d.bn / 4 + 1;
    when.blocksMin = 4 * sms + 1;
    add("short-k", when, c);
    // The same where N fits half the default's width (narrow-n below
    // takes a quarter): its grid passes a wave from 2 * numSMs of these
    // tiles on (bf16 nn batched 36x619x65x90, 360 of them).
    when.nMax = d.bn / 2;
    when.blocksMin = 2 * sms + 1;
    add("short-k-narrow", when, c);
  }
  // short-m: M fits half the default tile's height.
  if (d.bm >= 128) {
    SizeBounds when;
    when.mMax = d.bm / 2;
    add("short-m", when, resize(d, d.bm / 2, d.bn));
  }
  // narrow-n: N fits a quarter of the default tile's width.
  if (d.bn >= 128) {
    SizeBounds when;
    when.nMax = d.bn / 4;
    add("narrow-n", when, resize(d, d.bm, d.bn / 4, /*warpsAlongM=*/true));
  }
  // mid: half-wide tiles while their grid fits one wave (the default's
  // would fill half of it). Not up to two waves: 2048^3 ran at 0.56-0.63x
  // cuBLAS in 128 x 128 tiles and at 0.89x in the default 128 x 256.
  if (d.bn >= 256) {
    SizeBounds when;
    when.blocksMax = sms;
    add("mid", when, resize(d, d.bm, d.bn / 2));
    // half-n: past one wave, N within half the default's width still gets
    // mid's tile (its kernel): the grid is the default's, each tile half
    // as wide, so half the MMA work on columns past N (bf16 nn batched
    // 36x619x65x90: 128 x 256 tiles 65 columns wide, 0.39-0.47x cuBLAS).
    SizeBounds half;
    half.nMax = d.bn / 2;
    add("half-n", half, resize(d, d.bm, d.bn / 2));
  }
  // wave-fit: 128 x 192 tiles past one wave where their grid covers whole
  // waves with 6% less tile area than the default's 128 x 256 (16-bit
  // operands: the two compute warpgroups issue m64n192).
  // A grid of default tiles that ends in a short last wave runs that wave at
  // the cost of a whole one. Checked and measured on a GPU in every layout
  // (docs/dispatch.md).
  // The f16/bf16 wgmma default (128 x 256) that wave-fit and persistent
  // were measured against.
  bool sixteenBitWgmmaDefault = d.kind == InstrKind::wgmma && d.bm == 128 &&
                                d.bn == 256 && elemBytes(sig.a) == 2;
  if (sixteenBitWgmmaDefault) {
    TileConfig c = resize(d, d.bm, kWaveFitBN);
    auto blocksPerSM = [&](const TileConfig &t) {
      return residentBlocksPerSM(target, t.blockWarps() * target.warpSize,
                                 estimateSharedMemory(t, elemBytes(sig.a)));
    };
    int64_t perSM = blocksPerSM(d);
    if (blocksPerSM(c) == perSM) {
      SizeBounds when;
      when.blocksMin = sms + 1;
      when.waveFit = WaveFit{sms * perSM, d.bm, d.bn, kWaveFitWeight,
                             kWaveFitVersusWeight};
      add("wave-fit", when, c);
    }
  }
  // persistent: past one wave, on a grid of whole default tiles, the
  // default tile walked persistently (schedule = persistent: a producer
  // warpgroup's TMA loads run on into the block's next tile while its
  // compute warpgroups store the last one) and by one block an SM. Beside
  // the family on the H200 (docs/dispatch.md, "persistent"): f16 tn
  // 12288 x 4096 x 4096 0.954 against 0.939x cuBLAS, 8192^3 1.001 against
  // 0.987, 6144^3 0.975 against 0.960, 0-1.6% in nn, nt, tt and bf16; the
  // same tile lost 11% on ragged grids (5000 x 5000 x 3000, 4099 x 4097 x
  // 4095) and 5-11% with fused SiLU and GELU regions, so it serves whole
  // tiles of a plain GEMM only, and where it was measured: K of 1024 and
  // more, one batch. wave-fit (above) keeps the grids it fits.
  if (sixteenBitWgmmaDefault && d.tmaLoad) {
    TileConfig c = d;
    c.producerWarp = true;
    c.persistent = true;
    SizeBounds when;
    when.blocksMin = sms + 1;
    when.kMin = kPersistentKMin;
    when.batchMax = 1;
    when.wholeTiles = true;
    if (add("persistent", when, c))
      rules.back().regionEpilogues = false;
  }
  // f8 has no member past one wave but its default: persistent multicast
  // pairs of the default tile (the thirty-seventh stop) and 128 x 192 tiles
  // of two compute warpgroups (the thirty-eighth) each gained a little on
  // some large shapes and lost 4-5% on others, within 1% of the default in
  // the geomean of the families measured side by side (H100,
  // docs/dispatch.md, "f8 past one wave").
  rules.push_back({SizeBounds(), d, SplitPolicy(), "default"});
  return rules;
}

size_t mlir::gemm::chooseRule(llvm::ArrayRef<DispatchRule> rules, int64_t m,
                              int64_t n, int64_t k, int64_t batch,
                              bool aAligned, bool bAligned) {
  for (auto [i, rule] : llvm::enumerate(rules))
    if (rule.when.holds(m, n, k, batch, rule.config.bm, rule.config.bn,
                        aAligned, bAligned))
      return i;
  return rules.size() - 1;
}
