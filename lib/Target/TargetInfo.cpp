//===- TargetInfo.cpp - The one table of GEMM targets ---------------------===//
//
// Chip limits and matrix-instruction shapes. Sources: the CUDA C Programming
// Guide (compute capability tables), the PTX ISA (mma.sync / wgmma shapes and
// the PTX version each target requires) and AMD's CDNA2/CDNA3/CDNA4 ISA guides
// and Matrix Instruction Calculator (MFMA shapes per chip).
//
//===----------------------------------------------------------------------===//

#include "gemm/Target/TargetInfo.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>

using namespace mlir::gemm;

namespace {
using E = ElemKind;
using K = InstrKind;

// mma.sync shapes common to sm_80 and later (PTX ISA 9.7.14.5).
#define GEMM_SM80_MMA                                                          \
  {K::mma_sync, E::f16, E::f32, 16, 8, 16},                                    \
      {K::mma_sync, E::f16, E::f16, 16, 8, 16},                                \
      {K::mma_sync, E::f16, E::f32, 16, 8, 8},                                 \
      {K::mma_sync, E::bf16, E::f32, 16, 8, 16},                               \
      {K::mma_sync, E::bf16, E::f32, 16, 8, 8},                                \
      {K::mma_sync, E::tf32, E::f32, 16, 8, 8},                                \
      {K::mma_sync, E::tf32, E::f32, 16, 8, 4},                                \
      {K::mma_sync, E::f64, E::f64, 8, 8, 4},                                  \
      {K::mma_sync, E::i8, E::i32, 16, 8, 32},                                 \
      {K::mma_sync, E::i8, E::i32, 16, 8, 16},                                 \
      {K::mma_sync, E::i8, E::i32, 8, 8, 16}

// fp8 mma.sync arrived with sm_89 (PTX 8.4).
#define GEMM_SM89_MMA                                                          \
  {K::mma_sync, E::f8E4M3FN, E::f32, 16, 8, 32},                               \
      {K::mma_sync, E::f8E5M2, E::f32, 16, 8, 32}

// wgmma (sm_90a): M is 64, N any multiple of 8 up to the listed maximum.
#define GEMM_SM90A_WGMMA                                                       \
  {K::wgmma, E::f16, E::f32, 64, 256, 16},                                     \
      {K::wgmma, E::f16, E::f16, 64, 256, 16},                                 \
      {K::wgmma, E::bf16, E::f32, 64, 256, 16},                                \
      {K::wgmma, E::tf32, E::f32, 64, 256, 8},                                 \
      {K::wgmma, E::f8E4M3FN, E::f32, 64, 256, 32},                            \
      {K::wgmma, E::f8E5M2, E::f32, 64, 256, 32},                              \
      {K::wgmma, E::i8, E::i32, 64, 256, 32}

// MFMA on CDNA2 (gfx90a): AMD Instinct MI200 ISA, section 7.1.
#define GEMM_CDNA2_MFMA                                                        \
  {K::mfma, E::f32, E::f32, 32, 32, 2},                                        \
      {K::mfma, E::f32, E::f32, 16, 16, 4},                                    \
      {K::mfma, E::f32, E::f32, 4, 4, 1, 16},                                  \
      {K::mfma, E::f16, E::f32, 32, 32, 8},                                    \
      {K::mfma, E::f16, E::f32, 16, 16, 16},                                   \
      {K::mfma, E::f16, E::f32, 4, 4, 4, 16},                                  \
      {K::mfma, E::bf16, E::f32, 32, 32, 8},                                   \
      {K::mfma, E::bf16, E::f32, 16, 16, 16},                                  \
      {K::mfma, E::bf16, E::f32, 4, 4, 4, 16},                                 \
      {K::mfma, E::f64, E::f64, 16, 16, 4},                                    \
      {K::mfma, E::f64, E::f64, 4, 4, 4, 4}

const MmaShape sm80Shapes[] = {GEMM_SM80_MMA};
const MmaShape sm89Shapes[] = {GEMM_SM80_MMA, GEMM_SM89_MMA};
const MmaShape sm90aShapes[] = {GEMM_SM80_MMA, GEMM_SM89_MMA,
                                GEMM_SM90A_WGMMA};
const MmaShape gfx90aShapes[] = {
    GEMM_CDNA2_MFMA,
    {K::mfma, E::i8, E::i32, 32, 32, 8},
    {K::mfma, E::i8, E::i32, 16, 16, 16},
};
// CDNA3 (gfx942): MI300 ISA, section 7.1; adds xf32 and wider i8. Its fp8/bf8
// MFMAs use the FNUZ encodings (no negative zero, bias 8/16), not the OCP
// f8E4M3FN / f8E5M2 types of the gemm dialect, so they are not listed: an
// OCP fp8 GEMM on gfx942 is rejected rather than silently misread.
const MmaShape gfx942Shapes[] = {
    GEMM_CDNA2_MFMA,
    {K::mfma, E::i8, E::i32, 32, 32, 16},
    {K::mfma, E::i8, E::i32, 16, 16, 32},
    {K::mfma, E::tf32, E::f32, 32, 32, 4},
    {K::mfma, E::tf32, E::f32, 16, 16, 8},
};
// CDNA4 (gfx950): MI355 ISA; double-K f16/bf16/i8 forms and f8f6f4, no xf32.
const MmaShape gfx950Shapes[] = {
    GEMM_CDNA2_MFMA,
    {K::mfma, E::f16, E::f32, 32, 32, 16},
    {K::mfma, E::f16, E::f32, 16, 16, 32},
    {K::mfma, E::bf16, E::f32, 32, 32, 16},
    {K::mfma, E::bf16, E::f32, 16, 16, 32},
    {K::mfma, E::i8, E::i32, 32, 32, 16},
    {K::mfma, E::i8, E::i32, 16, 16, 32},
    {K::mfma, E::i8, E::i32, 32, 32, 32},
    {K::mfma, E::i8, E::i32, 16, 16, 64},
    {K::mfma, E::f8E4M3FN, E::f32, 32, 32, 16},
    {K::mfma, E::f8E4M3FN, E::f32, 16, 16, 32},
    {K::mfma, E::f8E4M3FN, E::f32, 32, 32, 64},
    {K::mfma, E::f8E4M3FN, E::f32, 16, 16, 128},
    {K::mfma, E::f8E5M2, E::f32, 32, 32, 16},
    {K::mfma, E::f8E5M2, E::f32, 16, 16, 32},
    {K::mfma, E::f8E5M2, E::f32, 32, 32, 64},
    {K::mfma, E::f8E5M2, E::f32, 16, 16, 128},
};

constexpr unsigned KiB = 1024;

// H200 (132 SMs), measured 2026-12-01 with scripts/cluster_occupancy.py on
// kernels of 160-216 KiB of shared memory: clusters of 4 run 30 at a time,
// not 33.
const int64_t hopperClusterCapacity[] = {132, 66, 39, 30, 22, 17, 15, 15};

// name, vendor, arch, warp, threads, smem/block, smem/SM, regs/thread,
// regs/SM, SMs, min PTX, cp.async, ldmatrix, arch-specific, shapes.
const TargetInfo targets[] = {
    {"sm_80", Vendor::nvidia, 80, 32, 1024, 163 * KiB, 164 * KiB, 255, 65536,
     108, 70, true, true, false, sm80Shapes},
    {"sm_86", Vendor::nvidia, 86, 32, 1024, 99 * KiB, 100 * KiB, 255, 65536, 84,
     71, true, true, false, sm80Shapes},
    {"sm_89", Vendor::nvidia, 89, 32, 1024, 99 * KiB, 100 * KiB, 255, 65536,
     128, 78, true, true, false, sm89Shapes},
    {"sm_90", Vendor::nvidia, 90, 32, 1024, 227 * KiB, 228 * KiB, 255, 65536,
     132, 78, true, true, false, sm89Shapes, 32, hopperClusterCapacity},
    {"sm_90a", Vendor::nvidia, 90, 32, 1024, 227 * KiB, 228 * KiB, 255, 65536,
     132, 80, true, true, true, sm90aShapes, 32, hopperClusterCapacity},
    {"gfx90a", Vendor::amd, 0x90a, 64, 1024, 64 * KiB, 64 * KiB, 512, 131072,
     104, 0, false, false, false, gfx90aShapes},
    {"gfx942", Vendor::amd, 0x942, 64, 1024, 64 * KiB, 64 * KiB, 512, 131072,
     304, 0, false, false, false, gfx942Shapes},
    {"gfx950", Vendor::amd, 0x950, 64, 1024, 160 * KiB, 160 * KiB, 512, 131072,
     256, 0, false, false, false, gfx950Shapes},
};
} // namespace

