//===- Pipelines.cpp - gemm-mlir pass pipelines ---------------------------===//
//
// gemm-to-ptx / gemm-to-cubin: optionally gemm-select-config (cost model /
// tuning database), convert-gemm-to-nvgpu, cleanup, then the
// upstream GPU-to-NVVM pipeline ending in gpu-module-to-binary, and
// optionally gemm-write-artifacts and gemm-write-host-object. The host
// functions get a C interface and asynchronous GPU ops, so that they lower
// completely to the LLVM dialect and translate to LLVM IR
// (docs/user-guide.md). gemm-to-amdgcn / gemm-to-hsaco: the same with
// convert-gemm-to-amdgpu and the GPU-to-ROCDL steps.
//
//===----------------------------------------------------------------------===//

#include "gemm/Pipelines/Pipelines.h"
#include "gemm/Conversion/Passes.h"
#include "gemm/Dialect/Gemm/Transforms/Passes.h"
#include "gemm/Support/PassOptions.h"
#include "gemm/Target/TargetInfo.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

using namespace mlir;
using namespace mlir::gemm;

/// True if `root` is a CUDA toolkit with libdevice.
static bool hasLibdevice(StringRef root) {
  SmallString<256> p(root);
  llvm::sys::path::append(p, "nvvm", "libdevice", "libdevice.10.bc");
  return !root.empty() && llvm::sys::fs::exists(p);
}

std::string mlir::gemm::findCudaToolkit() {
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

/// The host functions before convert-func-to-llvm: a C interface for the
/// public ones (gemm-host-c-interface), and every gpu.alloc, gpu.launch_func
/// and gpu.dealloc made asynchronous on a stream per block
/// (gpu-async-region), with a synchronizing gpu.wait before the block's
/// terminator or the next host op with side effects; gpu-to-llvm lowers
/// only the asynchronous gpu.alloc and gpu.dealloc to runtime calls (a
/// synchronous one survived with index casts that no LLVM IR translation
/// accepts), and a host function returns with its results in place.
static void addHostPreparation(OpPassManager &pm) {
  pm.addPass(createGemmHostCInterface());
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
}

/// The steps after the kernels are in the target dialect (NVVM or ROCDL):
/// cleanup, host lowering, gpu-module-to-binary (`format`, `toolkit`), and
/// optionally gemm-write-artifacts into `outputDir`, then with `hostObject`
/// gemm-write-host-object (host.o, host.ll) into the same folder. Fails with
/// `error` set if `hostObject` is asked for without `outputDir`.
static LogicalResult addSerialization(OpPassManager &pm, StringRef format,
                                      StringRef toolkit, StringRef outputDir,
                                      bool hostObject, std::string &error) {
  if (hostObject && outputDir.empty()) {
    error = "host-object=true needs output-dir (the folder host.o is "
            "written to)";
    return failure();
  }
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());
  pm.addPass(createGpuToLLVMConversionPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = format.str();
  binary.toolkitPath = toolkit.str();
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createGemmVerifyBinaries());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  if (!outputDir.empty()) {
    GemmWriteArtifactsOptions write;
    write.outputDir = outputDir.str();
    pm.addPass(createGemmWriteArtifacts(write));
  }
  if (hostObject) {
    GemmWriteHostObjectOptions host;
    host.outputDir = outputDir.str();
    pm.addPass(createGemmWriteHostObject(host));
  }
  return success();
}

/// The entry from linalg (docs/linalg.md): gemm-from-linalg, which first
/// bufferizes a module holding tensors (one-shot-bufferize with
/// getGemmBufferizeOptions()) and fails at every linalg op it leaves, since
/// nothing after it runs linalg on device memory. Without linalg or tensors
/// in the module it changes only the buffers gemm.matmul alone uses, which
/// become device allocations.
static void addFromLinalg(OpPassManager &pm, bool enabled) {
  if (!enabled)
    return;
  GemmFromLinalgOptions from;
  from.bufferize = true;
  from.requireAll = true;
  pm.addPass(createGemmFromLinalg(from));
}

/// Kernel modules of the other vendor would crash this vendor's lowering.
static void addCheckKernelModules(OpPassManager &pm, StringRef chip) {
  GemmCheckKernelModulesOptions check;
  check.chip = chip.str();
  pm.addPass(createGemmCheckKernelModules(check));
}

