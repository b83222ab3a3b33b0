//===- Passes.td - gemm conversion passes ------------------*- tablegen -*-===//

#ifndef GEMM_CONVERSION_PASSES_TD
#define GEMM_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertGemmToNVGPU : Pass<"convert-gemm-to-nvgpu", "::mlir::ModuleOp"> {
  let summary = "Lower gemm.matmul to NVIDIA kernels (mma.sync, wgmma, SIMT) and launches";
  let description = [{
    Replaces every `gemm.matmul` with a `gpu.launch_func` of a kernel built
    from `nvgpu`, `gpu`, `memref`, `scf`, `vector` and `arith` ops and placed
    in a `gpu.module` carrying an `#nvvm.target` for `chip`.

    The kernel stages block tiles of A and B in shared memory with 16-byte
    `nvgpu.device_async_copy` (cp.async, zero-filled at the edges) when the
    operands are 16-byte aligned at run time, and with predicated element
    copies otherwise. With `pack-unaligned`, operands whose strides rule out
    16-byte copies are first copied on the host side into zero-padded,
    aligned `gpu.alloc` workspaces by two pack kernels (decided at compile
    time for static strides, by a run-time check otherwise); `stages` buffers are software-pipelined (prologue,
    steady state with one barrier per k-tile, drain). Shared tiles use the
    XOR swizzle of `gemm/Utils/FragmentLayout.h`. `mma_sync` configs read
    fragments with `nvgpu.ldmatrix` (transposed where the layout needs it) and
    compute with `nvgpu.mma.sync`; `wgmma` configs (sm_90a) stage 128-byte
    swizzled tiles and issue `nvvm.wgmma.mma_async` per warpgroup from
    shared-memory descriptors, one stage in flight; `simt` configs use FMA
    per thread. The
    epilogue region is applied in registers and stores are predicated, so any
    M, N, K >= 1 is handled.

    A `gemm.matmul` without a config gets the default for its types on
    `chip` (`gemm/Tuning/DefaultConfig.h`); every config is checked against
    `gemm/Target/Legality.h` before anything is rewritten, and the pattern
    (`populateGemmToNVGPUPatterns`) checks it again on its own, so it is safe
    in other passes. The kernels' launch facts (grid rule, block, dynamic shared
    memory, parameters) are recorded in the module attribute `gemm.kernels`
    for `gemm-write-artifacts`.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::math::MathDialect", "::mlir::memref::MemRefDialect",
    "::mlir::nvgpu::NVGPUDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect"
  ];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Target chip (sm_80, sm_86, sm_89, sm_90, sm_90a)">,
    Option<"ptxVersion", "ptx-version", "unsigned", /*default=*/"0",
           "PTX ISA version times 10 (0: the chip's default)">,
    Option<"allowTf32", "allow-tf32", "bool", /*default=*/"false",
           "Default f32 GEMMs to tf32 tensor cores instead of exact SIMT">,
    Option<"dispatch", "dispatch", "bool", /*default=*/"true",
           "Lower a gemm.matmul without a config to a family of kernels and "
           "host code choosing one from its sizes (gemm/Tuning/Dispatch.h); "
           "false: one kernel with the default config">,
    Option<"packUnaligned", "pack-unaligned", "bool", /*default=*/"true",
           "Copy A and B into 16-byte aligned workspaces before the GEMM when "
           "their strides rule out 16-byte copies (else: element copies)">,
    Option<"kernelModule", "kernel-module", "std::string",
           /*default=*/"\"gemm_kernels\"",
           "Name of the gpu.module receiving the kernels">
  ];
  let statistics = [
    Statistic<"numKernels", "num-kernels", "Number of kernels generated">
  ];
}

