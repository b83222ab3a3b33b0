/*===- gemm-c/Compiler.h - the gemm-mlir compiler C API -----------*- C -*-===*\
|*                                                                            *|
|* A small, stable C interface to the gemm-mlir compiler: parse MLIR text     *|
|* holding gemm.matmul ops, run one of the registered pipelines (gemm-to-ptx, *|
|* gemm-to-cubin, gemm-to-amdgcn, gemm-to-hsaco) and write the kernels and    *|
|* manifest.json into a folder. Nothing is printed: every diagnostic comes    *|
|* back as text. Each call uses its own MLIR context, so calls from several   *|
|* threads may run at once.                                                   *|
|*                                                                            *|
|* Two libraries implement it: libGemmCompiler.so, over the MLIR/LLVM shared  *|
|* libraries, and libGemmCompilerStandalone.so, which carries the MLIR/LLVM   *|
|* code it needs and exports nothing but these functions (docs/python.md).    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef GEMM_C_COMPILER_H
#define GEMM_C_COMPILER_H

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define GEMM_C_EXPORT __declspec(dllexport)
#else
#define GEMM_C_EXPORT __attribute__((visibility("default")))
#endif

/// The version of this interface. It grows when functions are added; the
/// meaning of existing functions and results does not change.
#define GEMM_COMPILER_API_VERSION 1

/// Results of gemmCompile.
enum GemmCompileResult {
  /// The pipeline ran (and wrote the artifacts if an output folder was given).
  GEMM_COMPILE_SUCCESS = 0,
  /// The text did not parse or verify, the options were rejected, or a pass
  /// failed; the diagnostics say which.
  GEMM_COMPILE_FAILURE = 1,
  /// An argument was missing or malformed (a null text, an unknown pipeline
  /// name, options that set output-dir); the diagnostics say which.
  GEMM_COMPILE_INVALID_ARGUMENT = 2,
};

/// Compiles the MLIR module in `mlirText` (a NUL-terminated string) with the
/// registered pipeline `pipeline` (e.g. "gemm-to-cubin") and its `options`
/// (e.g. "chip=sm_90a ptx-version=80"; may be null or empty), writing the
/// binaries and manifest.json into `outputDir` (created if missing) unless
/// it is null or empty. Returns a GemmCompileResult. If `diagnostics` is not
/// null, *diagnostics is set to every diagnostic the call produced (errors,
/// warnings and remarks, with their locations, in the order they were
/// emitted), or to null if there were none; free it with gemmFreeString.
GEMM_C_EXPORT int gemmCompile(const char *mlirText, const char *pipeline,
                              const char *options, const char *outputDir,
                              char **diagnostics);

/// Frees a string returned by this library (null is allowed).
GEMM_C_EXPORT void gemmFreeString(char *string);

/// GEMM_COMPILER_API_VERSION of the library that is loaded.
GEMM_C_EXPORT int gemmCompilerApiVersion(void);

/// A static string naming the library, the interface version and the LLVM
/// it was built with, e.g. "gemm-mlir compiler (C API 1, LLVM 22.1.0)".
GEMM_C_EXPORT const char *gemmCompilerVersion(void);

#ifdef __cplusplus
}
#endif

#endif /* GEMM_C_COMPILER_H */
