//===- TargetInfoTest.cpp - tests of the target table ---------------------===//

#include "gemm/Target/TargetInfo.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Triple.h"
#include "gtest/gtest.h"
#include <memory>
#include <set>

using namespace mlir::gemm;

TEST(TargetInfo, KnowsEveryRequiredChip) {
  for (const char *name : {"sm_80", "sm_86", "sm_89", "sm_90", "sm_90a",
                           "gfx90a", "gfx942", "gfx950"})
    EXPECT_NE(lookupTarget(name), nullptr) << name;
  EXPECT_EQ(lookupTarget("sm_100x"), nullptr);
  EXPECT_EQ(lookupTarget(""), nullptr);
}

TEST(TargetInfo, H200Limits) {
  const TargetInfo *t = lookupTarget("sm_90");
  ASSERT_NE(t, nullptr);
  EXPECT_TRUE(t->isNVIDIA());
  EXPECT_EQ(t->warpSize, 32u);
  EXPECT_EQ(t->maxSharedMemPerBlock, 227u * 1024u);
  EXPECT_EQ(t->numSMs, 132u);
  EXPECT_EQ(t->minPtxVersion, 78u);
  EXPECT_TRUE(t->hasCpAsync);
}

TEST(TargetInfo, WaveSizeAndLds) {
  for (const TargetInfo &t : allTargets())
    EXPECT_EQ(t.warpSize, t.isAMD() ? 64u : 32u) << t.name.str();
  EXPECT_EQ(lookupTarget("gfx942")->maxSharedMemPerBlock, 64u * 1024u);
  EXPECT_EQ(lookupTarget("gfx950")->maxSharedMemPerBlock, 160u * 1024u);
}

TEST(TargetInfo, MmaSyncShapes) {
  const TargetInfo *t = lookupTarget("sm_80");
  EXPECT_TRUE(t->hasShape(InstrKind::mma_sync, ElemKind::f16, ElemKind::f32,
                          16, 8, 16));
  EXPECT_TRUE(t->hasShape(InstrKind::mma_sync, ElemKind::tf32, ElemKind::f32,
                          16, 8, 8));
  EXPECT_TRUE(t->hasShape(InstrKind::mma_sync, ElemKind::i8, ElemKind::i32,
                          16, 8, 32));
  EXPECT_TRUE(t->hasShape(InstrKind::mma_sync, ElemKind::f64, ElemKind::f64,
                          8, 8, 4));
  EXPECT_FALSE(t->hasShape(InstrKind::mma_sync, ElemKind::bf16,
                           ElemKind::bf16, 16, 8, 16));
  // fp8 mma.sync needs sm_89.
  EXPECT_FALSE(t->hasShape(InstrKind::mma_sync, ElemKind::f8E4M3FN,
                           ElemKind::f32, 16, 8, 32));
  EXPECT_TRUE(lookupTarget("sm_89")->hasShape(
      InstrKind::mma_sync, ElemKind::f8E4M3FN, ElemKind::f32, 16, 8, 32));
}

TEST(TargetInfo, WgmmaOnlyOnSm90a) {
  EXPECT_FALSE(lookupTarget("sm_90")->supportsKind(InstrKind::wgmma));
  const TargetInfo *t = lookupTarget("sm_90a");
  EXPECT_TRUE(t->supportsKind(InstrKind::wgmma));
  EXPECT_TRUE(
      t->hasShape(InstrKind::wgmma, ElemKind::f16, ElemKind::f32, 64, 128, 16));
  EXPECT_TRUE(
      t->hasShape(InstrKind::wgmma, ElemKind::f16, ElemKind::f32, 64, 8, 16));
  EXPECT_FALSE(
      t->hasShape(InstrKind::wgmma, ElemKind::f16, ElemKind::f32, 64, 12, 16));
  EXPECT_FALSE(
      t->hasShape(InstrKind::wgmma, ElemKind::f16, ElemKind::f32, 64, 264, 16));
}

TEST(TargetInfo, MfmaPerChip) {
  auto has = [](const char *chip, ElemKind e, ElemKind acc, unsigned m,
                unsigned n, unsigned k) {
    return lookupTarget(chip)->hasShape(InstrKind::mfma, e, acc, m, n, k);
  };
  EXPECT_TRUE(has("gfx90a", ElemKind::f32, ElemKind::f32, 16, 16, 4));
  EXPECT_TRUE(has("gfx90a", ElemKind::f16, ElemKind::f32, 32, 32, 8));
  EXPECT_TRUE(has("gfx90a", ElemKind::f64, ElemKind::f64, 4, 4, 4));
  EXPECT_FALSE(has("gfx90a", ElemKind::f8E4M3FN, ElemKind::f32, 16, 16, 32));
  // gfx942's fp8 MFMAs read FNUZ encodings, not the dialect's OCP types.
  EXPECT_FALSE(has("gfx942", ElemKind::f8E4M3FN, ElemKind::f32, 16, 16, 32));
  EXPECT_TRUE(has("gfx950", ElemKind::f8E4M3FN, ElemKind::f32, 16, 16, 32));
  EXPECT_TRUE(has("gfx942", ElemKind::i8, ElemKind::i32, 16, 16, 32));
  EXPECT_TRUE(has("gfx950", ElemKind::f16, ElemKind::f32, 16, 16, 32));
  EXPECT_FALSE(has("gfx950", ElemKind::tf32, ElemKind::f32, 16, 16, 8));
  EXPECT_FALSE(lookupTarget("sm_90")->supportsKind(InstrKind::mfma));
  EXPECT_FALSE(lookupTarget("gfx942")->supportsKind(InstrKind::mma_sync));
}

