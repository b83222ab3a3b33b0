//===- MfmaLayout.cpp - AMD MFMA lane maps and the LDS bank model ---------===//
//
// Lane maps: AMD CDNA3 ISA ("Matrix fused multiply-add", dependency and
// layout tables) and the AMD Matrix Instruction Calculator, whose tables the
// unit tests compare against element by element. Every instruction the
// lowering uses follows one of three patterns:
//
//  - blocks == 1 (16x16 and 32x32 forms): lane l holds A[l % m][(l / m) * s
//    + slot] and B[(l / n) * s + slot][l % n] with s = m * k / 64 slots;
//    C/D slot r of lane l is row (r / 4) * (256 / n) + (l / n) * 4 + r % 4,
//    column l % n (four consecutive rows per group of n lanes);
//  - f64 16x16x4: C/D rows are strided instead: row l / 16 + 4 * r (a
//    layout bug the Neko seed measured the hard way);
//  - the 4-block f64 4x4x4: lane l works on block (l / 4) % 4, holding
//    A[l % 4][l / 16], B[l / 16][l % 4] and D[l / 16][l % 4].
//
//===----------------------------------------------------------------------===//

#include "gemm/Utils/MfmaLayout.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <numeric>

using namespace mlir;
using namespace mlir::gemm;
using llvm::ArrayRef;
using llvm::SmallVector;

unsigned mlir::gemm::mfmaSlotsPerLane(const MmaShape &s, MmaOperand which) {
  switch (which) {
  case MmaOperand::A:
    return s.m * s.k * s.blocks / kMfmaWaveSize;
  case MmaOperand::B:
    return s.k * s.n * s.blocks / kMfmaWaveSize;
  case MmaOperand::C:
    return s.m * s.n * s.blocks / kMfmaWaveSize;
  }
  return 0;
}

MfmaElement mlir::gemm::mfmaFragmentElement(const MmaShape &s,
                                            MmaOperand which, unsigned lane,
                                            unsigned slot) {
  MfmaElement e;
  if (s.blocks > 1) {
    // 4x4x4 with 4 (f64) blocks: 16 lanes per k index, 4 lanes per block.
    e.block = (lane / 4) % s.blocks;
    int64_t lo = lane % 4, hi = lane / 16;
    switch (which) {
    case MmaOperand::A:
      e.coord = {lo, hi};
      break;
    case MmaOperand::B:
    case MmaOperand::C:
      e.coord = {hi, lo};
      break;
    }
    return e;
  }
  unsigned slots = mfmaSlotsPerLane(s, which);
  switch (which) {
  case MmaOperand::A:
    e.coord = {lane % s.m, (lane / s.m) * slots + slot};
    break;
  case MmaOperand::B:
    e.coord = {(lane / s.n) * slots + slot, lane % s.n};
    break;
  case MmaOperand::C:
    if (s.acc == ElemKind::f64)
      e.coord = {lane / 16 + 4 * slot, lane % 16};
    else
      e.coord = {(slot / 4) * (4 * kMfmaWaveSize / s.n) + (lane / s.n) * 4 +
                     slot % 4,
                 lane % s.n};
    break;
  }
  return e;
}

Coord mlir::gemm::mfmaTileCoord(const MmaShape &s, MmaOperand which,
                                unsigned lane, unsigned slot) {
  MfmaElement e = mfmaFragmentElement(s, which, lane, slot);
  // Blocks side by side along N; A is the same for every block.
  if (which != MmaOperand::A)
    e.coord.col += int64_t(e.block) * s.n;
  return e.coord;
}

Coord MfmaLaneAffine::at(unsigned lane) const {
  Coord c = base;
  for (const LaneTerm &t : rowTerms)
    c.row += t.at(lane);
  for (const LaneTerm &t : colTerms)
    c.col += t.at(lane);
  return c;
}

MfmaLaneAffine mlir::gemm::mfmaLaneAffine(const MmaShape &s, MmaOperand which,
                                          unsigned slot) {
  MfmaLaneAffine a;
  int64_t w = kMfmaWaveSize;
  if (s.blocks > 1) {
    // lo = lane % 4, block = (lane / 4) % blocks, hi = lane / 16.
    LaneTerm lo{1, 4, 1}, hi{16, 4, 1}, block{4, s.blocks, s.n};
    if (which == MmaOperand::A) {
      a.rowTerms = {lo};
      a.colTerms = {hi};
    } else {
      a.rowTerms = {hi};
      a.colTerms = {lo, block};
    }
    return a;
  }
  unsigned slots = mfmaSlotsPerLane(s, which);
  switch (which) {
  case MmaOperand::A:
    a.base = {0, slot};
    a.rowTerms = {{1, s.m, 1}};
    a.colTerms = {{s.m, w / s.m, slots}};
    break;
  case MmaOperand::B:
    a.base = {slot, 0};
    a.rowTerms = {{s.n, w / s.n, slots}};
    a.colTerms = {{1, s.n, 1}};
    break;
  case MmaOperand::C:
    if (s.acc == ElemKind::f64) {
      a.base = {4 * slot, 0};
      a.rowTerms = {{16, 4, 1}};
      a.colTerms = {{1, 16, 1}};
    } else {
      a.base = {(slot / 4) * (4 * w / s.n) + slot % 4, 0};
      a.rowTerms = {{s.n, w / s.n, 4}};
      a.colTerms = {{1, s.n, 1}};
    }
    break;
  }
  return a;
}

