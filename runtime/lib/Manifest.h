//===- Manifest.h - manifest.json, validated ---------------------*- C++
//-*-===//
//
// The launch facts gemm-write-artifacts records (docs/passes.md,
// docs/dispatch.md "The manifest"), read into plain structs once, at load:
// every key the runtime uses is checked for presence and type, and an error
// names the entry and the key. The families and the dispatch rules
// (chooseEntry, splitSlices) are those of include/gemm/Tuning/Dispatch.h and
// python/gemm_mlir/dispatch.py.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_RUNTIME_MANIFEST_H
#define GEMM_RUNTIME_MANIFEST_H

#include "gemm-c/Runtime.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gemm::rt {

enum class Broadcast { None, Scalar, Row, Col, Full };

struct Param {
  std::string name;
  bool isMemRef = true;
  GemmRtDType type = GEMM_RT_DTYPE_INVALID;
  int32_t rank = 0;
  std::vector<int64_t> shape; // -1: dynamic
  Broadcast broadcast = Broadcast::None;

  bool operator==(const Param &o) const {
    return name == o.name && isMemRef == o.isMemRef && type == o.type &&
           rank == o.rank && shape == o.shape && broadcast == o.broadcast;
  }
};

/// The bounds of a "when": m, n, k, batch, blocks, each _min and _max.
enum BoundSize { kM, kN, kK, kBatch, kBlocks, kNumBoundSizes };

struct When {
  std::array<std::optional<int64_t>, kNumBoundSizes> min, max;
  /// "a_aligned", "b_aligned": holds when A (B) allows 16-byte copies
  /// (vectorCopiesOk) exactly when the value is true.
  std::array<std::optional<bool>, 2> aligned;
  /// "whole_tiles": holds when whether M and N are multiples of the
  /// kernel's tile_m and tile_n is the value.
  std::optional<bool> wholeTiles;
  /// "wave_fit": {"wave", "versus": [tile_m, tile_n], "weight",
  /// "versus_weight"}: holds when weight * ceil(blocks / wave) <=
  /// versus_weight * ceil(versus_blocks / wave), blocks of the kernel's tile
  /// and versus_blocks of the versus tile (docs/dispatch.md).
  struct WaveFit {
    int64_t wave = 1, weight = 1, versusWeight = 1;
    std::array<int64_t, 2> versus{1, 1};
  };
  std::optional<WaveFit> waveFit;
};

struct SplitK {
  int64_t max = 1;
  int64_t fillBlocks = 0;
  int64_t minKPerSlice = 1;
  /// "cluster_capacity": clusters of s = 1, 2, ... blocks the GPU runs at
  /// once; the slices are at most the largest s with blocks <=
  /// capacity[s - 1] (non-increasing).
  std::vector<int64_t> clusterCapacity;
  /// "reduction": "cluster": the GEMM kernel adds the slices itself, in
  /// clusters of (1, slices, 1) blocks; no workspace, no reduction kernel
  /// (the fields below are unused).
  bool cluster = false;
  /// "reduction": "fixup": only the tiles of the grid's last partial wave
  /// are split (fixupSplit); the GEMM kernel adds the slices itself through
  /// a workspace [planes][slices][tile_m][tile_n] of workspaceType and one
  /// i32 flag per plane, zeroed before the launch (no reduction kernel).
  /// blocksPerSM: the kernel's blocks an SM holds (a wave is the device's
  /// SMs times this); sms: the compile-time target's SMs, for a module
  /// loaded parse-only.
  bool fixup = false;
  int64_t blocksPerSM = 1, sms = 1;
  GemmRtDType workspaceType = GEMM_RT_DTYPE_INVALID;
  std::string reduceName;
  std::array<uint32_t, 3> reduceBlock{};
  /// "reduce.group_outputs": the reduction's threads of a row are slice
  /// groups only while batch * M * N <= this * slices; 0 (absent, older
  /// manifests): no bound.
  int64_t reduceGroupOutputs = 0;
  std::vector<Param> reduceParams;
};