TEST(TargetInfo, PtxVersion) {
  const TargetInfo *sm90 = lookupTarget("sm_90");
  EXPECT_EQ(choosePtxVersion(*sm90, std::nullopt), 84u);
  EXPECT_EQ(choosePtxVersion(*sm90, 80u), 80u);
  EXPECT_EQ(choosePtxVersion(*sm90, 60u), std::nullopt);
  EXPECT_EQ(choosePtxVersion(*lookupTarget("sm_80"), std::nullopt), 80u);
  EXPECT_EQ(choosePtxVersion(*lookupTarget("sm_80"), 70u), 70u);
}

TEST(TargetInfo, ElemBytes) {
  EXPECT_EQ(elemBytes(ElemKind::f16), 2u);
  EXPECT_EQ(elemBytes(ElemKind::tf32), 4u);
  EXPECT_EQ(elemBytes(ElemKind::f8E5M2), 1u);
  EXPECT_EQ(elemBytes(ElemKind::f64), 8u);
  EXPECT_TRUE(isFloat8(ElemKind::f8E4M3FN));
  EXPECT_FALSE(isFloat8(ElemKind::i8));
}

TEST(TargetInfo, WgmmaNStepsFollowThePtxIsa) {
  const TargetInfo &t = *lookupTarget("sm_90a");
  using K = InstrKind;
  using E = ElemKind;
  // f16/bf16/tf32: N is any multiple of 8 up to 256.
  for (unsigned n : {8u, 40u, 136u, 248u, 256u})
    EXPECT_TRUE(t.hasShape(K::wgmma, E::f16, E::f32, 64, n, 16)) << n;
  EXPECT_FALSE(t.hasShape(K::wgmma, E::f16, E::f32, 64, 264, 16));
  EXPECT_FALSE(t.hasShape(K::wgmma, E::f16, E::f32, 64, 12, 16));
  // s8: 8, 16, 24, then multiples of 16 up to 256.
  for (unsigned n : {8u, 16u, 24u, 32u, 48u, 80u, 256u})
    EXPECT_TRUE(t.hasShape(K::wgmma, E::i8, E::i32, 64, n, 32)) << n;
  for (unsigned n : {40u, 56u, 72u, 248u})
    EXPECT_FALSE(t.hasShape(K::wgmma, E::i8, E::i32, 64, n, 32)) << n;
  // Not on plain sm_90.
  EXPECT_FALSE(lookupTarget("sm_90")->hasShape(K::wgmma, E::f16, E::f32, 64,
                                               256, 16));
}

// The PTX versions checkNVIDIATarget accepts are exactly the "ptxNN"
// features of the NVPTX backend we link: a version LLVM does not know is
// ignored with a warning (and an older one emitted), one it knows but we
// refused would be a needless error.
TEST(TargetInfo, KnownPtxVersionsAreLLVMs) {
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTargetMC();
  llvm::Triple triple("nvptx64-nvidia-cuda");
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  ASSERT_TRUE(target) << error;
  std::unique_ptr<llvm::MCSubtargetInfo> sti(
      target->createMCSubtargetInfo(triple, "sm_90", ""));
  ASSERT_TRUE(sti);
  std::set<unsigned> llvmVersions;
  for (const llvm::SubtargetFeatureKV &kv : sti->getAllProcessorFeatures()) {
    llvm::StringRef key(kv.Key);
    unsigned v;
    if (key.consume_front("ptx") && !key.getAsInteger(10, v))
      llvmVersions.insert(v);
  }
  std::set<unsigned> ours(knownPtxVersions().begin(), knownPtxVersions().end());
  EXPECT_EQ(ours, llvmVersions);
  EXPECT_EQ(checkNVIDIATarget("sm_90a", 80), "");
  EXPECT_NE(checkNVIDIATarget("sm_90a", 999).find("is not one LLVM 22 emits"),
            std::string::npos);
  EXPECT_NE(checkNVIDIATarget("sm_90", 79).find("is not one LLVM 22 emits"),
            std::string::npos);
}


TEST(TargetInfo, ResidentBlocksPerSM) {
  // sm_90a: 228 KiB an SM, 227 a block, 1 KiB reserved per block; 64 warps
  // and 32 blocks an SM. The f16 default's 384 threads and 197,632 bytes:
  // one block (a wave is 132 of them); a 128-thread block without shared
  // memory: 16 (warps); 100,000 bytes: 2.
  const TargetInfo &t = *lookupTarget("sm_90a");
  EXPECT_EQ(residentBlocksPerSM(t, 384, 197632), 1);
  EXPECT_EQ(residentBlocksPerSM(t, 128, 0), 16);
  EXPECT_EQ(residentBlocksPerSM(t, 256, 100000), 2);
  EXPECT_EQ(residentBlocksPerSM(t, 32, 0), 32);
  // More than an SM holds still counts one (the launch would fail first).
  EXPECT_EQ(residentBlocksPerSM(t, 1024, 300000), 1);
}
