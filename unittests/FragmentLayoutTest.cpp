//===- FragmentLayoutTest.cpp - exhaustive tests of the lane maps ---------===//
//
// The lane maps are where silent wrong answers come from, so every lane,
// register and element is checked: fragments tile each operand exactly once,
// the affine reading the lowering emits equals the table, ldmatrix (simulated
// per the PTX ISA) hands each lane exactly its mma.sync fragment, and the
// shared-memory swizzle is a conflict-free permutation.
//
//===----------------------------------------------------------------------===//

#include "gemm/Utils/FragmentLayout.h"
#include "gtest/gtest.h"
#include <map>
#include <set>

using namespace mlir::gemm;

namespace {
const ElemKind kMmaKinds[] = {ElemKind::f16, ElemKind::bf16, ElemKind::tf32,
                              ElemKind::i8, ElemKind::f8E4M3FN, ElemKind::f64};
const MmaOperand kOperands[] = {MmaOperand::A, MmaOperand::B, MmaOperand::C};

std::pair<int64_t, int64_t> operandExtent(ElemKind k, MmaOperand which) {
  auto s = *mmaSyncShape(k);
  switch (which) {
  case MmaOperand::A:
    return {s[0], s[2]};
  case MmaOperand::B:
    return {s[2], s[1]};
  case MmaOperand::C:
    return {s[0], s[1]};
  }
  return {0, 0};
}
} // namespace

// Hand-checked entries of the PTX ISA tables.
TEST(FragmentLayout, PtxTableSpotChecks) {
  // m16n8k16 f16 A: a4,a5 of lane 5 (g=1, c=1) are row 1, cols 10, 11.
  EXPECT_EQ(mmaSyncFragmentCoord(ElemKind::f16, MmaOperand::A, 5, 2, 0),
            (Coord{1, 10}));
  // a6 of lane 31 (g=7, c=3): row 15, col 14.
  EXPECT_EQ(mmaSyncFragmentCoord(ElemKind::f16, MmaOperand::A, 31, 3, 0),
            (Coord{15, 14}));
  // B b2 of lane 6 (g=1, c=2): k = 2*2 + 8 = 12, n = 1.
  EXPECT_EQ(mmaSyncFragmentCoord(ElemKind::f16, MmaOperand::B, 6, 1, 0),
            (Coord{12, 1}));
  // C c3 of lane 9 (g=2, c=1): row 10, col 3.
  EXPECT_EQ(mmaSyncFragmentCoord(ElemKind::f16, MmaOperand::C, 9, 1, 1),
            (Coord{10, 3}));
  // tf32 m16n8k8 A a2 of lane 3 (g=0,c=3): row 0, col 7.
  EXPECT_EQ(mmaSyncFragmentCoord(ElemKind::tf32, MmaOperand::A, 3, 2, 0),
            (Coord{0, 7}));
  // s8 m16n8k32 A a13 (reg 3, elem 1) of lane 2: row 8, col 16 + 8 + 1.
  EXPECT_EQ(mmaSyncFragmentCoord(ElemKind::i8, MmaOperand::A, 2, 3, 1),
            (Coord{8, 25}));
  // s8 B b5 (reg 1, elem 1) of lane 4 (g=1, c=0): k = 17, n = 1.
  EXPECT_EQ(mmaSyncFragmentCoord(ElemKind::i8, MmaOperand::B, 4, 1, 1),
            (Coord{17, 1}));
  // f64 m8n8k4: C c1 of lane 7 (g=1, c=3): row 1, col 7.
  EXPECT_EQ(mmaSyncFragmentCoord(ElemKind::f64, MmaOperand::C, 7, 0, 1),
            (Coord{1, 7}));
}

