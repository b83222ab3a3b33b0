//===- PatternsTest.cpp - the lowering patterns in someone else's pass ----===//
//
// populateGemmToNVGPUPatterns / populateGemmToAMDGPUPatterns applied by a
// plain dialect conversion, as an embedding compiler would, without the
// passes' up-front checks: the patterns must check their own preconditions
// and report what they cannot lower at the op.
//
//===----------------------------------------------------------------------===//

#include "gemm/Conversion/GemmToAMDGPU/GemmToAMDGPU.h"
#include "gemm/Conversion/GemmToNVGPU/GemmToNVGPU.h"
#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Transforms/DialectConversion.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::gemm;

namespace {
struct PatternsTest : ::testing::Test {
  PatternsTest() {
    // What an embedding pass declares as its dependent dialects: those of
    // convert-gemm-to-nvgpu and convert-gemm-to-amdgpu.
    ctx.loadDialect<GemmDialect, func::FuncDialect, amdgpu::AMDGPUDialect,
                    arith::ArithDialect, gpu::GPUDialect, math::MathDialect,
                    memref::MemRefDialect, NVVM::NVVMDialect,
                    nvgpu::NVGPUDialect, ROCDL::ROCDLDialect, scf::SCFDialect,
                    vector::VectorDialect>();
  }

  /// Converts `text` with `populate`'s patterns; returns whether the
  /// conversion succeeded, with the diagnostics in `messages`.
  template <typename PopulateFn>
  bool convert(StringRef text, PopulateFn populate) {
    messages.clear();
    ScopedDiagnosticHandler capture(&ctx, [&](Diagnostic &d) {
      messages += d.str() + "\n";
      return success();
    });
    module = parseSourceString<ModuleOp>(text, &ctx);
    if (!module) {
      ADD_FAILURE() << "parse failed: " << messages;
      return false;
    }
    RewritePatternSet patterns(&ctx);
    populate(patterns);
    ConversionTarget target(ctx);
    target.addIllegalOp<MatmulOp>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    return succeeded(
        applyPartialConversion(*module, target, std::move(patterns)));
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  std::string messages;
};

std::string matmul(StringRef config, StringRef type = "f16",
                   StringRef acc = "f32") {
  std::string m = "memref<?x?x" + type.str() + ">";
  return "func.func @f(%a: " + m + ", %b: " + m + ", %c: " + m +
         ") {\n  gemm.matmul tn ins(%a, %b : " + m + ", " + m +
         ") outs(%c : " + m + ") acc(" + acc.str() + ")" +
         (config.empty() ? std::string()
                         : " attributes {config = " + config.str() + "}") +
         "\n  return\n}\n";
}
} // namespace

TEST_F(PatternsTest, NVGPUPatternLowersALegalOp) {
  ConvertGemmToNVGPUOptions options;
  EXPECT_TRUE(convert(matmul(""), [&](RewritePatternSet &p) {
    populateGemmToNVGPUPatterns(p, options);
  })) << messages;
  EXPECT_TRUE((*module)->hasAttr("gemm.kernels"));
  EXPECT_TRUE(module->lookupSymbol("gemm_kernels"));
}

TEST_F(PatternsTest, NVGPUPatternRejectsWhatItCannotLower) {
  ConvertGemmToNVGPUOptions options;
  // wgmma on a chip without it.
  EXPECT_FALSE(convert(
      matmul("#gemm.config<kind = wgmma, block = [128, 256, 64], warps = "
             "[2, 1], instr = [64, 256, 16], stages = 4>"),
      [&](RewritePatternSet &p) { populateGemmToNVGPUPatterns(p, options); }));
  EXPECT_NE(messages.find("config kind wgmma is not available on sm_90"),
            std::string::npos)
      << messages;
}

TEST_F(PatternsTest, NVGPUPatternReportsBadOptions) {
  ConvertGemmToNVGPUOptions options;
  options.chip = "sm_75";
  EXPECT_FALSE(convert(matmul(""), [&](RewritePatternSet &p) {
    populateGemmToNVGPUPatterns(p, options);
  }));
  EXPECT_NE(messages.find("cannot be lowered by convert-gemm-to-nvgpu: "
                          "unknown NVIDIA chip 'sm_75'"),
            std::string::npos)
      << messages;
}

TEST_F(PatternsTest, AMDGPUPatternChecksConfigsAndEpilogues) {
  ConvertGemmToAMDGPUOptions options;
  EXPECT_TRUE(convert(matmul(""), [&](RewritePatternSet &p) {
    populateGemmToAMDGPUPatterns(p, options);
  })) << messages;
  // An NVIDIA kind.
  EXPECT_FALSE(convert(
      matmul("#gemm.config<kind = mma_sync, block = [128, 128, 64], warps = "
             "[2, 2], instr = [16, 8, 16], stages = 3>"),
      [&](RewritePatternSet &p) { populateGemmToAMDGPUPatterns(p, options); }));
  EXPECT_NE(messages.find("config kind mma_sync is not lowered by "
                          "convert-gemm-to-amdgpu (it lowers mfma)"),
            std::string::npos)
      << messages;
  // f64 math that would need the ROCm device library.
  std::string sin =
      "func.func @f(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: "
      "memref<?x?xf64>) {\n  gemm.matmul tn ins(%a, %b : memref<?x?xf64>, "
      "memref<?x?xf64>) outs(%c : memref<?x?xf64>) acc(f64) {\n"
      "  ^bb0(%x: f64, %y: f64):\n    %s = math.sin %x : f64\n"
      "    gemm.yield %s : f64\n  }\n  return\n}\n";
  EXPECT_FALSE(convert(sin, [&](RewritePatternSet &p) {
    populateGemmToAMDGPUPatterns(p, options);
  }));
  EXPECT_NE(messages.find("epilogue op 'math.sin' is not lowered by "
                          "convert-gemm-to-amdgpu (gfx942): it needs the ROCm "
                          "device library"),
            std::string::npos)
      << messages;
}
