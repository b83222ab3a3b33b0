//===- TuningDBTest.cpp - tests of the tuning database --------------------===//

#include "gemm/Tuning/TuningDB.h"
#include "llvm/Support/Error.h"
#include "gtest/gtest.h"

using namespace mlir::gemm;

namespace {
std::string entry(const char *arch, const char *dtype, const char *layout,
                  const char *epilogue, int m, int n, int k, int bm,
                  int stages = 3) {
  return std::string("{\"arch\":\"") + arch + "\",\"dtype\":\"" + dtype +
         "\",\"acc\":\"f32\",\"layout\":\"" + layout + "\",\"epilogue\":\"" +
         epilogue + "\",\"m\":" + std::to_string(m) +
         ",\"n\":" + std::to_string(n) + ",\"k\":" + std::to_string(k) +
         ",\"config\":{\"kind\":\"mma_sync\",\"block\":[" + std::to_string(bm) +
         ",128,64],\"warps\":[" +
         std::to_string(bm >= 128 ? bm / 64 : 1) + ",2],\"instr\":[16,8,16],\"stages\":" +
         std::to_string(stages) + ",\"smem\":\"swizzle\",\"group\":8}}";
}

std::string db(const std::string &entries) {
  return "{\"schema\":\"gemm-mlir-tuning-db\",\"version\":1,\"entries\":[" +
         entries + "]}";
}

std::string errorOf(const std::string &text) {
  llvm::Expected<TuningDB> r = parseTuningDB(text);
  if (r)
    return "";
  return llvm::toString(r.takeError());
}
} // namespace

TEST(TuningDB, NearestBucketLookup) {
  llvm::Expected<TuningDB> parsed =
      parseTuningDB(db(entry("sm_90", "f16", "tn", "none", 4096, 4096, 4096, 128) +
                       "," +
                       entry("sm_90", "f16", "tn", "none", 128, 4096, 4096, 64) +
                       "," +
                       entry("sm_90", "f16", "tn", "elementwise", 4096, 4096,
                             4096, 256, 2) +
                       "," +
                       entry("sm_80", "f16", "tn", "none", 64, 64, 64, 32)));
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  GemmProblem p;
  p.m = 4099, p.n = 4097, p.k = 4095;
  std::optional<TuningMatch> m = lookupTuningDB(*parsed, "sm_90", p);
  ASSERT_TRUE(m);
  EXPECT_TRUE(m->exact);
  EXPECT_EQ(m->entry->config.bm, 128);
  // M = 100 is in the 128 bucket (exact); M = 200 in the 256 bucket, nearer
  // 128 (log2 distance 1) than 4096 (distance 4).
  p.m = 100;
  EXPECT_TRUE(lookupTuningDB(*parsed, "sm_90", p)->exact);
  p.m = 200;
  m = lookupTuningDB(*parsed, "sm_90", p);
  ASSERT_TRUE(m);
  EXPECT_FALSE(m->exact);
  EXPECT_EQ(m->entry->config.bm, 64);
  // The epilogue class is matched when the database has it ...
  p.m = 4096;
  p.epilogue = EpilogueClass::elementwise;
  EXPECT_EQ(lookupTuningDB(*parsed, "sm_90", p)->entry->config.bm, 256);
  // ... else entries without epilogue stand in.
  p.epilogue = EpilogueClass::reads_c;
  EXPECT_EQ(lookupTuningDB(*parsed, "sm_90", p)->entry->config.bm, 128);
  // Other chips, types and layouts miss.
  p.epilogue = EpilogueClass::none;
  EXPECT_EQ(lookupTuningDB(*parsed, "sm_80", p)->entry->config.bm, 32);
  EXPECT_FALSE(lookupTuningDB(*parsed, "sm_89", p));
  p.transA = true;
  EXPECT_FALSE(lookupTuningDB(*parsed, "sm_90", p));
  p.transA = false;
  p.a = ElemKind::bf16;
  EXPECT_FALSE(lookupTuningDB(*parsed, "sm_90", p));
}

// 4095 and 4096 share a bucket, but rows of 4095 f16 elements rule out
// 16-byte copies: entries measured with the problem's operand alignment
// win, the others stand in when there are none.
TEST(TuningDB, AlignmentClass) {
  llvm::Expected<TuningDB> parsed = parseTuningDB(
      db(entry("sm_90", "f16", "tn", "none", 4096, 4096, 4096, 128) + "," +
         entry("sm_90", "f16", "tn", "none", 4099, 4097, 4095, 256) + "," +
         entry("sm_90", "f16", "nn", "none", 4096, 4096, 4096, 64)));
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  GemmProblem p;
  p.m = 4096, p.n = 4096, p.k = 4096;
  std::optional<TuningMatch> m = lookupTuningDB(*parsed, "sm_90", p);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->entry->config.bm, 128);
  EXPECT_TRUE(m->sameAlignment);
  // tn with K = 4095: both operands' rows are misaligned, as the 4099 x
  // 4097 x 4095 entry's were (listed second, still chosen).
  p.k = 4095;
  m = lookupTuningDB(*parsed, "sm_90", p);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->entry->config.bm, 256);
  EXPECT_TRUE(m->exact);
  EXPECT_TRUE(m->sameAlignment);
  // Known alignment (padded rows: strides of whole 16 bytes) overrides the
  // shape's; one operand misaligned matches neither entry, so both stand in
  // and the nearest (the first) wins.
  EXPECT_EQ(lookupTuningDB(*parsed, "sm_90", p, true, true)->entry->config.bm,
            128);
  m = lookupTuningDB(*parsed, "sm_90", p, true, false);
  EXPECT_EQ(m->entry->config.bm, 128);
  EXPECT_FALSE(m->sameAlignment);
  // nn with a misaligned B (N = 4097): no such entry, the aligned one
  // stands in.
  ASSERT_TRUE(parseLayout("nn", p.transA, p.transB));
  p.k = 4096, p.n = 4097;
  m = lookupTuningDB(*parsed, "sm_90", p);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->entry->config.bm, 64);
  EXPECT_FALSE(m->sameAlignment);
}

