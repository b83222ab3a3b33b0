//===- TileConfig.h - A GEMM config without an MLIRContext ------*- C++ -*-===//
//
// The implementation choices of one GEMM kernel (the parameters of
// `#gemm.config`) as a plain struct, and the resource estimates (shared memory
// per block, registers per thread) computed from it. The dialect's verifiers,
// the lattice and the cost model all use these functions: there is one
// implementation of each estimate.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_TARGET_TILECONFIG_H
#define GEMM_TARGET_TILECONFIG_H

#include "gemm/Target/TargetInfo.h"
#include <cstdint>
#include <string>

namespace mlir::gemm {

/// Shared-memory tile layouts, mirroring `#gemm.config<smem = ...>`.
enum class SmemKind { plain, pad, swizzle };

/// One point of the config space: `#gemm.config` without a context.
struct TileConfig {
  InstrKind kind = InstrKind::simt;
  int64_t bm = 0, bn = 0, bk = 0; ///< block tile
  int64_t wm = 0, wn = 0;         ///< warp grid (warpgroups for wgmma)
  int64_t im = 0, in = 0, ik = 0; ///< instruction / per-thread tile
  int64_t stages = 2;
  SmemKind smem = SmemKind::swizzle;
  bool rasterColumn = false;
  int64_t group = 1;
  int64_t splitK = 1;
  /// The K slices add their partial sums inside a thread-block cluster
  /// (`reduction = cluster`) instead of through a workspace.
  bool clusterReduce = false;
  /// Only the tiles past the grid's last whole wave are split, and the last
  /// slice of a tile to finish adds the slices' partial sums before the
  /// epilogue (`reduction = fixup`; docs/design-notes.md, "The last wave's
  /// tiles split K").
  bool fixupReduce = false;
  /// Operand tiles are loaded by TMA (`load = tma` or `tma_ws`) instead of
  /// cp.async.
  bool tmaLoad = false;
  /// The TMA loads are issued by a producer warpgroup of their own
  /// (`load = tma_ws`; implies tmaLoad).
  bool producerWarp = false;
  /// A persistent block (`schedule = persistent` or `pingpong`; implies
  /// producerWarp) walking output tiles; with pingpong, two consumer teams
  /// take turns on them.
  bool persistent = false;
  bool pingpong = false;
  /// Blocks of a cluster sharing B's tile through TMA multicast
  /// (`multicast`; 1: no clusters).
  int64_t multicast = 1;

  int64_t warpTileM() const { return bm / wm; }
  int64_t warpTileN() const { return bn / wn; }
  /// Warps per block (a wgmma warp grid counts warpgroups of 4 warps).
  int64_t numWarps() const {
    return wm * wn * (kind == InstrKind::wgmma ? 4 : 1);
  }
  /// Consumer teams per block (each numWarps warps): 2 with pingpong.
  int64_t teams() const { return pingpong ? 2 : 1; }
  /// Warps per block: every team's warps plus the producer warpgroup of
  /// tma_ws.
  int64_t blockWarps() const {
    return teams() * numWarps() + (producerWarp ? 4 : 0);
  }
  /// Stages of MMAs a wgmma kernel keeps in flight while it publishes and
  /// issues the next stage: one with 3 or more stages (the main loop then
  /// fetches one tile less far ahead), none otherwise.
  static int64_t wgmmaStagesInFlight(int64_t stages) {
    return stages >= 3 ? 1 : 0;
  }
  bool operator==(const TileConfig &o) const;
  bool operator!=(const TileConfig &o) const { return !(*this == o); }
  /// The `#gemm.config<...>` spelling of this point.
  std::string str() const;
};

llvm::StringRef stringifySmemKind(SmemKind kind);

/// What the legality rules and the default configs need to know of a GEMM
/// apart from its sizes: the operand and accumulator types and the layout.
struct GemmSignature {
  /// Storage type of A and B (f32 also when it runs as tf32; the two f8
  /// types may be mixed, which no rule distinguishes).
  ElemKind a = ElemKind::f16;
  ElemKind acc = ElemKind::f32;
  bool transA = false, transB = true; ///< the layout (tn by default)

