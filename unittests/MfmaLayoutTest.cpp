//===- MfmaLayoutTest.cpp - MFMA lane maps against AMD's tables -----------===//
//
// The AMD lowering assumes, for every MFMA variant it emits, which matrix
// element each lane holds in each register slot. These tests check those
// assumptions against test vectors taken from AMD's documentation: the tables
// of AMD's Matrix Instruction Calculator
// (https://github.com/ROCm/amd_matrix_instruction_calculator, commit 2ef9189,
// `matrix_calculator.py -a ARCH -i INSTR --matrix-layout --{A,B,D}-matrix
// --csv`), converted by scripts/mfma_tables.py into unittests/data/mfma. The
// calculator encodes the layouts of the CDNA2/CDNA3 ISA guides ("Matrix
// fused-multiply-add" chapter).
//
// Beyond the per-element check, a simulated MFMA (the hardware semantics as
// the tables state them: D_b = A_b * B_b per block, with operands read from
// the lanes the tables name) multiplies random integer matrices that were
// scattered into registers with the lowering's maps; reading D back with the
// lowering's map must give A * B. That is the "silent permutation" bug class
// (an internally consistent but wrong map) caught before it reaches hardware.
//
//===----------------------------------------------------------------------===//

#include "gemm/Utils/MfmaLayout.h"
#include "gtest/gtest.h"
#include <fstream>
#include <map>
#include <random>
#include <sstream>

using namespace mlir::gemm;

namespace {
struct TableEntry {
  MmaOperand which;
  unsigned lane, slot;
  int64_t row, col;
  unsigned block;
};

struct TableCase {
  const char *file;
  MmaShape shape;
};

const TableCase kTables[] = {
    {"f32_16x16x4", {InstrKind::mfma, ElemKind::f32, ElemKind::f32, 16, 16, 4}},
    {"f32_32x32x2", {InstrKind::mfma, ElemKind::f32, ElemKind::f32, 32, 32, 2}},
    {"f16_16x16x16",
     {InstrKind::mfma, ElemKind::f16, ElemKind::f32, 16, 16, 16}},
    {"f16_32x32x8", {InstrKind::mfma, ElemKind::f16, ElemKind::f32, 32, 32, 8}},
    {"bf16_16x16x16",
     {InstrKind::mfma, ElemKind::bf16, ElemKind::f32, 16, 16, 16}},
    {"bf16_32x32x8",
     {InstrKind::mfma, ElemKind::bf16, ElemKind::f32, 32, 32, 8}},
    {"i8_16x16x16", {InstrKind::mfma, ElemKind::i8, ElemKind::i32, 16, 16, 16}},
    {"i8_32x32x8", {InstrKind::mfma, ElemKind::i8, ElemKind::i32, 32, 32, 8}},
    {"i8_16x16x32", {InstrKind::mfma, ElemKind::i8, ElemKind::i32, 16, 16, 32}},
    {"i8_32x32x16", {InstrKind::mfma, ElemKind::i8, ElemKind::i32, 32, 32, 16}},
    {"f64_16x16x4", {InstrKind::mfma, ElemKind::f64, ElemKind::f64, 16, 16, 4}},
    {"f64_4x4x4_4b",
     {InstrKind::mfma, ElemKind::f64, ElemKind::f64, 4, 4, 4, 4}},
    {"f8_16x16x32",
     {InstrKind::mfma, ElemKind::f8E4M3FN, ElemKind::f32, 16, 16, 32}},
    {"f8_32x32x16",
     {InstrKind::mfma, ElemKind::f8E4M3FN, ElemKind::f32, 32, 32, 16}},
};

std::vector<TableEntry> readTable(const std::string &name) {
  std::ifstream in(std::string(GEMM_MFMA_TABLE_DIR) + "/" + name + ".txt");
  EXPECT_TRUE(in.good()) << "cannot open table " << name;
  std::vector<TableEntry> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    std::istringstream ls(line);
    char m;
    TableEntry e;
    ls >> m >> e.lane >> e.slot >> e.row >> e.col >> e.block;
    e.which = m == 'A' ? MmaOperand::A
                       : (m == 'B' ? MmaOperand::B : MmaOperand::C);
    out.push_back(e);
  }
  return out;
}

const char *name(MmaOperand w) {
  return w == MmaOperand::A ? "A" : (w == MmaOperand::B ? "B" : "D");
}
} // namespace

