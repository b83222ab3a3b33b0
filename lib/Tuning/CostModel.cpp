//===- CostModel.cpp - Analytical GEMM cost model -------------------------===//
//
// Time of one config on one problem, in SM cycles (docs/tuning.md has the
// formulas with their derivation):
//
//   per k-tile, n blocks resident on an SM:
//     T(n) = max(n * mma / eff(n), n * smem, n * l2, exposedLatency)
//   per round of n resident blocks:
//     R(n) = overhead + latency + kTiles * T(n) + n * epilogue
//   busiest SM: ceil(tiles / SMs) blocks in rounds of blocksPerSM
//   kernel: max(busiest SM, DRAM bytes / DRAM bandwidth) + launch
//
//===----------------------------------------------------------------------===//

#include "gemm/Tuning/CostModel.h"
#include "gemm/Target/Legality.h"
#include "gemm/Tuning/DefaultConfig.h"
#include "gemm/Tuning/Lattice.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <tuple>

using namespace mlir::gemm;

namespace {
/// ceil(a / b) for a >= 0, b > 0, without the overflow of (a + b - 1) / b
/// (problem sizes come from user IR and may be near 2^63).
int64_t ceilDiv(int64_t a, int64_t b) { return a / b + (a % b != 0); }

struct Param {
  llvm::StringRef name;
  double ModelParams::*field;
  /// The model divides by it: zero is out.
  bool divisor = false;
};
const Param params[] = {
    {"warp-half", &ModelParams::warpHalf},
    {"mma-half", &ModelParams::mmaHalf},
    {"l2-scale", &ModelParams::l2Scale},
    {"latency-scale", &ModelParams::latencyScale},
    {"plain-conflict", &ModelParams::plainConflict},
    {"pad-conflict", &ModelParams::padConflict},
    {"launch-us", &ModelParams::launchUs},
    {"block-overhead", &ModelParams::blockOverheadCycles},
    {"ktile-overhead", &ModelParams::kTileOverheadCycles},
    {"spill-penalty", &ModelParams::spillPenalty},
    {"parallel-half", &ModelParams::parallelHalf},
    {"warp-copy-bytes", &ModelParams::warpCopyBytesPerClk, true},
    {"element-copy-scale", &ModelParams::elementCopyScale},
    {"overlap-power", &ModelParams::overlapPower, true},
    {"solo-sync", &ModelParams::soloSyncCycles},
    {"transpose-fraction-4b", &ModelParams::transposeFraction4B, true},
    {"transpose-fraction-1b", &ModelParams::transposeFraction1B, true},
};
} // namespace

std::string ModelParams::set(llvm::StringRef name, double value) {
  for (const Param &p : params) {
    if (p.name != name)
      continue;
    // Times, rates, scales and fractions: a NaN, infinite or negative one
    // would predict NaN, infinite or negative times.
    if (!std::isfinite(value) || value < 0 || (p.divisor && value == 0)) {
      char got[32];
      std::snprintf(got, sizeof(got), "%g", value);
      return ("model parameter '" + name + "' must be a finite number " +
              (p.divisor ? "above 0" : "of at least 0") + ", got " + got)
          .str();
    }
    this->*p.field = value;
    return "";
  }
  return ("unknown model parameter '" + name +
          "' (names: " + llvm::join(names(), ", ") + ")")
      .str();
}

llvm::ArrayRef<llvm::StringRef> ModelParams::names() {
  static const std::vector<llvm::StringRef> names = [] {
    std::vector<llvm::StringRef> v;
    for (const Param &p : params)
      v.push_back(p.name);
    return v;
  }();
  return names;
}

