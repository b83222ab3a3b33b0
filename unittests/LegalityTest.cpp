//===- LegalityTest.cpp - tests of gemm/Target/Legality.h -----------------===//
//
// The one statement of which configs are legal: each rule of each layer
// (structure, target limits, what the lowerings implement) on a config that
// breaks only that rule, with the reason the verifiers and lowerings emit.
//
//===----------------------------------------------------------------------===//

#include "gemm/Target/Legality.h"
#include "gemm/Utils/FragmentLayout.h"
#include "gtest/gtest.h"

using namespace mlir::gemm;

namespace {
/// The sm_90 f16 mma_sync default: legal everywhere from sm_80 on.
TileConfig mmaSync() {
  TileConfig c;
  c.kind = InstrKind::mma_sync;
  c.bm = 128, c.bn = 128, c.bk = 64, c.wm = 2, c.wn = 2;
  c.im = 16, c.in = 8, c.ik = 16, c.stages = 3, c.group = 8;
  return c;
}

/// The sm_90a f16 wgmma default.
TileConfig wgmma() {
  TileConfig c;
  c.kind = InstrKind::wgmma;
  c.bm = 128, c.bn = 256, c.bk = 64, c.wm = 2, c.wn = 1;
  c.im = 64, c.in = 256, c.ik = 16, c.stages = 4, c.group = 8;
  return c;
}

/// A gfx942 f16 MFMA config.
TileConfig mfma() {
  TileConfig c;
  c.kind = InstrKind::mfma;
  c.bm = 128, c.bn = 128, c.bk = 32, c.wm = 2, c.wn = 2;
  c.im = 16, c.in = 16, c.ik = 16, c.stages = 2, c.group = 8;
  return c;
}

GemmSignature sig(ElemKind a, ElemKind acc, bool transA = false,
                  bool transB = true) {
  GemmSignature s;
  s.a = a, s.acc = acc, s.transA = transA, s.transB = transB;
  return s;
}

const TargetInfo &chip(llvm::StringRef name) { return *lookupTarget(name); }

const GemmSignature f16tn = sig(ElemKind::f16, ElemKind::f32);
} // namespace

TEST(Legality, TheDefaultsAreLegal) {
  EXPECT_EQ(checkConfig(mmaSync(), f16tn, chip("sm_80")), "");
  EXPECT_EQ(checkConfig(mmaSync(), f16tn, chip("sm_90")), "");
  EXPECT_EQ(checkConfig(wgmma(), f16tn, chip("sm_90a")), "");
  EXPECT_EQ(checkConfig(mfma(), f16tn, chip("gfx942")), "");
}

TEST(Legality, Structure) {
  TileConfig c = mmaSync();
  c.bn = -128;
  EXPECT_EQ(checkConfigStructure(c),
            "expected 'block' entries to be positive, got -128");
  c = mmaSync(), c.stages = 9;
  EXPECT_EQ(checkConfigStructure(c), "expected 'stages' in [1, 8], got 9");
  c = mmaSync(), c.wn = 3;
  EXPECT_EQ(checkConfigStructure(c),
            "block tile N (128) is not divisible by the warp grid N (3)");
  c = mmaSync(), c.bk = 40;
  EXPECT_EQ(checkConfigStructure(c),
            "block tile K (40) is not a multiple of the instruction K (16)");
  c = wgmma(), c.im = 16;
  EXPECT_EQ(checkConfigStructure(c), "wgmma instruction M must be 64, got 16");
  // checkConfig applies the structure first.
  c = mmaSync(), c.group = 0;
  EXPECT_EQ(checkConfig(c, f16tn, chip("sm_90")),
            "expected 'group' in [1, 65536], got 0");
}

TEST(Legality, InstrShapeKnownOnSomeChip) {
  TileConfig c = mmaSync();
  EXPECT_EQ(checkInstrShapeKnown(c, f16tn), "");
  c.in = 16;
  EXPECT_EQ(checkInstrShapeKnown(c, f16tn),
            "no mma_sync instruction has shape 16x16x16 for f16 operands "
            "accumulating in f32");
  // f32 storage is tf32 on tensor cores.
  c = mmaSync();
  EXPECT_EQ(checkInstrShapeKnown(c, sig(ElemKind::f32, ElemKind::f32)),
            "no mma_sync instruction has shape 16x8x16 for tf32 operands "
            "accumulating in f32");
}

