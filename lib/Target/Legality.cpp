//===- Legality.cpp - Which configs are legal, stated once ----------------===//
//
// The rules behind ConfigAttr::verify, MatmulOp::verifyConfigForTarget, the
// lowering patterns' checks and the tuning lattice (gemm/Target/Legality.h).
// The per-kind facts of the kernel builders (the mma.sync shape per type, the
// wgmma types and swizzle, the MFMA shapes with tested lane maps) come from
// gemm/Utils, where their lane maps are unit-tested.
//
//===----------------------------------------------------------------------===//

#include "gemm/Target/Legality.h"
#include "gemm/Utils/FragmentLayout.h"
#include "gemm/Utils/MfmaLayout.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include <tuple>

using namespace mlir::gemm;
using llvm::Twine;

namespace {
std::string shapeStr(int64_t m, int64_t n, int64_t k) {
  return (Twine(m) + "x" + Twine(n) + "x" + Twine(k)).str();
}
std::string instrStr(const TileConfig &c) { return shapeStr(c.im, c.in, c.ik); }
std::string kindStr(InstrKind kind) { return stringifyInstrKind(kind).str(); }
std::string elemStr(ElemKind kind) { return stringifyElemKind(kind).str(); }

/// The name of the pass lowering `target`'s vendor (for diagnostics).
const char *loweringPass(const TargetInfo &target) {
  return target.isNVIDIA() ? "convert-gemm-to-nvgpu" : "convert-gemm-to-amdgpu";
}

std::string checkMmaSync(const TileConfig &c, ElemKind operand) {
  // The kernel builder implements one mma.sync shape per operand type (its
  // fragment maps); the table lists more (m16n8k8 f16, m8n8k16 s8, ...).
  std::array<unsigned, 3> want = *mmaSyncShape(operand);
  if (c.im != want[0] || c.in != want[1] || c.ik != want[2])
    return "mma_sync shape " + instrStr(c) + " for " + elemStr(operand) +
           " operands is not lowered by convert-gemm-to-nvgpu (it lowers " +
           shapeStr(want[0], want[1], want[2]) + ")";
  return "";
}

/// A 64 or 128 x instruction-N tile per warpgroup (one or two m64
/// instructions a k-step) and the 128-byte swizzled shared
/// tiles its descriptors describe (rows of 128 bytes for K-major operands,
/// panels of 128 bytes for MN-major ones, 16-bit types only).
std::string checkWgmma(const TileConfig &c, const GemmSignature &sig,
                       ElemKind operand) {
  if (!wgmmaLowersTypes(operand, sig.acc))
    return "wgmma lowering supports f16/bf16/tf32/f8 operands with f32 "
           "accumulation and i8 with i32, not " +
           elemStr(operand) + " with " + elemStr(sig.acc);
  if (c.warpTileM() != 64 && c.warpTileM() != 128)
    return "wgmma warpgroup tile M must be 64 or 128 (block M / warps[0]), "
           "got " +
           std::to_string(c.warpTileM());
  if (c.warpTileN() != c.in)
    return "wgmma warpgroup tile N (block N / warps[1] = " +
           std::to_string(c.warpTileN()) + ") must equal the instruction N " +
           std::to_string(c.in);
  if (c.smem != SmemKind::swizzle)
    return "wgmma needs smem = swizzle (the 128-byte swizzle its "
           "descriptors describe), got " +
           stringifySmemKind(c.smem).str();
  unsigned bytes = elemBytes(operand);
  bool aKMajor = !sig.transA, bKMajor = sig.transB;
  if ((aKMajor || bKMajor) && c.bk * bytes != kWgmmaSwizzleBytes)
    return "wgmma with K-contiguous operands needs block K = " +
           std::to_string(kWgmmaSwizzleBytes / bytes) +
           " (rows of 128 bytes), got " + std::to_string(c.bk);
  if ((!aKMajor || !bKMajor) && !wgmmaReadsMNMajor(operand))
    return "wgmma reads " + elemStr(operand) +
           " operands K-major only: layout " + sig.layoutName().str() +
           " needs tn";
  int64_t panel = kWgmmaSwizzleBytes / bytes;
  if (!bKMajor && c.in % panel != 0)
    return "wgmma with N-contiguous B needs the instruction N to be a "
           "multiple of " +
           std::to_string(panel) + ", got " + std::to_string(c.in);
  // MN-major panels need whole 8-row swizzle atoms along K: block K is a
  // multiple of the instruction K (16 for 16-bit types), which the structure
  // rules have checked.
  return "";
}

/// `kind = gemv`: f16/bf16/f32 operands multiplied in f32, and a B whose
/// rows (N x K) the warps stream with 16-byte loads.
std::string checkGemv(const TileConfig &c, const GemmSignature &sig) {
  bool types = (sig.a == ElemKind::f16 || sig.a == ElemKind::bf16 ||
                sig.a == ElemKind::f32) &&
               sig.acc == ElemKind::f32;
  if (!types)
    return "gemv lowering supports f16/bf16/f32 operands with f32 "
           "accumulation, not " +
           elemStr(sig.a) + " with " + elemStr(sig.acc);
  int64_t lane = gemvLaneElems(elemBytes(sig.a));
  if (isGemvColumns(c)) {
    if (sig.transB)
      return "gemv with instr [1, " + std::to_string(c.in) +
             ", 1] needs an N-contiguous B (layout nn or nt), got " +
             sig.layoutName().str();
    if (c.in != lane)
      return "gemv instr must be [1, " + std::to_string(lane) + ", 1] for " +
             elemStr(sig.a) +
             " operands on an N-contiguous B (one 16-byte load a lane), got " +
             instrStr(c);
    return "";
  }
  // gemv on mma.sync reads B in either layout (GemvMma.cpp).
  if (isGemvMma(c)) {
    if (sig.a != ElemKind::f16 && sig.a != ElemKind::bf16)
      return "gemv on mma.sync supports f16/bf16 operands, not " +
             elemStr(sig.a);
    if (c.stages == 2 && !sig.transB)
      return "gemv on mma.sync double-buffers (stages = 2) a K-contiguous B "
             "only (layout tn or tt), got " +
             sig.layoutName().str();
    return "";
  }
  if (!sig.transB)
    return "gemv needs a K-contiguous B (layout tn or tt), instr [1, " +
           std::to_string(lane) + ", 1] or instr [8, 16, 16], got " +
           sig.layoutName().str();
  if (c.ik != lane)
    return "gemv instr must be [1, 1, " + std::to_string(lane) + "] for " +
           elemStr(sig.a) + " operands (one 16-byte load a lane), got " +
           instrStr(c);
  return "";
}

/// Swizzled tiles need whole 16-byte chunks per stored row.
std::string checkSwizzleRows(const TileConfig &c, const GemmSignature &sig) {
  // gemv has no shared tiles.
  if (c.smem != SmemKind::swizzle || c.kind == InstrKind::gemv)
    return "";
  unsigned bytes = elemBytes(sig.a);
  for (auto [name, cols] :
       {std::pair<const char *, int64_t>{"A", sig.transA ? c.bm : c.bk},
        {"B", sig.transB ? c.bk : c.bn}})
    if ((cols * bytes) % 16 != 0)
      return std::string("swizzled shared tile of ") + name + " has rows of " +
             std::to_string(cols * bytes) +
             " bytes, not a multiple of 16; use smem = plain or pad";
  return "";
}
} // namespace