// Every lane and slot of A, B and D, as AMD's tables list them.
TEST(MfmaLayout, MatchesAMDTables) {
  for (const TableCase &t : kTables) {
    std::vector<TableEntry> table = readTable(t.file);
    std::map<MmaOperand, unsigned> count;
    for (const TableEntry &e : table) {
      MfmaElement got = mfmaFragmentElement(t.shape, e.which, e.lane, e.slot);
      EXPECT_EQ(got.coord.row, e.row)
          << t.file << " " << name(e.which) << " lane " << e.lane << " slot "
          << e.slot;
      EXPECT_EQ(got.coord.col, e.col)
          << t.file << " " << name(e.which) << " lane " << e.lane << " slot "
          << e.slot;
      EXPECT_EQ(got.block, e.block)
          << t.file << " " << name(e.which) << " lane " << e.lane << " slot "
          << e.slot;
      ++count[e.which];
    }
    // The tables are complete: 64 lanes times the slots we assume.
    for (MmaOperand w : {MmaOperand::A, MmaOperand::B, MmaOperand::C})
      EXPECT_EQ(count[w], kMfmaWaveSize * mfmaSlotsPerLane(t.shape, w))
          << t.file << " " << name(w);
  }
}

// The affine form the lowering emits is the same map.
TEST(MfmaLayout, AffineFormMatchesMap) {
  for (const TableCase &t : kTables)
    for (MmaOperand w : {MmaOperand::A, MmaOperand::B, MmaOperand::C})
      for (unsigned s = 0; s < mfmaSlotsPerLane(t.shape, w); ++s) {
        MfmaLaneAffine a = mfmaLaneAffine(t.shape, w, s);
        for (unsigned lane = 0; lane < kMfmaWaveSize; ++lane)
          EXPECT_EQ(a.at(lane), mfmaTileCoord(t.shape, w, lane, s))
              << t.file << " " << name(w) << " lane " << lane << " slot " << s;
      }
}

// A simulated MFMA with the tables as the hardware: scatter random A and B
// with the lowering's maps, multiply per block as the tables say, gather D
// with the lowering's map, compare with A * B.
TEST(MfmaLayout, SimulatedInstructionComputesTheTile) {
  std::mt19937 rng(42);
  std::uniform_int_distribution<int64_t> dist(-8, 8);
  for (const TableCase &t : kTables) {
    const MmaShape &s = t.shape;
    std::vector<TableEntry> table = readTable(t.file);
    int64_t M = s.m, N = s.n * s.blocks, K = s.k;
    std::vector<int64_t> A(M * K), B(K * N);
    for (auto &v : A)
      v = dist(rng);
    for (auto &v : B)
      v = dist(rng);
    unsigned sa = mfmaSlotsPerLane(s, MmaOperand::A);
    unsigned sb = mfmaSlotsPerLane(s, MmaOperand::B);
    unsigned sc = mfmaSlotsPerLane(s, MmaOperand::C);
    // Registers as the lowering fills them.
    std::vector<int64_t> regA(64 * sa), regB(64 * sb), regD(64 * sc, 0);
    for (unsigned l = 0; l < 64; ++l) {
      for (unsigned i = 0; i < sa; ++i) {
        Coord c = mfmaTileCoord(s, MmaOperand::A, l, i);
        regA[l * sa + i] = A[c.row * K + c.col];
      }
      for (unsigned i = 0; i < sb; ++i) {
        Coord c = mfmaTileCoord(s, MmaOperand::B, l, i);
        regB[l * sb + i] = B[c.row * N + c.col];
      }
    }
    // The hardware, per the tables.
    std::map<std::tuple<unsigned, int64_t, int64_t>, int64_t> hwA, hwB;
    for (const TableEntry &e : table) {
      auto key = std::make_tuple(e.block, e.row, e.col);
      if (e.which == MmaOperand::A)
        hwA[key] = regA[e.lane * sa + e.slot];
      else if (e.which == MmaOperand::B)
        hwB[key] = regB[e.lane * sb + e.slot];
    }
    for (const TableEntry &e : table) {
      if (e.which != MmaOperand::C)
        continue;
      int64_t sum = 0;
      for (int64_t k = 0; k < K; ++k)
        sum += hwA[std::make_tuple(e.block, e.row, k)] *
               hwB[std::make_tuple(e.block, k, e.col)];
      regD[e.lane * sc + e.slot] = sum;
    }
    // The lowering's reading of D.
    for (unsigned l = 0; l < 64; ++l)
      for (unsigned i = 0; i < sc; ++i) {
        Coord c = mfmaTileCoord(s, MmaOperand::C, l, i);
        int64_t want = 0;
        for (int64_t k = 0; k < K; ++k)
          want += A[c.row * K + k] * B[k * N + c.col];
        EXPECT_EQ(regD[l * sc + i], want)
            << t.file << " lane " << l << " slot " << i;
      }
  }
}

TEST(MfmaLayout, LoweredShapesPerChip) {
  auto shapes = [](const char *chip, ElemKind k) {
    return mfmaLoweredShapes(*lookupTarget(chip), k);
  };
  // 16x16 single-block forms first; gfx942 drops the 16x16x16 i8 form.
  EXPECT_EQ(shapes("gfx942", ElemKind::f16).front().k, 16u);
  EXPECT_EQ(shapes("gfx90a", ElemKind::i8).front().k, 16u);
  EXPECT_EQ(shapes("gfx942", ElemKind::i8).front().k, 32u);
  EXPECT_EQ(shapes("gfx942", ElemKind::f64).back().blocks, 4u);
  EXPECT_TRUE(shapes("gfx942", ElemKind::f8E4M3FN).empty());
  EXPECT_EQ(shapes("gfx950", ElemKind::f8E4M3FN).front().k, 32u);
  // Shapes whose lane maps are not checked against AMD's tables are not
  // lowered (gfx950's double-K f16 forms).
  for (const MmaShape &s : shapes("gfx950", ElemKind::f16))
    EXPECT_NE(s.k, 32u);
}

