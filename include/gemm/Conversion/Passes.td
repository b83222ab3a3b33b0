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
    time for static strides, by a run-time check otherwise). With
    `transpose-operands`, tf32, i8 and f8 operands stored MN-major are
    copied transposed into K-major workspaces by a shared-memory transposing
    kernel, so that their wgmma kernels (which read those types K-major only)
    run every layout as tn. `stages` buffers are software-pipelined (prologue,
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
    Option<"transposeOperands", "transpose-operands", "bool",
           /*default=*/"true",
           "Copy tf32, i8 and f8 operands stored MN-major (A as K x M, B as "
           "K x N) into K-major workspaces first, so that wgmma (sm_90a), "
           "which reads them K-major only, runs every layout (else: "
           "mma.sync outside tn)">,
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
    prebuilt objects). Every memref type the input declares has a strided
    layout, and host code (outside `gpu.module`) takes memrefs in the
    default or a numbered memory space: the LLVM lowerings printed an error
    for others and the pipeline went on (exit status 0) or failed later at
    a `gpu.launch_func`.
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

def GemmHostCInterface
    : Pass<"gemm-host-c-interface", "::mlir::ModuleOp"> {
  let summary = "Give the public host functions a C interface";
  let description = [{
    Sets `llvm.emit_c_interface` on every public `func.func` definition
    directly in the module (the host functions; kernels live in `gpu.module`s
    and are not touched), so that `convert-func-to-llvm` adds a wrapper
    `_mlir_ciface_<name>` taking each memref argument as a pointer to its
    descriptor `{T *allocated, T *aligned, int64_t offset, int64_t sizes[R],
    int64_t strides[R]}` and scalars by value: the entry point a C or C++
    program calls (docs/user-guide.md, "The host ABI"). Private functions
    and declarations keep their plain ABI (upstream's
    `llvm-request-c-wrappers` marks declarations too, which makes their
    callers call `_mlir_ciface_<name>` instead). A module already defining
    `_mlir_ciface_<name>` for such a function is an error at that function.
  }];
}

def GemmWriteHostObject
    : Pass<"gemm-write-host-object", "::mlir::ModuleOp"> {
  let summary = "Write the host module as LLVM IR and an object file";
  let description = [{
    Translates the module, which must be in the LLVM dialect apart from the
    `gpu.binary` objects and `gpu.launch_func`s (the output of the
    composite pipelines), to LLVM IR and compiles it with an LLVM
    TargetMachine for `triple` (default: the machine gemm-opt runs on;
    x86_64, aarch64 or ppc64le, the CPUs with CUDA or ROCm drivers, since
    the host code assumes 64-bit pointers; generic CPU, position-independent
    code) into `output-dir/host.o`, an object with the host functions (and
    their `_mlir_ciface_` wrappers), the embedded GPU binaries, a
    constructor loading them and calls to the `mgpu*` runtime entry points
    (libGemmRuntime.so or upstream's runtime wrappers). The LLVM IR
    goes to `output-dir/host.ll`. If `output-dir/manifest.json` exists
    (gemm-write-artifacts ran first, as in the pipelines), its `host` entry
    names both files, the triple and the C entry points. The IR is left
    unchanged.
  }];
  let options = [
    Option<"outputDir", "output-dir", "std::string", /*default=*/"\"\"",
           "Directory to write host.o and host.ll into (created if missing)">,
    Option<"triple", "triple", "std::string", /*default=*/"\"\"",
           "Target triple of the object (empty: the host's)">
  ];
}

def GemmFromLinalg : Pass<"gemm-from-linalg", "::mlir::ModuleOp"> {
  let summary = "Rewrite linalg contractions and their elementwise consumers "
                "on memrefs into gemm.matmul";
  let description = [{
    The entry from linalg (docs/linalg.md). On buffers (memrefs), in host
    code (not inside a `gpu.module`):

    1. Contractions become `gemm.matmul`: `linalg.matmul`,
       `linalg.batch_matmul`, `linalg.contract` and any `linalg.generic`
       with one batch (optional), M, N and K dimension, projected-permutation
       indexing maps (the batch leading every operand) and a multiply-add
       body, the inputs optionally extended (`arith.extf`, `arith.extsi`)
       to the accumulator type. The maps give the layout (A M x K or K x M,
       B K x N or N x K). The output's element type is the accumulator's.
       Since linalg accumulates into its output, the epilogue adds the C
       input, unless the output was filled by a `linalg.fill` with nothing
       touching it in between: the fill is dropped and its value, when not
       zero, added instead.
    2. Elementwise consumers fold into the epilogue: a linalg op with only
       parallel loops that reads the whole GEMM result through identity
       maps and writes an output of the same shape (`linalg.generic`, the
       named elementwise ops, `linalg.elementwise`, `linalg.map`,
       `linalg.copy`); its other inputs become extras (scalars, row or
       column vectors, full M x N operands). The fused GEMM writes the
       consumer's output, which may not alias A, B or the GEMM's extras
       unless the consumer writes back into the GEMM's own output, and the
       intermediate buffer, a local `memref.alloc`, may have no other
       reader. Chains fold one op after another.
    3. With `device-allocs`, a `memref.alloc` used only by `gemm.matmul`
       ops, `memref.dim`, `memref.dealloc` and `func.return` becomes a
       `gpu.alloc` (its deallocation a `gpu.dealloc`; one is added after
       the last use when the buffer neither is freed nor escapes): in the
       GPU pipelines, memrefs handed to kernels are device memory.

    What is not taken is left unchanged; `report` emits a remark naming the
    reason at every linalg op left (and at every buffer a gemm.matmul uses
    that stays on the host), `require-all` makes a linalg op left an error
    (the GPU pipelines set it: they cannot run linalg on device memory). With
    `bufferize`, a module holding tensor-semantics ops is first bufferized
    by `one-shot-bufferize{bufferize-function-boundaries
    function-boundary-type-conversion=identity-layout-map
    unknown-type-conversion=identity-layout-map}`.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gemm::GemmDialect",
    "::mlir::gpu::GPUDialect", "::mlir::memref::MemRefDialect"
  ];
  let options = [
    Option<"report", "report", "bool", /*default=*/"false",
           "Emit a remark at every linalg op left alone, naming the reason, "
           "and at every buffer a gemm.matmul uses that stays on the host">,
    Option<"requireAll", "require-all", "bool", /*default=*/"false",
           "Fail with an error at every linalg op left alone (the GPU "
           "pipelines' setting)">,
    Option<"bufferize", "bufferize", "bool", /*default=*/"false",
           "Bufferize first (one-shot-bufferize across function boundaries, "
           "identity layouts) when the module holds tensor-semantics ops">,
    Option<"deviceAllocs", "device-allocs", "bool", /*default=*/"true",
           "Turn memref.alloc buffers used only by gemm.matmul (and "
           "memref.dim, memref.dealloc, func.return) into gpu.alloc">
  ];
  let statistics = [
    Statistic<"numContractions", "num-contractions",
              "Contractions rewritten into gemm.matmul">,
    Statistic<"numFills", "num-fills", "linalg.fill ops folded">,
    Statistic<"numFused", "num-fused",
              "Elementwise ops folded into an epilogue">,
    Statistic<"numDeviceAllocs", "num-device-allocs",
              "memref.alloc ops turned into gpu.alloc">
  ];
}

#endif // GEMM_CONVERSION_PASSES_TD
