// RUN: cd %S && gemm-opt %s --gemm-select-config="target=sm_90 tuning-db=Inputs/does-not-exist.json" -verify-diagnostics
// RUN: not gemm-opt %s --gemm-select-config="target=sm_90 tuning-db=/dev/zero" 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: not gemm-opt %s --gemm-select-config="target=sm_90 tuning-db=%S" 2>&1 | FileCheck %s --check-prefix=DIRECTORY

// gemm-select-config rejects a database that cannot be read with a diagnostic.
// A device or a FIFO is refused before it is opened: /dev/zero was read
// until memory ran out.
// DEVICE: error: cannot read tuning database '/dev/zero': not a regular file
// DIRECTORY: error: cannot read tuning database '{{.*}}': it is a directory

// expected-error @+1 {{cannot read tuning database 'Inputs/does-not-exist.json': No such file or directory}}
module {
  func.func @f(%a: memref<?x?xf16>, %c: memref<?x?xf16>) {
    gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    return
  }
}