//===----------------------------------------------------------------------===//
// LDS bank model
//===----------------------------------------------------------------------===//

TEST(LdsModel, AccessCycles) {
  std::vector<int64_t> linear, sameBank, same;
  for (int64_t l = 0; l < 64; ++l) {
    linear.push_back(4 * l);
    sameBank.push_back(128 * l);
    same.push_back(0);
  }
  // b32: 32 lanes per cycle.
  EXPECT_EQ(ldsAccessCycles(linear, 4, 32), 2);
  EXPECT_EQ(ldsAccessCycles(sameBank, 4, 32), 64);
  EXPECT_EQ(ldsAccessCycles(same, 4, 32), 2); // broadcast
  // b64: 16 lanes per cycle, two banks each.
  std::vector<int64_t> linear8;
  for (int64_t l = 0; l < 64; ++l)
    linear8.push_back(8 * l);
  EXPECT_EQ(ldsAccessCycles(linear8, 8, 32), 4);
  // b128: 8 lanes per cycle.
  std::vector<int64_t> linear16;
  for (int64_t l = 0; l < 64; ++l)
    linear16.push_back(16 * l);
  EXPECT_EQ(ldsAccessCycles(linear16, 16, 32), 8);
}

// The Neko seed's observation: padding is a function of the stride, not a
// reflex. 16 lanes read one f64 column of a row-major tile: with 8 columns
// (64-byte rows) they collide; padding by one element removes it; with 9
// columns (odd) they do not collide and padding by one would make it worse.
TEST(LdsModel, PaddingDependsOnTheStride) {
  auto column = [](int64_t rows) {
    LdsAccessPattern p;
    p.bytes = 8;
    for (int64_t l = 0; l < 64; ++l) {
      p.rows.push_back(l % rows);
      p.cols.push_back(l / rows);
    }
    return std::vector<LdsAccessPattern>{p};
  };
  LdsTileShape even{16, 8, 8}, odd{16, 9, 8};
  auto acc = column(16);
  LdsLayout plain{SmemKind::plain, 0}, pad1{SmemKind::pad, 1};
  EXPECT_GT(ldsLayoutCycles(even, plain, acc, 32),
            ldsLayoutCycles(even, pad1, acc, 32));
  EXPECT_LT(ldsLayoutCycles(odd, plain, acc, 32),
            ldsLayoutCycles(odd, pad1, acc, 32));
  LdsLayout pickEven = chooseLdsLayout(even, acc, 32);
  EXPECT_EQ(pickEven.kind, SmemKind::pad);
  EXPECT_EQ(pickEven.padElems, 1);
  EXPECT_EQ(chooseLdsLayout(odd, acc, 32).kind, SmemKind::plain);
}

// Padded rows keep accesses aligned or split them.
TEST(LdsModel, AccessWidth) {
  LdsTileShape t{128, 32, 2}; // f16, 64-byte rows
  EXPECT_EQ(ldsAccessWidth(t, {SmemKind::plain, 0}, 16), 16u);
  EXPECT_EQ(ldsAccessWidth(t, {SmemKind::pad, 4}, 16), 8u);
  EXPECT_EQ(ldsAccessWidth(t, {SmemKind::pad, 8}, 16), 16u);
  EXPECT_EQ(ldsAccessWidth(t, {SmemKind::pad, 1}, 16), 2u);
}

// The policy on the kernel's own accesses: never worse than plain, and a
// transposed f16 tile (the MFMA reads one element per slot down a column)
// needs something other than plain.
TEST(LdsModel, PolicyOnKernelAccesses) {
  const TargetInfo &gfx942 = *lookupTarget("gfx942");
  MmaShape f16{InstrKind::mfma, ElemKind::f16, ElemKind::f32, 16, 16, 16};
  for (bool aK : {true, false})
    for (bool bK : {true, false}) {
      MfmaTileProblem p{f16, aK, bK, 128, 128, 32, 2, 256, 64, 64,
                        gfx942.sharedBanks};
      SmemKind kind = chooseMfmaLdsKind(p);
      EXPECT_LE(mfmaLdsCycles(p, kind), mfmaLdsCycles(p, SmemKind::plain));
    }
  MfmaTileProblem nn{f16, true, false, 128, 128, 32, 2, 256, 64, 64, 32};
  EXPECT_LT(mfmaLdsCycles(nn, chooseMfmaLdsKind(nn)),
            mfmaLdsCycles(nn, SmemKind::plain));
}