struct PackOperand {
  std::string kernel;
  /// 0 for A, 1 for B.
  int operand = 0;
  /// Packed whatever its alignment (its own "when"; the record's without).
  bool always = false;
  /// Copied transposed ("transpose", manifests since 2026-12-02; always
  /// packed): the workspace holds the operand's last two dimensions swapped
  /// (roundUpDims counts the workspace's), the GEMM kernel reads it at the
  /// swapped logical sizes with the workspace's strides, and the kernel is
  /// launched on tiles of tile[0] x tile[1] workspace elements: x =
  /// min(ceil(rows' / tile[0]) * ceil(cols' / tile[1]), max_blocks), y = 1,
  /// z = batch.
  bool transpose = false;
  std::array<int64_t, 2> tile{};
  std::vector<int32_t> roundUpDims;
};

/// A `load = tma` kernel's tensor map of operand A (0) or B (1): the box,
/// one entry per dimension of the operand, outermost first (TensorMap.h).
/// The kernel takes the maps' device addresses after its params.
struct TensorMap {
  int operand = 0;
  std::vector<int64_t> box;
};

struct Pack {
  bool always = false;
  /// "each_operand" (manifests since 2026-12-01): each operand is packed by
  /// its own rule; without it (false), both whenever either has to be.
  bool eachOperand = false;
  int64_t multiple = 1;
  int64_t roundTo = 1;
  std::optional<int64_t> minWork, maxDirectK;
  /// "max_direct_outputs" (manifests since 2026-12-04, with min_work): the
  /// GEMM is small only while batch * M * N is at most this too.
  std::optional<int64_t> maxDirectOutputs;
  /// "min_gemm_work" (the same manifests, with min_work): and M * N * K of
  /// one GEMM of the batch below this.
  std::optional<int64_t> minGemmWork;
  /// "sector_multiple" and "sector_min_intensity" (manifests since
  /// 2026-12-07, both or neither; 0: none): an operand that allows 16-byte
  /// copies but whose first element's address or outer strides are not
  /// multiples of sectorMultiple elements is packed as well when the GEMM
  /// is compute-bound, min(M, 2^30) * min(N, 2^30) >= sectorMinIntensity *
  /// (min(M, 2^30) + min(N, 2^30)) (Pack.cpp).
  int64_t sectorMultiple = 0, sectorMinIntensity = 0;
  std::array<uint32_t, 3> block{};
  int64_t warpElements = 1;
  /// The grid rule: with max_blocks (manifests since 2026-12-01), x =
  /// min(ceil(rows * ceil(cols / warp_elements) * 32 / block.x), max_blocks),
  /// y = 1; without, x = ceil(ceil(cols / warp_elements) * 32 / block.x),
  /// y = min(rows, 65535).
  std::optional<int64_t> maxBlocks;
  /// The operands that may be packed, A before B (one or both; both without
  /// eachOperand).
  std::vector<PackOperand> operands;
};

struct KernelEntry {
  size_t index = 0; // in "kernels"
  std::string name, module, chip, layout, function, rule, config;
  int64_t gemm = 0;
  std::array<uint32_t, 3> block{};
  int64_t dynamicSharedMemory = 0;
  int64_t tileM = 1, tileN = 1;
  bool batched = false;
  /// A persistent kernel (grid.persistent): grid.x = min(batch * tiles,
  /// the device's SMs), grid.z = 1; each block walks its tiles.
  bool persistent = false;
  /// Blocks a cluster of the kernel (its cluster shape is compiled in,
  /// `multicast`): grid.x rounded up to a multiple of this.
  int64_t clusterX = 1;
  /// The entry's kernels (pack, GEMM, reduction) wait on griddepcontrol
  /// before touching memory: launch them with programmatic stream
  /// serialization (docs/dispatch.md).
  bool programmaticLaunch = false;
  std::vector<Param> params; // as the kernel takes them (workspace last)
  When when;
  std::optional<SplitK> split;
  std::optional<Pack> pack;
  std::vector<TensorMap> tensorMaps;

