//===- Lattice.cpp - The legal config lattice of a GEMM problem -----------===//
//
// The legality rules below restate, without an MLIRContext, those of
// ConfigAttr::verify (structure), MatmulOp::verifyConfigForTarget (chip
// limits) and checkLowerableToNVGPU / checkLowerableToAMDGPU (what the
// lowerings support);
// unittests/LatticeTest.cpp checks that they accept exactly the same points.
//
//===----------------------------------------------------------------------===//

#include "gemm/Tuning/Lattice.h"
#include "gemm/Utils/FragmentLayout.h"
#include "gemm/Utils/MfmaLayout.h"
#include <array>

using namespace mlir::gemm;

bool mlir::gemm::hasLowering(const TargetInfo &target, InstrKind kind) {
  if (target.isNVIDIA())
    return kind == InstrKind::mma_sync || kind == InstrKind::wgmma ||
           kind == InstrKind::simt;
  // convert-gemm-to-amdgpu lowers mfma only.
  return kind == InstrKind::mfma;
}

ElemKind mlir::gemm::operandKind(const GemmProblem &problem, InstrKind kind) {
  if (problem.a == ElemKind::f32 &&
      (kind == InstrKind::mma_sync || kind == InstrKind::wgmma))
    return ElemKind::tf32;
  return problem.a;
}

llvm::SmallVector<InstrKind, 4>
mlir::gemm::latticeKinds(const GemmProblem &problem,
                         const TargetInfo &target) {
  llvm::SmallVector<InstrKind, 4> kinds;
  for (InstrKind kind : {InstrKind::mma_sync, InstrKind::wgmma,
                         InstrKind::mfma, InstrKind::simt}) {
    if (!hasLowering(target, kind) || !target.supportsKind(kind))
      continue;
    if (kind != InstrKind::simt) {
      // f32 stays exact unless tf32 is allowed.
      if (problem.a == ElemKind::f32 && !problem.allowTf32 &&
          kind != InstrKind::mfma)
        continue;
      if (target.findShapes(kind, operandKind(problem, kind), problem.acc)
              .empty())
        continue;
    }
    kinds.push_back(kind);
  }
  return kinds;
}