/// Configs: the per-type defaults of the lowering unless asked for the model
/// or the database (docs/tuning.md says why the defaults stay the default).
static void addSelectConfig(OpPassManager &pm, StringRef chip, bool enabled,
                            StringRef tuningDb, bool allowTf32) {
  if (!enabled && tuningDb.empty())
    return;
  GemmSelectConfigOptions select;
  select.target = chip.str();
  select.tuningDb = tuningDb.str();
  select.allowTf32 = allowTf32;
  pm.addPass(createGemmSelectConfig(select));
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
  addCheckKernelModules(pm, options.chip);
  addFromLinalg(pm, options.fromLinalg);
  addSelectConfig(pm, options.chip, options.selectConfig, options.tuningDb,
                  options.allowTf32);
  ConvertGemmToNVGPUOptions lower;
  lower.chip = options.chip;
  lower.ptxVersion = *ptx;
  lower.allowTf32 = options.allowTf32;
  lower.packUnaligned = options.packUnaligned;
  lower.transposeOperands = options.transposeOperands;
  lower.dispatch = options.dispatch;
  pm.addPass(createConvertGemmToNVGPU(lower));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // The upstream GPU-to-NVVM steps (as gpu-lower-to-nvvm-pipeline), spelled
  // out so that serialization gets the CUDA toolkit explicitly: libdevice
  // (math functions in epilogues) and ptxas must not depend on the caller's
  // PATH or environment.
  std::string toolkit = options.cudaPath.empty() ? findCudaToolkit()
                                                 : options.cudaPath.getValue();
  if (!options.cudaPath.empty() && !hasLibdevice(toolkit)) {
    error = "cuda-path '" + toolkit +
            "' has no nvvm/libdevice/libdevice.10.bc (expected a CUDA toolkit)";
    return failure();
  }
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  addHostPreparation(pm);
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps());
  return addSerialization(pm, format, toolkit, options.outputDir,
                          options.hostObject, error);
}

/// True if `program --version` runs and names LLD.
static bool isLld(StringRef program) {
  SmallString<128> output;
  if (llvm::sys::fs::createTemporaryFile("gemm-lld-version", "txt", output))
    return false;
  llvm::FileRemover remove(output);
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(output),
                                          StringRef(output)};
  StringRef args[] = {program, "--version"};
  if (llvm::sys::ExecuteAndWait(program, args, /*Env=*/std::nullopt,
                                redirects, /*SecondsToWait=*/30) != 0)
    return false;
  auto text = llvm::MemoryBuffer::getFile(output);
  return text && (*text)->getBuffer().contains("LLD");
}

std::string mlir::gemm::findLldToolkit(StringRef lld, std::string &error) {
  std::string path = lld.str();
  auto usable = [](StringRef p) {
    return !p.empty() && llvm::sys::fs::can_execute(p);
  };
  if (!path.empty()) {
    if (!usable(path)) {
      error = "ld.lld '" + path + "' does not exist or is not executable";
      return "";
    }
  } else {
    // The linker must understand the code objects of the LLVM we link
    // against: an older ld.lld on PATH (Debian's default is LLD 14) rejects
    // them. So the LLVM installation's own ld.lld comes before PATH.
    if (const char *env = std::getenv("GEMM_LLD"); env && usable(env))
      path = env;
    SmallString<256> own(GEMM_LLVM_TOOLS_DIR);
    llvm::sys::path::append(own, "ld.lld");
    if (path.empty() && usable(own))
      path = own.str().str();
    for (const char *name : {"ld.lld-22", "ld.lld"})
      if (path.empty())
        if (auto found = llvm::sys::findProgramByName(name))
          path = *found;
    if (path.empty()) {
      error = "cannot find ld.lld to link HSACO (tried $GEMM_LLD, " +
              own.str().str() +
              ", ld.lld-22 and ld.lld on PATH); install lld-22 or pass "
              "lld-path=";
      return "";
    }
  }
  // A program that is not LLD (lld-path=/bin/true) would "link" an empty
  // HSACO: ask it what it is.
  if (!isLld(path)) {
    error = "'" + path + "' is not LLD ('" + path +
            " --version' does not say LLD); pass the ld.lld of LLVM 22 as "
            "lld-path=";
    return "";
  }
  // A ROCm install already has the layout: <root>/llvm/bin/ld.lld.
  SmallString<256> bin = llvm::sys::path::parent_path(path);
  if (llvm::sys::path::filename(bin) == "bin" &&
      llvm::sys::path::filename(llvm::sys::path::parent_path(bin)) == "llvm" &&
      llvm::sys::path::filename(path) == "ld.lld")
    return llvm::sys::path::parent_path(llvm::sys::path::parent_path(bin))
        .str();
  // Otherwise a private folder with the link gpu-module-to-binary expects.
  SmallString<256> root;
  llvm::sys::path::system_temp_directory(/*erasedOnReboot=*/true, root);
  llvm::sys::path::append(root, "gemm-mlir-lld-" +
                                    std::to_string(llvm::hash_value(path)));
  SmallString<256> dir(root);
  llvm::sys::path::append(dir, "llvm", "bin");
  SmallString<256> link(dir);
  llvm::sys::path::append(link, "ld.lld");
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    error = "cannot create " + dir.str().str() + ": " + ec.message();
    return "";
  }
  if (!llvm::sys::fs::exists(link))
    if (std::error_code ec = llvm::sys::fs::create_link(path, link);
        ec && !llvm::sys::fs::exists(link)) {
      error = "cannot link " + link.str().str() + " to " + path + ": " +
              ec.message();
      return "";
    }
  return root.str().str();
}