TEST(Legality, TargetLimits) {
  EXPECT_EQ(checkConfigOnTarget(wgmma(), f16tn, chip("sm_90")),
            "config kind wgmma is not available on sm_90");
  TileConfig c = mmaSync();
  c.wm = 8, c.wn = 8, c.bm = 128, c.bn = 128;
  c.im = 16, c.in = 8;
  EXPECT_EQ(checkConfigOnTarget(c, f16tn, chip("sm_90")),
            "config needs 2048 threads per block, over the 1024 allowed on "
            "sm_90");
  c = mmaSync(), c.stages = 8, c.bm = 256, c.bn = 256;
  EXPECT_EQ(checkConfigOnTarget(c, f16tn, chip("sm_90")),
            "config needs 524288 bytes of shared memory per block, over the "
            "232448 available on sm_90");
  // sm_86 has less shared memory than sm_90.
  c = mmaSync(), c.stages = 6;
  EXPECT_EQ(checkConfigOnTarget(c, f16tn, chip("sm_90")), "");
  EXPECT_NE(checkConfigOnTarget(c, f16tn, chip("sm_86")), "");
}

// kind = gemv: NVIDIA, f16/bf16/f32 into f32, a K-contiguous B, and the
// per-warp limits; no shared memory.
TEST(Legality, Gemv) {
  TileConfig c;
  c.kind = InstrKind::gemv;
  c.bm = 1, c.bn = 16, c.bk = 512, c.wm = 1, c.wn = 8;
  c.im = 1, c.in = 1, c.ik = 8, c.stages = 1;
  const TargetInfo &sm90 = chip("sm_90");
  EXPECT_EQ(checkConfig(c, f16tn, sm90), "");
  EXPECT_EQ(estimateSharedMemory(c, 2), 0);
  GemmSignature tt = f16tn;
  tt.transA = true;
  EXPECT_EQ(checkConfig(c, tt, sm90), "");
  GemmSignature nn = f16tn;
  nn.transB = false;
  EXPECT_EQ(checkConfig(c, nn, sm90),
            "gemv needs a K-contiguous B (layout tn or tt), instr [1, 8, 1] or "
            "instr [8, 16, 16], got nn");
  GemmSignature f32 = f16tn;
  f32.a = ElemKind::f32;
  EXPECT_EQ(checkConfig(c, f32, sm90),
            "gemv instr must be [1, 1, 4] for f32 operands (one 16-byte load "
            "a lane), got 1x1x8");
  EXPECT_NE(checkConfig(c, f16tn, chip("gfx942")), "");
  TileConfig tall = c;
  tall.bm = 8;
  EXPECT_EQ(checkConfigStructure(tall),
            "gemv block M (rows of A a warp multiplies) must be at most 4, "
            "got 8");
  TileConfig deep = c;
  deep.bk = 256 * 16;
  EXPECT_EQ(checkConfigStructure(deep),
            "gemv block K must be 1 to 8 times 256 (32 lanes x instr K), got "
            "4096");
}

