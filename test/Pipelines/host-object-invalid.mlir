// RUN: rm -rf %t && mkdir -p %t && echo '[1]' > %t/manifest.json
// RUN: gemm-opt %s -split-input-file --gemm-write-host-object=output-dir=%t -verify-diagnostics -o /dev/null

// gemm-write-host-object translates the module to LLVM IR: host code not
// yet in the LLVM dialect is an error, not a crash or an empty object.

// expected-error @below {{gemm-write-host-object: the module does not translate to LLVM IR (the host code must be in the LLVM dialect, the kernels in gpu.binary)}}
module {
  // expected-error @below {{cannot be converted to LLVM IR: missing `LLVMTranslationDialectInterface` registration for dialect for op: func.func}}
  func.func @linear(%c: memref<?xf32>) {
    return
  }
}

// -----

// A manifest.json that is not gemm-write-artifacts' (here a JSON array) is
// reported, not overwritten.

// expected-error-re @below {{gemm-write-host-object: '{{.*}}manifest.json' is not a manifest: not a JSON object}}
module {
  llvm.func @linear() {
    llvm.return
  }
}