/// `kind = gemv`: no shared memory and no pipeline; each warp streams its
/// rows of B (and, from L2, the block's rows of A) with U 16-byte loads per
/// row and lane in flight. The time is the largest of the DRAM traffic
/// (B once per block row of M), the loads in flight over the memory
/// latency (Little's law) and the f32 FMAs, plus the launch.
static Cost estimateGemvCost(const TileConfig &c, const GemmProblem &p,
                             const TargetInfo &target, const TargetPerf &perf,
                             const ModelParams &mp, Cost cost) {
  double bytes = elemBytes(p.a), cBytes = elemBytes(p.c);
  bool readsC = p.epilogue == EpilogueClass::reads_c;
  int64_t tilesM = ceilDiv(p.m, c.bm), tilesN = ceilDiv(p.n, c.bn);
  double tileCount = double(tilesM) * double(tilesN) * double(p.batch);
  cost.tiles = tileCount < 0x1p62 ? int64_t(tileCount) : int64_t(1) << 62;
  cost.paddedFraction = double(p.m) / (double(tilesM) * c.bm);
  int64_t bps = cost.blocksPerSM;
  int64_t perSM = ceilDiv(cost.tiles, target.numSMs);
  cost.rounds = ceilDiv(perSM, bps);
  // Of the saturated count, as the rounds are: at most 1 near 2^63 too.
  cost.waveEfficiency =
      double(cost.tiles) / (double(cost.rounds) * target.numSMs * bps);
  double clock = perf.clockGHz;
  double dramBytes = p.batch * (double(tilesM) * p.n * p.k * bytes +
                                double(p.m) * p.k * bytes +
                                double(p.m) * p.n * cBytes * (readsC ? 2 : 1));
  double dramCycles = dramBytes / (perf.dramGBps / clock);
  // Little's law: the busiest SM's resident warps, U loads of each of a
  // lane's rows of B (R; BN / 8 on mma.sync, whose 4 lanes share a row).
  bool mma = isGemvMma(c);
  int64_t unroll = gemvUnroll(c, target.warpSize);
  // On an N-contiguous B a lane reads one chunk a k row.
  int64_t laneRows = mma ? c.bn * kGemvMmaLanesPerRow / target.warpSize
                     : isGemvColumns(c) ? 1
                                        : c.warpTileN();
  double inFlight = double(std::min(bps, std::max<int64_t>(perSM, 1))) *
                    c.numWarps() * target.warpSize * 16.0 * unroll * laneRows;
  double latency = perf.memLatencyCycles * mp.latencyScale;
  double streamCycles =
      double(perSM) * c.bn * p.k * bytes / std::max(inFlight / latency, 1.0);
  // One FMA (two flops) per element pair, plus the conversion of B; on
  // mma.sync the padded tile at the matrix rate.
  double fmaCycles = mma ? double(perSM) * 2.0 * c.bm * c.bn * p.k /
                               perf.matrixF16FlopsPerClkPerSM
                         : double(perSM) * c.bm * c.bn * p.k *
                               (2.0 + 2.0 / c.bm) /
                               perf.simtF32FlopsPerClkPerSM;
  double cycles = dramCycles;
  cost.bound = "dram";
  if (streamCycles > cycles)
    cycles = streamCycles, cost.bound = "latency";
  if (fmaCycles > cycles)
    cycles = fmaCycles, cost.bound = "mma";
  cost.timeUs = cycles / (clock * 1e3) + mp.launchUs;
  cost.tflops = p.flops() / cost.timeUs / 1e6;
  cost.issueEfficiency = 1.0;
  int64_t rows = mma ? c.bn : c.warpTileN();
  cost.globalBytesPerFlop = (c.bm + rows) * bytes / (2.0 * c.bm * rows);
  cost.pipelineCover = std::min(
      1.0, inFlight / latency / (perf.dramGBps / clock / target.numSMs));
  cost.epilogueUs = 0;
  return cost;
}

