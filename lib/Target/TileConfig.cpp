//===- TileConfig.cpp - A GEMM config without an MLIRContext --------------===//
//
// Resource estimates of a config: the single implementation behind the
// dialect's verifiers (through ConfigAttr), the lattice and the cost model.
//
//===----------------------------------------------------------------------===//

#include "gemm/Target/TileConfig.h"
#include <algorithm>

using namespace mlir::gemm;

bool TileConfig::operator==(const TileConfig &o) const {
  return kind == o.kind && bm == o.bm && bn == o.bn && bk == o.bk &&
         wm == o.wm && wn == o.wn && im == o.im && in == o.in && ik == o.ik &&
         stages == o.stages && smem == o.smem &&
         rasterColumn == o.rasterColumn && group == o.group &&
         splitK == o.splitK && clusterReduce == o.clusterReduce &&
         fixupReduce == o.fixupReduce &&
         tmaLoad == o.tmaLoad && producerWarp == o.producerWarp &&
         persistent == o.persistent && pingpong == o.pingpong &&
         multicast == o.multicast;
}

std::string TileConfig::str() const {
  auto list = [](int64_t a, int64_t b, int64_t c = -1) {
    std::string s = "[" + std::to_string(a) + ", " + std::to_string(b);
    if (c >= 0)
      s += ", " + std::to_string(c);
    return s + "]";
  };
  std::string s = "#gemm.config<kind = " + stringifyInstrKind(kind).str() +
                  ", block = " + list(bm, bn, bk) +
                  ", warps = " + list(wm, wn) +
                  ", instr = " + list(im, in, ik) +
                  ", stages = " + std::to_string(stages) +
                  ", smem = " + stringifySmemKind(smem).str() +
                  ", raster = " + (rasterColumn ? "column" : "row") +
                  ", group = " + std::to_string(group);
  if (splitK != 1)
    s += ", split_k = " + std::to_string(splitK);
  if (clusterReduce)
    s += ", reduction = cluster";
  if (fixupReduce)
    s += ", reduction = fixup";
  if (tmaLoad)
    s += producerWarp ? ", load = tma_ws" : ", load = tma";
  if (persistent)
    s += pingpong ? ", schedule = pingpong" : ", schedule = persistent";
  if (multicast != 1)
    s += ", multicast = " + std::to_string(multicast);
  return s + ">";
}

int64_t mlir::gemm::clusterStagingPitch(const TileConfig &config,
                                        unsigned accBytes) {
  return config.bn + 16 / std::max(accBytes, 1u);
}

int64_t mlir::gemm::estimateClusterStagingBytes(const TileConfig &config,
                                                unsigned accBytes) {
  return config.bm * clusterStagingPitch(config, accBytes) * accBytes;
}

llvm::StringRef mlir::gemm::stringifySmemKind(SmemKind kind) {
  switch (kind) {
  case SmemKind::plain:
    return "plain";
  case SmemKind::pad:
    return "pad";
  case SmemKind::swizzle:
    return "swizzle";
  }
  return "unknown";
}

llvm::StringRef GemmSignature::layoutName() const {
  if (transA)
    return transB ? "tt" : "nt";
  return transB ? "tn" : "nn";
}

ElemKind mlir::gemm::instrOperandKind(ElemKind storage, InstrKind kind) {
  if (storage == ElemKind::f32 &&
      (kind == InstrKind::mma_sync || kind == InstrKind::wgmma))
    return ElemKind::tf32;
  return storage;
}

int64_t mlir::gemm::estimateSharedMemory(const TileConfig &config,
                                         unsigned elemBytes) {
  // gemv streams its operands through registers; gemv-mma's warps then
  // add their BM x BN f32 sums through shared memory.
  if (isGemvMma(config) || isGemvColumns(config))
    return config.wn * config.bm * config.bn * 4;
  if (config.kind == InstrKind::gemv)
    return 0;
  int64_t rowElems = config.bk;
  // Padding adds one 16-byte vector per K-row of each operand tile.
  if (config.smem == SmemKind::pad)
    rowElems += 16 / elemBytes;
  int64_t perStage = (config.bm + config.bn) * rowElems * elemBytes;
  // wgmma's 128-byte swizzle is a function of the absolute shared address:
  // the kernel aligns its tiles to 1024 bytes at run time, from a base that
  // is only 16-byte aligned (KernelSetup.cpp).
  int64_t alignReserve = config.kind == InstrKind::wgmma ? 1024 : 0;
  return perStage * config.stages + alignReserve + tmaBarrierBytes(config);
}