std::string mlir::gemm::checkConfigStructure(const TileConfig &c) {
  for (auto [name, values] : {std::pair<const char *, std::array<int64_t, 3>>{
                                  "block", {c.bm, c.bn, c.bk}},
                              {"warps", {c.wm, c.wn, 1}},
                              {"instr", {c.im, c.in, c.ik}}})
    for (int64_t v : values)
      if (v <= 0)
        return std::string("expected '") + name +
               "' entries to be positive, got " + std::to_string(v);
  for (auto [name, values, limit] :
       {std::tuple<const char *, std::array<int64_t, 3>, int64_t>{
            "block", {c.bm, c.bn, c.bk}, kMaxConfigBlock},
        {"warps", {c.wm, c.wn, 1}, kMaxConfigWarps},
        {"instr", {c.im, c.in, c.ik}, kMaxConfigInstr}})
    for (int64_t v : values)
      if (v > limit)
        return std::string("expected '") + name + "' entries to be at most " +
               std::to_string(limit) + ", got " + std::to_string(v);
  if (c.stages < 1 || c.stages > kMaxConfigStages)
    return "expected 'stages' in [1, " + std::to_string(kMaxConfigStages) +
           "], got " + std::to_string(c.stages);
  if (c.group < 1 || c.group > kMaxConfigGroup)
    return "expected 'group' in [1, " + std::to_string(kMaxConfigGroup) +
           "], got " + std::to_string(c.group);
  if (c.splitK < 1 || c.splitK > kMaxConfigSplitK)
    return "expected 'split_k' in [1, " + std::to_string(kMaxConfigSplitK) +
           "], got " + std::to_string(c.splitK);
  if (c.clusterReduce && (c.splitK < 2 || c.splitK > kMaxClusterSlices))
    return "expected 'split_k' in [2, " + std::to_string(kMaxClusterSlices) +
           "] with 'reduction = cluster', got " + std::to_string(c.splitK);
  if (c.fixupReduce && (c.splitK < 2 || c.splitK > kMaxFixupSlices))
    return "expected 'split_k' in [2, " + std::to_string(kMaxFixupSlices) +
           "] with 'reduction = fixup', got " + std::to_string(c.splitK);
  // The fix-up adds accumulator fragments in registers (wgmma's structs).
  if (c.fixupReduce && c.kind != InstrKind::wgmma)
    return "'reduction = fixup' needs kind = wgmma, got kind = " +
           kindStr(c.kind);
  const char *load = c.producerWarp ? "'load = tma_ws'" : "'load = tma'";
  if (c.tmaLoad && c.kind != InstrKind::wgmma)
    return std::string(load) + " needs kind = wgmma, got kind = " +
           kindStr(c.kind);
  // The consumers' registers after setmaxnreg (tmaWsConsumerRegisters),
  // beside the producer's 40 (docs/design-notes.md).
  const char *schedule =
      c.pingpong ? "'schedule = pingpong'" : "'schedule = persistent'";
  if (c.persistent && !c.producerWarp)
    return std::string(schedule) + " needs 'load = tma_ws'";
  if (c.persistent && c.splitK != 1)
    return std::string(schedule) +
           " does not combine with split_k = " + std::to_string(c.splitK);
  if (c.producerWarp && c.teams() * c.wm * c.wn > kMaxConsumerWarpgroups)
    return "'load = tma_ws' takes at most " +
           std::to_string(kMaxConsumerWarpgroups) +
           " consumer warpgroups, got " +
           std::to_string(c.teams() * c.wm * c.wn);
  if (c.producerWarp && c.stages < 2)
    return "'load = tma_ws' needs at least 2 stages, got " +
           std::to_string(c.stages);
  // TMA loads with a cluster reduction left elements of C unwritten or
  // wrong on the H200 (2026-12-04, docs/perf-data/mid-2026-12-04: every
  // wgmma config of MID_SWEEP with both failed `check --shapes full`; the
  // same tiles through cp.async and mma.sync passed), so they are refused
  // until that is understood.
  if (c.tmaLoad && c.clusterReduce)
    return std::string(load) + " does not combine with 'reduction = cluster'";
  // Multicast pairs: a producer warpgroup waits for both blocks' release
  // of a stage (a compute thread waiting there held the pair in lockstep:
  // 1.5x the time, docs/design-notes.md); split-K slices and the teams of
  // pingpong blocks do not know of the pair's barriers (persistent blocks
  // walk their tiles in pairs).
  if (c.multicast != 1 && c.multicast != 2)
    return "expected 'multicast' to be 1 or 2, got " +
           std::to_string(c.multicast);
  if (c.multicast > 1 && !c.producerWarp)
    return "'multicast = " + std::to_string(c.multicast) +
           "' needs 'load = tma_ws'";
  if (c.multicast > 1 && c.pingpong)
    return "'multicast = " + std::to_string(c.multicast) +
           "' does not combine with 'schedule = pingpong'";
  if (c.multicast > 1 && c.splitK != 1)
    return "'multicast = " + std::to_string(c.multicast) +
           "' does not combine with split_k = " + std::to_string(c.splitK);
  if (isGemvMma(c)) {
    if (c.im != 8 || c.in != 16 || c.ik != 16)
      return "gemv instr must be [1, 1, 16 / element bytes] or [1, 16 / "
             "element bytes, 1] (f32 FMAs) or [8, 16, 16] (mma.sync "
             "m16n8k16, operands swapped), got " +
             instrStr(c);
    if (c.wm != 1 || c.wn < 1 || c.wn > kMaxGemvMmaWarps)
      return "gemv on mma.sync needs warps = [1, W] with W (warps splitting "
             "K) 1 to " +
             std::to_string(kMaxGemvMmaWarps) + ", got [" +
             std::to_string(c.wm) + ", " + std::to_string(c.wn) + "]";
    if (c.bm % c.im != 0 || c.bm > kMaxGemvMmaRowsA)
      return "gemv on mma.sync needs block M (rows of A) a multiple of 8 up "
             "to " +
             std::to_string(kMaxGemvMmaRowsA) + ", got " + std::to_string(c.bm);
    if (c.bn % c.in != 0 || c.bn > kMaxGemvMmaRowsB)
      return "gemv on mma.sync needs block N (rows of B) a multiple of 16 up "
             "to " +
             std::to_string(kMaxGemvMmaRowsB) + ", got " + std::to_string(c.bn);
    int64_t perIteration = kGemvMmaLanesPerRow * c.ik / 2;
    if (c.bk % perIteration != 0 || c.bk / perIteration > kMaxGemvUnroll)
      return "gemv on mma.sync needs block K 1 to " +
             std::to_string(kMaxGemvUnroll) + " times " +
             std::to_string(perIteration) +
             " (4 lanes x 8 elements a row), got " + std::to_string(c.bk);
  } else if (isGemvColumns(c)) {
    if (c.ik != 1)
      return "gemv instr must be [1, 16 / element bytes, 1] on an "
             "N-contiguous B, got " +
             instrStr(c);
    if (c.wm != 1 || c.wn < 1 || c.wn > kMaxGemvColumnsWarps)
      return "gemv on an N-contiguous B needs warps = [1, W] with W (warps "
             "splitting K) 1 to " +
             std::to_string(kMaxGemvColumnsWarps) + ", got [" +
             std::to_string(c.wm) + ", " + std::to_string(c.wn) + "]";
    if (c.bm < 1 || c.bm > kMaxGemvRows)
      return "gemv block M (rows of A a lane multiplies) must be 1 to " +
             std::to_string(kMaxGemvRows) + ", got " + std::to_string(c.bm);
    int64_t lanesPerRow = c.bn / c.in;
    if (c.bn % c.in != 0 || lanesPerRow < 1 || kGemvLanes % lanesPerRow != 0)
      return "gemv block N on an N-contiguous B must be instr N times a "
             "divisor of 32 (lanes side by side on a row of B), got " +
             std::to_string(c.bn);
    int64_t rows = c.wn * kGemvLanes / lanesPerRow;
    if (c.bk % rows != 0 || c.bk / rows < 1 || c.bk / rows > kMaxGemvUnroll)
      return "gemv block K on an N-contiguous B must be 1 to " +
             std::to_string(kMaxGemvUnroll) + " times " + std::to_string(rows) +
             " (the k rows of B the block reads at once), got " +
             std::to_string(c.bk);
  } else if (c.kind == InstrKind::gemv) {
    if (c.wm != 1)
      return "gemv warp grid must be [1, W] (warps split N), got [" +
             std::to_string(c.wm) + ", " + std::to_string(c.wn) + "]";
    if (c.im != 1 || c.in != 1)
      return "gemv instr must be [1, 1, 16 / element bytes] or [1, 16 / "
             "element bytes, 1] (f32 FMAs) or [8, 16, 16] (mma.sync "
             "m16n8k16, operands swapped), got " +
             instrStr(c);
    if (c.bm > kMaxGemvRows)
      return "gemv block M (rows of A a warp multiplies) must be at most " +
             std::to_string(kMaxGemvRows) + ", got " + std::to_string(c.bm);
    if (c.bn % c.wn == 0 && c.warpTileN() > kMaxGemvRows)
      return "gemv warp tile N (rows of B a warp streams, block N / "
             "warps[1]) must be at most " +
             std::to_string(kMaxGemvRows) + ", got " +
             std::to_string(c.warpTileN());
    int64_t perIteration = kGemvLanes * c.ik;
    if (c.bk % perIteration != 0 || c.bk / perIteration > kMaxGemvUnroll)
      return "gemv block K must be 1 to " + std::to_string(kMaxGemvUnroll) +
             " times " + std::to_string(perIteration) +
             " (32 lanes x instr K), got " + std::to_string(c.bk);
  }
  // gemv on mma.sync double-buffers its 16-byte loads in registers with
  // stages = 2 (GemvMma.cpp).
  if (isGemvMma(c) && c.stages > 2)
    return "gemv on mma.sync needs stages = 1 or 2 (2: the next iteration's "
           "loads in registers), got " +
           std::to_string(c.stages);
  if (c.kind == InstrKind::gemv && !isGemvMma(c) && c.stages != 1)
    return "gemv needs stages = 1 (it has no shared-memory pipeline), got " +
           std::to_string(c.stages);
  if (c.kind == InstrKind::gemv && c.splitK != 1)
    return "gemv does not combine with split_k = " + std::to_string(c.splitK);
  // gemv-mma's and gemv-columns' warps split K: the warp grid does not
  // tile the block.
  if (isGemvMma(c) || isGemvColumns(c))
    return "";
  if (c.bm % c.wm != 0)
    return "block tile M (" + std::to_string(c.bm) +
           ") is not divisible by the warp grid M (" + std::to_string(c.wm) +
           ")";
  if (c.bn % c.wn != 0)
    return "block tile N (" + std::to_string(c.bn) +
           ") is not divisible by the warp grid N (" + std::to_string(c.wn) +
           ")";
  if (c.warpTileM() % c.im != 0)
    return "warp tile M (" + std::to_string(c.warpTileM()) +
           ") is not a multiple of the instruction M (" + std::to_string(c.im) +
           ")";
  if (c.warpTileN() % c.in != 0)
    return "warp tile N (" + std::to_string(c.warpTileN()) +
           ") is not a multiple of the instruction N (" + std::to_string(c.in) +
           ")";
  if (c.bk % c.ik != 0)
    return "block tile K (" + std::to_string(c.bk) +
           ") is not a multiple of the instruction K (" + std::to_string(c.ik) +
           ")";
  if (c.kind == InstrKind::simt && c.ik != 1)
    return "simt per-thread tile must have k = 1, got " + std::to_string(c.ik);
  if (c.kind == InstrKind::wgmma && c.im != 64)
    return "wgmma instruction M must be 64, got " + std::to_string(c.im);
  return "";
}