bool TargetInfo::supportsKind(InstrKind kind) const {
  if (kind == InstrKind::simt)
    return true;
  if (kind == InstrKind::gemv)
    return isNVIDIA();
  return llvm::any_of(mmaShapes,
                      [&](const MmaShape &s) { return s.kind == kind; });
}

llvm::SmallVector<MmaShape, 4>
TargetInfo::findShapes(InstrKind kind, ElemKind operand, ElemKind acc) const {
  llvm::SmallVector<MmaShape, 4> result;
  for (const MmaShape &s : mmaShapes)
    if (s.kind == kind && s.operand == operand && s.acc == acc)
      result.push_back(s);
  return result;
}

bool TargetInfo::hasShape(InstrKind kind, ElemKind operand, ElemKind acc,
                          int64_t m, int64_t n, int64_t k) const {
  for (const MmaShape &s : findShapes(kind, operand, acc)) {
    if (s.m != m || s.k != k)
      continue;
    // wgmma: N is a multiple of 8 up to the maximum in the table; integer
    // operands take 8, 16, 24 and then multiples of 16 only (PTX ISA,
    // wgmma.mma_async shapes).
    if (kind == InstrKind::wgmma) {
      bool step = operand == ElemKind::i8 && n > 24 ? n % 16 == 0 : n % 8 == 0;
      if (step && n >= 8 && n <= s.n)
        return true;
    } else if (n == s.n) {
      return true;
    }
  }
  return false;
}

