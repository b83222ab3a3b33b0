//===- CostModel.h - Analytical GEMM cost model -----------------*- C++ -*-===//
//
// Predicts the run time of one config on one problem from the chip's table
// entries (gemm/Target/TargetInfo.h): per k-tile the matrix-instruction time
// (scaled by an issue efficiency that grows with resident warps and with the
// instructions a warp has in flight), shared-memory traffic (with a bank
// conflict factor per shared layout), L2 -> SM traffic ~ 1/BM + 1/BN, and the
// memory latency left exposed by the pipeline depth; per SM the tiles it runs
// (wave quantization over the SM count and the blocks an SM holds at once);
// the epilogue; and DRAM traffic. docs/tuning.md gives the formulas and how
// the calibration constants in ModelParams were fitted.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_TUNING_COSTMODEL_H
#define GEMM_TUNING_COSTMODEL_H

#include "gemm/Target/TileConfig.h"
#include "gemm/Tuning/Problem.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace mlir::gemm {

/// Calibration constants (fitted against H200 measurements, docs/tuning.md).
struct ModelParams {
  /// Issue efficiency = 1 / (1 + warpHalf / residentWarps + mmaHalf /
  /// instructionsPerWarpStep + parallelHalf / (residentWarps x
  /// instructionsPerWarpStep)): warps and independent instructions that hide
  /// the latency of address arithmetic and of the matrix pipe.
  double warpHalf = 2.0;
  double mmaHalf = 4.0;
  /// A third term, parallelHalf / (residentWarps x instructionsPerWarpStep):
  /// warps and instructions per warp substitute for each other.
  double parallelHalf = 8.0;
  /// cp.async bytes one warp moves per clock (the per-block copy throughput
  /// is warps x this: one warp cannot keep a large tile in flight).
  double warpCopyBytesPerClk = 8.0;
  /// Operands whose rows are not 16-byte aligned (K * bytes % 16 != 0 for a
  /// K-contiguous operand) take the synchronous element-copy path: a thread
  /// keeps 16 bytes in flight per memory round trip; the round trip is
  /// elementCopyScale x the memory latency.
  double elementCopyScale = 0.25;
  /// Multiplies the table's L2 -> SM bandwidth.
  double l2Scale = 1.0;
  /// Multiplies the table's memory latency.
  double latencyScale = 1.5;
  /// Shared-memory bank conflicts of `plain` tiles with 128-byte rows (an
  /// ldmatrix phase serializes up to 8 ways) and of `pad` tiles.
  double plainConflict = 8.0;
  double padConflict = 1.6;
  /// Fixed cost of a launch, microseconds.
  double launchUs = 4.0;
  /// Cycles per block spent outside the k-loop (set-up, prologue issue,
  /// epilogue address math).
  double blockOverheadCycles = 1000.0;
  /// The transposing copy that puts tf32, i8 and f8 operands K-major for
  /// wgmma (Pack.cpp) moves its bytes (read plus written) at this fraction
  /// of the DRAM bandwidth for 4-byte elements, and at transposeFraction1B
  /// for 1-byte ones. Measured on the H200 (docs/performance.md, "Every
  /// layout on wgmma"): f32 2.5 TB/s, i8 1.0 TB/s.
  double transposeFraction4B = 0.55;
  double transposeFraction1B = 0.22;
  /// How the per-k-tile limits combine: T = (sum of t_i^p)^(1/p) over the
  /// compute, shared, L2, copy, element-copy and exposed-latency times; a
  /// large p is the plain maximum (perfect overlap), p = 1 the sum.
  double overlapPower = 100.0;
  /// Cycles per k-tile and block that no other work hides: the barrier, the
  /// cp.async wait and the copy issue (barriers per FLOP ~ 1/BK).
  double kTileOverheadCycles = 50.0;
  /// Cycles per k-tile a block alone on its SM loses at the barrier and the
  /// cp.async wait (with two or more resident blocks another block's work
  /// fills them).
  double soloSyncCycles = 0.0;
  /// Slow-down per unit of register overflow: ptxas caps a kernel of T
  /// threads at regsPerSM / T registers (the launch bound), and spills what
  /// the estimate puts above the cap; the k-loop time is multiplied by
  /// 1 + spillPenalty x (estimate - cap) / cap.
  double spillPenalty = 2.0;

  /// Sets a parameter by name; the reason if the name is unknown or the
  /// value out of range (not finite, negative, or zero for a divisor), else
  /// "".
  std::string set(llvm::StringRef name, double value);
  /// The parameter names, for diagnostics and tools.
  static llvm::ArrayRef<llvm::StringRef> names();
};

/// The model's view of one config on one problem: the predicted time and the
/// axes the Pareto frontier is taken over.
struct Cost {
  double timeUs = 0;          ///< predicted kernel time
  double tflops = 0;          ///< useful FLOPs / timeUs
  // Frontier axes.
  double globalBytesPerFlop = 0; ///< L2 -> SM bytes per useful FLOP
  double sharedBytesPerFlop = 0; ///< shared-memory bytes (with conflicts)
  double occupancy = 0;       ///< resident warps / max warps per SM
  double waveEfficiency = 0;  ///< tiles / (rounds x slots): quantization
  double pipelineCover = 0;   ///< min(1, hidden latency / memory latency)
  // Details.
  double issueEfficiency = 0;
  double paddedFraction = 0;  ///< useful / computed FLOPs (ragged edges)
  double epilogueUs = 0;
  /// The transposing copies a wgmma config on an MN-major tf32, i8 or f8
  /// operand implies (included in timeUs).
  double transposeUs = 0;
  int64_t tiles = 0;
  int64_t blocksPerSM = 0;
  int64_t rounds = 0;         ///< rounds of resident blocks on the busiest SM
  llvm::StringRef bound;      ///< mma, smem, l2, copy, element-copy, latency, dram
};

/// Predicts `config` on `problem` on `target`. `config` must be legal
/// (checkConfig); nullopt if the target has no perf entry.
std::optional<Cost> estimateCost(const TileConfig &config,
                                 const GemmProblem &problem,
                                 const TargetInfo &target,
                                 const ModelParams &params = {});

/// A config with its predicted cost.
struct RankedConfig {
  TileConfig config;
  Cost cost;
};

/// The lattice of `problem` on `target`, costed and sorted by predicted time
/// (ties: the other frontier axes, then less shared memory, then the
/// enumeration order).
std::vector<RankedConfig> rankLattice(const GemmProblem &problem,
                                      const TargetInfo &target,
                                      const ModelParams &params = {});

/// Indices of the points of `ranked` not dominated on (time, global traffic,
/// shared traffic, -occupancy, -pipeline cover); the fastest point is always
/// among them. Returned in the order of `ranked`.
std::vector<size_t> paretoFrontier(llvm::ArrayRef<RankedConfig> ranked);

/// The model's pick for `problem` on `target`: the fastest legal config;
/// nullopt if the lattice is empty.
std::optional<RankedConfig> pickConfig(const GemmProblem &problem,
                                       const TargetInfo &target,
                                       const ModelParams &params = {});

} // namespace mlir::gemm

#endif // GEMM_TUNING_COSTMODEL_H
