//===- DefaultConfigTest.cpp - tests of gemm/Tuning/DefaultConfig.h -------===//
//
// Every default is legal for its signature wherever a lowering exists for
// the types, and the NVIDIA defaults are the configs measured best.
//
//===----------------------------------------------------------------------===//

#include "gemm/Tuning/DefaultConfig.h"
#include "gemm/Target/Legality.h"
#include "gemm/Utils/MfmaLayout.h"
#include "gtest/gtest.h"

using namespace mlir::gemm;

namespace {
/// True if some kernel of `target`'s lowering takes `sig`'s types.
bool hasLoweringFor(const GemmSignature &sig, const TargetInfo &target) {
  if (target.isNVIDIA())
    return !isFloat8(sig.a) ||
           (target.supportsKind(InstrKind::wgmma) && !sig.transA && sig.transB);
  for (const MmaShape &s : mfmaLoweredShapes(target, sig.a))
    if (s.acc == sig.acc && s.blocks == 1)
      return true;
  return false;
}
} // namespace

TEST(DefaultConfig, LegalForEverySignatureThatLowers) {
  const std::pair<ElemKind, ElemKind> types[] = {
      {ElemKind::f16, ElemKind::f32},      {ElemKind::f16, ElemKind::f16},
      {ElemKind::bf16, ElemKind::f32},     {ElemKind::f32, ElemKind::f32},
      {ElemKind::f64, ElemKind::f64},      {ElemKind::i8, ElemKind::i32},
      {ElemKind::f8E4M3FN, ElemKind::f32}, {ElemKind::f8E5M2, ElemKind::f32}};
  unsigned checked = 0;
  for (const TargetInfo &target : allTargets())
    for (auto [a, acc] : types)
      for (bool transA : {false, true})
        for (bool transB : {false, true})
          for (bool allowTf32 : {false, true}) {
            GemmSignature sig;
            sig.a = a, sig.acc = acc, sig.transA = transA, sig.transB = transB;
            TileConfig c = getDefaultConfig(sig, target, allowTf32);
            std::string where = target.name.str() + " " +
                                stringifyElemKind(a).str() + " " +
                                sig.layoutName().str() + ": " + c.str();
            EXPECT_EQ(checkConfigStructure(c), "") << where;
            if (!hasLoweringFor(sig, target))
              continue;
            EXPECT_EQ(checkConfig(c, sig, target), "") << where;
            // Exact f32 stays off tensor cores unless tf32 is allowed.
            if (a == ElemKind::f32 && !allowTf32) {
              EXPECT_NE(instrOperandKind(a, c.kind), ElemKind::tf32) << where;
            }
            ++checked;
          }
  EXPECT_GT(checked, 200u);
}

TEST(DefaultConfig, MeasuredNVIDIADefaults) {
  GemmSignature f16tn;
  // sm_90: 128x128x64 mma.sync, 2x2 warps, 3 stages.
  TileConfig c = getDefaultConfig(f16tn, *lookupTarget("sm_90"), false);
  EXPECT_EQ(c.str(), "#gemm.config<kind = mma_sync, block = [128, 128, 64], "
                     "warps = [2, 2], instr = [16, 8, 16], stages = 3, smem = "
                     "swizzle, raster = row, group = 8>");
  // sm_90a: 128x256 wgmma of two warpgroups, 4 stages.
  c = getDefaultConfig(f16tn, *lookupTarget("sm_90a"), false);
  EXPECT_EQ(c.str(), "#gemm.config<kind = wgmma, block = [128, 256, 64], "
                     "warps = [2, 1], instr = [64, 256, 16], stages = 4, smem "
                     "= swizzle, raster = row, group = 8, load = tma>");
  // f8 on sm_90a: promoted partial sums (m64n128), three compute
  // warpgroups beside a producer.
  GemmSignature f8tn;
  f8tn.a = ElemKind::f8E4M3FN;
  c = getDefaultConfig(f8tn, *lookupTarget("sm_90a"), false);
  EXPECT_EQ(c.str(), "#gemm.config<kind = wgmma, block = [192, 128, 128], "
                     "warps = [3, 1], instr = [64, 128, 32], stages = 4, smem "
                     "= swizzle, raster = row, group = 8, load = tma_ws>");
  EXPECT_EQ(checkConfig(c, f8tn, *lookupTarget("sm_90a")), "");
  // tf32 only when allowed, and on wgmma only for tn.
  GemmSignature f32nn;
  f32nn.a = ElemKind::f32, f32nn.transB = false;
  EXPECT_EQ(getDefaultConfig(f32nn, *lookupTarget("sm_90a"), false).kind,
            InstrKind::simt);
  EXPECT_EQ(getDefaultConfig(f32nn, *lookupTarget("sm_90a"), true).kind,
            InstrKind::mma_sync);
}