  /// A split-K entry with a workspace and a reduction kernel (not
  /// `reduction = cluster`).
  bool hasReduceKernel() const {
    return split && !split->cluster && !split->fixup;
  }
  /// A `reduction = fixup` entry: the workspace and flags are its last two
  /// parameters.
  bool fixesUp() const { return split && split->fixup; }
  /// The parameters after the launch operands (workspace, flags).
  size_t internalParams() const {
    return hasReduceKernel() ? 1 : fixesUp() ? 2 : 0;
  }
  /// A split-K entry launched in clusters of (1, slices, 1) blocks.
  bool launchesClusters() const { return split && split->cluster; }
};

struct ObjectEntry {
  std::string module, chip, format;
  /// The file to load: the manifest's, or a .cubin of the same stem.
  std::string path;
  bool isBinary = false; // cubin (or another "bin") rather than assembly
};

struct Family {
  std::string name, function;
  int64_t gemm = 0;
  std::vector<size_t> members; // indices into Manifest::kernels
  /// The launch operands: the members' params less the split-K workspace.
  std::vector<Param> params;
  std::string layout, chip;
};

struct Manifest {
  std::string directory, path;
  std::vector<ObjectEntry> objects;
  std::vector<KernelEntry> kernels;
  std::vector<Family> families;
};

/// Reads all of `path` into `bytes`. A path that is not a regular file
/// (after symbolic links: a FIFO blocks the open, a device like /dev/zero
/// never ends) is refused; `why` says what went wrong.
bool readRegularFile(const std::string &path, std::string &bytes,
                     std::string &why);

/// Reads and validates DIR/manifest.json (and that the binaries it names
/// exist). On failure returns false with `error` naming the file, the entry
/// and the key.
bool loadManifest(const std::string &directory, Manifest &manifest,
                  std::string &error);

/// batch * ceil(m / tileM) * ceil(n / tileN), negative sizes as 0,
/// saturating at INT64_MAX (countBlocks in Dispatch.cpp).
int64_t countBlocks(int64_t m, int64_t n, int64_t batch, int64_t tileM,
                    int64_t tileN);
/// Whether A and B allow 16-byte copies (a 16-byte aligned first element,
/// an inner stride of 1, outer strides of whole 16 bytes).
struct Alignment {
  bool a = true, b = true;
};
bool whenHolds(const KernelEntry &entry, int64_t m, int64_t n, int64_t k,
               int64_t batch, Alignment align = {});
/// The index in `family.members` of the member that runs: the first whose
/// "when" holds, the last if none does.
size_t chooseEntry(const Manifest &manifest, const Family &family, int64_t m,
                   int64_t n, int64_t k, int64_t batch, Alignment align = {});
/// The K slices `entry` runs (1 without split_k; a fix-up entry's tail
/// tiles' on `multiprocessors` SMs, fixupSplit).
int64_t splitSlices(const KernelEntry &entry, int64_t m, int64_t n, int64_t k,
                    int64_t batch, int64_t multiprocessors = 0);

/// A `reduction = fixup` entry's split for these sizes on a device of
/// `multiprocessors` SMs (0: the manifest's): the tail's tiles (batch *
/// tiles mod the wave's blocks; 0 when that is 0 or gets one slice) and
/// their slices (SplitK's rule over the tail's tiles with fill_blocks =
/// the wave's blocks; 1 when the tail is empty). grid.x = tiles - tail +
/// tail * slices.
struct FixupSplit {
  int64_t tail = 0, slices = 1;
};
FixupSplit fixupSplit(const KernelEntry &entry, int64_t m, int64_t n,
                      int64_t k, int64_t batch, int64_t multiprocessors);

/// "sm_90a" -> {9, 0, true}; false if `chip` is no NVIDIA chip name.
bool parseSmChip(const std::string &chip, int &major, int &minor,
                 bool &archSpecific);

} // namespace gemm::rt

#endif // GEMM_RUNTIME_MANIFEST_H
