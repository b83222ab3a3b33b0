//===- Lattice.h - The legal config lattice of a GEMM problem ---*- C++ -*-===//
//
// Every config (block tile, warp grid, instruction shape, stages,
// shared-memory layout) that tiles evenly and fits the chip's shared memory,
// threads and registers, for the instruction kinds a lowering exists for.
// All chip facts come from the target table (gemm/Target/TargetInfo.h); the
// rules are those of the dialect's verifiers and of the lowerings' checks
// (unit tests compare the two point by point).
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_TUNING_LATTICE_H
#define GEMM_TUNING_LATTICE_H

#include "gemm/Target/TileConfig.h"
#include "gemm/Tuning/Problem.h"
#include "llvm/ADT/SmallVector.h"
#include <string>
#include <vector>

namespace mlir::gemm {

/// The parameter ranges the lattice is complete over.
struct LatticeRanges {
  llvm::SmallVector<int64_t, 8> blockMN = {16, 32, 64, 128, 256};
  llvm::SmallVector<int64_t, 8> blockK = {8, 16, 32, 64, 128};
  llvm::SmallVector<int64_t, 8> warpGrid = {1, 2, 4, 8};
  llvm::SmallVector<int64_t, 8> stages = {1, 2, 3, 4, 5, 6, 7, 8};
  /// SIMT per-thread tile extents (TM, TN).
  llvm::SmallVector<int64_t, 8> simtTile = {1, 2, 4, 8};
  llvm::SmallVector<SmemKind, 3> smem = {SmemKind::swizzle, SmemKind::pad,
                                         SmemKind::plain};
  /// Rasterization is not searched: row order in groups of 8 tile rows
  /// (measured to matter little, docs/tuning.md).
  int64_t group = 8;
};

/// True if a lowering of `kind` exists for `target`'s vendor: mma_sync and
/// simt on NVIDIA (convert-gemm-to-nvgpu). The AMD lowering adds mfma here.
bool hasLowering(const TargetInfo &target, InstrKind kind);

/// The operand kind instructions of `kind` see for `problem` (f32 storage is
/// tf32 on tensor cores).
ElemKind operandKind(const GemmProblem &problem, InstrKind kind);

/// The instruction kinds the lattice of `problem` on `target` contains:
/// matrix kinds with a shape for its types, plus simt. f32 problems without
/// allowTf32 stay on simt (exact).
llvm::SmallVector<InstrKind, 4> latticeKinds(const GemmProblem &problem,
                                             const TargetInfo &target);

/// Checks one config for `problem`'s types (sizes do not matter) on `target`:
/// the structural rules of #gemm.config, the per-target rules of
/// MatmulOp::verifyConfigForTarget and the lowering's own rules. Returns ""
/// when legal, else the reason (lower-case).
std::string checkConfig(const TileConfig &config, const GemmProblem &problem,
                        const TargetInfo &target);

/// Every legal config of `problem` on `target` within `ranges`, in a stable
/// order.
std::vector<TileConfig> enumerateLattice(const GemmProblem &problem,
                                         const TargetInfo &target,
                                         const LatticeRanges &ranges = {});

} // namespace mlir::gemm

#endif // GEMM_TUNING_LATTICE_H