// Each element of each operand tile is held by exactly one (lane, reg, elem).
TEST(FragmentLayout, FragmentsTileOperandsExactlyOnce) {
  for (ElemKind k : kMmaKinds)
    for (MmaOperand which : kOperands) {
      auto shape = *mmaSyncFragmentShape(k, which);
      auto [rows, cols] = operandExtent(k, which);
      std::set<std::pair<int64_t, int64_t>> seen;
      for (unsigned lane = 0; lane < 32; ++lane)
        for (unsigned r = 0; r < shape.regs; ++r)
          for (unsigned e = 0; e < shape.elemsPerReg; ++e) {
            Coord c = mmaSyncFragmentCoord(k, which, lane, r, e);
            ASSERT_GE(c.row, 0);
            ASSERT_LT(c.row, rows);
            ASSERT_GE(c.col, 0);
            ASSERT_LT(c.col, cols);
            EXPECT_TRUE(seen.insert({c.row, c.col}).second)
                << stringifyElemKind(k).str() << " duplicate";
          }
      EXPECT_EQ(int64_t(seen.size()), rows * cols)
          << stringifyElemKind(k).str() << " operand " << int(which);
    }
}

TEST(FragmentLayout, AffineReadingMatchesTable) {
  for (ElemKind k : kMmaKinds)
    for (MmaOperand which : kOperands) {
      auto shape = *mmaSyncFragmentShape(k, which);
      for (unsigned r = 0; r < shape.regs; ++r)
        for (unsigned e = 0; e < shape.elemsPerReg; ++e) {
          AffineLaneMap map = mmaSyncFragmentAffine(k, which, r, e);
          for (unsigned lane = 0; lane < 32; ++lane)
            EXPECT_EQ(map.at(lane), mmaSyncFragmentCoord(k, which, lane, r, e));
        }
    }
}

// gemv-mma on an N-contiguous B: the tiles' rows are each column of the
// block once, and each load (a lane group's P tiles) reads 2 P consecutive
// columns from a multiple of 2 P, pair j holding rows l / 4 and l / 4 + 8
// of its tile j.
TEST(FragmentLayout, GemvMmaColumnsCoverTheBlock) {
  for (int64_t tiles = 1; tiles <= 8; ++tiles) {
    int64_t p = gemvMmaColumnTilesPerLoad(tiles);
    EXPECT_EQ(tiles % p, 0);
    EXPECT_LE(2 * p * 2, 16) << "a load is at most 16 bytes of 16-bit";
    std::set<int64_t> seen;
    for (int64_t t = 0; t < tiles; ++t)
      for (int64_t g = 0; g < 8; ++g)
        for (int64_t h = 0; h < 2; ++h) {
          int64_t col = gemvMmaColumn(t, g, h, p);
          EXPECT_TRUE(seen.insert(col).second) << "column " << col;
          int64_t first = gemvMmaColumn(t - t % p, g, 0, p);
          EXPECT_EQ(first % (2 * p), 0);
          EXPECT_EQ(col - first, 2 * (t % p) + h);
        }
    EXPECT_EQ(int64_t(seen.size()), 16 * tiles);
    EXPECT_EQ(*seen.rbegin(), 16 * tiles - 1);
  }
  EXPECT_EQ(gemvMmaColumnTilesPerLoad(1), 1);
  EXPECT_EQ(gemvMmaColumnTilesPerLoad(2), 2);
  EXPECT_EQ(gemvMmaColumnTilesPerLoad(3), 1);
  EXPECT_EQ(gemvMmaColumnTilesPerLoad(4), 4);
  EXPECT_EQ(gemvMmaColumnTilesPerLoad(6), 2);
}