int64_t mlir::gemm::tmaBarrierBytes(const TileConfig &config) {
  // TMA loads complete on one 8-byte mbarrier per stage (and one more per
  // stage to hand it back, warp-specialized). A pingpong block adds the
  // two barriers its teams take turns on.
  int64_t barriers =
      config.tmaLoad ? (config.producerWarp ? 16 : 8) * config.stages : 0;
  if (config.pingpong)
    barriers += 16;
  return barriers;
}

int64_t mlir::gemm::gemvLaneElems(unsigned elemBytes) {
  return 16 / std::max(elemBytes, 1u);
}

int64_t mlir::gemm::gemvUnroll(const TileConfig &config, unsigned warpSize) {
  // gemv-mma: 4 lanes side by side on a row, each a 16-byte chunk of 8
  // elements (two instruction K steps of 16 per 4 lanes x 8 elements).
  if (isGemvMma(config))
    return config.bk / (kGemvMmaLanesPerRow * config.ik / 2);
  // gemv-columns: BN / V lanes a row of B, so warps x warpSize / (BN / V) k
  // rows a block at once.
  if (isGemvColumns(config)) {
    int64_t lanesPerRow = std::max<int64_t>(config.bn / config.in, 1);
    int64_t rows =
        std::max<int64_t>(config.wn * int64_t(warpSize) / lanesPerRow, 1);
    return config.bk / rows;
  }
  return config.bk / (int64_t(warpSize) * config.ik);
}

bool mlir::gemm::isGemvMma(const TileConfig &config) {
  return config.kind == InstrKind::gemv && config.im > 1;
}

bool mlir::gemm::isGemvColumns(const TileConfig &config) {
  return config.kind == InstrKind::gemv && config.im == 1 && config.in > 1;
}

TileConfig mlir::gemm::makeGemvColumnsConfig(int64_t bm, int64_t bn,
                                             int64_t warps, int64_t unroll,
                                             unsigned elemBytes,
                                             unsigned warpSize) {
  TileConfig c;
  c.kind = InstrKind::gemv;
  c.im = c.ik = 1;
  c.in = gemvLaneElems(elemBytes);
  c.bm = bm;
  c.bn = bn;
  c.wm = 1;
  c.wn = warps;
  int64_t lanesPerRow = std::max<int64_t>(bn / c.in, 1);
  c.bk = unroll * warps * int64_t(warpSize) / lanesPerRow;
  c.stages = 1;
  c.smem = SmemKind::plain;
  return c;
}

TileConfig mlir::gemm::makeGemvMmaConfig(int64_t bm, int64_t bn, int64_t warps,
                                         int64_t unroll, int64_t stages) {
  TileConfig c;
  c.kind = InstrKind::gemv;
  c.im = 8;
  c.in = 16;
  c.ik = 16;
  c.bm = bm;
  c.bn = bn;
  c.wm = 1;
  c.wn = warps;
  c.bk = unroll * kGemvMmaLanesPerRow * c.ik / 2;
  c.stages = stages;
  c.smem = SmemKind::plain;
  return c;
}

TileConfig mlir::gemm::makeGemvConfig(int64_t bm, int64_t rowsPerWarp,
                                      int64_t warps, int64_t unroll,
                                      unsigned elemBytes, unsigned warpSize) {
  TileConfig c;
  c.kind = InstrKind::gemv;
  c.ik = gemvLaneElems(elemBytes);
  c.im = c.in = 1;
  c.bm = bm;
  c.wm = 1;
  c.wn = warps;
  c.bn = rowsPerWarp * warps;
  c.bk = unroll * int64_t(warpSize) * c.ik;
  c.stages = 1;
  c.smem = SmemKind::plain;
  return c;
}