std::string mlir::gemm::checkConfig(const TileConfig &c,
                                    const GemmProblem &problem,
                                    const TargetInfo &target) {
  auto str = [](int64_t v) { return std::to_string(v); };
  // Structure (ConfigAttr::verify).
  for (int64_t v : {c.bm, c.bn, c.bk, c.wm, c.wn, c.im, c.in, c.ik})
    if (v <= 0)
      return "config sizes must be positive";
  if (c.stages < 1 || c.stages > 8)
    return "stages " + str(c.stages) + " not in [1, 8]";
  if (c.group < 1 || c.splitK < 1)
    return "group and split_k must be positive";
  if (c.bm % c.wm != 0 || c.bn % c.wn != 0)
    return "block tile not divisible by the warp grid";
  if (c.warpTileM() % c.im != 0 || c.warpTileN() % c.in != 0)
    return "warp tile not a multiple of the instruction shape";
  if (c.bk % c.ik != 0)
    return "block tile K not a multiple of the instruction K";
  if (c.kind == InstrKind::simt && c.ik != 1)
    return "simt per-thread tile must have k = 1";
  if (c.kind == InstrKind::wgmma && c.im != 64)
    return "wgmma instruction M must be 64";

  // Chip limits (MatmulOp::verifyConfigForTarget).
  std::string kindName = stringifyInstrKind(c.kind).str();
  if (!target.supportsKind(c.kind))
    return "kind " + kindName + " is not available on " + target.name.str();
  ElemKind opKind = operandKind(problem, c.kind);
  if (c.kind != InstrKind::simt &&
      !target.hasShape(c.kind, opKind, problem.acc, c.im, c.in, c.ik))
    return kindName + " shape " + str(c.im) + "x" + str(c.in) + "x" +
           str(c.ik) + " for " + stringifyElemKind(opKind).str() +
           " operands is not available on " + target.name.str();
  int64_t threads = c.numWarps() * target.warpSize;
  if (threads > target.maxThreadsPerBlock)
    return str(threads) + " threads per block, over the limit";
  if (c.kind == InstrKind::simt &&
      (c.warpTileM() / c.im) * (c.warpTileN() / c.in) != target.warpSize)
    return "simt per-thread tiles do not cover the warp tile with one warp";
  unsigned bytes = elemBytes(opKind);
  int64_t smem = estimateSharedMemory(c, bytes);
  if (smem > target.maxSharedMemPerBlock)
    return "needs " + str(smem) + " bytes of shared memory, over the " +
           str(target.maxSharedMemPerBlock);
  int64_t regs =
      estimateRegisters(c, bytes, elemBytes(problem.acc), target.warpSize);
  if (regs > target.maxRegsPerThread)
    return "needs about " + str(regs) + " registers per thread, over the " +
           str(target.maxRegsPerThread);
  if (c.kind == InstrKind::mma_sync && c.stages > 1 && !target.hasCpAsync)
    return "multi-stage pipelines need cp.async";

  // What the lowering supports (checkLowerableToNVGPU).
  if (!hasLowering(target, c.kind))
    return "kind " + kindName + " is not lowered for " + target.name.str();
  if (target.isNVIDIA() && isFloat8(problem.a) && c.kind != InstrKind::wgmma)
    return "f8 operands are lowered with wgmma only";
  if (c.splitK != 1)
    return "split_k is not lowered";
  if (target.isNVIDIA() && c.kind == InstrKind::mma_sync) {
    // One shape per operand type (the kernel builder's fragment maps).
    std::optional<std::array<unsigned, 3>> s = mmaSyncShape(opKind);
    if (!s || c.im != (*s)[0] || c.in != (*s)[1] || c.ik != (*s)[2])
      return "mma_sync shape " + str(c.im) + "x" + str(c.in) + "x" +
             str(c.ik) + " is not lowered for " +
             stringifyElemKind(opKind).str() + " operands";
  }
  if (c.kind == InstrKind::wgmma) {
    // checkWgmmaConfig: the types wgmmaLowersTypes admits; a 64 x N tile
    // per warpgroup; 128-byte swizzled tiles (K-major rows of 128 bytes,
    // MN-major panels for 16-bit types only).
    if (!wgmmaLowersTypes(opKind, problem.acc))
      return "wgmma is not lowered for " + stringifyElemKind(opKind).str() +
             " operands with " + stringifyElemKind(problem.acc).str() +
             " accumulation";
    if (c.warpTileM() != 64)
      return "wgmma warpgroup tile M must be 64, got " + str(c.warpTileM());
    if (c.warpTileN() != c.in)
      return "wgmma warpgroup tile N " + str(c.warpTileN()) +
             " differs from the instruction N " + str(c.in);
    if (c.smem != SmemKind::swizzle)
      return "wgmma needs the swizzled shared layout";
    bool aKMajor = !problem.transA, bKMajor = problem.transB;
    if ((aKMajor || bKMajor) && c.bk * bytes != kWgmmaSwizzleBytes)
      return "wgmma with K-contiguous operands needs block K = " +
             str(kWgmmaSwizzleBytes / bytes) + ", got " + str(c.bk);
    if ((!aKMajor || !bKMajor) && !wgmmaReadsMNMajor(opKind))
      return "wgmma reads " + stringifyElemKind(opKind).str() +
             " operands K-major only";
    if (!bKMajor && c.in % (kWgmmaSwizzleBytes / bytes) != 0)
      return "wgmma with N-contiguous B needs the instruction N to be a "
             "multiple of " + str(kWgmmaSwizzleBytes / bytes) + ", got " +
             str(c.in);
  }
  if (c.kind == InstrKind::mfma) {
    // checkLowerableToAMDGPU: shapes whose lane maps are tested, and whole
    // multi-block tiles per wave.
    std::optional<MmaShape> shape;
    for (const MmaShape &s : target.findShapes(c.kind, opKind, problem.acc))
      if (s.m == c.im && s.n == c.in && s.k == c.ik)
        shape = s;
    if (!shape || !isMfmaShapeLowered(*shape))
      return "mfma shape " + str(c.im) + "x" + str(c.in) + "x" + str(c.ik) +
             " is not lowered for " + stringifyElemKind(opKind).str() +
             " operands";
    if (c.warpTileN() % (shape->n * shape->blocks) != 0)
      return "wave tile N is not a multiple of the multi-block mfma tile";
  }
  if (c.smem == SmemKind::swizzle) {
    unsigned storage = elemBytes(problem.a);
    int64_t colsA = problem.transA ? c.bm : c.bk;
    int64_t colsB = problem.transB ? c.bk : c.bn;
    if ((colsA * storage) % 16 != 0 || (colsB * storage) % 16 != 0)
      return "swizzled shared rows must be multiples of 16 bytes";
  }
  return "";
}

std::vector<TileConfig> mlir::gemm::enumerateLattice(
    const GemmProblem &problem, const TargetInfo &target,
    const LatticeRanges &ranges) {
  std::vector<TileConfig> result;
  for (InstrKind kind : latticeKinds(problem, target)) {
    // Instruction shapes: the table's for matrix kinds, per-thread tiles for
    // simt.
    llvm::SmallVector<std::array<int64_t, 3>, 8> instrs;
    if (kind == InstrKind::simt) {
      for (int64_t tm : ranges.simtTile)
        for (int64_t tn : ranges.simtTile)
          instrs.push_back({tm, tn, 1});
    } else {
      for (const MmaShape &s :
           target.findShapes(kind, operandKind(problem, kind), problem.acc))
        instrs.push_back({s.m, s.n, s.k});
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
                    if (checkConfig(c, problem, target).empty())
                      result.push_back(c);
                  }
  }
  return result;
}