// The transposing copy's staging (Pack.cpp): a bijection of the tile;
// each element store of a warp (8 lanes a source row, 4 rows from a
// multiple of 4, element e of each lane's vector) touches each bank at one
// word at most; and each 8 consecutive lanes of a 16-byte load (lane = a
// chunk of a staged row, the lanes of one staged row consecutive chunks)
// read 8 distinct bank groups.
TEST(FragmentLayout, TransposeStagingIsConflictFree) {
  const int64_t rows = 128, threads = 256;
  for (int64_t bytes : {1, 2, 4}) {
    int64_t v = 16 / bytes, cols = 8 * v, perRow = rows / v;
    std::set<int64_t> seen;
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) {
        int64_t off = transposeStagingOffset(r, c, rows, v);
        EXPECT_TRUE(off >= 0 && off < rows * cols);
        EXPECT_EQ(off / rows, c) << "column c is staged row c";
        seen.insert(off);
      }
    EXPECT_EQ(int64_t(seen.size()), rows * cols);
    for (int64_t warp = 0; warp < threads / 32; ++warp)
      for (int64_t j = 0; j < rows * 8 / threads; ++j) {
        for (int64_t e = 0; e < v; ++e) {
          std::map<unsigned, std::set<int64_t>> words;
          for (int64_t l = 0; l < 32; ++l) {
            int64_t t = 32 * warp + l + threads * j;
            int64_t r = t / 8, c = (t % 8) * v + e;
            int64_t byte = transposeStagingOffset(r, c, rows, v) * bytes;
            words[smemBank(byte)].insert(byte / 4);
          }
          for (auto &[bank, inBank] : words)
            EXPECT_EQ(inBank.size(), 1u) << "store, bytes " << bytes;
        }
        for (int64_t l0 = 0; l0 < 32; l0 += 8) {
          std::set<unsigned> groups;
          for (int64_t l = l0; l < l0 + 8; ++l) {
            int64_t q = 32 * warp + l + threads * j;
            int64_t c = q / perRow, run = q % perRow;
            int64_t off = transposeStagingOffset(run * v, c, rows, v);
            EXPECT_EQ(off % v, 0) << "a chunk starts at a whole vector";
            EXPECT_EQ(off, c * rows + (run ^ (c / v)) * v);
            groups.insert(smemBank(off * bytes) / 4);
          }
          EXPECT_EQ(groups.size(), 8u) << "load, bytes " << bytes;
        }
      }
  }
}

// gemv-mma's chunks: every fragment element of A and B is taken from the
// lane that holds its K, and the K of both operands is the same permutation
// of the warp's 32-element stretch (two instruction steps of 16).
TEST(FragmentLayout, GemvMmaChunksPermuteK) {
  for (ElemKind kind : {ElemKind::f16, ElemKind::bf16}) {
    std::map<std::pair<unsigned, int64_t>, int64_t> physical;
    for (MmaOperand which : {MmaOperand::A, MmaOperand::B}) {
      auto shape = *mmaSyncFragmentShape(kind, which);
      for (unsigned step = 0; step < 2; ++step)
        for (unsigned lane = 0; lane < 32; ++lane)
          for (unsigned r = 0; r < shape.regs; ++r)
            for (unsigned e = 0; e < shape.elemsPerReg; ++e) {
              Coord c = mmaSyncFragmentCoord(kind, which, lane, r, e);
              int64_t k = which == MmaOperand::A ? c.col : c.row;
              unsigned x = gemvMmaChunkElement(which, r, e, step);
              ASSERT_LT(x, 8u);
              int64_t p = 8 * (lane % 4) + x;
              auto [it, inserted] = physical.try_emplace({step, k}, p);
              EXPECT_EQ(it->second, p)
                  << "step " << step << " k " << k << " lane " << lane;
            }
    }
    std::set<int64_t> covered;
    for (auto &[key, p] : physical)
      covered.insert(p);
    EXPECT_EQ(physical.size(), 32u);
    EXPECT_EQ(covered.size(), 32u);
    EXPECT_EQ(*covered.rbegin(), 31);
  }
}

// ldmatrix, simulated per the PTX ISA, delivers exactly the mma fragment.
TEST(FragmentLayout, LdmatrixDeliversFragments) {
  int checked = 0;
  for (ElemKind k : kMmaKinds)
    for (MmaOperand which : {MmaOperand::A, MmaOperand::B})
      for (bool kContiguous : {true, false}) {
        if (!canUseLdmatrix(k, which, kContiguous))
          continue;
        auto shape = *mmaSyncFragmentShape(k, which);
        for (unsigned lane = 0; lane < 32; ++lane)
          for (unsigned r = 0; r < shape.regs; ++r)
            for (unsigned e = 0; e < shape.elemsPerReg; ++e) {
              Coord origin = ldmatrixMatrixOrigin(k, which, kContiguous, r);
              Coord inMatrix = ldmatrixElementInMatrix(
                  lane, e, shape.elemsPerReg, /*transpose=*/!kContiguous);
              Coord got = storageToOperand(which, kContiguous, origin + inMatrix);
              EXPECT_EQ(got, mmaSyncFragmentCoord(k, which, lane, r, e))
                  << stringifyElemKind(k).str() << " lane " << lane << " reg "
                  << r << " elem " << e << " kContiguous " << kContiguous;
              ++checked;
            }
      }
  EXPECT_GT(checked, 1000);
}

