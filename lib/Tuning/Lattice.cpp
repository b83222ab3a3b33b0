//===- Lattice.cpp - The legal config lattice of a GEMM problem -----------===//
//
// The points of the parameter product that gemm/Target/Legality.h accepts:
// the rules the dialect's verifiers and the lowerings apply, stated once.
//
//===----------------------------------------------------------------------===//

#include "gemm/Tuning/Lattice.h"
#include "gemm/Target/Legality.h"
#include "gemm/Tuning/DefaultConfig.h"
#include "gemm/Utils/FragmentLayout.h"
#include <algorithm>
#include <array>

using namespace mlir::gemm;

llvm::SmallVector<InstrKind, 4>
mlir::gemm::latticeKinds(const GemmProblem &problem,
                         const TargetInfo &target) {
  llvm::SmallVector<InstrKind, 4> kinds;
  for (InstrKind kind : {InstrKind::mma_sync, InstrKind::wgmma,
                         InstrKind::mfma, InstrKind::simt}) {
    if (!lowersKind(target, kind) || !target.supportsKind(kind))
      continue;
    if (kind != InstrKind::simt) {
      // f32 stays exact unless tf32 is allowed.
      if (problem.a == ElemKind::f32 && !problem.allowTf32 &&
          kind != InstrKind::mfma)
        continue;
      if (target.findShapes(kind, instrOperandKind(problem.a, kind), problem.acc)
              .empty())
        continue;
    }
    kinds.push_back(kind);
  }
  // gemv: for GEMMs of at most kMaxGemvRows rows (FMA) or
  // kMaxGemvMmaRowsA (mma.sync), whatever their types (checkConfig keeps the
  // signatures it lowers).
  if (lowersKind(target, InstrKind::gemv) &&
      target.supportsKind(InstrKind::gemv) &&
      problem.m <= std::max(kMaxGemvRows, kMaxGemvMmaRowsA))
    kinds.push_back(InstrKind::gemv);
  return kinds;
}

/// The gemv points: BM from M up to kMaxGemvRows, 4 or 8 warps of 1, 2 or 4
/// rows of B, 1 to 8 16-byte loads a lane and row (on an N-contiguous B, 16
/// to 64 columns a block, 4 or 8 warps, 4 or 8 loads); on mma.sync (either
/// layout of B), BM 8 or 16 (at least M), 16 or 32 rows of B a block with 1
/// to 8 16-byte loads a lane and row, or 64 with 1 or 2 (more holds more
/// than 256 bytes of B a lane in flight), 2 to 8 warps splitting K, the
/// loads double-buffered in registers or not (stages 2 or 1; a K-contiguous
/// B only).
static void enumerateGemv(const GemmProblem &problem, const TargetInfo &target,
                          std::vector<TileConfig> &result) {
  for (int64_t bm : {8, 16})
    for (int64_t bn : {16, 32, 64})
      for (int64_t warps : {2, 4, 8})
        for (int64_t unroll : {1, 2, 4, 8}) {
          if (bm < problem.m || (bn == 64 && unroll > 2))
            continue;
          for (int64_t stages : {1, 2}) {
            TileConfig c = makeGemvMmaConfig(bm, bn, warps, unroll, stages);
            if (checkConfig(c, problem, target).empty())
              result.push_back(c);
          }
        }
  for (int64_t bm = std::max<int64_t>(problem.m, 1); bm <= kMaxGemvRows;
       bm *= 2)
    for (int64_t wn : {4, 8})
      for (int64_t rows : {1, 2, 4})
        for (int64_t unroll : {1, 2, 4, 8}) {
          TileConfig c = makeGemvConfig(bm, rows, wn, unroll,
                                        elemBytes(problem.a), target.warpSize);
          if (checkConfig(c, problem, target).empty())
            result.push_back(c);
        }
  // On an N-contiguous B (instr [1, V, 1]): 16 to 64 columns a block, 4 or
  // 8 warps, 4 or 8 16-byte loads a lane.
  for (int64_t bm = std::max<int64_t>(problem.m, 1); bm <= kMaxGemvRows;
       bm *= 2)
    for (int64_t bn : {16, 32, 64})
      for (int64_t wn : {4, 8})
        for (int64_t unroll : {4, 8}) {
          TileConfig c = makeGemvColumnsConfig(
              bm, bn, wn, unroll, elemBytes(problem.a), target.warpSize);
          if (checkConfig(c, problem, target).empty())
            result.push_back(c);
        }
}

std::vector<TileConfig> mlir::gemm::enumerateLattice(
    const GemmProblem &problem, const TargetInfo &target,
    const LatticeRanges &ranges) {
  std::vector<TileConfig> result;
  for (InstrKind kind : latticeKinds(problem, target)) {
    if (kind == InstrKind::gemv) {
      enumerateGemv(problem, target, result);
      continue;
    }
    // wgmma reads tf32, i8 and f8 K-major only: on operands stored MN-major
    // its configs run on transposed copies (the lowering's kernel view,
    // layout tn), so they are the points legal there.
    OperandTransposes transposes =
        getOperandTransposes(problem, target, problem.allowTf32, kind);
    bool transposed = transposes.any();
    GemmProblem legalOn = problem;
    static_cast<GemmSignature &>(legalOn) =
        getKernelSignature(problem, transposes);
    ElemKind operand = instrOperandKind(problem.a, kind);
    // Instruction shapes: the table's for matrix kinds, per-thread tiles for
    // simt.
    llvm::SmallVector<std::array<int64_t, 3>, 8> instrs;
    if (kind == InstrKind::simt) {
      for (int64_t tm : ranges.simtTile)
        for (int64_t tn : ranges.simtTile)
          instrs.push_back({tm, tn, 1});
    } else {
      for (const MmaShape &s : target.findShapes(kind, operand, problem.acc)) {
        // f8 wgmma tiles keep their partial sums accurate (promoted: N of
        // 128, and kWgmmaPromotedMaxN where the block-N range holds it; the
        // default ranges do not); the tensor cores' accumulation alone (N =
        // 256) is a config's explicit choice, never the tuner's.
        if (kind == InstrKind::wgmma && isFloat8(operand)) {
          for (int64_t n : {int64_t(128), kWgmmaPromotedMaxN})
            if (n <= s.n &&
                llvm::find(instrs, std::array<int64_t, 3>{s.m, n, s.k}) ==
                    instrs.end())
              instrs.push_back({s.m, n, s.k});
          continue;
        }
        instrs.push_back({s.m, s.n, s.k});
      }
    }
    for (auto [im, in, ik] : instrs)
      for (int64_t bm : ranges.blockMN)
        for (int64_t bn : ranges.blockMN)
          for (int64_t bk : ranges.blockK)
            for (int64_t wm : ranges.warpGrid)
              for (int64_t wn : ranges.warpGrid)
                for (int64_t stages : ranges.stages)
                  for (SmemKind smem : ranges.smem) {
                    TileConfig c;
                    c.kind = kind;
                    c.bm = bm, c.bn = bn, c.bk = bk;
                    c.wm = wm, c.wn = wn;
                    c.im = im, c.in = in, c.ik = ik;
                    c.stages = stages;
                    c.smem = smem;
                    c.group = ranges.group;
                    // wgmma tiles load through TMA wherever it can read
                    // them, as the defaults do (docs/design-notes.md).
                    c.tmaLoad = tmaLoadsTiles(c, legalOn);
                    if (checkConfig(c, legalOn, target).empty() &&
                        (!transposed ||
                         checkConfigOnTransposedOperands(c, operand).empty()))
                      result.push_back(c);
                  }
  }
  return result;
}
