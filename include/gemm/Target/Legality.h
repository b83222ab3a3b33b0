//===- Legality.h - Which configs are legal, stated once --------*- C++ -*-===//
//
// The one statement of the rules a `#gemm.config` must satisfy, over the
// context-free TileConfig and the target table, in three layers:
//
//  - structure: the config tiles evenly (what `#gemm.config` verifies on its
//    own);
//  - target: the chip has the instruction and the block fits its threads,
//    shared memory and registers (what `gemm.matmul` verifies when a
//    `gemm.target` is in scope, and gemm-select-config for explicit configs);
//  - lowering: the kernel builder of the chip's vendor implements it
//    (convert-gemm-to-nvgpu, convert-gemm-to-amdgpu).
//
// Each check returns "" when the config passes, else the reason, worded as a
// diagnostic (lower-case, no trailing period, naming the offending values).
// The dialect's verifiers emit it at the op or attribute, the lowerings at
// the op they cannot lower, and the tuning lattice and database use it to
// keep exactly the configs the lowerings accept.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_TARGET_LEGALITY_H
#define GEMM_TARGET_LEGALITY_H

#include "gemm/Target/TargetInfo.h"
#include "gemm/Target/TileConfig.h"
#include <string>

namespace mlir::gemm {

/// Upper bounds of #gemm.config's sizes (docs/dialect.md): far beyond any
/// kernel that fits a chip, and low enough that no estimate overflows int64
/// and no tile count or group overflows the kernels' 32-bit index math.
inline constexpr int64_t kMaxConfigBlock = 1 << 16;
inline constexpr int64_t kMaxConfigWarps = 1024;
inline constexpr int64_t kMaxConfigInstr = 1024;
inline constexpr int64_t kMaxConfigGroup = 1 << 16;
/// Pipeline stages (the tuning lattice's range).
inline constexpr int64_t kMaxConfigStages = 8;
/// split_k slices K over grid.y, whose launch limit is 65535 blocks.
inline constexpr int64_t kMaxConfigSplitK = 65535;
/// split_k with `reduction = cluster`: the slices of a tile form one
/// thread-block cluster, whose portable size limit is 8 blocks.
inline constexpr int64_t kMaxClusterSlices = 8;
/// split_k with `reduction = fixup`: the most slices of a last-wave tile
/// (the slice that finishes last reads every other slice's partial sums).
inline constexpr int64_t kMaxFixupSlices = 16;
/// `kind = gemv`: at most this many rows of A (block M) and of B (the warp
/// tile N) per warp, at most this many 16-byte loads per lane and B row in
/// an iteration, and the lanes of a warp.
inline constexpr int64_t kMaxGemvRows = 4;
inline constexpr int64_t kMaxGemvUnroll = 8;
inline constexpr int64_t kGemvLanes = 32;
/// gemv-mma (instr [8, 16, 16]): at most this many rows of A (block M, two
/// m16n8 tiles) and of B (block N, four 16-row tiles: one 16-byte load of
/// each k row on a B stored K x N) a block, and warps splitting K.
inline constexpr int64_t kMaxGemvMmaRowsA = 16;
inline constexpr int64_t kMaxGemvMmaRowsB = 64;
inline constexpr int64_t kMaxGemvMmaWarps = 8;
/// Warps of a gemv-columns block (N-contiguous B), each on its own k rows.
inline constexpr int64_t kMaxGemvColumnsWarps = 16;
/// Consumer warpgroups of a `load = tma_ws` block, beside its producer
/// warpgroup (tmaWsConsumerRegisters: three get 152 registers a thread).
inline constexpr int64_t kMaxConsumerWarpgroups = 3;
/// Threads of a warpgroup (wgmma's unit of work, four warps).
inline constexpr int64_t kWarpgroupThreads = 128;
/// setmaxnreg's per-thread registers of the producer.
inline constexpr int64_t kProducerRegisters = 40;
/// The most setmaxnreg gives a consumer thread (CUTLASS's figure for two
/// consumer warpgroups).
inline constexpr int64_t kMaxConsumerRegisters = 232;

/// setmaxnreg's per-thread registers of each of `consumerWarpgroups`
/// consumer warpgroups of a `load = tma_ws` block on `target`: the register
/// file less the producer warpgroup's kProducerRegisters a thread, shared
/// out in multiples of 8 and at most kMaxConsumerRegisters. On sm_90a (64K
/// registers): 232 for one or two, 152 for three.
int64_t tmaWsConsumerRegisters(const TargetInfo &target,
                               int64_t consumerWarpgroups);

/// Structural rules: sizes in [1, the bounds above], stages in [1, 8], group
/// and split_k in range, a block tile divisible by the warp grid, warp tiles
/// that are multiples of the instruction, k = 1 for simt, M = 64 for wgmma.
std::string checkConfigStructure(const TileConfig &config);

/// True if some chip of the table has the matrix instruction of `config`
/// (kind and shape) for `sig`'s types; simt configs always pass. This is the
/// check that needs no chip: the verifier applies it to every config.
std::string checkInstrShapeKnown(const TileConfig &config,
                                 const GemmSignature &sig);

/// Sets of accumulators a thread of `config` holds for `operand` (the
/// instruction's operand kind): 2 for a wgmma kernel that promotes its
/// partial sums (wgmmaPromotesPartialSums in gemm/Utils/FragmentLayout.h),
/// else 1.
int64_t accumulatorSets(const TileConfig &config, ElemKind operand);

/// K-tiles a promoted partial sum of `config` covers for `operand` (the
/// instruction's operand kind): wgmmaPromotionKTiles for a team's compute
/// warpgroups where it promotes at all outside the persistent schedules,
/// else 1.
int64_t promotionKTiles(const TileConfig &config, ElemKind operand);

/// Empty if `config` may read operands the lowering copied transposed
/// (layout tn in the kernel, gemm/Tuning/DefaultConfig.h
/// getOperandTransposes), else why not: promoted f8 tiles of one or two
/// compute warpgroups and three or more stages (which promote over pairs
/// of k-tiles outside the persistent schedules) stopped at an illegal
/// instruction there on an H100 (nn, nt; the same tiles pass every check
/// in tn, three compute warpgroups and two-stage tiles pass in every
/// layout), so they are refused, persistent schedules included (not run
/// there), until that is understood.
std::string checkConfigOnTransposedOperands(const TileConfig &config,
                                            ElemKind operand);

/// Whether TMA can load the operand tiles of `c` (kind wgmma) for `sig`'s
/// layout and operand type: K-major tiles of 128-byte rows and at most
/// 256 rows a box, MN-major tiles in whole 128-byte panels (tmaBox).
bool tmaLoadsTiles(const TileConfig &c, const GemmSignature &sig);

/// The chip's limits: the kind and instruction shape exist on `target` for
/// `sig`'s types, threads, the SIMT thread tiling, shared memory and
/// registers (the estimates of TileConfig.h) fit, and multi-stage mma_sync
/// pipelines have cp.async. Assumes the structure is legal.
std::string checkConfigOnTarget(const TileConfig &config,
                                const GemmSignature &sig,
                                const TargetInfo &target);

/// True if the lowering of `target`'s vendor builds kernels of `kind` at all:
/// mma_sync, wgmma and simt on NVIDIA, mfma on AMD.
bool lowersKind(const TargetInfo &target, InstrKind kind);

/// Everything convert-gemm-to-nvgpu / convert-gemm-to-amdgpu (by `target`'s
/// vendor) require of a structurally legal config: the kind is lowered, the
/// target's limits (checkConfigOnTarget), and the per-kind rules of the
/// kernel builders (the one mma.sync shape per type, the wgmma tile and
/// swizzle rules, the MFMA shapes with tested lane maps, whole 16-byte
/// chunks per swizzled row).
std::string checkConfigLowerable(const TileConfig &config,
                                 const GemmSignature &sig,
                                 const TargetInfo &target);

/// checkConfigStructure, then checkConfigLowerable: the configs a lowering
/// for `target` accepts, and the points of the tuning lattice.
std::string checkConfig(const TileConfig &config, const GemmSignature &sig,
                        const TargetInfo &target);

} // namespace mlir::gemm

#endif // GEMM_TARGET_LEGALITY_H