const TargetInfo *mlir::gemm::lookupTarget(llvm::StringRef name) {
  for (const TargetInfo &t : targets)
    if (t.name == name)
      return &t;
  return nullptr;
}

llvm::ArrayRef<TargetInfo> mlir::gemm::allTargets() { return targets; }

std::string mlir::gemm::knownTargetNames() {
  std::string s;
  for (const TargetInfo &t : targets) {
    if (!s.empty())
      s += ", ";
    s += t.name.str();
  }
  return s;
}

llvm::StringRef mlir::gemm::stringifyElemKind(ElemKind kind) {
  switch (kind) {
  case E::f16: return "f16";
  case E::bf16: return "bf16";
  case E::f32: return "f32";
  case E::tf32: return "tf32";
  case E::f64: return "f64";
  case E::i8: return "i8";
  case E::i32: return "i32";
  case E::f8E4M3FN: return "f8E4M3FN";
  case E::f8E5M2: return "f8E5M2";
  }
  return "unknown";
}

llvm::StringRef mlir::gemm::stringifyInstrKind(InstrKind kind) {
  switch (kind) {
  case K::simt: return "simt";
  case K::mma_sync: return "mma_sync";
  case K::wgmma: return "wgmma";
  case K::mfma: return "mfma";
  case K::gemv:
    return "gemv";
  }
  return "unknown";
}

