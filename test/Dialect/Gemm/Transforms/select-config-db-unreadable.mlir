// RUN: cd %S && gemm-opt %s --gemm-select-config="target=sm_90 tuning-db=Inputs/does-not-exist.json" -verify-diagnostics

// gemm-select-config rejects a database that cannot be read with a diagnostic.

// expected-error @+1 {{cannot read tuning database 'Inputs/does-not-exist.json': No such file or directory}}
module {
  func.func @f(%a: memref<?x?xf16>, %c: memref<?x?xf16>) {
    gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    return
  }
}