std::optional<Cost> mlir::gemm::estimateCost(const TileConfig &c,
                                             const GemmProblem &p,
                                             const TargetInfo &target,
                                             const ModelParams &mp) {
  const TargetPerf *perf = lookupTargetPerf(target.name);
  if (!perf)
    return std::nullopt;
  // A wgmma config on tf32, i8 or f8 operands stored MN-major runs on
  // transposed copies (the lowering's kernel view, layout tn): the kernel
  // as on tn, plus one copy kernel per transposed operand.
  OperandTransposes transposes =
      getOperandTransposes(p, target, p.allowTf32, c.kind);
  if (transposes.any()) {
    GemmProblem kernelProblem = p;
    static_cast<GemmSignature &>(kernelProblem) =
        getKernelSignature(p, transposes);
    std::optional<Cost> cost = estimateCost(c, kernelProblem, target, mp);
    if (!cost)
      return cost;
    double bytes = elemBytes(p.a);
    double fraction =
        bytes >= 4 ? mp.transposeFraction4B : mp.transposeFraction1B;
    double moved = 2.0 * p.batch * p.k * bytes *
                   ((transposes.a ? double(p.m) : 0.0) +
                    (transposes.b ? double(p.n) : 0.0));
    int64_t copies = int64_t(transposes.a) + int64_t(transposes.b);
    cost->transposeUs =
        copies * mp.launchUs + moved / (fraction * perf->dramGBps * 1e3);
    cost->timeUs += cost->transposeUs;
    cost->tflops = p.flops() / cost->timeUs / 1e6;
    return cost;
  }
  Cost cost;
  ElemKind opKind = instrOperandKind(p.a, c.kind);
  double bytes = elemBytes(p.a);
  double cBytes = elemBytes(p.c);
  bool readsC = p.epilogue == EpilogueClass::reads_c;
  int64_t warps = c.numWarps();
  int64_t threads = warps * target.warpSize;

  // Occupancy: blocks an SM holds at once.
  int64_t smem = estimateSharedMemory(c, elemBytes(opKind));
  int64_t regs = estimateRegisters(c, elemBytes(opKind), elemBytes(p.acc),
                                   target.warpSize, accumulatorSets(c, opKind));
  // ptxas honours the launch bound (.maxntid): at most regsPerSM / threads
  // registers per thread; an estimate above that cap spills.
  int64_t regCap = std::min<int64_t>(target.maxRegsPerThread,
                                     target.regsPerSM / threads / 8 * 8);
  double spill = regs > regCap ? 1.0 + mp.spillPenalty *
                                           double(regs - regCap) / regCap
                               : 1.0;
  regs = std::min<int64_t>((regs + 7) / 8 * 8, regCap);
  int64_t bps = std::min<int64_t>(perf->maxBlocksPerSM,
                                  perf->maxWarpsPerSM / std::max<int64_t>(warps, 1));
  if (smem > 0)
    bps = std::min<int64_t>(bps, target.sharedMemPerSM / smem);
  bps = std::min<int64_t>(bps, target.regsPerSM / (regs * threads));
  bps = std::max<int64_t>(bps, 1);
  cost.blocksPerSM = bps;
  cost.occupancy = double(bps * warps) / perf->maxWarpsPerSM;
  if (c.kind == InstrKind::gemv)
    return estimateGemvCost(c, p, target, *perf, mp, cost);

  // Tiles and padding.
  int64_t tilesM = ceilDiv(p.m, c.bm), tilesN = ceilDiv(p.n, c.bn);
  // In double, then saturated: the product of user sizes may pass 2^63.
  double tileCount = double(tilesM) * double(tilesN) * double(p.batch);
  int64_t kTiles = ceilDiv(p.k, c.bk);
  cost.paddedFraction =
      p.flops() / (2.0 * tileCount * c.bm * c.bn * double(kTiles) * c.bk);
  // Split-K: `slices` blocks per output tile (fewer when K has fewer
  // k-tiles), each over ceil(kTiles / slices) k-tiles.
  // `reduction = fixup` splits only the last partial wave (below).
  int64_t slices =
      c.fixupReduce ? 1
                    : std::max<int64_t>(1, std::min<int64_t>(c.splitK, kTiles));
  kTiles = ceilDiv(kTiles, slices);
  tileCount *= double(slices);
  int64_t tiles = tileCount < 0x1p62 ? int64_t(tileCount) : int64_t(1) << 62;
  cost.tiles = tiles;
  // Rows and columns actually loaded per tile (edge copies are predicated).
  double rowsA = double(p.m) / tilesM, colsB = double(p.n) / tilesN;

  // Per block and k-tile, at full issue rate.
  double peak = peakFlopsPerClkPerSM(*perf, c.kind, opKind);
  double instrScale = 1.0;
  double instrsPerStep;
  if (c.kind == InstrKind::simt) {
    instrsPerStep = double(c.im * c.in) / 2;
  } else {
    int64_t maxK = 0;
    for (const MmaShape &s : target.findShapes(c.kind, opKind, p.acc))
      maxK = std::max<int64_t>(maxK, s.k);
    instrScale = maxK ? double(c.ik) / maxK : 1.0;
    // One wgmma is the work of many warp-level MMAs: count each warp's
    // 16-row slice of the warpgroup tile in m16n8 units, the independent
    // work that hides the instruction's latency. (Not calibrated against
    // measurements yet: docs/tuning.md.)
    instrsPerStep =
        c.kind == InstrKind::wgmma
            ? double(c.warpTileM() / 4 / 16) * double(c.warpTileN() / 8)
            : double(c.warpTileM() / c.im) * double(c.warpTileN() / c.in);
  }
  double mma = 2.0 * c.bm * c.bn * c.bk / (peak * instrScale);
  auto eff = [&](int64_t n) {
    double w = double(n * warps);
    return 1.0 / (1.0 + mp.warpHalf / w + mp.mmaHalf / instrsPerStep +
                  mp.parallelHalf / (w * instrsPerStep));
  };
  double conflict = 1.0;
  if (c.smem == SmemKind::pad)
    conflict = mp.padConflict;
  else if (c.smem == SmemKind::plain)
    conflict = std::clamp(c.bk * bytes / 16.0, 1.0, mp.plainConflict);
  // mma.sync fragments of tf32 and i8 operands stored M- or N-innermost
  // are gathered element by element (MmaSync.cpp: ldmatrix transposes
  // 16-bit elements only): a shared load per element where ldmatrix.x4
  // moves 16 bytes a thread, 16 / bytes times the instructions.
  auto gathered = [&](bool mnMajor) {
    return c.kind == InstrKind::mma_sync && mnMajor &&
                   (opKind == ElemKind::tf32 || opKind == ElemKind::i8)
               ? 16.0 / bytes
               : 1.0;
  };
  double sharedReads =
      double(c.bk) *
      (c.bm * c.wn * gathered(p.transA) + c.bn * c.wm * gathered(!p.transB)) *
      bytes;
  double sharedWrites = double(c.bm + c.bn) * c.bk * bytes;
  double smemCycles =
      (sharedReads * conflict + sharedWrites) / perf->smemBytesPerClkPerSM;
  double l2BytesPerClk = perf->l2BytesPerClkPerSM * mp.l2Scale;
  double l2Cycles = (rowsA + colsB) * c.bk * bytes / l2BytesPerClk;
  double latency = perf->memLatencyCycles * mp.latencyScale;
  // Copy issue: one block's warps move its tiles at warpCopyBytesPerClk
  // each; operands whose rows are not 16-byte aligned take element copies
  // with 16 bytes per thread in flight per round trip.
  double tileBytes = (rowsA + colsB) * c.bk * bytes;
  double copyCycles = tileBytes / (warps * mp.warpCopyBytesPerClk);
  bool elementA = !p.rowsAllowVectorCopies(/*operandB=*/false);
  bool elementB = !p.rowsAllowVectorCopies(/*operandB=*/true);
  double elementBytes = (elementA ? rowsA : 0.0) * c.bk * bytes +
                        (elementB ? colsB : 0.0) * c.bk * bytes;
  double elementCycles = std::ceil(elementBytes / (threads * 16.0)) *
                         latency * mp.elementCopyScale;

  auto kTile = [&](int64_t n, llvm::StringRef *bound) {
    double compute = n * mma / eff(n) * spill;
    // A k-tile's data arrives latency + issue time after its copies start,
    // stages - 1 k-tiles ahead (one stage: nothing overlaps in the block).
    // wgmma keeps one stage of MMAs in flight with 3+ stages and fetches
    // one tile less far ahead (ComputeStep::stagesInFlight).
    double fetch = latency + copyCycles;
    int64_t ahead =
        c.stages - 1 -
        (c.kind == InstrKind::wgmma ? TileConfig::wgmmaStagesInFlight(c.stages)
                                    : 0);
    double exposed = c.stages == 1 ? fetch + mma / eff(n)
                                   : fetch / double(ahead);
    double t = compute;
    llvm::StringRef b = "mma";
    // (The fixed per-k-tile cost adds to whichever resource bounds it.)
    if (n * smemCycles > t)
      t = n * smemCycles, b = "smem";
    if (n * l2Cycles > t)
      t = n * l2Cycles, b = "l2";
    if (copyCycles > t)
      t = copyCycles, b = "copy";
    if (elementCycles > t)
      t = elementCycles, b = "element-copy";
    if (exposed > t)
      t = exposed, b = "latency";
    if (bound)
      *bound = b;
    // Imperfect overlap: a p-norm of the limits instead of their maximum.
    double sum = 0;
    for (double x : {compute, n * smemCycles, n * l2Cycles, copyCycles,
                     elementCycles, exposed})
      sum += std::pow(x / t, mp.overlapPower);
    return t * std::pow(sum, 1.0 / mp.overlapPower) + mp.kTileOverheadCycles +
           (n == 1 ? mp.soloSyncCycles : 0.0);
  };
  // Epilogue per block: C stores (and loads), the region's arithmetic.
  double elems = double(c.bm) * c.bn;
  double epiOps = p.epilogue == EpilogueClass::none          ? 2
                  : p.epilogue == EpilogueClass::elementwise ? 16
                                                             : 4;
  double epilogue = elems * cBytes * (readsC ? 2 : 1) / l2BytesPerClk +
                    elems * epiOps / (4.0 * target.warpSize);
  double accBytes = elemBytes(p.acc);
  if (slices > 1 && !c.clusterReduce) {
    // The partial sums go to the workspace; the reduction kernel applies
    // the epilogue (below).
    epilogue = elems * accBytes / l2BytesPerClk;
  } else if (slices > 1) {
    // The partial sums through shared memory and DSMEM, then a 1 / slices
    // share of the epilogue per block.
    epilogue = epilogue / slices + 2 * elems * accBytes / l2BytesPerClk;
  }
  auto roundOf = [&](int64_t n, int64_t kt) {
    return mp.blockOverheadCycles + latency * (readsC ? 2 : 1) +
           kt * kTile(n, nullptr) + n * epilogue;
  };
  auto round = [&](int64_t n) { return roundOf(n, kTiles); };

  // The busiest SM runs ceil(tiles / SMs) blocks, bps at a time. Clusters
  // of `slices` blocks run only as many at once as the chip's cluster
  // capacity (their blocks share a GPC): fewer SMs take part.
  int64_t sms = target.numSMs;
  if (c.clusterReduce && slices > 1 &&
      size_t(slices) <= target.clusterCapacity.size())
    sms = std::min<int64_t>(sms, target.clusterCapacity[slices - 1] * slices);
  int64_t perSM = ceilDiv(tiles, sms);
  int64_t full = perSM / bps, rem = perSM % bps;
  double smCycles = full * round(bps) + (rem ? round(rem) : 0.0);
  cost.rounds = full + (rem ? 1 : 0);
  // Fix-up (slices is 1 above, so kTiles is all of K's): the tail (tiles
  // mod a wave) runs as its tiles' K slices (the launch's rule,
  // FixupSplit in the runtime), each slice's partial sums
  // written and the last slice reading them all back.
  int64_t wave = sms * bps;
  if (c.fixupReduce && tiles % wave != 0) {
    int64_t tail = tiles % wave;
    int64_t fixSlices = std::max<int64_t>(
        1, std::min<int64_t>({c.splitK, wave / tail, kTiles}));
    if (fixSlices > 1) {
      int64_t waves = tiles / wave;
      double planeCycles = elems * accBytes / l2BytesPerClk;
      smCycles = waves * round(bps) +
                 roundOf(std::min(bps, ceilDiv(tail * fixSlices, sms)),
                         ceilDiv(kTiles, fixSlices)) +
                 (fixSlices + 1) * planeCycles;
      cost.rounds = waves + 1;
    }
  }
  cost.waveEfficiency =
      double(tiles) / (double(cost.rounds) * target.numSMs * bps);
  cost.epilogueUs =
      cost.rounds * std::min(bps, perSM) * epilogue / (perf->clockGHz * 1e3);

  double dramBytes = p.batch * ((double(p.m) + p.n) * p.k * bytes +
                                double(p.m) * p.n * cBytes * (readsC ? 2 : 1));
  double dramCycles = dramBytes / (perf->dramGBps / perf->clockGHz);
  // The workspace reduction: a second launch that reads slices x M x N
  // partial sums (written by the GEMM kernel: twice the bytes through DRAM)
  // and writes C once.
  double reduceUs = 0;
  if (slices > 1 && !c.clusterReduce) {
    double wsBytes = double(p.batch) * slices * double(p.m) * p.n * accBytes;
    dramBytes += wsBytes;
    dramCycles = dramBytes / (perf->dramGBps / perf->clockGHz);
    double reduceBytes = wsBytes + double(p.batch) * p.m * p.n * cBytes *
                                       (readsC ? 2 : 1);
    reduceUs = mp.launchUs + reduceBytes / (perf->dramGBps * 1e3);
  }
  kTile(std::min(bps, perSM), &cost.bound);
  double cycles = smCycles;
  if (dramCycles > cycles)
    cycles = dramCycles, cost.bound = "dram";
  cost.timeUs = cycles / (perf->clockGHz * 1e3) + mp.launchUs + reduceUs;
  cost.tflops = p.flops() / cost.timeUs / 1e6;
  cost.issueEfficiency = eff(std::min(bps, perSM));
  double flopsPerKTile = 2.0 * c.bm * c.bn * c.bk;
  cost.globalBytesPerFlop = (c.bm + c.bn) * c.bk * bytes / flopsPerKTile;
  cost.sharedBytesPerFlop = sharedReads * conflict / flopsPerKTile;
  cost.pipelineCover =
      c.stages == 1
          ? 0.0
          : std::min(1.0, (c.stages - 1) * bps * mma / eff(bps) / latency);
  return cost;
}