std::string mlir::gemm::checkInstrShapeKnown(const TileConfig &c,
                                             const GemmSignature &sig) {
  if (c.kind == InstrKind::simt || c.kind == InstrKind::gemv)
    return "";
  ElemKind operand = instrOperandKind(sig.a, c.kind);
  bool known = llvm::any_of(allTargets(), [&](const TargetInfo &t) {
    return t.hasShape(c.kind, operand, sig.acc, c.im, c.in, c.ik);
  });
  if (!known)
    return "no " + kindStr(c.kind) + " instruction has shape " + instrStr(c) +
           " for " + elemStr(operand) + " operands accumulating in " +
           elemStr(sig.acc);
  return "";
}

int64_t mlir::gemm::tmaWsConsumerRegisters(const TargetInfo &target,
                                           int64_t consumerWarpgroups) {
  int64_t left =
      int64_t(target.regsPerSM) / kWarpgroupThreads - kProducerRegisters;
  return std::min<int64_t>(kMaxConsumerRegisters,
                           left / std::max<int64_t>(consumerWarpgroups, 1) / 8 *
                               8);
}

int64_t mlir::gemm::accumulatorSets(const TileConfig &config,
                                    ElemKind operand) {
  return config.kind == InstrKind::wgmma &&
                 wgmmaPromotesPartialSums(operand, config.in)
             ? 2
             : 1;
}

