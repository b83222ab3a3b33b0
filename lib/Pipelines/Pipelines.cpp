//===- Pipelines.cpp - gemm-mlir pass pipelines ---------------------------===//
//
// gemm-to-ptx / gemm-to-cubin: convert-gemm-to-nvgpu, cleanup, then the
// upstream GPU-to-NVVM pipeline ending in gpu-module-to-binary, and
// optionally gemm-write-artifacts.
//
//===----------------------------------------------------------------------===//

#include "gemm/Pipelines/Pipelines.h"
#include "gemm/Conversion/Passes.h"
#include "gemm/Target/TargetInfo.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::gemm;

LogicalResult
mlir::gemm::buildGemmToNVVMPipeline(OpPassManager &pm,
                                    const GemmToNVVMPipelineOptions &options,
                                    StringRef format, std::string &error) {
  const TargetInfo *target = lookupTarget(options.chip);
  if (!target || !target->isNVIDIA()) {
    error = "unknown NVIDIA chip '" + options.chip.getValue() +
            "' (expected one of sm_80, sm_86, sm_89, sm_90, sm_90a)";
    return failure();
  }
  std::optional<unsigned> ptx = choosePtxVersion(
      *target, options.ptxVersion ? std::optional<unsigned>(options.ptxVersion)
                                  : std::nullopt);
  if (!ptx) {
    // LLVM aborts on a PTX version the chip does not support: refuse here.
    error = "PTX version " + std::to_string(options.ptxVersion / 10) + "." +
            std::to_string(options.ptxVersion % 10) + " is too old for " +
            options.chip.getValue() + " (needs at least " +
            std::to_string(target->minPtxVersion / 10) + "." +
            std::to_string(target->minPtxVersion % 10) + ")";
    return failure();
  }
  ConvertGemmToNVGPUOptions lower;
  lower.chip = options.chip;
  lower.ptxVersion = *ptx;
  lower.allowTf32 = options.allowTf32;
  pm.addPass(createConvertGemmToNVGPU(lower));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  gpu::GPUToNVVMPipelineOptions nvvm;
  nvvm.cubinChip = options.chip.getValue();
  nvvm.cubinFeatures = "+ptx" + std::to_string(*ptx);
  nvvm.cubinFormat = format.str();
  nvvm.optLevel = options.optLevel;
  gpu::buildLowerToNVVMPassPipeline(pm, nvvm);
  if (!options.outputDir.empty()) {
    GemmWriteArtifactsOptions write;
    write.outputDir = options.outputDir;
    pm.addPass(createGemmWriteArtifacts(write));
  }
  return success();
}

void mlir::gemm::registerGemmPipelines() {
  auto reg = [](StringRef name, StringRef description, StringRef format) {
    PassPipelineRegistration<GemmToNVVMPipelineOptions>(
        name, description,
        [format](OpPassManager &pm, const GemmToNVVMPipelineOptions &options) {
          std::string error;
          if (failed(buildGemmToNVVMPipeline(pm, options, format, error)))
            llvm::errs() << "error: " << error << "\n";
        });
  };
  reg("gemm-to-ptx",
      "Lower gemm.matmul to PTX (gpu.binary with format=isa); "
      "output-dir=DIR also writes the PTX and manifest.json",
      "isa");
  reg("gemm-to-cubin",
      "Lower gemm.matmul to cubin (gpu.binary with format=bin); "
      "output-dir=DIR also writes the cubin and manifest.json",
      "bin");
}