TEST(TuningDB, Diagnostics) {
  EXPECT_EQ(errorOf(db("")), "");
  EXPECT_NE(errorOf("{").find("malformed tuning database"), std::string::npos);
  EXPECT_EQ(errorOf("{\"schema\":\"x\",\"version\":1,\"entries\":[]}"),
            "tuning database schema is 'x', expected 'gemm-mlir-tuning-db'");
  EXPECT_EQ(errorOf("{\"schema\":\"gemm-mlir-tuning-db\",\"version\":7,"
                    "\"entries\":[]}"),
            "tuning database version 7 is not supported (expected 1)");
  EXPECT_EQ(errorOf(db(entry("sm_99", "f16", "tn", "none", 1, 1, 1, 128))),
            "tuning database entry #0: unknown chip 'sm_99' (known: sm_80, "
            "sm_86, sm_89, sm_90, sm_90a, gfx90a, gfx942, gfx950)");
  EXPECT_EQ(errorOf(db(entry("sm_90", "f16", "tx", "none", 1, 1, 1, 128))),
            "tuning database entry #0: unknown layout 'tx'");
  EXPECT_EQ(errorOf(db(entry("sm_90", "f16", "tn", "fused", 1, 1, 1, 128))),
            "tuning database entry #0: unknown epilogue class 'fused' "
            "(expected none, elementwise or reads_c)");
  // BM = 100 on one warp row: a 100-row warp tile, not a multiple of 16.
  EXPECT_NE(errorOf(db(entry("sm_90", "f16", "tn", "none", 1, 1, 1, 100)))
                .find("tuning database entry #0: config "),
            std::string::npos);
  // 256 x 128 x 64 in 8 stages needs 384 KiB of shared memory.
  EXPECT_NE(errorOf(db(entry("sm_90", "f16", "tn", "none", 1, 1, 1, 256, 8)))
                .find("needs 393216 bytes of shared memory per block, over the 232448"),
            std::string::npos);
}

TEST(TuningDB, Schedule) {
  auto pingpong = [](const char *schedule) {
    return std::string(
               "{\"arch\":\"sm_90a\",\"dtype\":\"f16\",\"acc\":\"f32\","
               "\"layout\":\"tn\",\"epilogue\":\"none\",\"m\":4096,\"n\":4096,"
               "\"k\":4096,\"config\":{\"kind\":\"wgmma\",\"block\":[128,128,"
               "64],\"warps\":[1,1],\"instr\":[64,128,16],\"stages\":4,"
               "\"load\":\"tma_ws\",\"schedule\":") +
           schedule + "}}";
  };
  llvm::Expected<TuningDB> r = parseTuningDB(db(pingpong("\"pingpong\"")));
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  ASSERT_EQ(r->entries.size(), 1u);
  EXPECT_TRUE(r->entries[0].config.pingpong);
  EXPECT_TRUE(r->entries[0].config.persistent);
  r = parseTuningDB(db(pingpong("\"persistent\"")));
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  EXPECT_FALSE(r->entries[0].config.pingpong);
  EXPECT_TRUE(r->entries[0].config.persistent);
  EXPECT_EQ(errorOf(db(pingpong("\"cooperative\""))),
            "tuning database entry #0: invalid config field 'schedule'");
  EXPECT_EQ(errorOf(db(pingpong("2"))),
            "tuning database entry #0: invalid config field 'schedule'");
}

TEST(TuningDB, Multicast) {
  auto pairs = [](const char *multicast) {
    return std::string(
               "{\"arch\":\"sm_90a\",\"dtype\":\"f16\",\"acc\":\"f32\","
               "\"layout\":\"tn\",\"epilogue\":\"none\",\"m\":8192,\"n\":8192,"
               "\"k\":8192,\"config\":{\"kind\":\"wgmma\",\"block\":[128,256,"
               "64],\"warps\":[2,1],\"instr\":[64,256,16],\"stages\":4,"
               "\"group\":8,\"load\":\"tma_ws\",\"multicast\":") +
           multicast + "}}";
  };
  llvm::Expected<TuningDB> r = parseTuningDB(db(pairs("2")));
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  ASSERT_EQ(r->entries.size(), 1u);
  EXPECT_EQ(r->entries[0].config.multicast, 2);
  EXPECT_EQ(errorOf(db(pairs("\"2\""))),
            "tuning database entry #0: invalid config field 'multicast'");
  EXPECT_NE(
      errorOf(db(pairs("3"))).find("expected 'multicast' to be 1 or 2, got 3"),
      std::string::npos);
}