TEST(FragmentLayout, LdmatrixAvailability) {
  EXPECT_TRUE(canUseLdmatrix(ElemKind::f16, MmaOperand::A, false));
  EXPECT_TRUE(canUseLdmatrix(ElemKind::tf32, MmaOperand::B, true));
  EXPECT_FALSE(canUseLdmatrix(ElemKind::tf32, MmaOperand::B, false));
  EXPECT_FALSE(canUseLdmatrix(ElemKind::i8, MmaOperand::A, false));
  EXPECT_FALSE(canUseLdmatrix(ElemKind::f64, MmaOperand::A, true));
  EXPECT_FALSE(canUseLdmatrix(ElemKind::f16, MmaOperand::C, true));
}

// The matrix origins the lowering emits are affine in (j % 2, j / 2) for the
// 4 matrices of an x4 load.
TEST(FragmentLayout, LdmatrixOriginsAreAffine) {
  for (ElemKind k : kMmaKinds)
    for (bool kContiguous : {true, false}) {
      if (!canUseLdmatrix(k, MmaOperand::A, kContiguous))
        continue;
      Coord o[4];
      for (unsigned r = 0; r < 4; ++r)
        o[r] = ldmatrixMatrixOrigin(k, MmaOperand::A, kContiguous, r);
      EXPECT_EQ(o[3] - o[0], (o[1] - o[0]) + (o[2] - o[0]));
    }
}

TEST(Swizzle, IsAPermutationKeepingChunks) {
  for (unsigned bytes : {1u, 2u, 4u, 8u})
    for (int64_t rowBytes : {32, 64, 128, 256}) {
      int64_t rowElems = rowBytes / bytes, rows = 64;
      std::set<int64_t> offsets;
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < rowElems; ++c) {
          int64_t off = swizzledOffset(r, c, rowElems, bytes);
          EXPECT_TRUE(offsets.insert(off).second);
          // Elements stay in order inside their 16-byte chunk.
          EXPECT_EQ(off % (16 / bytes), c % (16 / bytes));
        }
      EXPECT_EQ(*offsets.rbegin(), rows * rowElems - 1);
    }
}

// ldmatrix reads 8 rows x 16 bytes at one column per phase; the swizzle puts
// the 8 rows in 8 distinct 16-byte bank groups for every tile width the
// lowering uses. Without the swizzle, rows 64 bytes or wider conflict.
TEST(Swizzle, LdmatrixPhasesAreConflictFree) {
  for (unsigned bytes : {1u, 2u, 4u})
    for (int64_t rowBytes : {32, 64, 128, 256}) {
      int64_t rowElems = rowBytes / bytes, perChunk = 16 / bytes;
      for (int64_t r0 = 0; r0 < 32; r0 += 8)
        for (int64_t c = 0; c < rowElems; c += perChunk) {
          std::set<unsigned> groups, plainGroups;
          for (int64_t r = r0; r < r0 + 8; ++r) {
            groups.insert(smemBank(swizzledOffset(r, c, rowElems, bytes) *
                                   bytes) / 4);
            plainGroups.insert(smemBank(plainOffset(r, c, rowElems) * bytes) /
                               4);
          }
          EXPECT_EQ(groups.size(), 8u) << "row bytes " << rowBytes;
          if (rowBytes >= 64) {
            EXPECT_LT(plainGroups.size(), 8u);
          }
        }
    }
}

