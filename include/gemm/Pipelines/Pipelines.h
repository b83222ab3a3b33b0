//===- Pipelines.h - gemm-mlir pass pipelines -------------------*- C++ -*-===//
//
// The composite pipelines: gemm-to-ptx and gemm-to-cubin (NVIDIA),
// gemm-to-amdgcn and gemm-to-hsaco (AMD) take gemm.matmul all the way to
// gpu.binary, with an optional write of the artifacts (PTX / cubin / AMDGCN /
// HSACO + manifest.json); each is an options struct, a build function an
// embedder can call on its own pass manager, and a registration.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_PIPELINES_PIPELINES_H
#define GEMM_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::gemm {

/// The options both vendors' pipelines take (the pipelines' option structs
/// derive from this, which registers these first).
template <typename Derived>
struct GemmPipelineOptions : public PassPipelineOptions<Derived> {
  using Base = mlir::detail::PassOptions;
  Base::Option<bool> fromLinalg{
      *this, "from-linalg",
      llvm::cl::desc("Start with the entry from linalg: one-shot-bufferize "
                     "when the module holds tensors, then gemm-from-linalg; "
                     "a linalg op it leaves is an error (docs/linalg.md)"),
      llvm::cl::init(true)};
  Base::Option<bool> packUnaligned{
      *this, "pack-unaligned",
      llvm::cl::desc("Copy A and B into 16-byte aligned workspaces before the "
                     "GEMM when their strides rule out 16-byte copies"),
      llvm::cl::init(true)};
  Base::Option<bool> dispatch{
      *this, "dispatch",
      llvm::cl::desc("Lower a gemm.matmul without a config to a family of "
                     "kernels and host code choosing one from its sizes; "
                     "false: one kernel with the default config"),
      llvm::cl::init(true)};
  Base::Option<bool> selectConfig{
      *this, "select-config",
      llvm::cl::desc("Run gemm-select-config first: ops without a config get "
                     "the cost model's pick (or the tuning database's entry) "
                     "instead of the per-type default; the model's constants "
                     "are calibrated on the H200 only"),
      llvm::cl::init(false)};
  Base::Option<std::string> tuningDb{
      *this, "tuning-db",
      llvm::cl::desc("Tuning database (JSON) for gemm-select-config; implies "
                     "select-config"),
      llvm::cl::init("")};
  Base::Option<std::string> outputDir{
      *this, "output-dir",
      llvm::cl::desc("If set, write the binaries and manifest.json here"),
      llvm::cl::init("")};
  Base::Option<bool> hostObject{
      *this, "host-object",
      llvm::cl::desc("Also write the host code as an object file for this "
                     "machine (output-dir/host.o, with host.ll) to link with "
                     "a C program and the runtime; needs output-dir"),
      llvm::cl::init(false)};
};

struct GemmToNVVMPipelineOptions
    : public GemmPipelineOptions<GemmToNVVMPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("Target chip (sm_80 ... sm_90a)"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<unsigned> ptxVersion{
      *this, "ptx-version",
      llvm::cl::desc("PTX ISA version times 10 (0: the chip's default)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> allowTf32{
      *this, "allow-tf32",
      llvm::cl::desc("Default f32 GEMMs to tf32 tensor cores"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> transposeOperands{
      *this, "transpose-operands",
      llvm::cl::desc("Copy tf32, i8 and f8 operands stored MN-major into "
                     "K-major workspaces first so that wgmma (sm_90a) runs "
                     "every layout (else: mma.sync outside tn)"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> cudaPath{
      *this, "cuda-path",
      llvm::cl::desc("CUDA toolkit (libdevice, ptxas); default: $CUDA_ROOT, "
                     "$CUDA_HOME, $CUDA_PATH, the toolkit of ptxas on PATH, "
                     "/usr/local/cuda"),
      llvm::cl::init("")};
};

/// Appends gemm lowering, NVVM lowering and serialization (`format` is "isa"
/// for PTX or "bin" for cubin) to `pm`. Fails with a diagnostic-free error
/// string in `error` if the options are invalid.
LogicalResult buildGemmToNVVMPipeline(OpPassManager &pm,
                                      const GemmToNVVMPipelineOptions &options,
                                      StringRef format, std::string &error);

/// The CUDA toolkit directory holding nvvm/libdevice, or "" if none is found.
std::string findCudaToolkit();

struct GemmToROCDLPipelineOptions
    : public GemmPipelineOptions<GemmToROCDLPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("Target chip (gfx90a, gfx942, gfx950)"),
      llvm::cl::init("gfx942")};
  PassOptions::Option<std::string> lldPath{
      *this, "lld-path",
      llvm::cl::desc("ld.lld to link HSACO with; default: $GEMM_LLD, the "
                     "ld.lld of the LLVM gemm-mlir was built with, ld.lld-22 "
                     "or ld.lld on PATH"),
      llvm::cl::init("")};
};

/// Appends gemm lowering, ROCDL lowering and serialization (`format` is
/// "isa" for AMDGCN assembly or "bin" for HSACO) to `pm`. Fails with an
/// error string in `error` if the options are invalid or ld.lld is missing.
LogicalResult
buildGemmToROCDLPipeline(OpPassManager &pm,
                         const GemmToROCDLPipelineOptions &options,
                         StringRef format, std::string &error);

/// A directory D with D/llvm/bin/ld.lld, the layout gpu-module-to-binary
/// expects of a ROCm toolkit, for the ld.lld at `lld` (or found as
/// GemmToROCDLPipelineOptions::lldPath says when `lld` is empty); "" and an
/// explanation in `error` if there is none.
std::string findLldToolkit(StringRef lld, std::string &error);

/// Registers gemm-to-ptx, gemm-to-cubin, gemm-to-amdgcn and gemm-to-hsaco.
void registerGemmPipelines();

} // namespace mlir::gemm

#endif // GEMM_PIPELINES_PIPELINES_H
