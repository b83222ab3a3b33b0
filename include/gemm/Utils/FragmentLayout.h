//===- FragmentLayout.h - lane maps, ldmatrix and swizzles ------*- C++ -*-===//
//
// The index math that silent wrong answers come from, in one place:
//
//  - which (row, col) element of an mma.sync operand tile each lane holds in
//    each register (PTX ISA, "Matrix Fragments for mma.m16n8k*"),
//  - which shared-memory rows the lanes of an ldmatrix address so that the
//    registers it returns are exactly those fragments,
//  - the 16-byte-chunk XOR swizzle of shared tiles.
//
// The functions are plain C++ so that unit tests can check them exhaustively
// (every lane, register and element) and the lowering emits the same maps as
// affine functions of (lane / 4, lane % 4) whose coefficients it reads off
// these functions.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_UTILS_FRAGMENTLAYOUT_H
#define GEMM_UTILS_FRAGMENTLAYOUT_H

#include "gemm/Target/TargetInfo.h"
#include <array>
#include <cstdint>
#include <optional>

namespace mlir::gemm {

/// The three operands of an MMA: A is M x K, B is K x N, C is M x N.
enum class MmaOperand { A, B, C };

/// A coordinate in operand space: (m, k) for A, (k, n) for B, (m, n) for C.
struct Coord {
  int64_t row = 0, col = 0;
  bool operator==(const Coord &o) const { return row == o.row && col == o.col; }
  Coord operator+(const Coord &o) const { return {row + o.row, col + o.col}; }
  Coord operator-(const Coord &o) const { return {row - o.row, col - o.col}; }
  Coord operator*(int64_t s) const { return {row * s, col * s}; }
};

/// The per-lane register fragment of an operand, as nvgpu.mma.sync types it:
/// vector<regs x elemsPerReg x T>.
struct FragmentShape {
  unsigned regs, elemsPerReg;
};

/// The mma.sync instruction shape [m, n, k] used for an operand element kind
/// (f16/bf16: m16n8k16, tf32: m16n8k8, i8/f8: m16n8k32, f64: m8n8k4).
std::optional<std::array<unsigned, 3>> mmaSyncShape(ElemKind operand);

/// Fragment shape of `which` for an mma.sync on `operand`-typed inputs.
std::optional<FragmentShape> mmaSyncFragmentShape(ElemKind operand,
                                                  MmaOperand which);

/// Operand-space coordinate of element `elem` of register `reg` in lane
/// `lane` (PTX ISA fragment tables).
Coord mmaSyncFragmentCoord(ElemKind operand, MmaOperand which, unsigned lane,
                           unsigned reg, unsigned elem);

/// A lane map written as base + (lane / 4) * perGroup + (lane % 4) * perThread.
struct AffineLaneMap {
  Coord base, perGroup, perThread;
  Coord at(unsigned lane) const {
    return base + perGroup * (lane / 4) + perThread * (lane % 4);
  }
};

/// The fragment map of (reg, elem) as an affine function of the lane. Every
/// mma.sync map is affine in (lane / 4, lane % 4); unit tests check this
/// reading against mmaSyncFragmentCoord on every lane.
AffineLaneMap mmaSyncFragmentAffine(ElemKind operand, MmaOperand which,
                                    unsigned reg, unsigned elem);

/// ldmatrix: elements of 16 bytes per row, 8 rows per matrix. `kContiguous`
/// means the shared tile stores K innermost ([m][k] for A, [n][k] for B);
/// otherwise it stores [k][m] / [k][n] and the load transposes (b16 only).
/// Returns false if ldmatrix cannot produce this fragment.
bool canUseLdmatrix(ElemKind operand, MmaOperand which, bool kContiguous);

/// Storage coordinate (row, col) of the first row of the 8-row matrix that
/// fills register `reg` of the fragment, relative to the operand tile origin.
/// Storage coordinates are (m, k) / (n, k) when kContiguous, else (k, m) /
/// (k, n).
Coord ldmatrixMatrixOrigin(ElemKind operand, MmaOperand which,
                           bool kContiguous, unsigned reg);

/// Simulates ldmatrix: the storage coordinate (relative to the matrix origin)
/// of element `elem` of the 32-bit register a lane receives. `elemsPer32b` is
/// the number of elements per 32-bit register.
Coord ldmatrixElementInMatrix(unsigned lane, unsigned elem,
                              unsigned elemsPer32b, bool transpose);

/// True if an operand tile is stored transposed relative to operand space:
/// A (m, k) is stored (k, m) unless K-contiguous; B (k, n) is stored (n, k)
/// when K-contiguous.
bool storageTransposes(MmaOperand which, bool kContiguous);

/// Converts a storage coordinate of an operand tile into operand space.
Coord storageToOperand(MmaOperand which, bool kContiguous, Coord storage);

/// 16-byte-chunk XOR swizzle of a shared tile stored row-major with
/// `rowElems` elements of `elemBytes` bytes per row: the element offset of
/// (row, col). For rows of 128 bytes or more, chunk j of row r moves to
/// j ^ (r % 8) within its 128-byte segment; narrower rows are numbered
/// linearly and chunk j of 128-byte line l moves to j ^ (l % 8). Rows of any
/// multiple of 16 bytes are supported; the map is a permutation of chunks that
/// keeps elements inside their chunk.
int64_t swizzledOffset(int64_t row, int64_t col, int64_t rowElems,
                       unsigned elemBytes);

/// The unswizzled (plain row-major, optionally padded) offset.
int64_t plainOffset(int64_t row, int64_t col, int64_t rowElems);

//===----------------------------------------------------------------------===//
// wgmma (sm_90a)
//===----------------------------------------------------------------------===//

/// Operand-space (m, n) coordinate of accumulator element `index` held by
/// thread `thread` (0..127) of a warpgroup after wgmma.mma_async m64nNk*:
/// warp w owns rows 16w .. 16w+15; element i lies in the 8-column block i / 4
/// and, inside it, like element i % 4 of an mma.sync m16n8 accumulator (PTX
/// ISA, "Matrix fragments for wgmma.mma_async .m64nNk*", register fragment D).
Coord wgmmaAccumulatorCoord(unsigned thread, unsigned index);

/// The operand kinds the wgmma kernels take: f16/bf16/tf32/f8 accumulating
/// in f32, i8 in i32 (the types checkWgmmaConfig and the tuning lattice
/// admit).
bool wgmmaLowersTypes(ElemKind operand, ElemKind acc);

/// True if the wgmma kernels read `operand` tiles MN-major as well (16-bit
/// types); the others are read K-major only (layout tn).
bool wgmmaReadsMNMajor(ElemKind operand);

/// The widest wgmma N whose f8 kernels promote their partial sums (below).
constexpr int64_t kWgmmaPromotedMaxN = 192;

/// True if a wgmma kernel of `operand` tiles with instruction N `n` promotes
/// its partial sums into f32 registers every k-tile: f8, whose wgmma
/// accumulator keeps fewer bits than f32 (its error grows with K), when the
/// accumulators fit twice in registers (the f32 sum and the partial sum):
/// N <= 192 (m64n192: 192 registers a thread, which two compute
/// warpgroups' 232 hold). A wider f8 tile accumulates in the tensor cores alone
/// (cuBLASLt's "fast accumulation").
bool wgmmaPromotesPartialSums(ElemKind operand, int64_t n);

/// K elements a promoted partial sum covers where the registers allow
/// (wgmmaPromotionKTiles): 256, twice CUTLASS's interval, for 1.2x the
/// error of a partial sum per 128 and far fewer stalls.
constexpr int64_t kWgmmaPromotionK = 256;

/// k-tiles of `bk` elements per promoted partial sum, for a kernel of
/// `stages` stages and `warpgroups` compute warpgroups: kWgmmaPromotionK /
/// bk when that is a whole number above one, the stages allow one group of
/// MMAs in flight (3 or more) and the warpgroups at most 2 (a partial sum
/// in flight across the main loop's barriers and copies needs more than
/// the 152 registers three compute warpgroups get: ptxas spilled 420
/// bytes); else 1 (a partial sum per k-tile).
int64_t wgmmaPromotionKTiles(int64_t bk, int64_t stages, int64_t warpgroups);

/// Bytes of one row of a 128-byte-swizzled wgmma operand tile (the swizzle
/// atom: 8 rows of 128 bytes, 1024-byte aligned).
constexpr int64_t kWgmmaSwizzleBytes = 128;

/// The constant part of a wgmma shared-memory matrix descriptor for the
/// 128-byte swizzle: leading and stride byte offsets (bits 16-29 and 32-45,
/// in 16-byte units) and the swizzle mode (bits 62-63 = 1). The start address
/// (bits 0-13: (shared address & 0x3FFFF) >> 4) is added at run time; the
/// base offset (bits 49-51) is 0 because every tile is 1024-byte aligned.
/// For K-major operands the leading offset is unused (1 by convention) and
/// the stride offset is 1024 (eight 128-byte rows); for MN-major operands,
/// stored as panels of (128 / element bytes) columns, the
/// leading offset is the panel stride and the stride offset 1024 (eight
/// K rows).
uint64_t wgmmaDescriptorBits(int64_t leadingBytes, int64_t strideBytes);

/// Element offset of storage coordinate (row, col) in an MN-major wgmma tile
/// of `rows` K-rows: the MN columns are cut into panels of 128 bytes, stored
/// one after the other, each a row-major `rows` x (128 / elemBytes) tile with
/// the 128-byte swizzle of swizzledOffset. The descriptor's leading byte
/// offset is then the panel size, rows * 128 bytes.
int64_t wgmmaPanelOffset(int64_t row, int64_t col, int64_t rows,
                         unsigned elemBytes);

//===----------------------------------------------------------------------===//
// gemv on mma.sync
//===----------------------------------------------------------------------===//

/// gemv-mma (lib/Conversion/GemmToNVGPU/GemvMma.cpp) feeds 16-bit m16n8k16
/// straight from 16-byte loads: in each 32-element stretch of K a warp reads,
/// lane l holds elements 8 (l % 4) .. 8 (l % 4) + 7 of its rows (as mma
/// fragments place rows: lane / 4, and lane / 4 + 8 for A). A dot product
/// does not depend on the order of K, so the stretch feeds two instructions
/// (`step` 0 and 1) whose K is a permutation of it, the same for both
/// operands. Returns the element of the lane's chunk that element (reg,
/// elem) of its `which` (A or B) fragment takes in `step`: logical k of the
/// instruction (0..15) comes from chunk element 4 step + 2 (k / 8) + k % 2
/// of the lane whose l % 4 is (k % 8) / 2, which is the lane the fragment
/// puts k in.
unsigned gemvMmaChunkElement(MmaOperand which, unsigned reg, unsigned elem,
                             unsigned step);

/// gemv-mma on a B stored K x N (nn, nt): a lane loads, for each of the 8
/// k rows of its chunk, 2 P consecutive columns of B (P = the tiles a load
/// feeds, gemvMmaColumnTilesPerLoad), and column pair j of the load (2 j,
/// 2 j + 1) is row l / 4 and row l / 4 + 8 (`half` 0 and 1) of 16-row
/// instruction tile j of the load's P. Returns the column of the block's
/// tile that row `group` + 8 `half` of 16-row tile `tile` holds: (tile / P)
/// 16 P + 2 P group + 2 (tile % P) + half. Each load then reads 2 P
/// consecutive columns from a multiple of 2 P, and the 16 `tiles` x 16
/// columns are each held once.
int64_t gemvMmaColumn(int64_t tile, int64_t group, int64_t half,
                      int64_t tilesPerLoad);

/// The tiles one load of gemvMmaColumn feeds for `tiles` 16-row tiles a
/// block: the largest of 4, 2 and 1 that divides `tiles` (a load of 2 P
/// 16-bit elements is at most 16 bytes).
int64_t gemvMmaColumnTilesPerLoad(int64_t tiles);

/// The transposing copy (Pack.cpp) stages a tile of `rows` source rows by
/// 8 `vecElems` source columns (`vecElems` elements a 16-byte vector)
/// transposed in shared memory: source column `col` is staged row `col`,
/// `rows` elements. A thread writes the vector it loaded (`vecElems`
/// columns of one source row) element by element, 8 threads a source row
/// and a warp 4 source rows from a multiple of 4; it then loads 16-byte
/// chunk `run` of a staged row for its 16-byte store. Returns the element
/// offset of source element (row, col): staged row col, chunk (row /
/// vecElems) ^ (col / vecElems), element row % vecElems of it. The XOR
/// spreads a warp's stores over all banks (the 8 threads of a source row
/// write 8 staged rows, each its own chunk) and keeps each 8 consecutive
/// lanes' chunks of one staged row distinct (a 16-byte load is served 8
/// lanes at a time).
int64_t transposeStagingOffset(int64_t row, int64_t col, int64_t rows,
                               int64_t vecElems);

/// Shared-memory bank (4-byte banks, 32 of them) of a byte address.
inline unsigned smemBank(int64_t byteAddress) {
  return static_cast<unsigned>((byteAddress / 4) % 32);
}

} // namespace mlir::gemm

#endif // GEMM_UTILS_FRAGMENTLAYOUT_H