// kind = gemv on an N-contiguous B (instr [1, V, 1]): nn and nt, BN / V
// lanes a row dividing the warp, the warps' k rows times 1 to 8 loads as
// block K, the warps' sums in shared memory.
TEST(Legality, GemvColumns) {
  const TargetInfo &sm90 = chip("sm_90");
  TileConfig c = makeGemvColumnsConfig(1, 32, 8, 4, 2, 32);
  EXPECT_TRUE(isGemvColumns(c));
  EXPECT_FALSE(isGemvMma(c));
  // 4 lanes a row of B: 8 warps read 64 k rows at once, 4 loads each.
  EXPECT_EQ(c.bk, 256);
  EXPECT_EQ(gemvUnroll(c, 32), 4);
  EXPECT_EQ(estimateSharedMemory(c, 2), 8 * 1 * 32 * 4);
  GemmSignature nn = f16tn;
  nn.transB = false;
  GemmSignature nt = nn;
  nt.transA = true;
  EXPECT_EQ(checkConfig(c, nn, sm90), "");
  EXPECT_EQ(checkConfig(c, nt, sm90), "");
  EXPECT_EQ(checkConfig(c, f16tn, sm90),
            "gemv with instr [1, 8, 1] needs an N-contiguous B (layout nn or "
            "nt), got tn");
  GemmSignature f32 = nn;
  f32.a = ElemKind::f32;
  EXPECT_EQ(checkConfig(c, f32, sm90),
            "gemv instr must be [1, 4, 1] for f32 operands on an "
            "N-contiguous B (one 16-byte load a lane), got 1x8x1");
  EXPECT_EQ(checkConfig(makeGemvColumnsConfig(2, 16, 8, 4, 4, 32), f32, sm90),
            "");
  TileConfig odd = c;
  odd.bn = 24; // 3 lanes a row
  EXPECT_EQ(checkConfigStructure(odd),
            "gemv block N on an N-contiguous B must be instr N times a divisor "
            "of 32 (lanes side by side on a row of B), got 24");
  TileConfig deep = c;
  deep.bk = 64 * 16;
  EXPECT_EQ(checkConfigStructure(deep),
            "gemv block K on an N-contiguous B must be 1 to 8 times 64 (the k "
            "rows of B the block reads at once), got 1024");
  TileConfig tall = c;
  tall.bm = 5;
  EXPECT_EQ(checkConfigStructure(tall),
            "gemv block M (rows of A a lane multiplies) must be 1 to 4, got 5");
  TileConfig wide = c;
  wide.wn = 32;
  EXPECT_EQ(checkConfigStructure(wide),
            "gemv on an N-contiguous B needs warps = [1, W] with W (warps "
            "splitting K) 1 to 16, got [1, 32]");
}

TEST(Legality, NVIDIALowering) {
  const TargetInfo &sm90 = chip("sm_90");
  EXPECT_EQ(checkConfigLowerable(mfma(), f16tn, sm90),
            "config kind mfma is not lowered by convert-gemm-to-nvgpu (it "
            "lowers mma_sync, wgmma, simt and gemv)");
  // split_k slices K over grid.y: up to its 65535 blocks.
  TileConfig c = mmaSync();
  c.splitK = 65535;
  EXPECT_EQ(checkConfigLowerable(c, f16tn, sm90), "");
  c.splitK = 65536;
  EXPECT_EQ(checkConfigStructure(c),
            "expected 'split_k' in [1, 65535], got 65536");
  // reduction = cluster: 2 to 8 slices (a portable cluster), clusters only
  // from sm_90 on, and the partial sums staged in shared memory.
  c = mmaSync(), c.splitK = 8, c.clusterReduce = true;
  EXPECT_EQ(checkConfigLowerable(c, f16tn, sm90), "");
  EXPECT_NE(checkConfigLowerable(c, f16tn, chip("sm_80"))
                .find("'reduction = cluster' needs thread-block clusters"),
            std::string::npos);
  c.splitK = 9;
  EXPECT_EQ(checkConfigStructure(c),
            "expected 'split_k' in [2, 8] with 'reduction = cluster', got 9");
  c.splitK = 1;
  EXPECT_EQ(checkConfigStructure(c),
            "expected 'split_k' in [2, 8] with 'reduction = cluster', got 1");
  c = mmaSync(), c.splitK = 2, c.clusterReduce = true, c.bm = 256, c.bn = 256,
  c.wm = 4, c.wn = 4, c.stages = 1;
  EXPECT_EQ(estimateClusterStagingBytes(c, 4), 256 * (256 + 4) * 4);
  EXPECT_NE(checkConfigOnTarget(c, f16tn, sm90)
                .find("cluster reduction stages 266240 bytes"),
            std::string::npos);
  // The table has m16n8k8 f16; the kernel builder implements m16n8k16.
  c = mmaSync(), c.ik = 8;
  EXPECT_EQ(checkConfigLowerable(c, f16tn, sm90),
            "mma_sync shape 16x8x8 for f16 operands is not lowered by "
            "convert-gemm-to-nvgpu (it lowers 16x8x16)");
  GemmSignature f8 = sig(ElemKind::f8E4M3FN, ElemKind::f32);
  EXPECT_EQ(checkConfigLowerable(mmaSync(), f8, sm90),
            "f8 operands are lowered by convert-gemm-to-nvgpu with kind = "
            "wgmma only (sm_90a, layout tn), not mma_sync");
  // tf32: m16n8k8 on f32 storage.
  c = mmaSync(), c.bk = 32, c.ik = 8;
  EXPECT_EQ(checkConfigLowerable(c, sig(ElemKind::f32, ElemKind::f32), sm90),
            "");
  // A swizzled simt tile whose A rows (K = 2 f16) are 4 bytes.
  c.kind = InstrKind::simt, c.im = 4, c.in = 8, c.ik = 1, c.bk = 2;
  c.bm = 64, c.bn = 64, c.wm = 2, c.wn = 2;
  EXPECT_EQ(checkConfigLowerable(c, f16tn, sm90),
            "swizzled shared tile of A has rows of 4 bytes, not a multiple of "
            "16; use smem = plain or pad");
  c.smem = SmemKind::pad;
  EXPECT_EQ(checkConfigLowerable(c, f16tn, sm90), "");
}