LogicalResult
mlir::gemm::buildGemmToROCDLPipeline(OpPassManager &pm,
                                     const GemmToROCDLPipelineOptions &options,
                                     StringRef format, std::string &error) {
  error = checkAMDTarget(options.chip);
  if (!error.empty())
    return failure();
  std::string toolkit;
  if (format == "bin") {
    toolkit = findLldToolkit(options.lldPath, error);
    if (toolkit.empty())
      return failure();
  }
  addCheckKernelModules(pm, options.chip);
  addFromLinalg(pm, options.fromLinalg);
  addSelectConfig(pm, options.chip, options.selectConfig, options.tuningDb,
                  /*allowTf32=*/false);
  ConvertGemmToAMDGPUOptions lower;
  lower.chip = options.chip;
  lower.packUnaligned = options.packUnaligned;
  lower.dispatch = options.dispatch;
  pm.addPass(createConvertGemmToAMDGPU(lower));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  ConvertAMDGPUToROCDLPassOptions amdgpu;
  amdgpu.chipset = options.chip;
  pm.addPass(createConvertAMDGPUToROCDLPass(amdgpu));
  addHostPreparation(pm);
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Math with an LLVM intrinsic (fma, fabs, floor, exp, sqrt, ...) becomes
  // the intrinsic, which the AMDGPU backend selects natively; left to
  // convert-gpu-to-rocdl it would call the ROCm device library (ocml).
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertMathToLLVMPass());
  ConvertGpuOpsToROCDLOpsOptions rocdl;
  rocdl.chipset = options.chip;
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToROCDLOps(rocdl));
  return addSerialization(pm, format, toolkit, options.outputDir,
                          options.hostObject, error);
}

/// Registers pipeline `name` built by `build` for serialization `format`.
/// Registered through registerPassPipeline rather than
/// PassPipelineRegistration so that invalid options (an unknown chip, a PTX
/// version too old for it, a missing linker) fail the pipeline with a
/// diagnostic instead of building an empty one.
template <typename Options>
static void registerGemmPipeline(
    StringRef name, StringRef description, StringRef format,
    LogicalResult (*build)(OpPassManager &, const Options &, StringRef,
                           std::string &)) {
  registerPassPipeline(
      name, description,
      [name, format,
       build](OpPassManager &pm, StringRef optionString,
              function_ref<LogicalResult(const Twine &)> errorHandler) {
        // The pipelines add module passes: nested under another op (e.g.
        // `func.func(gemm-to-ptx)`) adding them would abort the process.
        std::optional<StringRef> anchor = pm.getOpName();
        if (anchor && *anchor != ModuleOp::getOperationName())
          return errorHandler(name +
                              " runs on 'builtin.module', not nested "
                              "under '" +
                              *anchor + "'");
        auto options =
            parsePipelineOptions<Options>(name, optionString, errorHandler,
                                          {"output-dir", "tuning-db",
                                           "cuda-path", "lld-path"});
        if (!options)
          return failure();
        std::string error;
        if (failed(build(pm, *options, format, error)))
          return errorHandler(error);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optHandler) {
        optHandler(Options());
      });
}

void mlir::gemm::registerGemmPipelines() {
  registerGemmPipeline<GemmToNVVMPipelineOptions>(
      "gemm-to-ptx",
      "Lower gemm.matmul to PTX (gpu.binary with format=isa); "
      "output-dir=DIR also writes the PTX and manifest.json",
      "isa", buildGemmToNVVMPipeline);
  registerGemmPipeline<GemmToNVVMPipelineOptions>(
      "gemm-to-cubin",
      "Lower gemm.matmul to cubin (gpu.binary with format=bin); "
      "output-dir=DIR also writes the cubin and manifest.json",
      "bin", buildGemmToNVVMPipeline);
  registerGemmPipeline<GemmToROCDLPipelineOptions>(
      "gemm-to-amdgcn",
      "Lower gemm.matmul to AMDGCN assembly (gpu.binary with format=isa); "
      "output-dir=DIR also writes it and manifest.json",
      "isa", buildGemmToROCDLPipeline);
  registerGemmPipeline<GemmToROCDLPipelineOptions>(
      "gemm-to-hsaco",
      "Lower gemm.matmul to HSACO (gpu.binary with format=bin, linked with "
      "ld.lld); output-dir=DIR also writes it and manifest.json",
      "bin", buildGemmToROCDLPipeline);
}
