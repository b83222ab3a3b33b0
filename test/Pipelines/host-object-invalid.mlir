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

// -----

// What hand-written LLVM-dialect host code can hold and the CPU back-end
// cannot compile made LLVM abort in code generation: each is an error at
// the module, naming the function.

// expected-error-re @below {{gemm-write-host-object: function 'scalable' has type '<vscale x 4 x float> (<vscale x 4 x float>)', which LLVM cannot compile for '{{.*}}'}}
module {
  llvm.func @scalable(%x: vector<[4]xf32>) -> vector<[4]xf32> {
    llvm.return %x : vector<[4]xf32>
  }
}

// -----

// expected-error-re @below {{gemm-write-host-object: function 'kernel' has calling convention {{[0-9]+}}, which host code for '{{.*}}' cannot have (kernels belong in a gpu.module)}}
module {
  llvm.func amdgpu_kernelcc @kernel() {
    llvm.return
  }
}

// -----

// expected-error-re @below {{gemm-write-host-object: function 'cpu' asks for target CPU 'bogus', which LLVM does not know for '{{.*}}'}}
module {
  llvm.func @cpu() attributes {target_cpu = "bogus"} {
    llvm.return
  }
}