  /// "nn", "nt", "tn" or "tt".
  llvm::StringRef layoutName() const;
};

/// The operand kind an instruction of `kind` sees for `storage` elements:
/// f32 operands run as tf32 on tensor cores (mma_sync, wgmma) and as f32 on
/// SIMT and MFMA.
ElemKind instrOperandKind(ElemKind storage, InstrKind kind);

/// Estimated shared memory (bytes) one block of `config` uses for operands of
/// `elemBytes` bytes: stages x (BM x BK + BN x BK), plus one 16-byte vector
/// per row when padded.
int64_t estimateSharedMemory(const TileConfig &config, unsigned elemBytes);

/// The mbarriers of a TMA config in shared memory (bytes): one 8-byte
/// barrier per stage (two, warp-specialized: full and empty), and the two
/// turn barriers of a pingpong block; 0 without TMA.
int64_t tmaBarrierBytes(const TileConfig &config);

/// `kind = gemv`: the elements of one lane's 16-byte load, and the loads a
/// lane issues per B row and iteration (BK / (warp size x instr K); on an
/// N-contiguous B, isGemvColumns, BK over the k rows a block reads at once).
int64_t gemvLaneElems(unsigned elemBytes);
int64_t gemvUnroll(const TileConfig &config, unsigned warpSize);

/// The gemv config of `bm` rows of A, `warps` warps of `rowsPerWarp` rows of
/// B each and `unroll` 16-byte loads a lane and row, for operands of
/// `elemBytes` bytes (not checked: checkConfig).
TileConfig makeGemvConfig(int64_t bm, int64_t rowsPerWarp, int64_t warps,
                          int64_t unroll, unsigned elemBytes,
                          unsigned warpSize);

/// `kind = gemv` with instr = [8, 16, 16]: the products on mma.sync m16n8k16
/// with the operands swapped (16 rows of B as the instruction's A, 8 rows of
/// A as its B) instead of f32 FMAs (docs/dialect.md, "gemv on mma.sync").
bool isGemvMma(const TileConfig &config);

/// `kind = gemv` with instr = [1, 16 / element bytes, 1]: a B stored K x N
/// (N-contiguous: layouts nn and nt) read in 16-byte chunks along N, BN / V
/// lanes side by side on a row of B, every warp and lane group on its own k
/// rows (docs/dialect.md, "gemv on an N-contiguous B").
bool isGemvColumns(const TileConfig &config);

/// The gemv-columns config of `bm` rows of A, `bn` columns a block, `warps`
/// warps splitting K and `unroll` 16-byte chunks a lane per iteration, for
/// operands of `elemBytes` bytes (not checked: checkConfig).
TileConfig makeGemvColumnsConfig(int64_t bm, int64_t bn, int64_t warps,
                                 int64_t unroll, unsigned elemBytes,
                                 unsigned warpSize);

/// Lanes of a gemv-mma warp reading one row of B side by side (each a
/// 16-byte chunk): the 4 lanes sharing lane / 4 in the fragment maps.
inline constexpr int64_t kGemvMmaLanesPerRow = 4;

/// The gemv-mma config of `bm` rows of A, `bn` rows of B a block, `warps`
/// warps splitting K and `unroll` 16-byte chunks a lane and row of B per
/// iteration, for 2-byte operands (not checked: checkConfig); `stages` 2
/// double-buffers those loads in registers (a K-contiguous B only).
TileConfig makeGemvMmaConfig(int64_t bm, int64_t bn, int64_t warps,
                             int64_t unroll, int64_t stages = 1);

/// Shared memory (bytes) a `reduction = cluster` block stages its partial
/// sums in: BM rows of BN accumulators of `accBytes` bytes, each row padded
/// by one 16-byte chunk (clusterStagingPitch elements) so that the rows of
/// an accumulator fragment fall into different banks. The kernel reuses its
/// operand tiles for it and takes the larger of the two.
int64_t clusterStagingPitch(const TileConfig &config, unsigned accBytes);
int64_t estimateClusterStagingBytes(const TileConfig &config,
                                    unsigned accBytes);

/// How a `load = tma` kernel reads one operand tile with TMA: `count` boxes
/// of `outer` x `inner` elements (inner contiguous), one after the other in
/// shared memory (outer * inner elements each) and `mnStep` apart along M
/// (A) or N (B). K-major tiles (rows of BK elements, exactly 128 bytes for
/// wgmma) are boxes of up to 256 rows; MN-major tiles are the 128-byte
/// panels wgmma reads (BK rows of 128 / elemBytes elements each). The
/// kernel, the host code and the manifest all take the boxes from here.
struct TmaBox {
  int64_t outer = 0, inner = 0, count = 0;
  /// True when the inner (contiguous) dimension is K.
  bool kInner = false;
  int64_t mnStep() const { return kInner ? outer : inner; }
  int64_t elems() const { return outer * inner; }
};
/// The boxes of a tile spanning `mn` rows or columns of M or N and `bk` of
/// K, stored K-contiguous or not, of `elemBytes`-byte elements; count 0 if
/// TMA cannot load it so (the legality rules reject such configs).
/// With `parts` > 1 the boxes are those of each of `parts` equal stretches
/// of the `mn` rows or columns (the stretches blocks of a multicast cluster
/// load: count is a multiple of parts, each part count / parts boxes).
TmaBox tmaBox(int64_t mn, int64_t bk, bool kContiguous, unsigned elemBytes,
              int64_t parts = 1);

/// Estimated 32-bit registers per thread: `accSets` sets of accumulators
/// (accumulatorSets in gemm/Target/Legality.h) plus two buffers of A and B
/// fragments (none for wgmma, which reads shared memory) plus a fixed
/// allowance for addressing.
int64_t estimateRegisters(const TileConfig &config, unsigned operandBytes,
                          unsigned accBytes, unsigned warpSize,
                          int64_t accSets = 1);

/// The 32-bit registers per thread `accSets` sets of accumulators alone
/// occupy: a lower bound of the kernel's registers, where estimateRegisters
/// is an estimate.
int64_t accumulatorRegisters(const TileConfig &config, unsigned accBytes,
                             unsigned warpSize, int64_t accSets = 1);

} // namespace mlir::gemm

#endif // GEMM_TARGET_TILECONFIG_H