unsigned mlir::gemm::elemBytes(ElemKind kind) {
  switch (kind) {
  case E::i8:
  case E::f8E4M3FN:
  case E::f8E5M2:
    return 1;
  case E::f16:
  case E::bf16:
    return 2;
  case E::f32:
  case E::tf32:
  case E::i32:
    return 4;
  case E::f64:
    return 8;
  }
  return 4;
}

bool mlir::gemm::isFloat8(ElemKind kind) {
  return kind == E::f8E4M3FN || kind == E::f8E5M2;
}

std::string mlir::gemm::checkNVIDIATarget(llvm::StringRef chip,
                                          unsigned ptxVersion) {
  const TargetInfo *target = lookupTarget(chip);
  if (!target || !target->isNVIDIA())
    return "unknown NVIDIA chip '" + chip.str() +
           "' (expected one of sm_80, sm_86, sm_89, sm_90, sm_90a)";
  // LLVM ignores a PTX version it does not know (with a warning, emitting
  // its default, too old for sm_90a): refuse here.
  if (ptxVersion != 0 && !llvm::is_contained(knownPtxVersions(), ptxVersion)) {
    std::string known;
    for (unsigned v : knownPtxVersions())
      known += (known.empty() ? "" : ", ") + std::to_string(v);
    return "PTX version " + std::to_string(ptxVersion) +
           " (ptx-version is the ISA version times 10) is not one LLVM 22 "
           "emits (known: " + known + ")";
  }
  // LLVM aborts on a PTX version the chip does not support: refuse here.
  if (ptxVersion != 0 && !choosePtxVersion(*target, ptxVersion))
    return "PTX version " + std::to_string(ptxVersion / 10) + "." +
           std::to_string(ptxVersion % 10) + " is too old for " + chip.str() +
           " (needs at least " + std::to_string(target->minPtxVersion / 10) +
           "." + std::to_string(target->minPtxVersion % 10) + ")";
  return "";
}

llvm::ArrayRef<unsigned> mlir::gemm::knownPtxVersions() {
  // The "ptxNN" features of LLVM 22's NVPTX backend
  // (unittests/TargetInfoTest.cpp compares them with LLVM's own list).
  static const unsigned versions[] = {32, 40, 41, 42, 43, 50, 60, 61, 62,
                                      63, 64, 65, 70, 71, 72, 73, 74, 75,
                                      76, 77, 78, 80, 81, 82, 83, 84, 85,
                                      86, 87, 88, 90};
  return versions;
}

std::string mlir::gemm::checkAMDTarget(llvm::StringRef chip) {
  const TargetInfo *target = lookupTarget(chip);
  if (target && target->isAMD())
    return "";
  std::string names;
  for (const TargetInfo &t : allTargets())
    if (t.isAMD())
      names += (names.empty() ? "" : ", ") + t.name.str();
  return "unknown AMD chip '" + chip.str() + "' (known: " + names + ")";
}

std::optional<unsigned>
mlir::gemm::choosePtxVersion(const TargetInfo &target,
                             std::optional<unsigned> requested) {
  if (!requested)
    // PTX 8.4 brings fp8 mma.sync (sm_89+); 8.0 covers everything else.
    return std::max(target.minPtxVersion, target.archVersion >= 89 ? 84u : 80u);
  if (*requested < target.minPtxVersion)
    return std::nullopt;
  return *requested;
}

//===----------------------------------------------------------------------===//
// Throughput facts (cost model)
//===----------------------------------------------------------------------===//