TEST(Legality, WgmmaLowering) {
  const TargetInfo &sm90a = chip("sm_90a");
  TileConfig c = wgmma();
  c.wm = 1, c.bm = 256, c.bn = 64, c.in = 64;
  EXPECT_EQ(checkConfigLowerable(c, f16tn, sm90a),
            "wgmma warpgroup tile M must be 64 or 128 (block M / warps[0]), "
            "got 256");
  c.bm = 128;
  EXPECT_EQ(checkConfigLowerable(c, f16tn, sm90a), "");
  c = wgmma(), c.in = 128;
  EXPECT_EQ(checkConfigLowerable(c, f16tn, sm90a),
            "wgmma warpgroup tile N (block N / warps[1] = 256) must equal the "
            "instruction N 128");
  c = wgmma(), c.smem = SmemKind::pad;
  EXPECT_EQ(checkConfigLowerable(c, f16tn, sm90a),
            "wgmma needs smem = swizzle (the 128-byte swizzle its descriptors "
            "describe), got pad");
  c = wgmma(), c.bk = 32;
  EXPECT_EQ(checkConfigLowerable(c, f16tn, sm90a),
            "wgmma with K-contiguous operands needs block K = 64 (rows of 128 "
            "bytes), got 32");
  // f16 may be MN-major (panels); tf32 is read K-major only.
  GemmSignature f16nn = sig(ElemKind::f16, ElemKind::f32, false, false);
  EXPECT_EQ(checkConfigLowerable(wgmma(), f16nn, sm90a), "");
  c = wgmma(), c.bk = 32, c.ik = 8;
  GemmSignature tf32nn = sig(ElemKind::f32, ElemKind::f32, false, false);
  EXPECT_EQ(checkConfigLowerable(c, tf32nn, sm90a),
            "wgmma reads tf32 operands K-major only: layout nn needs tn");
  c = wgmma(), c.bn = 96, c.in = 96;
  EXPECT_EQ(checkConfigLowerable(c, f16nn, sm90a),
            "wgmma with N-contiguous B needs the instruction N to be a "
            "multiple of 64, got 96");
  EXPECT_EQ(checkConfigLowerable(c, f16tn, sm90a), "");
}

TEST(Legality, AMDLowering) {
  const TargetInfo &gfx942 = chip("gfx942");
  EXPECT_EQ(checkConfigLowerable(mmaSync(), f16tn, gfx942),
            "config kind mma_sync is not lowered by convert-gemm-to-amdgpu "
            "(it lowers mfma)");
  TileConfig c = mfma();
  c.splitK = 4;
  EXPECT_EQ(checkConfigLowerable(c, f16tn, gfx942), "");
  // The 4x4x4 16-block f16 MFMA exists but its lane map is not tested.
  c = mfma(), c.im = 4, c.in = 4, c.ik = 4, c.bk = 32;
  EXPECT_EQ(checkConfigLowerable(c, f16tn, gfx942),
            "mfma shape 4x4x4 for f16 is not lowered by convert-gemm-to-amdgpu "
            "(its lane map is not checked against AMD's tables)");
  // 4-block f64 tiles are 16 wide per wave: a 32-wide wave tile of 4x4x4
  // f64 holds them, a 8-wide one does not.
  GemmSignature f64 = sig(ElemKind::f64, ElemKind::f64);
  c = mfma(), c.im = 4, c.in = 4, c.ik = 4, c.bk = 16, c.bm = 64, c.bn = 32,
  c.wm = 2, c.wn = 4;
  EXPECT_EQ(checkConfigLowerable(c, f64, gfx942),
            "wave tile N (8) is not a multiple of the 4-block mfma tile N "
            "(16)");
  c.wn = 1;
  EXPECT_EQ(checkConfigLowerable(c, f64, gfx942), "");
}