namespace {
GemmSignature signature(ElemKind a, ElemKind acc, bool transA, bool transB) {
  GemmSignature sig;
  sig.a = a;
  sig.acc = acc;
  sig.transA = transA;
  sig.transB = transB;
  return sig;
}
} // namespace

// wgmma reads tf32, i8 and f8 K-major only: on sm_90a the MN-major operands
// of those types are transposed, for wgmma kernels only.
TEST(DefaultConfig, OperandTransposes) {
  const TargetInfo &hopper = *lookupTarget("sm_90a");
  const TargetInfo &ampere = *lookupTarget("sm_80");
  auto t = [&](ElemKind a, ElemKind acc, bool transA, bool transB,
               bool allowTf32 = false, InstrKind kind = InstrKind::wgmma,
               const TargetInfo *target = nullptr) {
    OperandTransposes r =
        getOperandTransposes(signature(a, acc, transA, transB),
                             target ? *target : hopper, allowTf32, kind);
    return std::make_pair(r.a, r.b);
  };
  using P = std::pair<bool, bool>;
  // Layouts: nn (A M x K, B K x N), nt (A K x M), tn, tt (B N x K).
  EXPECT_EQ(t(ElemKind::i8, ElemKind::i32, false, false), P(false, true));
  EXPECT_EQ(t(ElemKind::i8, ElemKind::i32, true, false), P(true, true));
  EXPECT_EQ(t(ElemKind::i8, ElemKind::i32, false, true), P(false, false));
  EXPECT_EQ(t(ElemKind::i8, ElemKind::i32, true, true), P(true, false));
  EXPECT_EQ(t(ElemKind::f8E4M3FN, ElemKind::f32, false, false), P(false, true));
  EXPECT_EQ(t(ElemKind::f32, ElemKind::f32, false, false, true),
            P(false, true));
  // f32 without tf32, f16 (read MN-major too), mma.sync kernels and chips
  // without wgmma: nothing.
  EXPECT_EQ(t(ElemKind::f32, ElemKind::f32, false, false), P(false, false));
  EXPECT_EQ(t(ElemKind::f16, ElemKind::f32, false, false), P(false, false));
  EXPECT_EQ(
      t(ElemKind::i8, ElemKind::i32, false, false, false, InstrKind::mma_sync),
      P(false, false));
  EXPECT_EQ(t(ElemKind::i8, ElemKind::i32, false, false, false,
              InstrKind::wgmma, &ampere),
            P(false, false));
}

TEST(DefaultConfig, KernelSignatureAndBounds) {
  GemmSignature nn = signature(ElemKind::i8, ElemKind::i32, false, false);
  OperandTransposes b;
  b.b = true;
  GemmSignature k = getKernelSignature(nn, b);
  EXPECT_FALSE(k.transA);
  EXPECT_TRUE(k.transB);
  EXPECT_EQ(getKernelSignature(nn, OperandTransposes()).transB, false);
  // A transposed B: bounded on M; 1-byte types at 256, tf32 at 128.
  EXPECT_EQ(getUntransposedBounds(nn, b).mMax, std::optional<int64_t>(255));
  EXPECT_EQ(getTransposedBounds(nn, b).mMin, std::optional<int64_t>(256));
  EXPECT_FALSE(getTransposedBounds(nn, b).nMin);
  GemmSignature tt = signature(ElemKind::f32, ElemKind::f32, true, true);
  OperandTransposes a;
  a.a = true;
  EXPECT_EQ(getUntransposedBounds(tt, a).nMax, std::optional<int64_t>(127));
  EXPECT_EQ(getTransposedBounds(tt, a).nMin, std::optional<int64_t>(128));
  EXPECT_FALSE(getTransposedBounds(tt, a).mMin);
  // The two bounds partition the sizes.
  for (int64_t m : {1, 127, 128, 255, 256, 4096}) {
    bool small = getUntransposedBounds(nn, b).holds(m, 64, 64, 1, 64, 64);
    bool large = getTransposedBounds(nn, b).holds(m, 64, 64, 1, 64, 64);
    EXPECT_NE(small, large) << "M = " << m;
  }
}