// cp.async stores: 8 consecutive threads write 8 consecutive 16-byte chunks
// of the tile; they must land in 8 distinct bank groups.
TEST(Swizzle, AsyncCopyStoresAreConflictFree) {
  for (unsigned bytes : {1u, 2u, 4u, 8u})
    for (int64_t rowBytes : {32, 64, 128, 256}) {
      int64_t rowElems = rowBytes / bytes, perChunk = 16 / bytes;
      int64_t chunksPerRow = rowElems / perChunk;
      for (int64_t base = 0; base < 64; base += 8) {
        std::set<unsigned> groups;
        for (int64_t i = base; i < base + 8; ++i) {
          int64_t r = i / chunksPerRow, c = (i % chunksPerRow) * perChunk;
          groups.insert(smemBank(swizzledOffset(r, c, rowElems, bytes) *
                                 bytes) / 4);
        }
        EXPECT_EQ(groups.size(), 8u);
      }
    }
}

// The reassociated form the lowering emits for ldmatrix addresses
// (SmemTile::offsetSplit): with rows of >= 128 bytes, a row constant that is
// a multiple of 8 and a chunk constant whose bits are disjoint from the
// lane's chunk, swizzle(rowV + rowC, colV + colC) equals
// (rowV + rowC) * rowElems + (((colV / V) ^ (rowV & 7)) ^ (colC / V)) * V.
TEST(Swizzle, ReassociatedFormMatches) {
  for (unsigned bytes : {1u, 2u, 4u})
    for (int64_t rowBytes : {128, 256}) {
      int64_t rowElems = rowBytes / bytes, v = 16 / bytes;
      int64_t chunks = rowElems / v;
      for (int64_t rowV = 0; rowV < 32; ++rowV)
        for (int64_t rowC = 0; rowC < 32; rowC += 8)
          for (int64_t laneChunk = 0; laneChunk < 2; ++laneChunk)
            for (int64_t warpChunk = 0; warpChunk < chunks; warpChunk += 8)
              for (int64_t constChunk = 0; constChunk < 8; constChunk += 2) {
                if (warpChunk + laneChunk + constChunk >= chunks)
                  continue;
                int64_t colV = (warpChunk + laneChunk) * v;
                int64_t colC = constChunk * v;
                int64_t want = swizzledOffset(rowV + rowC, colV + colC,
                                              rowElems, bytes);
                int64_t got =
                    (rowV + rowC) * rowElems +
                    (((colV / v) ^ (rowV & 7)) ^ (colC / v)) * v;
                EXPECT_EQ(got, want) << rowV << " " << rowC << " " << colV
                                     << " " << colC;
              }
    }
}

//===----------------------------------------------------------------------===//
// wgmma
//===----------------------------------------------------------------------===//

// The 128-byte swizzle as the hardware applies it to a 1024-byte aligned
// shared address: bits 4-6 (the 16-byte chunk) XOR bits 7-9.
static int64_t hardwareSwizzle128(int64_t byteAddress) {
  return byteAddress ^ (((byteAddress >> 7) & 7) << 4);
}

TEST(Wgmma, AccumulatorIsABijectionOnto64xN) {
  const unsigned n = 256;
  std::set<std::pair<int64_t, int64_t>> seen;
  for (unsigned t = 0; t < 128; ++t)
    for (unsigned i = 0; i < n / 2; ++i) {
      Coord c = wgmmaAccumulatorCoord(t, i);
      ASSERT_GE(c.row, 0);
      ASSERT_LT(c.row, 64);
      ASSERT_GE(c.col, 0);
      ASSERT_LT(c.col, int64_t(n));
      seen.insert({c.row, c.col});
    }
  EXPECT_EQ(seen.size(), size_t(64 * n));
}

TEST(Wgmma, AccumulatorColumnBlocksAreRunsOfFour) {
  // The epilogue's column slices (ComputeStep::forEachElementInColumns)
  // take accumulators begin / 2 .. end / 2 - 1 for the columns
  // [begin, end) of whole 8-column blocks: every lane holds columns
  // [8j, 8j + 8) in its accumulators 4j .. 4j + 3, and no others.
  for (unsigned t = 0; t < 128; ++t)
    for (unsigned i = 0; i < 128; ++i)
      EXPECT_EQ(wgmmaAccumulatorCoord(t, i).col / 8, int64_t(i / 4))
          << t << " " << i;
}