int64_t mlir::gemm::promotionKTiles(const TileConfig &config,
                                    ElemKind operand) {
  if (accumulatorSets(config, operand) == 1 || config.persistent)
    return 1;
  return wgmmaPromotionKTiles(config.bk, config.stages, config.wm * config.wn);
}

std::string mlir::gemm::checkConfigOnTransposedOperands(const TileConfig &c,
                                                        ElemKind operand) {
  int64_t warpgroups = c.wm * c.wn;
  if (accumulatorSets(c, operand) == 1 || warpgroups > 2 || c.stages < 3)
    return "";
  return "f8 tile of " + std::to_string(warpgroups) + " compute warpgroup" +
         (warpgroups == 1 ? "" : "s") +
         " and stages = " + std::to_string(c.stages) +
         " is not supported on operands copied transposed (tiles of 3 "
         "compute warpgroups or of at most 2 stages run there)";
}

bool mlir::gemm::tmaLoadsTiles(const TileConfig &c, const GemmSignature &sig) {
  unsigned bytes = elemBytes(instrOperandKind(sig.a, c.kind));
  return c.kind == InstrKind::wgmma &&
         tmaBox(c.bm, c.bk, !sig.transA, bytes).count &&
         tmaBox(c.bn, c.bk, sig.transB, bytes, c.multicast).count;
}

