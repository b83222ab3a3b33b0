// RUN: gemm-opt %s --gemm-write-host-object -verify-diagnostics -o /dev/null
// RUN: not gemm-opt %s --gemm-to-ptx="chip=sm_90 host-object=true" 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not gemm-opt %s --gemm-to-hsaco="chip=gfx942 host-object=true" 2>&1 | FileCheck %s --check-prefix=PIPELINE

// The host object is written into a folder: the pass and the pipelines'
// host-object=true need output-dir.

// PIPELINE: error: host-object=true needs output-dir (the folder host.o is written to)

// expected-error @below {{gemm-write-host-object: 'output-dir' must be set}}
module {
  llvm.func @linear() {
    llvm.return
  }
}