bool mlir::gemm::isMfmaShapeLowered(const MmaShape &s) {
  using E = ElemKind;
  auto is = [&](unsigned m, unsigned n, unsigned k, unsigned blocks = 1) {
    return s.m == m && s.n == n && s.k == k && s.blocks == blocks;
  };
  switch (s.operand) {
  case E::f32:
    return is(16, 16, 4) || is(32, 32, 2);
  case E::f16:
  case E::bf16:
    return is(16, 16, 16) || is(32, 32, 8);
  case E::i8:
    return is(16, 16, 16) || is(32, 32, 8) || is(16, 16, 32) ||
           is(32, 32, 16);
  case E::f64:
    return is(16, 16, 4) || is(4, 4, 4, 4);
  case E::f8E4M3FN:
  case E::f8E5M2:
    return is(16, 16, 32) || is(32, 32, 16);
  default:
    return false;
  }
}

std::optional<MmaShape> mlir::gemm::findMfmaShape(const TargetInfo &target,
                                                  ElemKind operand,
                                                  ElemKind acc, int64_t m,
                                                  int64_t n, int64_t k) {
  for (const MmaShape &shape :
       target.findShapes(InstrKind::mfma, operand, acc))
    if (shape.m == m && shape.n == n && shape.k == k)
      return shape;
  return std::nullopt;
}

MfmaTileProblem mlir::gemm::getMfmaTileProblem(const TileConfig &config,
                                               const GemmSignature &sig,
                                               const TargetInfo &target) {
  MfmaTileProblem p;
  p.shape = *findMfmaShape(target, instrOperandKind(sig.a, config.kind),
                           sig.acc, config.im, config.in, config.ik);
  p.aKContiguous = !sig.transA;
  p.bKContiguous = sig.transB;
  p.bm = config.bm;
  p.bn = config.bn;
  p.bk = config.bk;
  p.elemBytes = elemBytes(sig.a);
  p.threads = config.numWarps() * target.warpSize;
  p.waveM = config.warpTileM();
  p.waveN = config.warpTileN();
  p.banks = target.sharedBanks;
  return p;
}

SmallVector<MmaShape, 4> mlir::gemm::mfmaLoweredShapes(const TargetInfo &t,
                                                       ElemKind operand) {
  SmallVector<MmaShape, 4> out;
  for (const MmaShape &s : t.mmaShapes)
    if (s.kind == InstrKind::mfma && s.operand == operand &&
        isMfmaShapeLowered(s))
      out.push_back(s);
  // Best first: single-block 16x16 forms (fewest accumulator registers per
  // lane for a given wave tile, full rate), then 32x32, then batched forms.
  std::stable_sort(out.begin(), out.end(), [](const MmaShape &x,
                                              const MmaShape &y) {
    auto rank = [](const MmaShape &s) {
      return s.blocks > 1 ? 2 : (s.m == 16 ? 0 : 1);
    };
    if (rank(x) != rank(y))
      return rank(x) < rank(y);
    return x.k > y.k;
  });
  return out;
}

//===----------------------------------------------------------------------===//
// LDS bank model
//===----------------------------------------------------------------------===//

int64_t mlir::gemm::ldsAccessCycles(ArrayRef<int64_t> addrs, unsigned bytes,
                                    unsigned banks) {
  unsigned perPhase = std::max(1u, banks * 4 / std::max(bytes, 1u));
  int64_t dwords = std::max<int64_t>(1, bytes / 4);
  int64_t cycles = 0;
  for (size_t p = 0; p < addrs.size(); p += perPhase) {
    // bank -> distinct dword addresses in this phase
    llvm::DenseMap<int64_t, llvm::SmallVector<int64_t, 4>> perBank;
    size_t end = std::min(addrs.size(), p + perPhase);
    for (size_t i = p; i < end; ++i)
      for (int64_t d = 0; d < dwords; ++d) {
        int64_t dword = addrs[i] / 4 + d;
        auto &list = perBank[dword % banks];
        if (!llvm::is_contained(list, dword))
          list.push_back(dword);
      }
    int64_t worst = 1;
    for (auto &entry : perBank)
      worst = std::max<int64_t>(worst, entry.second.size());
    cycles += worst;
  }
  return cycles;
}

