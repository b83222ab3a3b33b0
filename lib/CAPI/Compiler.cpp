//===- Compiler.cpp - the gemm-mlir compiler C API ------------------------===//
//
// gemmCompile: a fresh MLIRContext per call with the dialects, interfaces
// and translations the gemm pipelines need (and no others, so that the
// self-contained library carries only what they use), the text parsed from
// memory, the registered pipeline built from its name and options, and every
// diagnostic captured as text by a SourceMgrDiagnosticHandler (the same
// format gemm-opt prints) instead of going to stderr.
//
//===----------------------------------------------------------------------===//

#include "gemm-c/Compiler.h"
#include "gemm/InitAll.h"
#include "gemm/Pipelines/Pipelines.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

using namespace mlir;

/// True if the pass option string `options` sets `key` (at the start or
/// after white space, followed by '=').
static bool setsOption(StringRef options, StringRef key) {
  std::string prefix = (key + "=").str();
  for (size_t at = options.find(prefix); at != StringRef::npos;
       at = options.find(prefix, at + 1))
    if (at == 0 || llvm::isSpace(options[at - 1]))
      return true;
  return false;
}

/// A copy of `text` that gemmFreeString frees, or null if `text` is empty.
static char *copyString(StringRef text) {
  if (text.empty())
    return nullptr;
  char *copy = static_cast<char *>(std::malloc(text.size() + 1));
  if (!copy)
    return nullptr;
  std::memcpy(copy, text.data(), text.size());
  copy[text.size()] = '\0';
  return copy;
}

/// Runs one compilation, writing its diagnostics to `os`.
static GemmCompileResult compile(const char *mlirText, const char *pipeline,
                                 const char *options, const char *outputDir,
                                 llvm::raw_ostream &os) {
  if (!mlirText) {
    os << "error: no MLIR text (the text argument is null)\n";
    return GEMM_COMPILE_INVALID_ARGUMENT;
  }
  if (!pipeline || !*pipeline) {
    os << "error: no pipeline name (expected gemm-to-ptx, gemm-to-cubin, "
          "gemm-to-amdgcn or gemm-to-hsaco)\n";
    return GEMM_COMPILE_INVALID_ARGUMENT;
  }

  // The pipelines are registered once per process; the registry is only
  // read afterwards.
  static std::once_flag registered;
  std::call_once(registered, [] { gemm::registerGemmPipelines(); });
  const PassPipelineInfo *info = PassPipelineInfo::lookup(pipeline);
  if (!info) {
    os << "error: unknown pipeline '" << pipeline
       << "' (expected gemm-to-ptx, gemm-to-cubin, gemm-to-amdgcn or "
          "gemm-to-hsaco)\n";
    return GEMM_COMPILE_INVALID_ARGUMENT;
  }

  std::string allOptions = options ? options : "";
  if (setsOption(allOptions, "output-dir")) {
    os << "error: options '" << allOptions
       << "' set output-dir; pass the folder as the output argument\n";
    return GEMM_COMPILE_INVALID_ARGUMENT;
  }
  if (outputDir && *outputDir) {
    if (std::strchr(outputDir, '"')) {
      os << "error: output folder '" << outputDir
         << "' contains a double quote, which pipeline options cannot "
            "carry\n";
      return GEMM_COMPILE_INVALID_ARGUMENT;
    }
    allOptions += std::string(" output-dir=\"") + outputDir + "\"";
  }

  DialectRegistry registry;
  mlir::gemm::registerGemmDialect(registry);
  // One thread: calls run in parallel with each other instead, and no
  // thread pool is started per call.
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  // The source line under each message says where; the generic dump of the
  // op that MLIR adds by default repeats it less readably.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(mlirText, "<input>",
                                       /*RequiresNullTerminator=*/true),
      llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, os);

  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module)
    return GEMM_COMPILE_FAILURE;

  PassManager pm(&context, ModuleOp::getOperationName());
  auto optionError = [&](const Twine &message) {
    os << "error: " << message << "\n";
    return failure();
  };
  if (failed(info->addToPipeline(pm, allOptions, optionError)))
    return GEMM_COMPILE_FAILURE;

  // A failing pass normally says why; if none did, say which pipeline.
  bool sawError = false;
  ScopedDiagnosticHandler noteErrors(&context, [&](Diagnostic &diag) {
    sawError |= diag.getSeverity() == DiagnosticSeverity::Error;
    return failure(); // Let the SourceMgr handler print it.
  });
  if (failed(pm.run(*module))) {
    if (!sawError)
      os << "error: pipeline '" << pipeline << "' failed without a message\n";
    return GEMM_COMPILE_FAILURE;
  }
  return GEMM_COMPILE_SUCCESS;
}

int gemmCompile(const char *mlirText, const char *pipeline, const char *options,
                const char *outputDir, char **diagnostics) {
  std::string text;
  llvm::raw_string_ostream os(text);
  GemmCompileResult result =
      compile(mlirText, pipeline, options, outputDir, os);
  if (diagnostics)
    *diagnostics = copyString(os.str());
  return result;
}

void gemmFreeString(char *string) { std::free(string); }

int gemmCompilerApiVersion(void) { return GEMM_COMPILER_API_VERSION; }

#define GEMM_STRINGIFY_VALUE(x) #x
#define GEMM_STRINGIFY(x) GEMM_STRINGIFY_VALUE(x)

const char *gemmCompilerVersion(void) {
  return "gemm-mlir compiler (C API " GEMM_STRINGIFY(
      GEMM_COMPILER_API_VERSION) ", LLVM " LLVM_VERSION_STRING ")";
}