std::string mlir::gemm::checkConfigOnTarget(const TileConfig &c,
                                            const GemmSignature &sig,
                                            const TargetInfo &target) {
  std::string chip = target.name.str();
  if (!target.supportsKind(c.kind))
    return "config kind " + kindStr(c.kind) + " is not available on " + chip;
  if (c.clusterReduce && !(target.isNVIDIA() && target.archVersion >= 90))
    return "'reduction = cluster' needs thread-block clusters (sm_90 and "
           "later), which " +
           chip + " lacks";
  if (isGemvMma(c) && (sig.a == ElemKind::f16 || sig.a == ElemKind::bf16) &&
      !target.hasShape(InstrKind::mma_sync, sig.a, sig.acc, 16, 8, 16))
    return "gemv on mma.sync needs mma.sync m16n8k16 for " + elemStr(sig.a) +
           ", which " + chip + " lacks";
  ElemKind operand = instrOperandKind(sig.a, c.kind);
  if (c.kind != InstrKind::simt && c.kind != InstrKind::gemv &&
      !target.hasShape(c.kind, operand, sig.acc, c.im, c.in, c.ik))
    return kindStr(c.kind) + " shape " + instrStr(c) + " for " +
           elemStr(operand) + " operands is not available on " + chip;
  int64_t threads = c.blockWarps() * target.warpSize;
  if (threads > target.maxThreadsPerBlock)
    return "config needs " + std::to_string(threads) +
           " threads per block, over the " +
           std::to_string(target.maxThreadsPerBlock) + " allowed on " + chip;
  if (c.kind == InstrKind::simt) {
    int64_t perThread = (c.warpTileM() / c.im) * (c.warpTileN() / c.in);
    if (perThread != target.warpSize)
      return "simt per-thread tile " + std::to_string(c.im) + "x" +
             std::to_string(c.in) + " covers the " +
             std::to_string(c.warpTileM()) + "x" +
             std::to_string(c.warpTileN()) + " warp tile with " +
             std::to_string(perThread) + " threads, expected the warp size " +
             std::to_string(target.warpSize);
  }
  unsigned bytes = elemBytes(operand);
  if (c.tmaLoad && !tmaLoadsTiles(c, sig))
    return std::string(c.producerWarp ? "'load = tma_ws'" : "'load = tma'") +
           " cannot read the " + sig.layoutName().str() + " tiles of block " +
           std::to_string(c.bm) + "x" + std::to_string(c.bn) + "x" +
           std::to_string(c.bk) +
           " in TMA boxes (rows of 128 bytes, at most 256 of them" +
           (c.multicast > 1 ? ", B's in " + std::to_string(c.multicast) +
                                  " equal parts for 'multicast'"
                            : std::string()) +
           ")";
  int64_t smem = estimateSharedMemory(c, bytes);
  if (smem > target.maxSharedMemPerBlock)
    return "config needs " + std::to_string(smem) +
           " bytes of shared memory per block, over the " +
           std::to_string(target.maxSharedMemPerBlock) + " available on " +
           chip;
  if (c.clusterReduce) {
    int64_t staging = estimateClusterStagingBytes(c, elemBytes(sig.acc));
    if (staging > target.maxSharedMemPerBlock)
      return "config's cluster reduction stages " + std::to_string(staging) +
             " bytes of partial sums per block, over the " +
             std::to_string(target.maxSharedMemPerBlock) + " available on " +
             chip;
  }
  int64_t accSets = accumulatorSets(c, operand);
  int64_t regs =
      estimateRegisters(c, bytes, elemBytes(sig.acc), target.warpSize, accSets);
  if (regs > target.maxRegsPerThread)
    return "config needs about " + std::to_string(regs) +
           " registers per thread, over the " +
           std::to_string(target.maxRegsPerThread) + " available on " + chip;
  // A block must fit one SM's register file, which its threads share
  // (registers are allocated in multiples of 8). The estimate above is
  // rough (shipped 512-thread mma.sync configs exceed it and run), so the
  // check takes the accumulators alone, a lower bound: ptxas refused a
  // 512-thread wgmma block whose accumulators take all 128 registers a
  // thread gets ("Insufficient registers").
  // A warp-specialized block's consumers get what setmaxnreg gives them.
  int64_t blockThreads = c.blockWarps() * target.warpSize;
  int64_t regsEach =
      c.producerWarp
          ? tmaWsConsumerRegisters(target, c.teams() * c.wm * c.wn)
          : std::min<int64_t>(target.regsPerSM /
                                  std::max<int64_t>(blockThreads, 1) / 8 * 8,
                              target.maxRegsPerThread);
  int64_t accRegs =
      accumulatorRegisters(c, elemBytes(sig.acc), target.warpSize, accSets);
  if (accRegs >= regsEach)
    return "config's accumulators take " + std::to_string(accRegs) +
           " registers per thread, at least the " + std::to_string(regsEach) +
           " each of a block's " + std::to_string(blockThreads) +
           " threads gets on " + chip;
  // ptxas compiles every instruction within the launch bound (64K
  // registers over the block's threads), setmaxnreg notwithstanding: one
  // wgmma's accumulators and its two descriptors must fit there (a
  // 512-thread m64n256 f32 kernel: "Insufficient registers (128)").
  if (c.producerWarp) {
    int64_t launchRegs = std::min<int64_t>(
        target.regsPerSM / blockThreads / 8 * 8, target.maxRegsPerThread);
    int64_t instrRegs =
        c.im * c.in * elemBytes(sig.acc) / 4 / (4 * target.warpSize) + 4;
    if (instrRegs > launchRegs)
      return "'load = tma_ws' block of " + std::to_string(blockThreads) +
             " threads: one " + instrStr(c) + " wgmma needs " +
             std::to_string(instrRegs) +
             " registers per thread (accumulators and descriptors), over the " +
             std::to_string(launchRegs) + " each thread gets on " + chip;
  }
  if (c.kind == InstrKind::mma_sync && c.stages > 1 && !target.hasCpAsync)
    return "multi-stage mma_sync pipelines need cp.async, which " + chip +
           " lacks";
  return "";
}

