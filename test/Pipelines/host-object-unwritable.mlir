// RUN: gemm-opt %s --gemm-write-host-object="output-dir=%s/out" -verify-diagnostics -o /dev/null

// output-dir below a file: the folder cannot be created.

// expected-error-re @below {{gemm-write-host-object: cannot create directory '{{.*}}host-object-unwritable.mlir/out': {{.+}}}}
module {
  llvm.func @linear() {
    llvm.return
  }
}
