// RUN: not gemm-opt %s --gemm-to-ptx="chip=sm_90 ptx-version=60" 2>&1 | FileCheck %s --check-prefix=PTX
// RUN: not gemm-opt %s --gemm-to-ptx="chip=gfx942" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not gemm-opt %s --gemm-write-artifacts 2>&1 | FileCheck %s --check-prefix=DIR
// RUN: not gemm-opt %s --gemm-to-ptx="chip=sm_90 ptx-version=abc" 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: not gemm-opt %s --gemm-to-hsaco="chip=gfx942 frob=1" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not gemm-opt %s --gemm-to-ptx="chip=sm_90 cuda-path=%S" 2>&1 | FileCheck %s --check-prefix=CUDA
// RUN: not gemm-opt %s --gemm-to-hsaco="chip=gfx942 lld-path=%python" 2>&1 | FileCheck %s --check-prefix=NOTLLD
// RUN: not gemm-opt %s --gemm-to-ptx="chip=sm_90 output-dir={x}" 2>&1 | FileCheck %s --check-prefix=BRACES
// RUN: not gemm-opt %s --gemm-write-artifacts="output-dir={x}" 2>&1 | FileCheck %s --check-prefix=BRACES-PASS
// RUN: not gemm-opt %s --gemm-to-ptx="chip=sm_90a ptx-version=999" 2>&1 | FileCheck %s --check-prefix=PTX999
// RUN: not gemm-opt %s --pass-pipeline="builtin.module(func.func(gemm-to-ptx{chip=sm_90}))" 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: not gemm-opt %s --pass-pipeline="func.func(gemm-to-hsaco{chip=gfx942})" 2>&1 | FileCheck %s --check-prefix=NESTED-AMD

// Invalid pipeline options fail with a diagnostic; LLVM never sees a PTX
// version the chip does not support (it would abort the process).

// PTX: error: PTX version 6.0 is too old for sm_90 (needs at least 7.8)
// CHIP: error: unknown NVIDIA chip 'gfx942' (expected one of sm_80, sm_86, sm_89, sm_90, sm_90a)
// PTX999: error: PTX version 999 (ptx-version is the ISA version times 10) is not one LLVM 22 emits
// VALUE: error: gemm-to-ptx: invalid option value (options 'chip=sm_90 ptx-version=abc')
// UNKNOWN: error: gemm-to-hsaco: <Pass-Options-Parser>: no such option frob (options 'chip=gfx942 frob=1')
// CUDA: error: cuda-path '{{.*}}' has no nvvm/libdevice/libdevice.10.bc (expected a CUDA toolkit)
// NOTLLD: error: {{.*}} is not LLD ({{.*}} --version' does not say LLD); pass the ld.lld of LLVM 22 as lld-path=
// BRACES: error: gemm-to-ptx: output-dir={x}: MLIR's option parser reads a value in braces as a group and drops the braces; quote the path (output-dir="{x}")
// BRACES-PASS: error: gemm-write-artifacts: output-dir={x}: MLIR's option parser
// DIR: error: gemm-write-artifacts: 'output-dir' must be set
// The pipelines add module passes; nested under another op that aborted
// the process (LLVM ERROR: Can't add pass ... did you intend to nest?).
// NESTED: error: gemm-to-ptx runs on 'builtin.module', not nested under 'func.func'
// NESTED-AMD: error: gemm-to-hsaco runs on 'builtin.module', not nested under 'func.func'
func.func @f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}
