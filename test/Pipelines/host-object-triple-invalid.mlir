// RUN: rm -rf %t && gemm-opt %s --gemm-write-host-object="output-dir=%t triple=sparc-unknown-linux-gnu" -verify-diagnostics -o /dev/null
// RUN: rm -rf %t && gemm-opt %s --gemm-write-host-object="output-dir=%t triple=nvptx64-nvidia-cuda" -verify-diagnostics -o /dev/null
// RUN: rm -rf %t && gemm-opt %s --gemm-write-host-object="output-dir=%t triple=i386-pc-linux-gnu" -verify-diagnostics -o /dev/null
// RUN: rm -rf %t && gemm-opt %s --gemm-write-host-object="output-dir=%t triple=nonsense" -verify-diagnostics -o /dev/null
// RUN: not ls %t

// The host code is lowered for 64-bit pointers, and only CPUs with GPU
// drivers run it: another triple (a GPU's, which LLVM's instruction
// selection aborted on, a 32-bit or unknown CPU) is an error naming it,
// and nothing is written.

// expected-error-re @below {{gemm-write-host-object: triple '{{sparc-unknown-linux-gnu|nvptx64-nvidia-cuda|i386-pc-linux-gnu|nonsense}}' is not a host of the CUDA or ROCm drivers (expected an x86_64, aarch64 or ppc64le triple)}}
module {
  llvm.func @linear() {
    llvm.return
  }
}
