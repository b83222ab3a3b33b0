//===- MfmaLayout.h - AMD MFMA lane maps and the LDS bank model -*- C++ -*-===//
//
// The AMD side of the index math, kept next to FragmentLayout.h:
//
//  - which element of which block of an MFMA operand each lane of a 64-lane
//    wave holds in each register slot (AMD's CDNA ISA guides and Matrix
//    Instruction Calculator; unittests/MfmaLayoutTest.cpp checks every lane
//    and slot against the calculator's tables in unittests/data/mfma), and
//    the GEMM tile the lowering builds from an instruction's blocks;
//  - an LDS bank-conflict model (a simulator of the banks over the lanes of
//    one wave access) and the LDS layout policy built on it: plain, padded
//    (by how much) or XOR-swizzled, chosen per chip, element size and access
//    pattern rather than "always pad by one".
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_UTILS_MFMALAYOUT_H
#define GEMM_UTILS_MFMALAYOUT_H

#include "gemm/Target/TileConfig.h"
#include "gemm/Utils/FragmentLayout.h"
#include "llvm/ADT/ArrayRef.h"
#include <optional>
#include <vector>

namespace mlir::gemm {

/// Lanes of a CDNA wave.
inline constexpr unsigned kMfmaWaveSize = 64;

/// Register slots (elements) per lane of operand `which` of `shape`: A holds
/// m*k*blocks/64 elements, B k*n*blocks/64, C/D m*n*blocks/64.
unsigned mfmaSlotsPerLane(const MmaShape &shape, MmaOperand which);

/// One element of an MFMA operand as the instruction sees it: (row, col) of
/// block `block` (A: (i, k), B: (k, j), C/D: (i, j)).
struct MfmaElement {
  Coord coord;
  unsigned block = 0;
};

/// The element that slot `slot` of lane `lane` holds (AMD's tables).
MfmaElement mfmaFragmentElement(const MmaShape &shape, MmaOperand which,
                                unsigned lane, unsigned slot);

/// The instruction as a GEMM tile: an m x (n * blocks) x k product whose
/// blocks sit side by side along N (every block reads the same A). Returns the
/// operand-space coordinate of slot `slot` of lane `lane` in that tile: (m, k)
/// for A, (k, n) for B, (m, n) for C.
Coord mfmaTileCoord(const MmaShape &shape, MmaOperand which, unsigned lane,
                    unsigned slot);

/// One lane-dependent term of a coordinate: ((lane / div) % mod) * scale.
struct LaneTerm {
  int64_t div, mod, scale;
  int64_t at(unsigned lane) const { return (lane / div) % mod * scale; }
};

/// mfmaTileCoord written the way the lowering emits it: for one slot,
/// row = base.row + sum(rowTerms), col = base.col + sum(colTerms), each term
/// a function of the lane. Unit tests check it against mfmaTileCoord on
/// every lane and slot.
struct MfmaLaneAffine {
  Coord base;
  llvm::SmallVector<LaneTerm, 2> rowTerms, colTerms;
  Coord at(unsigned lane) const;
};
MfmaLaneAffine mfmaLaneAffine(const MmaShape &shape, MmaOperand which,
                              unsigned slot);

/// The MFMA shapes the AMD lowering implements (those whose lane maps are
/// tested against AMD's tables) for `operand` on `target`, best first.
llvm::SmallVector<MmaShape, 4> mfmaLoweredShapes(const TargetInfo &target,
                                                 ElemKind operand);
/// True if the lowering implements `shape`.
bool isMfmaShapeLowered(const MmaShape &shape);

/// The MFMA instruction of `target`'s table that is exactly m x n x k for
/// `operand` accumulating in `acc` (with its block count); nullopt if the
/// target has none.
std::optional<MmaShape> findMfmaShape(const TargetInfo &target,
                                      ElemKind operand, ElemKind acc,
                                      int64_t m, int64_t n, int64_t k);

//===----------------------------------------------------------------------===//
// LDS bank model
//===----------------------------------------------------------------------===//

/// Cycles one wave access takes: every active lane reads or writes `bytes`
/// bytes at its byte address. The banks (`banks` of 4 bytes) serve
/// banks * 4 / bytes lanes per cycle; within such a phase, distinct dwords
/// that map to one bank serialize (the same dword is broadcast).
int64_t ldsAccessCycles(llvm::ArrayRef<int64_t> laneByteAddress,
                        unsigned bytes, unsigned banks);

/// One kind of LDS access of a wave to a staged tile, in storage
/// coordinates: lane i touches `bytes`-wide data starting at (rows[i],
/// cols[i]); it happens `count` times per k-tile.
struct LdsAccessPattern {
  std::vector<int64_t> rows, cols;
  unsigned bytes;
  int64_t count = 1;
};

/// A staged tile: `rows` x `cols` elements of `elemBytes` bytes.
struct LdsTileShape {
  int64_t rows, cols;
  unsigned elemBytes;
};

/// A layout of a staged tile: plain, padded by `padElems` per row, or the
/// 16-byte-chunk XOR swizzle.
struct LdsLayout {
  SmemKind kind = SmemKind::plain;
  int64_t padElems = 0;
};

/// Element offset of storage (row, col) in `tile` laid out as `layout`.
int64_t ldsOffset(const LdsTileShape &tile, const LdsLayout &layout,
                  int64_t row, int64_t col);

/// The widest access (bytes, a power of two <= `bytes`) that stays aligned
/// for every row of `tile` under `layout`: a padded row pitch that is not a
/// multiple of the natural width splits the access.
unsigned ldsAccessWidth(const LdsTileShape &tile, const LdsLayout &layout,
                        unsigned bytes);

/// Modelled LDS cycles per k-tile of all `accesses` to `tile` under `layout`
/// (wide accesses split as ldsAccessWidth says).
int64_t ldsLayoutCycles(const LdsTileShape &tile, const LdsLayout &layout,
                        llvm::ArrayRef<LdsAccessPattern> accesses,
                        unsigned banks);

/// Bytes per chunk of the global-to-LDS copy of `tile`: 16, halved until a
/// stored row is a whole number of chunks (the lowering and the model both
/// use it).
unsigned ldsCopyChunkBytes(const LdsTileShape &tile);

/// The layouts the policy considers for `tile`: plain; padding by one
/// element and by 4, 8 and 16 bytes; the swizzle where rows are whole 16-byte
/// chunks.
std::vector<LdsLayout> ldsCandidateLayouts(const LdsTileShape &tile);

/// The cheapest layout for `accesses` under the model; ties go to the
/// smaller footprint and then to plain over swizzle (fewer instructions).
/// With `kind` set, only layouts of that kind are considered (to pick the
/// padding of a config that asks for `pad`).
LdsLayout chooseLdsLayout(const LdsTileShape &tile,
                          llvm::ArrayRef<LdsAccessPattern> accesses,
                          unsigned banks,
                          std::optional<SmemKind> kind = std::nullopt);

/// The accesses of the AMD kernel to one staged operand tile: the 16-byte
/// chunk stores of the global-to-LDS copy by the first wave (`threads`
/// threads share the tile) and the MFMA fragment reads of wave 0 for a wave
/// tile of `waveTileMN` rows of M (A) or columns of N (B).
std::vector<LdsAccessPattern>
mfmaLdsAccesses(const MmaShape &shape, MmaOperand which, bool kContiguous,
                const LdsTileShape &tile, int64_t threads, int64_t waveTileMN);

/// The staging of one AMD GEMM block tile, as the LDS policy sees it.
struct MfmaTileProblem {
  MmaShape shape;
  bool aKContiguous, bKContiguous; ///< K innermost in A's / B's LDS tile
  int64_t bm, bn, bk;
  unsigned elemBytes;
  int64_t threads, waveM, waveN; ///< threads per block, wave tile
  unsigned banks;
};

/// The LDS policy's view of the mfma `config` for `sig` on `target` (whose
/// table must have the config's instruction).
MfmaTileProblem getMfmaTileProblem(const TileConfig &config,
                                   const GemmSignature &sig,
                                   const TargetInfo &target);

/// The LDS layouts of A's and B's tiles for a layout kind: the kind itself
/// for plain and swizzle, the model's best padding (per tile) for pad.
std::pair<LdsLayout, LdsLayout> mfmaLdsLayouts(const MfmaTileProblem &p,
                                               SmemKind kind);

/// The layout kind the bank model prefers over both tiles (strictly
/// cheaper wins; ties go to plain, then swizzle, then pad).
SmemKind chooseMfmaLdsKind(const MfmaTileProblem &p);

/// Modelled LDS cycles per k-tile of both tiles under `kind`.
int64_t mfmaLdsCycles(const MfmaTileProblem &p, SmemKind kind);

} // namespace mlir::gemm

#endif // GEMM_UTILS_MFMALAYOUT_H
