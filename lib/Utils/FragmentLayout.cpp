//===- FragmentLayout.cpp - lane maps, ldmatrix and swizzles --------------===//
//
// Fragment tables from the PTX ISA (section "Matrix Fragments for mma.m16n8k16
// with floating point type", "... m16n8k8 .tf32", "... m16n8k32 .s8",
// "... m8n8k4 .f64"); g = lane / 4 ("groupID"), c = lane % 4
// ("threadID_in_group").
//
//===----------------------------------------------------------------------===//

#include "gemm/Utils/FragmentLayout.h"
#include <cassert>

using namespace mlir::gemm;

std::optional<std::array<unsigned, 3>> mlir::gemm::mmaSyncShape(ElemKind k) {
  switch (k) {
  case ElemKind::f16:
  case ElemKind::bf16:
    return std::array<unsigned, 3>{16, 8, 16};
  case ElemKind::tf32:
    return std::array<unsigned, 3>{16, 8, 8};
  case ElemKind::i8:
  case ElemKind::f8E4M3FN:
  case ElemKind::f8E5M2:
    return std::array<unsigned, 3>{16, 8, 32};
  case ElemKind::f64:
    return std::array<unsigned, 3>{8, 8, 4};
  case ElemKind::f32:
  case ElemKind::i32:
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<FragmentShape>
mlir::gemm::mmaSyncFragmentShape(ElemKind k, MmaOperand which) {
  if (!mmaSyncShape(k))
    return std::nullopt;
  if (k == ElemKind::f64)
    return which == MmaOperand::C ? FragmentShape{1, 2} : FragmentShape{1, 1};
  // 32 bits per register for A and B; C holds 2 rows x 2 columns.
  unsigned perReg = 4 / elemBytes(k);
  switch (which) {
  case MmaOperand::A:
    return FragmentShape{4, perReg};
  case MmaOperand::B:
    return FragmentShape{2, perReg};
  case MmaOperand::C:
    return FragmentShape{2, 2};
  }
  return std::nullopt;
}

Coord mlir::gemm::mmaSyncFragmentCoord(ElemKind k, MmaOperand which,
                                       unsigned lane, unsigned reg,
                                       unsigned elem) {
  int64_t g = lane / 4, c = lane % 4;
  if (which == MmaOperand::C) {
    if (k == ElemKind::f64)
      return {g, 2 * c + elem};
    return {g + 8 * reg, 2 * c + elem};
  }
  if (k == ElemKind::f64) // m8n8k4: A (g, c), B (c, g)
    return which == MmaOperand::A ? Coord{g, c} : Coord{c, g};
  // 16x8xK with 32-bit registers of E elements: per 8x(4E) block, lane holds
  // row g, columns E*c .. E*c+E-1. A: reg i covers block (i%2, i/2); B: reg i
  // covers K block i of the transposed (n, k) view.
  int64_t e = 4 / elemBytes(k);
  int64_t blockK = 4 * e;
  if (which == MmaOperand::A)
    return {g + 8 * (reg % 2), e * c + elem + blockK * (reg / 2)};
  return {e * c + elem + blockK * reg, g};
}

AffineLaneMap mlir::gemm::mmaSyncFragmentAffine(ElemKind k, MmaOperand which,
                                                unsigned reg, unsigned elem) {
  Coord base = mmaSyncFragmentCoord(k, which, 0, reg, elem);
  Coord g1 = mmaSyncFragmentCoord(k, which, 4, reg, elem);
  Coord c1 = mmaSyncFragmentCoord(k, which, 1, reg, elem);
  return {base, g1 - base, c1 - base};
}

bool mlir::gemm::canUseLdmatrix(ElemKind k, MmaOperand which,
                                bool kContiguous) {
  if (which == MmaOperand::C || k == ElemKind::f64 || !mmaSyncShape(k))
    return false;
  // .trans moves 16-bit elements only.
  return kContiguous || elemBytes(k) == 2;
}

Coord mlir::gemm::ldmatrixMatrixOrigin(ElemKind k, MmaOperand which,
                                       bool kContiguous, unsigned reg) {
  assert(canUseLdmatrix(k, which, kContiguous) && "no ldmatrix form");
  // K extent of one 8-row matrix: 16 bytes of elements.
  int64_t w = 16 / elemBytes(k);
  if (which == MmaOperand::A) {
    Coord mk{8 * int64_t(reg % 2), w * int64_t(reg / 2)};
    return kContiguous ? mk : Coord{mk.col, mk.row};
  }
  Coord nk{0, w * int64_t(reg)};
  return kContiguous ? nk : Coord{nk.col, nk.row};
}

Coord mlir::gemm::ldmatrixElementInMatrix(unsigned lane, unsigned elem,
                                          unsigned elemsPer32b,
                                          bool transpose) {
  int64_t r = lane / 4, c = lane % 4;
  if (!transpose)
    return {r, elemsPer32b * c + elem};
  // Transposed b16: the lane receives column r, rows 2c and 2c+1.
  return {2 * c + elem, r};
}

bool mlir::gemm::storageTransposes(MmaOperand which, bool kContiguous) {
  return which == MmaOperand::A ? !kContiguous : kContiguous;
}

Coord mlir::gemm::storageToOperand(MmaOperand which, bool kContiguous,
                                   Coord s) {
  return storageTransposes(which, kContiguous) ? Coord{s.col, s.row} : s;
}

int64_t mlir::gemm::swizzledOffset(int64_t row, int64_t col, int64_t rowElems,
                                   unsigned elemBytes) {
  int64_t perChunk = 16 / elemBytes;
  int64_t chunksPerRow = rowElems / perChunk;
  int64_t linear = row * chunksPerRow + col / perChunk;
  // Rows of 128 bytes or more: chunk j of row r moves to j ^ (r % 8) inside
  // its 128-byte segment. Narrower rows share a 128-byte line between
  // 128 / rowBytes rows, so the key is the line number instead.
  int64_t key = chunksPerRow >= 8 ? (row & 7) : ((linear >> 3) & 7);
  int64_t swizzled = linear ^ key;
  return swizzled * perChunk + col % perChunk;
}

Coord mlir::gemm::wgmmaAccumulatorCoord(unsigned thread, unsigned index) {
  unsigned warp = thread / 32, lane = thread % 32;
  unsigned block = index / 4, i = index % 4;
  return {int64_t(16 * warp + lane / 4 + 8 * (i / 2)),
          int64_t(8 * block + 2 * (lane % 4) + i % 2)};
}

bool mlir::gemm::wgmmaLowersTypes(ElemKind operand, ElemKind acc) {
  bool floatOk = wgmmaReadsMNMajor(operand) || operand == ElemKind::tf32 ||
                 isFloat8(operand);
  return (floatOk && acc == ElemKind::f32) ||
         (operand == ElemKind::i8 && acc == ElemKind::i32);
}

bool mlir::gemm::wgmmaReadsMNMajor(ElemKind operand) {
  return operand == ElemKind::f16 || operand == ElemKind::bf16;
}

bool mlir::gemm::wgmmaPromotesPartialSums(ElemKind operand, int64_t n) {
  return isFloat8(operand) && n <= kWgmmaPromotedMaxN;
}

int64_t mlir::gemm::wgmmaPromotionKTiles(int64_t bk, int64_t stages,
                                         int64_t warpgroups) {
  if (stages < 3 || warpgroups > 2 || bk <= 0 || kWgmmaPromotionK % bk != 0 ||
      kWgmmaPromotionK / bk < 2)
    return 1;
  return kWgmmaPromotionK / bk;
}

uint64_t mlir::gemm::wgmmaDescriptorBits(int64_t leadingBytes,
                                         int64_t strideBytes) {
  auto encode = [](int64_t bytes) {
    assert(bytes >= 0 && bytes < (1 << 18) && bytes % 16 == 0 &&
           "descriptor offsets are 14-bit counts of 16 bytes");
    return (uint64_t(bytes) & 0x3FFFF) >> 4;
  };
  return (encode(leadingBytes) << 16) | (encode(strideBytes) << 32) |
         (uint64_t(1) << 62);
}

int64_t mlir::gemm::wgmmaPanelOffset(int64_t row, int64_t col, int64_t rows,
                                     unsigned elemBytes) {
  int64_t panelCols = kWgmmaSwizzleBytes / elemBytes;
  return (col / panelCols) * rows * panelCols +
         swizzledOffset(row, col % panelCols, panelCols, elemBytes);
}

int64_t mlir::gemm::plainOffset(int64_t row, int64_t col, int64_t rowElems) {
  return row * rowElems + col;
}

unsigned mlir::gemm::gemvMmaChunkElement(MmaOperand which, unsigned reg,
                                         unsigned elem, unsigned step) {
  assert(which != MmaOperand::C && step < 2 && "an operand, step 0 or 1");
  Coord c = mmaSyncFragmentCoord(ElemKind::f16, which, 0, reg, elem);
  int64_t k = which == MmaOperand::A ? c.col : c.row;
  return 4 * step + 2 * unsigned(k / 8) + unsigned(k % 2);
}

int64_t mlir::gemm::gemvMmaColumn(int64_t tile, int64_t group, int64_t half,
                                  int64_t tilesPerLoad) {
  assert(group >= 0 && group < 8 && (half == 0 || half == 1) &&
         tilesPerLoad >= 1 && "a lane group, a half, a load width");
  int64_t p = tilesPerLoad;
  return (tile / p) * 16 * p + 2 * p * group + 2 * (tile % p) + half;
}

int64_t mlir::gemm::gemvMmaColumnTilesPerLoad(int64_t tiles) {
  for (int64_t p : {4, 2})
    if (tiles % p == 0)
      return p;
  return 1;
}

int64_t mlir::gemm::transposeStagingOffset(int64_t row, int64_t col,
                                           int64_t rows, int64_t vecElems) {
  assert(vecElems >= 1 && rows % (8 * vecElems) == 0 && row >= 0 &&
         row < rows && col >= 0 && col < 8 * vecElems &&
         "rows of whole 8-chunk groups, a column of 8 vectors");
  int64_t chunk = (row / vecElems) ^ (col / vecElems);
  return col * rows + chunk * vecElems + row % vecElems;
}
