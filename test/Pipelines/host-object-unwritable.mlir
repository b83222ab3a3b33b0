// RUN: gemm-opt %s --gemm-write-host-object="output-dir=%s/out" -verify-diagnostics -o /dev/null
// RUN: rm -rf %t && mkdir -p %t/host.ll
// RUN: gemm-opt %s --gemm-write-host-object="output-dir=%t" -verify-diagnostics -o /dev/null

// An output-dir below a file cannot be created; a host.ll that is a folder
// cannot be written.

// expected-error-re @below {{gemm-write-host-object: {{cannot create directory '.*host-object-unwritable.mlir/out'|cannot write '.*host.ll'}}: {{.+}}}}
module {
  llvm.func @linear() {
    llvm.return
  }
}
