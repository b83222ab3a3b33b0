//===- Lattice.h - The legal config lattice of a GEMM problem ---*- C++ -*-===//
//
// Every config (block tile, warp grid, instruction shape, stages,
// shared-memory layout) that tiles evenly and fits the chip's shared memory,
// threads and registers, for the instruction kinds a lowering exists for.
// A point is legal when gemm/Target/Legality.h's checkConfig accepts it: the
// same statement the dialect's verifiers and the lowerings apply.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_TUNING_LATTICE_H
#define GEMM_TUNING_LATTICE_H

#include "gemm/Target/Legality.h"
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

/// The instruction kinds the lattice of `problem` on `target` contains:
/// matrix kinds with a shape for its types, plus simt. f32 problems without
/// allowTf32 stay on simt (exact).
llvm::SmallVector<InstrKind, 4> latticeKinds(const GemmProblem &problem,
                                             const TargetInfo &target);

/// Every legal config of `problem` on `target` within `ranges`, in a stable
/// order.
std::vector<TileConfig> enumerateLattice(const GemmProblem &problem,
                                         const TargetInfo &target,
                                         const LatticeRanges &ranges = {});

} // namespace mlir::gemm

#endif // GEMM_TUNING_LATTICE_H