bool mlir::gemm::lowersKind(const TargetInfo &target, InstrKind kind) {
  if (target.isNVIDIA())
    return kind == InstrKind::mma_sync || kind == InstrKind::wgmma ||
           kind == InstrKind::simt || kind == InstrKind::gemv;
  return kind == InstrKind::mfma;
}

std::string mlir::gemm::checkConfigLowerable(const TileConfig &c,
                                             const GemmSignature &sig,
                                             const TargetInfo &target) {
  const char *pass = loweringPass(target);
  if (!lowersKind(target, c.kind))
    return "config kind " + kindStr(c.kind) + " is not lowered by " + pass +
           (target.isNVIDIA() ? " (it lowers mma_sync, wgmma, simt and gemv)"
                              : " (it lowers mfma)");
  if (target.isNVIDIA() && isFloat8(sig.a) && c.kind != InstrKind::wgmma)
    return "f8 operands are lowered by convert-gemm-to-nvgpu with kind = "
           "wgmma only (sm_90a, layout tn), not " +
           kindStr(c.kind);
  if (std::string onTarget = checkConfigOnTarget(c, sig, target);
      !onTarget.empty())
    return onTarget;
  ElemKind operand = instrOperandKind(sig.a, c.kind);
  if (c.kind == InstrKind::mma_sync)
    if (std::string error = checkMmaSync(c, operand); !error.empty())
      return error;
  if (c.kind == InstrKind::wgmma)
    if (std::string error = checkWgmma(c, sig, operand); !error.empty())
      return error;
  if (c.kind == InstrKind::gemv)
    if (std::string error = checkGemv(c, sig); !error.empty())
      return error;
  std::optional<MmaShape> mfma;
  if (c.kind == InstrKind::mfma) {
    mfma = findMfmaShape(target, operand, sig.acc, c.im, c.in, c.ik);
    if (!mfma || !isMfmaShapeLowered(*mfma))
      return "mfma shape " + instrStr(c) + " for " + elemStr(sig.a) +
             " is not lowered by convert-gemm-to-amdgpu (its lane map is "
             "not checked against AMD's tables)";
  }
  if (std::string error = checkSwizzleRows(c, sig); !error.empty())
    return error;
  if (mfma) {
    int64_t waveN = mfma->n * mfma->blocks;
    if (c.warpTileN() % waveN != 0)
      return "wave tile N (" + std::to_string(c.warpTileN()) +
             ") is not a multiple of the " + std::to_string(mfma->blocks) +
             "-block mfma tile N (" + std::to_string(waveN) + ")";
  }
  return "";
}

std::string mlir::gemm::checkConfig(const TileConfig &c,
                                    const GemmSignature &sig,
                                    const TargetInfo &target) {
  if (std::string error = checkConfigStructure(c); !error.empty())
    return error;
  return checkConfigLowerable(c, sig, target);
}
