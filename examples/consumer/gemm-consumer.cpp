//===- gemm-consumer.cpp - a compiler embedding gemm-mlir -----------------===//
//
// An out-of-tree program built against an installed gemm-mlir (find_package
// (GemmMLIR), docs/embedding.md) that shows both ways of embedding it:
//
//   gemm-consumer [--output-dir=DIR] [input.mlir]
//     A compiler calling gemm-mlir as a library: registers our dialect,
//     passes and pipelines, parses the module (input.mlir, or a built-in f16
//     GEMM with a bias + ReLU epilogue), then
//       - builds gemm-to-ptx for chip=sm_90a on its own pass manager from the
//         options struct (buildGemmToNVVMPipeline), writing DIR/sm_90a, and
//         checks that a PTX file with wgmma.mma_async and manifest.json were
//         written;
//       - with the runtime installed (GemmMLIR::GemmRuntime), loads
//         DIR/sm_90a with it, parse-only (no GPU needed), and checks that it
//         chooses a kernel for 4096^3;
//       - parses the registered pipeline gemm-to-amdgcn{chip=gfx942 ...} from
//         text (mlir::parsePassPipeline), writing DIR/gfx942, and checks
//         that an AMDGCN file with v_mfma and manifest.json were written.
//     Without --output-dir, DIR is a temporary directory removed at exit.
//     Exits 0 if every step and check passes, 1 otherwise.
//
//   gemm-consumer opt [options] [input.mlir]
//     An opt-like driver (MlirOptMain) with gemm-mlir's registrations only:
//     e.g. `gemm-consumer opt in.mlir --gemm-to-ptx="chip=sm_90a
//     output-dir=out"`.
//
//===----------------------------------------------------------------------===//

#include "gemm/InitAll.h"
#include "gemm/Pipelines/Pipelines.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

#ifdef GEMM_CONSUMER_WITH_RUNTIME
#include "gemm-c/Runtime.h"
#endif

using namespace mlir;

/// The module compiled when no input is given: C = relu(A * B^T + bias) in
/// f16 with f32 accumulation, for every M, N, K.
static constexpr const char *kDefaultModule = R"mlir(
func.func @linear(%a: memref<?x?xf16>, %b: memref<?x?xf16>,
                  %c: memref<?x?xf16>, %bias: memref<?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
      outs(%c : memref<?x?xf16>) extras(%bias : memref<?xf32>) acc(f32)
      attributes {broadcast = [#gemm.bcast<col>]} {
  ^bb0(%acc: f32, %cin: f16, %bi: f32):
    %0 = arith.addf %acc, %bi : f32
    %z = arith.constant 0.0 : f32
    %1 = arith.maximumf %0, %z : f32
    %2 = arith.truncf %1 : f32 to f16
    gemm.yield %2 : f16
  }
  return
}
)mlir";

/// Prints "gemm-consumer: <message>" to stderr and returns false.
static bool fail(const llvm::Twine &message) {
  llvm::errs() << "gemm-consumer: " << message << "\n";
  return false;
}

/// True if `dir` holds manifest.json and a file with extension `extension`
/// containing `needle`.
static bool checkArtifacts(llvm::StringRef dir, llvm::StringRef extension,
                           llvm::StringRef needle) {
  llvm::SmallString<256> manifest(dir);
  llvm::sys::path::append(manifest, "manifest.json");
  if (!llvm::sys::fs::exists(manifest))
    return fail(manifest + " was not written");
  std::error_code ec;
  bool sawFile = false;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    if (llvm::sys::path::extension(it->path()) != extension)
      continue;
    sawFile = true;
    auto text = llvm::MemoryBuffer::getFile(it->path());
    if (!text)
      return fail("cannot read " + it->path());
    if ((*text)->getBuffer().contains(needle)) {
      llvm::outs() << "gemm-consumer: " << it->path() << " contains " << needle
                   << "\n";
      return true;
    }
  }
  if (ec)
    return fail("cannot list " + dir + ": " + ec.message());
  if (!sawFile)
    return fail("no " + extension + " file was written to " + dir);
  return fail("no " + extension + " file in " + dir + " contains " + needle);
}

/// Parses the input (a file, or the built-in module if `inputFile` is empty).
static OwningOpRef<ModuleOp> parseInput(llvm::StringRef inputFile,
                                        MLIRContext &context) {
  if (inputFile.empty())
    return parseSourceString<ModuleOp>(kDefaultModule, &context,
                                       "gemm-consumer-default.mlir");
  return parseSourceFile<ModuleOp>(inputFile, &context);
}

/// gemm-to-ptx for sm_90a, built from its options struct.
static bool compileForHopper(ModuleOp module, llvm::StringRef outputDir) {
  gemm::GemmToNVVMPipelineOptions options;
  options.chip = "sm_90a";
  options.outputDir = outputDir.str();
  PassManager pm(module.getContext());
  std::string error;
  if (failed(
          gemm::buildGemmToNVVMPipeline(pm, options, /*format=*/"isa", error)))
    return fail("buildGemmToNVVMPipeline: " + error);
  if (failed(pm.run(module)))
    return fail("gemm-to-ptx (sm_90a) failed");
  return checkArtifacts(outputDir, ".ptx", "wgmma.mma_async");
}

