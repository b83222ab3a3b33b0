// RUN: rm -rf %t && gemm-opt %s --gemm-write-host-object="output-dir=%t triple=aarch64-unknown-linux-gnu" -verify-diagnostics -o /dev/null

// x86's extended float on an aarch64 host: its libcalls made LLVM abort
// ("unsupported library call operation"); an error naming the function.

// expected-error @below {{gemm-write-host-object: function 'f80' has type 'x86_fp80 (x86_fp80)', which LLVM cannot compile for 'aarch64-unknown-linux-gnu'}}
module {
  llvm.func @f80(%x: f80) -> f80 {
    %y = llvm.intr.exp10(%x) : (f80) -> f80
    llvm.return %y : f80
  }
}