def ConvertGemmToAMDGPU : Pass<"convert-gemm-to-amdgpu", "::mlir::ModuleOp"> {
  let summary = "Lower gemm.matmul to AMD kernels (amdgpu.mfma) and launches";
  let description = [{
    Replaces every `gemm.matmul` with a `gpu.launch_func` of a kernel built
    from `amdgpu`, `gpu`, `memref`, `vector`, `scf` and `arith` ops and placed
    in a `gpu.module` carrying a `#rocdl.target` for `chip`.

    Each workgroup computes a block tile with a grid of waves (64 lanes);
    each wave computes its wave tile with `amdgpu.mfma` (the instruction
    shape of the config; its lane maps are those of
    `gemm/Utils/MfmaLayout.h`, unit-tested against AMD's Matrix Instruction
    Calculator tables). A and B are staged in LDS in `stages` buffers: each
    thread loads its 16-byte chunks of the next k-tile into registers
    (`vector.load`, unpredicated for interior tiles; predicated, clamped
    element loads at the edges and for unaligned or strided operands, which
    `pack-unaligned` normally copies into aligned workspaces first) before
    the current k-tile's MFMAs and writes them to LDS after, with one barrier
    per k-tile. The LDS layout (plain, padded, XOR-swizzled) and the amount of
    padding come from the bank-conflict model of `MfmaLayout.h`. The epilogue
    region is applied in registers and stores are predicated, so any
    M, N, K >= 1 is handled.

    A `gemm.matmul` without a config gets the default for its types on
    `chip` (`gemm/Tuning/DefaultConfig.h`); configs and epilogues are checked
    (`gemm/Target/Legality.h`) before anything is rewritten, and again by the
    pattern itself (`populateGemmToAMDGPUPatterns`). Transcendental f32 epilogue ops are expanded into polynomial
    approximations and native instructions, so kernels need no ROCm device
    library. Launch facts (chip, grid rule, block, LDS, parameters) are
    recorded in the module attribute `gemm.kernels`.
  }];
  let dependentDialects = [
    "::mlir::amdgpu::AMDGPUDialect", "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect", "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect", "::mlir::ROCDL::ROCDLDialect",
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect"
  ];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"gfx942\"",
           "Target chip (gfx90a, gfx942, gfx950)">,
    Option<"dispatch", "dispatch", "bool", /*default=*/"true",
           "Lower a gemm.matmul without a config to a family of kernels and "
           "host code choosing one from its sizes (gemm/Tuning/Dispatch.h); "
           "false: one kernel with the default config">,
    Option<"packUnaligned", "pack-unaligned", "bool", /*default=*/"true",
           "Copy A and B into 16-byte aligned workspaces before the GEMM when "
           "their strides rule out 16-byte copies (else: element copies)">,
    Option<"kernelModule", "kernel-module", "std::string",
           /*default=*/"\"gemm_kernels\"",
           "Name of the gpu.module receiving the kernels">
  ];
  let statistics = [
    Statistic<"numKernels", "num-kernels", "Number of kernels generated">
  ];
}

def GemmCheckKernelModules : Pass<"gemm-check-kernel-modules", "::mlir::ModuleOp"> {
  let summary = "Check the input holds only what a pipeline for the chip compiles";
  let description = [{
    The composite pipelines lower every `gpu.module` with one vendor's passes
    (`convert-gpu-to-nvvm` or `convert-gpu-to-rocdl`) and serialize it for
    each of its targets: a module targeting the other vendor (`#rocdl.target`
    under gemm-to-ptx, `#nvvm.target` under gemm-to-hsaco) made LLVM abort or
    wrote the other vendor's binary, and one targeting another chip of the
    vendor was serialized for that chip. A `gpu.binary` the input brings
    along was not compiled by the pipeline, and nothing vouches for its
    bytes. The pipelines run this check first and fail with a diagnostic at
    the module or binary: every target must be the vendor's for `chip`, and
    the input holds no `gpu.binary` (gemm-write-artifacts alone writes
    prebuilt objects).
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "The chip the pipeline builds for (its vendor is checked)">
  ];
}

def GemmVerifyBinaries : Pass<"gemm-verify-binaries", "::mlir::ModuleOp"> {
  let summary = "Check the gpu.binary objects a pipeline produced";
  let description = [{
    Fails with a diagnostic at the `gpu.binary` when one of its objects is
    empty (a linker that wrote nothing) or when PTX assembly still declares
    an external libdevice function (`__nv_erff`, ...): serialization reports
    a missing libdevice as an error and goes on, and ptxas would reject the
    PTX later. The composite pipelines run it after `gpu-module-to-binary`,
    so that they never succeed with an artifact that cannot be used.
  }];
}

def GemmWriteArtifacts : Pass<"gemm-write-artifacts", "::mlir::ModuleOp"> {
  let summary = "Write gpu.binary objects and a JSON manifest to a directory";
  let description = [{
    For standalone users: writes each `gpu.binary` object (PTX for
    `format=isa`, cubin for `format=bin`, HSACO for AMD) to `output-dir`
    together with `manifest.json`, which lists per kernel its binary, name,
    block size, dynamic shared memory, grid rule and parameter order (memref
    parameters expand to MLIR's descriptor fields), from the module attribute
    `gemm.kernels`. The IR is left unchanged.
  }];
  let options = [
    Option<"outputDir", "output-dir", "std::string", /*default=*/"\"\"",
           "Directory to write into (created if missing)">
  ];
}

#endif // GEMM_CONVERSION_PASSES_TD
