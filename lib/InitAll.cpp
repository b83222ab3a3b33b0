//===- InitAll.cpp - register gemm-mlir dialects and passes ---------------===//

#include "gemm/InitAll.h"
#include "gemm/Conversion/Passes.h"
#include "gemm/Dialect/Gemm/IR/GemmDialect.h"
#include "gemm/Dialect/Gemm/Transforms/Passes.h"
#include "gemm/Pipelines/Pipelines.h"
#include "mlir/IR/DialectRegistry.h"

void mlir::gemm::registerAllGemmDialects(DialectRegistry &registry) {
  registry.insert<GemmDialect>();
}

void mlir::gemm::registerAllGemmPasses() {
  registerGemmTransformsPasses();
  registerGemmConversionPasses();
  registerGemmPipelines();
}