#ifdef GEMM_CONSUMER_WITH_RUNTIME
/// Loads the artifact folder `dir` with the runtime, parse-only, and asks its
/// first function which kernel it launches for M = N = K = 4096.
static bool chooseWithRuntime(llvm::StringRef dir) {
  GemmRtModule module = nullptr;
  if (gemmRtModuleLoad(dir.str().c_str(), GEMM_RT_LOAD_PARSE_ONLY, &module) !=
      GEMM_RT_SUCCESS)
    return fail("the runtime cannot load " + dir + ": " + gemmRtGetLastError());
  bool ok = false;
  const char *name = gemmRtModuleGetFunctionName(module, 0);
  GemmRtFunction function = nullptr;
  GemmRtChoice choice;
  if (!name)
    fail("the runtime finds no function in " + dir);
  else if (gemmRtModuleGetFunction(module, name, &function) != GEMM_RT_SUCCESS)
    fail("the runtime cannot find " + llvm::Twine(name) + ": " +
         gemmRtGetLastError());
  else if (gemmRtFunctionChoose(function, 4096, 4096, 4096, /*batch=*/1,
                                &choice) != GEMM_RT_SUCCESS)
    fail("the runtime chooses no kernel of " + llvm::Twine(name) +
         " for 4096^3: " + gemmRtGetLastError());
  else {
    llvm::outs() << "gemm-consumer: the runtime launches " << choice.kernel
                 << " for " << name << " at 4096^3\n";
    ok = true;
  }
  gemmRtModuleDestroy(module);
  return ok;
}
#endif

/// The registered gemm-to-amdgcn pipeline for gfx942, parsed from text.
static bool compileForMI300(ModuleOp module, llvm::StringRef outputDir) {
  PassManager pm(module.getContext());
  std::string pipeline =
      ("gemm-to-amdgcn{chip=gfx942 output-dir=" + outputDir + "}").str();
  std::string error;
  llvm::raw_string_ostream errorStream(error);
  if (failed(parsePassPipeline(pipeline, pm, errorStream)))
    return fail("cannot parse '" + pipeline + "': " + error);
  if (failed(pm.run(module)))
    return fail("gemm-to-amdgcn (gfx942) failed");
  return checkArtifacts(outputDir, ".s", "v_mfma");
}

/// The library mode (see the file comment).
static int compileAndCheck(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::OptionCategory category("gemm-consumer options");
  llvm::cl::opt<std::string> inputFile(
      llvm::cl::Positional, llvm::cl::desc("[input.mlir]"), llvm::cl::init(""),
      llvm::cl::cat(category));
  llvm::cl::opt<std::string> outputDirOpt(
      "output-dir",
      llvm::cl::desc("Write the artifacts under this directory "
                     "(default: a temporary one, removed)"),
      llvm::cl::init(""), llvm::cl::cat(category));
  // The options of LLVM's and MLIR's libraries stay out of --help.
  llvm::cl::HideUnrelatedOptions(category);
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "gemm-consumer: compile a gemm module with gemm-mlir as a library\n\n"
      "  (gemm-consumer opt --help: the opt-like driver)\n");

  std::string outputDir = outputDirOpt;
  bool temporary = outputDir.empty();
  if (temporary) {
    llvm::SmallString<256> dir;
    if (std::error_code ec =
            llvm::sys::fs::createUniqueDirectory("gemm-consumer", dir)) {
      fail("cannot create a temporary directory: " + ec.message());
      return 1;
    }
    outputDir = dir.str().str();
  }
  llvm::SmallString<256> hopperDir(outputDir), mi300Dir(outputDir);
  llvm::sys::path::append(hopperDir, "sm_90a");
  llvm::sys::path::append(mi300Dir, "gfx942");

  DialectRegistry registry;
  gemm::registerGemmDialect(registry);
  gemm::registerGemmPasses();
  gemm::registerGemmPipelines();
  MLIRContext context(registry);

  bool ok = false;
  if (OwningOpRef<ModuleOp> module = parseInput(inputFile, context)) {
    // Each pipeline lowers the module in place: the second one gets a copy.
    OwningOpRef<ModuleOp> copy = module->clone();
    ok = compileForHopper(*module, hopperDir);
#ifdef GEMM_CONSUMER_WITH_RUNTIME
    ok = ok && chooseWithRuntime(hopperDir);
#endif
    ok = compileForMI300(*copy, mi300Dir) && ok;
  } else {
    fail("cannot parse " + (inputFile.empty()
                                ? std::string("the built-in module")
                                : inputFile.getValue()));
  }

  if (temporary)
    llvm::sys::fs::remove_directories(outputDir);
  llvm::outs() << "gemm-consumer: " << (ok ? "PASS" : "FAIL") << "\n";
  return ok ? 0 : 1;
}

/// The opt-like mode: MlirOptMain (which does what llvm::InitLLVM does) with
/// our registrations.
static int runOpt(int argc, char **argv) {
  DialectRegistry registry;
  gemm::registerGemmDialect(registry);
  gemm::registerGemmPasses();
  gemm::registerGemmPipelines();
  return asMainReturnCode(MlirOptMain(
      argc, argv, "gemm-consumer opt: gemm-mlir's passes and pipelines\n",
      registry));
}

int main(int argc, char **argv) {
  if (argc > 1 && llvm::StringRef(argv[1]) == "opt") {
    // Drop "opt": MlirOptMain sees the program name and the rest.
    llvm::SmallVector<char *> args{argv[0]};
    args.append(argv + 2, argv + argc);
    return runOpt(static_cast<int>(args.size()), args.data());
  }
  return compileAndCheck(argc, argv);
}