int64_t mlir::gemm::ldsOffset(const LdsTileShape &tile,
                              const LdsLayout &layout, int64_t row,
                              int64_t col) {
  switch (layout.kind) {
  case SmemKind::swizzle:
    return swizzledOffset(row, col, tile.cols, tile.elemBytes);
  case SmemKind::pad:
    return plainOffset(row, col, tile.cols + layout.padElems);
  case SmemKind::plain:
    break;
  }
  return plainOffset(row, col, tile.cols);
}

unsigned mlir::gemm::ldsAccessWidth(const LdsTileShape &tile,
                                    const LdsLayout &layout, unsigned bytes) {
  int64_t pitch = (tile.cols +
                   (layout.kind == SmemKind::pad ? layout.padElems : 0)) *
                  tile.elemBytes;
  unsigned width = bytes;
  while (width > tile.elemBytes && pitch % width != 0)
    width /= 2;
  return width;
}

int64_t mlir::gemm::ldsLayoutCycles(const LdsTileShape &tile,
                                    const LdsLayout &layout,
                                    ArrayRef<LdsAccessPattern> accesses,
                                    unsigned banks) {
  int64_t total = 0;
  for (const LdsAccessPattern &a : accesses) {
    unsigned width = ldsAccessWidth(tile, layout, a.bytes);
    unsigned pieces = a.bytes / width;
    for (unsigned piece = 0; piece < pieces; ++piece) {
      std::vector<int64_t> addrs;
      for (size_t i = 0; i < a.rows.size(); ++i)
        addrs.push_back(
            ldsOffset(tile, layout, a.rows[i],
                      a.cols[i] + piece * width / tile.elemBytes) *
            tile.elemBytes);
      total += a.count * ldsAccessCycles(addrs, width, banks);
    }
  }
  return total;
}

unsigned mlir::gemm::ldsCopyChunkBytes(const LdsTileShape &tile) {
  // Rows are whole elements, so this stops at elemBytes at the latest.
  unsigned chunkBytes = 16;
  while ((tile.cols * tile.elemBytes) % chunkBytes != 0)
    chunkBytes /= 2;
  return chunkBytes;
}

std::vector<LdsLayout> mlir::gemm::ldsCandidateLayouts(const LdsTileShape &t) {
  std::vector<LdsLayout> out{{SmemKind::plain, 0}};
  for (int64_t padBytes : {int64_t(t.elemBytes), int64_t(4), int64_t(8),
                           int64_t(16)}) {
    if (padBytes % t.elemBytes != 0)
      continue;
    LdsLayout pad{SmemKind::pad, padBytes / t.elemBytes};
    if (llvm::none_of(out, [&](const LdsLayout &l) {
          return l.kind == pad.kind && l.padElems == pad.padElems;
        }))
      out.push_back(pad);
  }
  if ((t.cols * t.elemBytes) % 16 == 0)
    out.push_back({SmemKind::swizzle, 0});
  return out;
}

LdsLayout mlir::gemm::chooseLdsLayout(const LdsTileShape &tile,
                                      ArrayRef<LdsAccessPattern> accesses,
                                      unsigned banks,
                                      std::optional<SmemKind> kind) {
  std::optional<LdsLayout> best;
  int64_t bestCycles = 0;
  auto footprint = [&](const LdsLayout &l) {
    return l.kind == SmemKind::pad ? l.padElems : 0;
  };
  for (const LdsLayout &l : ldsCandidateLayouts(tile)) {
    if (kind && l.kind != *kind)
      continue;
    int64_t cycles = ldsLayoutCycles(tile, l, accesses, banks);
    // Candidates come plain, pads (growing), swizzle: a later candidate must
    // be strictly cheaper, or as cheap and smaller (swizzle vs a pad).
    if (!best || cycles < bestCycles ||
        (cycles == bestCycles && footprint(l) < footprint(*best) &&
         best->kind == SmemKind::pad)) {
      best = l;
      bestCycles = cycles;
    }
  }
  return best.value_or(LdsLayout{});
}