TmaBox mlir::gemm::tmaBox(int64_t mn, int64_t bk, bool kContiguous,
                          unsigned elemBytes, int64_t parts) {
  if (parts < 1 || mn % parts != 0)
    return TmaBox();
  if (parts > 1) {
    TmaBox box = tmaBox(mn / parts, bk, kContiguous, elemBytes);
    box.count *= parts;
    return box;
  }
  // TMA boxes have at most 256 elements a dimension, and the 128-byte
  // swizzle an inner extent of at most 128 bytes.
  constexpr int64_t kMaxBox = 256, kSwizzleBytes = 128;
  TmaBox box;
  box.kInner = kContiguous;
  if (kContiguous) {
    box.inner = bk;
    box.outer = std::min(mn, kMaxBox);
  } else {
    box.inner = kSwizzleBytes / std::max(elemBytes, 1u);
    box.outer = bk;
  }
  if (box.inner * int64_t(elemBytes) != kSwizzleBytes || box.outer > kMaxBox ||
      box.outer < 1 || mn % box.mnStep() != 0)
    return TmaBox();
  box.count = mn / box.mnStep();
  return box;
}

/// 32-bit words holding `elems` elements of `bytes` bytes.
static int64_t words(int64_t elems, unsigned bytes) {
  return (elems * bytes + 3) / 4;
}

/// Threads sharing one warp tile: a warp, or the 4 warps of a wgmma
/// warpgroup.
static int64_t tileLanes(const TileConfig &config, unsigned warpSize) {
  return warpSize * (config.kind == InstrKind::wgmma ? 4 : 1);
}

int64_t mlir::gemm::accumulatorRegisters(const TileConfig &config,
                                         unsigned accBytes, unsigned warpSize,
                                         int64_t accSets) {
  // SIMT: each thread holds TM x TN accumulators.
  if (config.kind == InstrKind::simt)
    return accSets * words(config.im * config.in, accBytes);
  // gemv-mma: the block's BM x BN sums spread over a warp's lanes, as
  // m16n8 accumulators.
  if (isGemvMma(config))
    return words(config.bm * config.bn, 4) / int64_t(warpSize);
  // gemv-columns: every lane holds BM x V sums (its chunk's columns).
  if (isGemvColumns(config))
    return words(config.bm * config.in, 4);
  // gemv: every lane holds the warp tile's BM x R sums (f32).
  if (config.kind == InstrKind::gemv)
    return words(config.warpTileM() * config.warpTileN(), 4);
  return accSets * words(config.warpTileM() * config.warpTileN(), accBytes) /
         tileLanes(config, warpSize);
}

int64_t mlir::gemm::estimateRegisters(const TileConfig &config,
                                      unsigned operandBytes, unsigned accBytes,
                                      unsigned warpSize, int64_t accSets) {
  int64_t wm = config.warpTileM(), wn = config.warpTileN();
  int64_t k = config.ik;
  int64_t acc = accumulatorRegisters(config, accBytes, warpSize, accSets);
  // Two register buffers of A and B fragments for one instruction-K step.
  int64_t frags =
      2 * words((wm + wn) * k, operandBytes) / tileLanes(config, warpSize);
  // SIMT: TM + TN operands.
  if (config.kind == InstrKind::simt)
    frags = 2 * words(config.im + config.in, std::max(operandBytes, 4u));
  // wgmma reads both operands from shared memory through descriptors.
  if (config.kind == InstrKind::wgmma)
    frags = 0;
  // gemv: U 16-byte loads of each of the R rows of B in flight, and one
  // 16-byte chunk of A at a time.
  if (config.kind == InstrKind::gemv)
    frags = 4 * gemvUnroll(config, warpSize) * config.warpTileN() + 4;
  // gemv-mma: U 16-byte chunks of each of a lane's BN / 8 rows of B and
  // BM / 8 rows of A in flight, twice with stages = 2 (the next iteration's
  // loads beside this one's chunks).
  if (isGemvMma(config))
    frags = 4 * gemvUnroll(config, warpSize) * (config.bn + config.bm) / 8 *
            config.stages;
  // gemv-columns: U 16-byte chunks of B and U elements of each row of A.
  if (isGemvColumns(config))
    frags = gemvUnroll(config, warpSize) * (4 + config.bm);
  constexpr int64_t addressing = 40;
  return acc + frags + addressing;
}