TEST(Legality, LowersKind) {
  EXPECT_TRUE(lowersKind(chip("sm_90"), InstrKind::simt));
  EXPECT_TRUE(lowersKind(chip("sm_90a"), InstrKind::wgmma));
  EXPECT_FALSE(lowersKind(chip("sm_90"), InstrKind::mfma));
  EXPECT_TRUE(lowersKind(chip("gfx942"), InstrKind::mfma));
  EXPECT_FALSE(lowersKind(chip("gfx942"), InstrKind::simt));
}

TEST(Legality, TmaLoads) {
  // TMA boxes: K-major tiles of 128-byte rows, at most 256 rows a box;
  // MN-major tiles in 128-byte panels (64 f16 columns), BK rows each.
  TmaBox k = tmaBox(/*mn=*/256, /*bk=*/64, /*kContiguous=*/true, 2);
  EXPECT_EQ(k.outer, 256);
  EXPECT_EQ(k.inner, 64);
  EXPECT_EQ(k.count, 1);
  EXPECT_TRUE(k.kInner);
  k = tmaBox(512, 64, true, 2);
  EXPECT_EQ(k.count, 2);
  EXPECT_EQ(k.mnStep(), 256);
  TmaBox mn = tmaBox(256, 64, /*kContiguous=*/false, 2);
  EXPECT_EQ(mn.outer, 64);
  EXPECT_EQ(mn.inner, 64);
  EXPECT_EQ(mn.count, 4);
  EXPECT_EQ(mn.mnStep(), 64);
  EXPECT_EQ(mn.elems(), 64 * 64);
  // Not 128-byte rows, or a partial panel: no boxes.
  EXPECT_EQ(tmaBox(128, 32, true, 2).count, 0);
  EXPECT_EQ(tmaBox(32, 64, false, 2).count, 0);
  EXPECT_EQ(tmaBox(128, 128, true, 1).count, 1); // i8: 128 per row

  const TargetInfo &sm90a = chip("sm_90a");
  TileConfig c = wgmma();
  c.tmaLoad = true;
  EXPECT_EQ(checkConfig(c, f16tn, sm90a), "");
  EXPECT_EQ(checkConfig(c, sig(ElemKind::f16, ElemKind::f32, true, false),
                        sm90a),
            "");
  EXPECT_EQ(estimateSharedMemory(c, 2), estimateSharedMemory(wgmma(), 2) + 32);
  // Multicast pairs: each block loads half of B's tile, so B's boxes
  // split in two equal parts (a 256-row K-major tile in two boxes of 128
  // rows; MN-major panels two a part); a producer warpgroup issues them.
  TmaBox half = tmaBox(256, 64, true, 2, /*parts=*/2);
  EXPECT_EQ(half.outer, 128);
  EXPECT_EQ(half.count, 2);
  EXPECT_EQ(tmaBox(256, 64, false, 2, 2).count, 4);
  EXPECT_EQ(tmaBox(64, 64, false, 2, 2).count, 0); // half a panel
  EXPECT_EQ(tmaBox(256, 64, true, 2, 3).count, 0); // not equal parts
  TileConfig mc = c;
  mc.producerWarp = true, mc.multicast = 2;
  EXPECT_EQ(checkConfig(mc, f16tn, sm90a), "");
  EXPECT_EQ(
      checkConfig(mc, sig(ElemKind::f16, ElemKind::f32, false, false), sm90a),
      "");
  EXPECT_NE(mc.str().find("multicast = 2"), std::string::npos);
  // Persistent blocks walk their tiles in pairs; pingpong teams do not.
  TileConfig mp = mc;
  mp.persistent = true;
  EXPECT_EQ(checkConfig(mp, f16tn, sm90a), "");
  mp.pingpong = true, mp.wm = 1;
  EXPECT_EQ(checkConfigStructure(mp),
            "'multicast = 2' does not combine with 'schedule = pingpong'");
  mc.multicast = 3;
  EXPECT_EQ(checkConfigStructure(mc),
            "expected 'multicast' to be 1 or 2, got 3");
  mc = c, mc.multicast = 2;
  EXPECT_EQ(checkConfigStructure(mc), "'multicast = 2' needs 'load = tma_ws'");
  mc.bn = 64, mc.in = 64, mc.producerWarp = true;
  EXPECT_NE(
      checkConfig(mc, sig(ElemKind::f16, ElemKind::f32, false, false), sm90a)
          .find("B's in 2 equal parts for 'multicast'"),
      std::string::npos);
  // wgmma only.
  TileConfig m = mmaSync();
  m.tmaLoad = true;
  EXPECT_EQ(checkConfigStructure(m),
            "'load = tma' needs kind = wgmma, got kind = mma_sync");
  // Warp-specialized: a producer warpgroup more, its barriers, at most
  // three compute warpgroups, 2+ stages, no cluster reduction.
  TileConfig ws = wgmma();
  ws.tmaLoad = true, ws.producerWarp = true;
  EXPECT_EQ(checkConfig(ws, f16tn, sm90a), "");
  EXPECT_EQ(ws.blockWarps(), 12);
  EXPECT_EQ(ws.str().find("load = tma_ws") != std::string::npos, true);
  EXPECT_EQ(estimateSharedMemory(ws, 2), estimateSharedMemory(wgmma(), 2) + 64);
  ws.wm = 4, ws.bm = 256;
  EXPECT_EQ(checkConfigStructure(ws),
            "'load = tma_ws' takes at most 3 consumer warpgroups, got 4");
  // setmaxnreg's shares: 40 for the producer, the rest in multiples of 8,
  // at most 232 (64K registers = 128 threads x 512).
  EXPECT_EQ(tmaWsConsumerRegisters(sm90a, 1), 232);
  EXPECT_EQ(tmaWsConsumerRegisters(sm90a, 2), 232);
  EXPECT_EQ(tmaWsConsumerRegisters(sm90a, 3), 152);
  EXPECT_LE((kProducerRegisters + 3 * tmaWsConsumerRegisters(sm90a, 3)) *
                kWarpgroupThreads,
            int64_t(sm90a.regsPerSM));
  // Three compute warpgroups of m64n256 f32: legal by the consumers' 152
  // registers, but one instruction (128 + 4) exceeds the 128 of the launch
  // bound, in which ptxas compiles it; m64n128 fits.
  ws = wgmma(), ws.tmaLoad = true, ws.producerWarp = true;
  ws.wm = 3, ws.bm = 192;
  EXPECT_EQ(checkConfig(ws, f16tn, sm90a),
            "'load = tma_ws' block of 512 threads: one 64x256x16 wgmma needs "
            "132 registers per thread (accumulators and descriptors), over "
            "the 128 each thread gets on sm_90a");
  ws.bn = 128, ws.in = 128;
  EXPECT_EQ(checkConfig(ws, f16tn, sm90a), "");
  ws = wgmma(), ws.tmaLoad = true, ws.producerWarp = true, ws.stages = 1;
  EXPECT_EQ(checkConfigStructure(ws),
            "'load = tma_ws' needs at least 2 stages, got 1");
  ws.stages = 4, ws.splitK = 2, ws.clusterReduce = true;
  EXPECT_EQ(checkConfigStructure(ws),
            "'load = tma_ws' does not combine with 'reduction = cluster'");
  ws.producerWarp = false;
  EXPECT_EQ(checkConfigStructure(ws),
            "'load = tma' does not combine with 'reduction = cluster'");
  ws.tmaLoad = false;
  EXPECT_EQ(checkConfigStructure(ws), "");
  // Pingpong: two teams of the warp grid beside the producer, two more
  // barriers (the turns), tma_ws and no split-K; the teams count as
  // consumer warpgroups.
  TileConfig pp = wgmma();
  pp.tmaLoad = true, pp.producerWarp = true, pp.pingpong = true,
  pp.persistent = true;
  pp.wm = 1, pp.bm = 128, pp.bn = 128, pp.in = 128;
  EXPECT_EQ(checkConfig(pp, f16tn, sm90a), "");
  EXPECT_EQ(pp.teams(), 2);
  EXPECT_EQ(pp.blockWarps(), 12);
  EXPECT_NE(pp.str().find("load = tma_ws, schedule = pingpong"),
            std::string::npos);
  TileConfig ppTile = pp;
  ppTile.pingpong = false, ppTile.persistent = false;
  EXPECT_EQ(estimateSharedMemory(pp, 2), estimateSharedMemory(ppTile, 2) + 16);
  EXPECT_NE(pp, ppTile);
  pp.wm = 2, pp.bm = 256;
  EXPECT_EQ(checkConfigStructure(pp),
            "'load = tma_ws' takes at most 3 consumer warpgroups, got 4");
  pp.wm = 1, pp.bm = 128, pp.splitK = 2;
  EXPECT_EQ(checkConfigStructure(pp),
            "'schedule = pingpong' does not combine with split_k = 2");
  pp.splitK = 1, pp.producerWarp = false;
  EXPECT_EQ(checkConfigStructure(pp),
            "'schedule = pingpong' needs 'load = tma_ws'");
  // Persistent with one team: the block's warps, no turn barrier.
  TileConfig ps = wgmma();
  ps.tmaLoad = true, ps.producerWarp = true, ps.persistent = true;
  EXPECT_EQ(checkConfig(ps, f16tn, sm90a), "");
  EXPECT_EQ(ps.teams(), 1);
  EXPECT_NE(ps.str().find("schedule = persistent"), std::string::npos);
  ps.producerWarp = false;
  EXPECT_EQ(checkConfigStructure(ps),
            "'schedule = persistent' needs 'load = tma_ws'");
  // A 32-wide B tile stored N-major is half a panel.
  c.bn = 32, c.in = 32;
  EXPECT_FALSE(tmaLoadsTiles(c, sig(ElemKind::f16, ElemKind::f32, false,
                                    false)));
  EXPECT_TRUE(tmaLoadsTiles(c, f16tn));
  EXPECT_EQ(checkConfigOnTarget(c, sig(ElemKind::f16, ElemKind::f32, false,
                                       false),
                                sm90a),
            "'load = tma' cannot read the nn tiles of block 128x32x64 in TMA "
            "boxes (rows of 128 bytes, at most 256 of them)");
}