std::vector<LdsAccessPattern>
mlir::gemm::mfmaLdsAccesses(const MmaShape &shape, MmaOperand which,
                            bool kContiguous, const LdsTileShape &tile,
                            int64_t threads, int64_t waveTileMN) {
  std::vector<LdsAccessPattern> out;
  // Copies: thread t stores 16-byte chunk t + i * threads (narrower when a
  // row is not a whole number of chunks).
  int64_t perChunk = ldsCopyChunkBytes(tile) / tile.elemBytes;
  int64_t chunksPerRow = tile.cols / perChunk;
  int64_t chunks = tile.rows * chunksPerRow;
  int64_t lanes = std::min<int64_t>(kMfmaWaveSize, threads);
  LdsAccessPattern store;
  store.bytes = perChunk * tile.elemBytes;
  for (int64_t t = 0; t < lanes && t < chunks; ++t) {
    store.rows.push_back(t / chunksPerRow);
    store.cols.push_back((t % chunksPerRow) * perChunk);
  }
  store.count = (chunks + threads - 1) / threads;
  out.push_back(store);

  // Fragment reads of wave 0, one k-step (all k-steps look alike up to a
  // column shift of whole k-steps).
  unsigned slots = mfmaSlotsPerLane(shape, which);
  int64_t instrMN = which == MmaOperand::A ? shape.m : shape.n * shape.blocks;
  int64_t tiles = std::max<int64_t>(1, waveTileMN / instrMN);
  int64_t ksteps = (kContiguous ? tile.cols : tile.rows) / shape.k;
  for (int64_t ti = 0; ti < std::min<int64_t>(tiles, 2); ++ti) {
    // Contiguous fragments (K innermost) are one access of all slots;
    // otherwise one access per slot.
    unsigned accesses = kContiguous ? 1 : slots;
    for (unsigned a = 0; a < accesses; ++a) {
      LdsAccessPattern read;
      read.bytes = (kContiguous ? slots : 1) * tile.elemBytes;
      read.count = ksteps * (tiles > 2 ? tiles / 2 : 1);
      for (unsigned lane = 0; lane < kMfmaWaveSize; ++lane) {
        Coord c = mfmaTileCoord(shape, which, lane, a);
        // Operand space -> the wave tile -> storage.
        if (which == MmaOperand::A)
          c.row += ti * instrMN;
        else
          c.col += ti * instrMN;
        Coord s = storageTransposes(which, kContiguous) ? Coord{c.col, c.row}
                                                        : c;
        read.rows.push_back(s.row);
        read.cols.push_back(s.col);
      }
      out.push_back(read);
    }
  }
  return out;
}

namespace {
struct TileModel {
  LdsTileShape shape;
  std::vector<LdsAccessPattern> accesses;
};
} // namespace

static std::pair<TileModel, TileModel> modelTiles(const MfmaTileProblem &p) {
  auto model = [&](MmaOperand which, bool kContiguous, int64_t mn,
                   int64_t waveMN) {
    TileModel t;
    t.shape = {kContiguous ? mn : p.bk, kContiguous ? p.bk : mn, p.elemBytes};
    t.accesses = mfmaLdsAccesses(p.shape, which, kContiguous, t.shape,
                                 p.threads, waveMN);
    return t;
  };
  return {model(MmaOperand::A, p.aKContiguous, p.bm, p.waveM),
          model(MmaOperand::B, p.bKContiguous, p.bn, p.waveN)};
}

static bool offers(const LdsTileShape &t, SmemKind kind) {
  return llvm::any_of(ldsCandidateLayouts(t),
                      [&](const LdsLayout &l) { return l.kind == kind; });
}

std::pair<LdsLayout, LdsLayout>
mlir::gemm::mfmaLdsLayouts(const MfmaTileProblem &p, SmemKind kind) {
  auto [a, b] = modelTiles(p);
  auto pick = [&](const TileModel &t) {
    if (kind != SmemKind::pad)
      return LdsLayout{kind, 0};
    return chooseLdsLayout(t.shape, t.accesses, p.banks, kind);
  };
  return {pick(a), pick(b)};
}

int64_t mlir::gemm::mfmaLdsCycles(const MfmaTileProblem &p,
                                  SmemKind kind) {
  auto [a, b] = modelTiles(p);
  auto [la, lb] = mfmaLdsLayouts(p, kind);
  return ldsLayoutCycles(a.shape, la, a.accesses, p.banks) +
         ldsLayoutCycles(b.shape, lb, b.accesses, p.banks);
}

SmemKind mlir::gemm::chooseMfmaLdsKind(const MfmaTileProblem &p) {
  auto [a, b] = modelTiles(p);
  std::optional<SmemKind> best;
  int64_t bestCycles = 0;
  for (SmemKind kind : {SmemKind::plain, SmemKind::swizzle,
                              SmemKind::pad}) {
    if (!offers(a.shape, kind) || !offers(b.shape, kind))
      continue;
    int64_t cycles = mfmaLdsCycles(p, kind);
    if (!best || cycles < bestCycles) {
      best = kind;
      bestCycles = cycles;
    }
  }
  return best.value_or(SmemKind::plain);
}