namespace {
// name, clock GHz, DRAM GB/s, L2 B/clk/SM, smem B/clk/SM, memory latency,
// warps/SM, blocks/SM, f16 matrix FLOP/clk/SM, f32 FMA FLOP/clk/SM, f64
// matrix ratio, f64 FMA ratio. NVIDIA: A100 (sm_80), A40 (sm_86), L40S
// (sm_89); sm_90: the H200, whose f16 mma.sync roof was measured at
// 643 TFLOP/s (2460 FLOP/clk/SM at 1.98 GHz). AMD: MI250X (one GCD), MI300X,
// MI355X; f16 rates are the dense MFMA rates of the data sheets.
const TargetPerf perfTable[] = {
    {"sm_80", 1.41, 2039, 48, 128, 600, 64, 32, 2048, 256, 1.0 / 16, 0.5},
    {"sm_86", 1.74, 696, 32, 128, 600, 48, 16, 1024, 256, 1.0 / 64, 1.0 / 64},
    {"sm_89", 2.52, 864, 32, 128, 600, 48, 24, 1024, 256, 1.0 / 64, 1.0 / 64},
    {"sm_90", 1.98, 4800, 40, 128, 800, 64, 32, 2460, 256, 1.0 / 8, 0.5},
    {"sm_90a", 1.98, 4800, 40, 128, 800, 64, 32, 2460, 256, 1.0 / 8, 0.5},
    {"gfx90a", 1.70, 1638, 64, 128, 700, 32, 32, 1024, 256, 1.0 / 4, 1.0},
    {"gfx942", 2.10, 5300, 64, 128, 700, 32, 32, 2048, 256, 1.0 / 8, 1.0},
    {"gfx950", 2.40, 8000, 64, 160, 700, 32, 32, 4096, 256, 1.0 / 32, 1.0},
};
} // namespace

const TargetPerf *mlir::gemm::lookupTargetPerf(llvm::StringRef chip) {
  for (const TargetPerf &p : perfTable)
    if (p.name == chip)
      return &p;
  return nullptr;
}

double mlir::gemm::peakFlopsPerClkPerSM(const TargetPerf &perf,
                                        InstrKind kind, ElemKind operand) {
  if (kind == InstrKind::simt) {
    switch (operand) {
    case E::f64:
      return perf.simtF32FlopsPerClkPerSM * perf.simtF64Ratio;
    case E::i8:
      // DP4A: four byte products per lane and instruction, at half rate.
      return perf.simtF32FlopsPerClkPerSM * 2;
    default:
      return perf.simtF32FlopsPerClkPerSM;
    }
  }
  double f16 = perf.matrixF16FlopsPerClkPerSM;
  // The table's matrix rate is what mma.sync reaches; wgmma runs at the data
  // sheet's dense rate, 989 TFLOP/s f16 on an H100/H200 SXM, 1.54x the
  // 643 TFLOP/s mma.sync roof measured on the H200 (docs/performance.md).
  if (kind == InstrKind::wgmma)
    f16 *= 989.0 / 643.0;
  switch (operand) {
  case E::tf32:
  case E::f32:
    return f16 / 2;
  case E::f64:
    return f16 * perf.matrixF64Ratio;
  case E::i8:
  case E::f8E4M3FN:
  case E::f8E5M2:
    return f16 * 2;
  default:
    return f16;
  }
}

int64_t mlir::gemm::residentBlocksPerSM(const TargetInfo &target,
                                       int64_t threads,
                                       int64_t dynamicSmemBytes) {
  const TargetPerf *perf = lookupTargetPerf(target.name);
  int64_t warps = std::max<int64_t>(
      (threads + target.warpSize - 1) / target.warpSize, 1);
  int64_t blocks = perf ? std::min<int64_t>(perf->maxBlocksPerSM,
                                            perf->maxWarpsPerSM / warps)
                        : 1;
  // The driver reserves what the SM has beyond a block's maximum, per
  // block (1 KiB on sm_90).
  int64_t reserved = std::max<int64_t>(
      int64_t(target.sharedMemPerSM) - int64_t(target.maxSharedMemPerBlock), 0);
  int64_t perBlock = dynamicSmemBytes + reserved;
  if (perBlock > 0)
    blocks = std::min<int64_t>(blocks, target.sharedMemPerSM / perBlock);
  return std::max<int64_t>(blocks, 1);
}