TEST(Legality, Fp8PromotionCoversTwoKTilesWhereRegistersAllow) {
  // 256 of K per partial sum: two k-tiles of 128, four of 64, with one
  // group of MMAs in flight (3 or more stages) and at most two compute
  // warpgroups (three get 152 registers, too few to keep a partial sum in
  // flight).
  EXPECT_EQ(wgmmaPromotionKTiles(128, 6, 2), 2);
  EXPECT_EQ(wgmmaPromotionKTiles(128, 3, 1), 2);
  EXPECT_EQ(wgmmaPromotionKTiles(64, 4, 2), 4);
  EXPECT_EQ(wgmmaPromotionKTiles(128, 4, 3), 1);
  EXPECT_EQ(wgmmaPromotionKTiles(128, 2, 2), 1);
  EXPECT_EQ(wgmmaPromotionKTiles(256, 4, 2), 1);
  EXPECT_EQ(wgmmaPromotionKTiles(96, 4, 2), 1);
}

TEST(Legality, Fp8PromotionTakesASecondSetOfAccumulators) {
  // f8 with a warpgroup N of at most 128 promotes its partial sums: two
  // sets of accumulators (64 registers each for m64n128); wider, or another
  // type, one set.
  TileConfig c = wgmma();
  c.bn = 128, c.in = 128, c.bk = 128, c.ik = 32, c.stages = 6;
  EXPECT_TRUE(wgmmaPromotesPartialSums(ElemKind::f8E4M3FN, 128));
  EXPECT_TRUE(wgmmaPromotesPartialSums(ElemKind::f8E5M2, 64));
  EXPECT_FALSE(wgmmaPromotesPartialSums(ElemKind::f8E4M3FN, 256));
  EXPECT_FALSE(wgmmaPromotesPartialSums(ElemKind::i8, 128));
  EXPECT_FALSE(wgmmaPromotesPartialSums(ElemKind::f16, 128));
  EXPECT_EQ(accumulatorSets(c, ElemKind::f8E4M3FN), 2);
  EXPECT_EQ(accumulatorSets(c, ElemKind::i8), 1);
  EXPECT_EQ(accumulatorRegisters(c, 4, 32, 2), 128);
  TileConfig mma = mmaSync();
  mma.in = 8;
  EXPECT_EQ(accumulatorSets(mma, ElemKind::f8E4M3FN), 1);
  const TargetInfo &sm90a = chip("sm_90a");
  GemmSignature f8 = sig(ElemKind::f8E4M3FN, ElemKind::f32);
  EXPECT_EQ(checkConfig(c, f8, sm90a), "");
  // A promoted m64n128 block of four warpgroups would need 128 registers of
  // accumulators a thread, all of the 128 each of 512 threads gets.
  c.bm = 256, c.wm = 4, c.stages = 4;
  EXPECT_EQ(checkConfig(c, f8, sm90a),
            "config's accumulators take 128 registers per thread, at least "
            "the 128 each of a block's 512 threads gets on sm_90a");
  // m64n192 promotes too: two compute warpgroups (232 registers each
  // after setmaxnreg) hold its 2 x 96; three (152 each) do not.
  EXPECT_TRUE(wgmmaPromotesPartialSums(ElemKind::f8E4M3FN, 192));
  TileConfig n192 = wgmma();
  n192.bm = 128, n192.wm = 2, n192.bn = 192, n192.in = 192, n192.bk = 128,
  n192.ik = 32, n192.stages = 4, n192.tmaLoad = true, n192.producerWarp = true;
  EXPECT_EQ(accumulatorRegisters(n192, 4, 32, 2), 192);
  EXPECT_EQ(checkConfig(n192, f8, sm90a), "");
  n192.bm = 192, n192.wm = 3;
  EXPECT_EQ(checkConfig(n192, f8, sm90a),
            "config's accumulators take 192 registers per thread, at least "
            "the 152 each of a block's 512 threads gets on sm_90a");
  // wgmma reads its operands from shared memory: no fragment registers.
  EXPECT_EQ(estimateRegisters(wgmma(), 2, 4, 32), 128 + 40);
}

