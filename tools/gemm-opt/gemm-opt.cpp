//===- gemm-opt.cpp - gemm-mlir optimizer driver --------------------------===//
//
// An mlir-opt with the gemm dialect and passes on top of every upstream
// dialect, pass, extension and LLVM IR translation, so that upstream
// pipelines (gpu-lower-to-nvvm-pipeline, gpu-module-to-binary) run on our
// output in the same tool.
//
//===----------------------------------------------------------------------===//

#include "gemm/InitAll.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::gemm::registerAllGemmPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::gemm::registerAllGemmDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "gemm-mlir optimizer driver\n", registry));
}