std::vector<RankedConfig> mlir::gemm::rankLattice(const GemmProblem &problem,
                                                  const TargetInfo &target,
                                                  const ModelParams &params) {
  std::vector<RankedConfig> ranked;
  for (const TileConfig &c : enumerateLattice(problem, target)) {
    std::optional<Cost> cost = estimateCost(c, problem, target, params);
    if (!cost)
      return {};
    ranked.push_back({c, *cost});
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [&](const RankedConfig &a, const RankedConfig &b) {
                     // Ties: the frontier's other axes (so that the first
                     // point is never dominated), then less shared memory.
                     auto key = [](const RankedConfig &r) {
                       return std::make_tuple(
                           r.cost.timeUs, r.cost.globalBytesPerFlop,
                           r.cost.sharedBytesPerFlop, -r.cost.occupancy,
                           -r.cost.pipelineCover,
                           estimateSharedMemory(r.config, 1));
                     };
                     return key(a) < key(b);
                   });
  return ranked;
}

std::vector<size_t>
mlir::gemm::paretoFrontier(llvm::ArrayRef<RankedConfig> ranked) {
  // Axes to minimize.
  auto axes = [](const Cost &c) {
    return std::array<double, 5>{c.timeUs, c.globalBytesPerFlop,
                                 c.sharedBytesPerFlop, -c.occupancy,
                                 -c.pipelineCover};
  };
  auto dominates = [](const std::array<double, 5> &a,
                      const std::array<double, 5> &b) {
    bool strict = false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i] > b[i])
        return false;
      strict |= a[i] < b[i];
    }
    return strict;
  };
  // Visit in lexicographic order of the axes: a point can only be dominated
  // by one visited before it, and if it is dominated at all, then by a
  // frontier point (transitivity).
  std::vector<size_t> order(ranked.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return axes(ranked[a].cost) < axes(ranked[b].cost);
  });
  std::vector<size_t> frontier;
  for (size_t i : order) {
    auto ai = axes(ranked[i].cost);
    bool dominated = llvm::any_of(frontier, [&](size_t j) {
      return dominates(axes(ranked[j].cost), ai);
    });
    if (!dominated)
      frontier.push_back(i);
  }
  llvm::sort(frontier);
  return frontier;
}

std::optional<RankedConfig> mlir::gemm::pickConfig(const GemmProblem &problem,
                                                   const TargetInfo &target,
                                                   const ModelParams &params) {
  std::vector<RankedConfig> ranked = rankLattice(problem, target, params);
  if (ranked.empty())
    return std::nullopt;
  return ranked.front();
}
