//===- TargetInfo.h - The one table of GEMM targets -------------*- C++ -*-===//
//
// Every per-architecture fact the gemm dialect's verifiers, the lowerings and
// the cost model rely on lives in this table: shared memory per block,
// threads, registers, warp/wave size, the matrix instructions available per
// element type, and the minimum PTX version. Nothing else in the project
// hard-codes a chip property; unit tests reach the table directly.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_TARGET_TARGETINFO_H
#define GEMM_TARGET_TARGETINFO_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>

namespace mlir::gemm {

/// The vendor families we generate code for.
enum class Vendor { nvidia, amd };

/// Element types as the hardware tables see them (independent of MLIR types so
/// that the table can be tested and used by a cost model without a context).
enum class ElemKind { f16, bf16, f32, tf32, f64, i8, i32, f8E4M3FN, f8E5M2 };

/// Implementation kinds, mirroring `#gemm.config<kind = ...>`.
enum class InstrKind { simt, mma_sync, wgmma, mfma, gemv };

/// One matrix instruction: `kind` computing an m x n x k product of operands of
/// type `operand` into an accumulator of type `acc`.
struct MmaShape {
  InstrKind kind;
  ElemKind operand;
  ElemKind acc;
  unsigned m, n, k;
  /// Independent blocks per instruction (AMD 4x4x4 16-block forms), else 1.
  unsigned blocks = 1;
};

/// Limits and features of one chip.
struct TargetInfo {
  llvm::StringRef name;        ///< "sm_90", "gfx942", ...
  Vendor vendor;
  unsigned archVersion;        ///< 90 for sm_90, 0x942 for gfx942
  unsigned warpSize;           ///< 32 on NVIDIA, 64 on CDNA
  unsigned maxThreadsPerBlock;
  unsigned maxSharedMemPerBlock; ///< bytes, with the opt-in maximum
  unsigned sharedMemPerSM;       ///< bytes
  unsigned maxRegsPerThread;     ///< architectural VGPRs (+AGPRs on AMD)
  unsigned regsPerSM;            ///< 32-bit registers per SM / CU
  unsigned numSMs;               ///< a representative part (H200: 132)
  unsigned minPtxVersion;        ///< 78 for PTX 7.8; 0 on AMD
  bool hasCpAsync;               ///< cp.async (sm_80+)
  bool hasLdmatrix;              ///< ldmatrix (sm_75+)
  bool hasArchSpecific;          ///< sm_90a-style arch-conditional features
  llvm::ArrayRef<MmaShape> mmaShapes;
  /// Shared-memory / LDS banks of 4 bytes (the bank-conflict model's input).
  unsigned sharedBanks = 32;
  /// Thread-block clusters of s = 1, 2, ... blocks (one block per SM) the
  /// representative part runs at once (cuOccupancyMaxActiveClusters,
  /// scripts/cluster_occupancy.py); empty where clusters do not exist. Not
  /// numSMs / s: a cluster's blocks share a GPC, whose SM counts differ.
  llvm::ArrayRef<int64_t> clusterCapacity;

  bool isNVIDIA() const { return vendor == Vendor::nvidia; }

  bool isAMD() const { return vendor == Vendor::amd; }
  /// True if `kind` is usable on this target at all.
  bool supportsKind(InstrKind kind) const;
  /// The instruction shapes of `kind` for `operand` accumulating into `acc`.
  llvm::SmallVector<MmaShape, 4> findShapes(InstrKind kind, ElemKind operand,
                                            ElemKind acc) const;
  /// True if the exact shape exists.
  bool hasShape(InstrKind kind, ElemKind operand, ElemKind acc, int64_t m,
                int64_t n, int64_t k) const;
};

/// Looks a chip up by name; nullopt if unknown.
const TargetInfo *lookupTarget(llvm::StringRef name);
/// All chips in the table, in a stable order.
llvm::ArrayRef<TargetInfo> allTargets();
/// Comma-separated list of known chip names, for diagnostics.
std::string knownTargetNames();

llvm::StringRef stringifyElemKind(ElemKind kind);
llvm::StringRef stringifyInstrKind(InstrKind kind);
/// Size in bytes of one element (tf32 is stored as 4 bytes).
unsigned elemBytes(ElemKind kind);
bool isFloat8(ElemKind kind);

/// Checks `chip` names an NVIDIA target and `ptxVersion` (0: the default) is
/// a version LLVM emits that the chip takes; returns an error message, or ""
/// when both are fine.
std::string checkNVIDIATarget(llvm::StringRef chip, unsigned ptxVersion);

/// The PTX ISA versions (times 10) the NVPTX backend we build with emits.
llvm::ArrayRef<unsigned> knownPtxVersions();

/// Checks `chip` names an AMD target; returns an error message, or "".
std::string checkAMDTarget(llvm::StringRef chip);

/// Resolves the PTX version to use for `target`: `requested` if given and
/// valid (>= the chip's minimum), else the chip's minimum. Returns nullopt if
/// the requested version is too old for the chip.
std::optional<unsigned> choosePtxVersion(const TargetInfo &target,
                                         std::optional<unsigned> requested);

/// Throughput and latency facts of a chip, for the cost model: nominal values
/// from the vendors' data sheets for a representative part, and for the
/// Hopper entries the rates measured on an H200 (docs/performance.md).
struct TargetPerf {
  llvm::StringRef name;           ///< chip, as in TargetInfo::name
  double clockGHz;                ///< sustained SM clock
  double dramGBps;                ///< DRAM bandwidth
  double l2BytesPerClkPerSM;      ///< L2 -> SM bandwidth per SM
  double smemBytesPerClkPerSM;    ///< shared-memory bandwidth per SM
  unsigned memLatencyCycles;      ///< global load latency (L2 hit / miss mix)
  unsigned maxWarpsPerSM;         ///< resident warps (wavefronts) per SM / CU
  unsigned maxBlocksPerSM;        ///< resident blocks per SM / CU
  double matrixF16FlopsPerClkPerSM; ///< dense f16 matrix instructions
  double simtF32FlopsPerClkPerSM;   ///< FMA on the vector units
  double matrixF64Ratio;          ///< f64 matrix rate / f16 matrix rate
  double simtF64Ratio;            ///< f64 FMA rate / f32 FMA rate
};

/// The perf entry of `chip`; null if unknown.
const TargetPerf *lookupTargetPerf(llvm::StringRef chip);

/// Blocks of `threads` threads and `dynamicSmemBytes` bytes of dynamic
/// shared memory (plus the driver's reservation per block) that one SM of
/// `target` holds at once, by threads, blocks and shared memory (registers,
/// known only to ptxas, are not counted); at least 1.
int64_t residentBlocksPerSM(const TargetInfo &target, int64_t threads,
                            int64_t dynamicSmemBytes);

/// Peak FLOP per clock per SM of `kind` on `operand` elements.
double peakFlopsPerClkPerSM(const TargetPerf &perf, InstrKind kind,
                            ElemKind operand);

} // namespace mlir::gemm

#endif // GEMM_TARGET_TARGETINFO_H