TEST(Wgmma, AccumulatorMatchesTheMmaSyncTablePerWarp) {
  // Per warp and 8-column block, the PTX ISA's wgmma D fragment is the
  // m16n8 accumulator fragment of mma.sync (checked against its own table).
  for (unsigned t = 0; t < 128; ++t)
    for (unsigned i = 0; i < 32; ++i) {
      Coord got = wgmmaAccumulatorCoord(t, i);
      Coord want = mmaSyncFragmentCoord(ElemKind::f16, MmaOperand::C, t % 32,
                                        (i % 4) / 2, i % 2);
      want = want + Coord{16 * int64_t(t / 32), 8 * int64_t(i / 4)};
      EXPECT_EQ(got, want) << t << " " << i;
    }
  // Spot checks from the ISA figure: thread 0 holds (0,0) (0,1) (8,0) (8,1),
  // then (0,8); lane 5 of warp 1 holds element 5 at (17, 11).
  EXPECT_EQ(wgmmaAccumulatorCoord(0, 2), (Coord{8, 0}));
  EXPECT_EQ(wgmmaAccumulatorCoord(0, 4), (Coord{0, 8}));
  EXPECT_EQ(wgmmaAccumulatorCoord(37, 5), (Coord{17, 11}));
}

TEST(Wgmma, DescriptorBits) {
  // K-major, 128-byte swizzle as CUTLASS encodes it: LBO 1 (unused), SBO 64
  // (1024 bytes), layout type 1 in bits 62-63.
  EXPECT_EQ(wgmmaDescriptorBits(16, 1024), 0x4000004000010000ull);
  // MN-major panels of 64 rows x 128 bytes: LBO 8192 bytes = 512 units.
  EXPECT_EQ(wgmmaDescriptorBits(8192, 1024), 0x4000004002000000ull);
}

TEST(Wgmma, KMajorTileIsTheHardwareSwizzle) {
  // A K-major tile with 128-byte rows (BK = 64 f16, 32 tf32, 128 i8) stored
  // with swizzledOffset is the canonical layout
  // Swizzle<3,4,3> o ((8,m),(T,8)):((8T,SBO),(1,T)) with SBO = 1024 bytes.
  for (unsigned bytes : {1u, 2u, 4u}) {
    int64_t rowElems = 128 / bytes, t = 16 / bytes;
    for (int64_t r = 0; r < 64; ++r)
      for (int64_t c = 0; c < rowElems; ++c) {
        int64_t canonical = (r % 8) * 8 * t + (r / 8) * (1024 / bytes) + c;
        EXPECT_EQ(swizzledOffset(r, c, rowElems, bytes) * bytes,
                  hardwareSwizzle128(canonical * bytes))
            << bytes << " " << r << " " << c;
      }
  }
}

TEST(Wgmma, MNMajorPanelsAreTheHardwareSwizzle) {
  // The CUTLASS canonical MN-major layout for the 128-byte swizzle,
  // Swizzle<3,4,3> o ((T,8,m),(8,k)):((1,T,LBO),(8T,SBO)), in elements, with
  // LBO = one panel (rows x 128 bytes) and SBO = 8 rows of 128 bytes.
  for (unsigned bytes : {2u, 4u}) {
    int64_t t = 16 / bytes, rows = 64, lbo = rows * 128 / bytes,
            sbo = 1024 / bytes;
    for (int64_t k = 0; k < rows; ++k)
      for (int64_t mn = 0; mn < 256; ++mn) {
        int64_t canonical = (mn % t) + ((mn / t) % 8) * t +
                            (mn / (8 * t)) * lbo + (k % 8) * 8 * t +
                            (k / 8) * sbo;
        EXPECT_EQ(wgmmaPanelOffset(k, mn, rows, bytes) * bytes,
                  hardwareSwizzle128(canonical * bytes))
            << bytes << " " << k << " " << mn;
      }
  }
}
