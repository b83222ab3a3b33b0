//===- Pipelines.cpp - gemm-mlir pass pipelines ---------------------------===//
//
// gemm-to-ptx / gemm-to-cubin: optionally gemm-select-config (cost model /
// tuning database), convert-gemm-to-nvgpu, cleanup, then the
// upstream GPU-to-NVVM pipeline ending in gpu-module-to-binary, and
// optionally gemm-write-artifacts.
//
//===----------------------------------------------------------------------===//

#include "gemm/Pipelines/Pipelines.h"
#include "gemm/Conversion/Passes.h"
#include "gemm/Dialect/Gemm/Transforms/Passes.h"
#include "gemm/Target/TargetInfo.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

using namespace mlir;
using namespace mlir::gemm;

std::string mlir::gemm::findCudaToolkit() {
  auto hasLibdevice = [](StringRef root) {
    SmallString<256> p(root);
    llvm::sys::path::append(p, "nvvm", "libdevice", "libdevice.10.bc");
    return !root.empty() && llvm::sys::fs::exists(p);
  };
  for (const char *var : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
    if (const char *v = std::getenv(var); v && hasLibdevice(v))
      return v;
  // The toolkit that holds the ptxas on PATH.
  if (auto ptxas = llvm::sys::findProgramByName("ptxas")) {
    SmallString<256> root(llvm::sys::path::parent_path(
        llvm::sys::path::parent_path(*ptxas)));
    if (hasLibdevice(root))
      return std::string(root);
  }
  for (StringRef dir : {"/usr/local/cuda", "/usr/lib/cuda", "/opt/cuda"})
    if (hasLibdevice(dir))
      return dir.str();
  return "";
}

LogicalResult
mlir::gemm::buildGemmToNVVMPipeline(OpPassManager &pm,
                                    const GemmToNVVMPipelineOptions &options,
                                    StringRef format, std::string &error) {
  error = checkNVIDIATarget(options.chip, options.ptxVersion);
  if (!error.empty())
    return failure();
  std::optional<unsigned> ptx = choosePtxVersion(
      *lookupTarget(options.chip),
      options.ptxVersion ? std::optional<unsigned>(options.ptxVersion)
                         : std::nullopt);
  // Configs: the per-type defaults of the lowering unless asked for the
  // model / database (docs/tuning.md says why the defaults stay the default).
  if (options.selectConfig || !options.tuningDb.empty()) {
    GemmSelectConfigOptions select;
    select.target = options.chip;
    select.tuningDb = options.tuningDb;
    select.allowTf32 = options.allowTf32;
    pm.addPass(createGemmSelectConfig(select));
  }
  ConvertGemmToNVGPUOptions lower;
  lower.chip = options.chip;
  lower.ptxVersion = *ptx;
  lower.allowTf32 = options.allowTf32;
  pm.addPass(createConvertGemmToNVGPU(lower));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // The upstream GPU-to-NVVM steps (as gpu-lower-to-nvvm-pipeline), spelled
  // out so that serialization gets the CUDA toolkit explicitly: libdevice
  // (math functions in epilogues) and ptxas must not depend on the caller's
  // PATH or environment.
  std::string toolkit = options.cudaPath.empty() ? findCudaToolkit()
                                                 : options.cudaPath.getValue();
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps());
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());
  pm.addPass(createGpuToLLVMConversionPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = format.str();
  binary.toolkitPath = toolkit;
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  if (!options.outputDir.empty()) {
    GemmWriteArtifactsOptions write;
    write.outputDir = options.outputDir;
    pm.addPass(createGemmWriteArtifacts(write));
  }
  return success();
}

void mlir::gemm::registerGemmPipelines() {
  // Registered through registerPassPipeline rather than
  // PassPipelineRegistration so that invalid options (an unknown chip, a PTX
  // version too old for it) fail the pipeline with a diagnostic instead of
  // building an empty one.
  auto reg = [](StringRef name, StringRef description, StringRef format) {
    registerPassPipeline(
        name, description,
        [format](OpPassManager &pm, StringRef optionString,
                 function_ref<LogicalResult(const Twine &)> errorHandler) {
          auto options =
              GemmToNVVMPipelineOptions::createFromString(optionString);
          if (!options)
            return failure();
          std::string error;
          if (failed(buildGemmToNVVMPipeline(pm, *options, format, error)))
            return errorHandler(error);
          return success();
        },
        [](function_ref<void(const mlir::detail::PassOptions &)> optHandler) {
          optHandler(GemmToNVVMPipelineOptions());
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