TEST(Legality, F8PairsRefusedOnTransposedOperands) {
  // Two compute warpgroups and 3+ stages promote over two k-tiles (128 K
  // each): refused on operands copied transposed; three warpgroups, two
  // stages, persistent blocks and the other types promote every k-tile or
  // not at all.
  TileConfig c = wgmma();
  c.bm = 128, c.wm = 2, c.bn = 192, c.in = 192, c.bk = 128, c.ik = 32;
  c.stages = 4, c.tmaLoad = true, c.producerWarp = true;
  EXPECT_EQ(promotionKTiles(c, ElemKind::f8E4M3FN), 2);
  EXPECT_EQ(checkConfigOnTransposedOperands(c, ElemKind::f8E4M3FN),
            "f8 tile of 2 compute warpgroups and stages = 4 is not supported "
            "on operands copied transposed (tiles of 3 compute warpgroups or "
            "of at most 2 stages run there)");
  EXPECT_EQ(checkConfigOnTransposedOperands(c, ElemKind::i8), "");
  TileConfig two = c;
  two.stages = 2;
  EXPECT_EQ(promotionKTiles(two, ElemKind::f8E4M3FN), 1);
  EXPECT_EQ(checkConfigOnTransposedOperands(two, ElemKind::f8E4M3FN), "");
  TileConfig three = c;
  three.bm = 192, three.wm = 3, three.bn = 128, three.in = 128;
  EXPECT_EQ(checkConfigOnTransposedOperands(three, ElemKind::f8E4M3FN), "");
  // Persistent blocks promote every k-tile but are refused too (not run
  // on transposed operands); unpromoted N = 256 tiles are not.
  TileConfig persistent = c;
  persistent.persistent = true;
  EXPECT_EQ(promotionKTiles(persistent, ElemKind::f8E5M2), 1);
  EXPECT_NE(checkConfigOnTransposedOperands(persistent, ElemKind::f8E5M2), "");
  TileConfig wide = c;
  wide.bn = 256, wide.in = 256;
  EXPECT_EQ(promotionKTiles(wide, ElemKind::f8E4M3FN), 1);
  EXPECT_EQ(checkConfigOnTransposedOperands(wide, ElemKind::f8E4M3FN), "");
}
