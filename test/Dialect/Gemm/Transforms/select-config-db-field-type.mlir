// RUN: gemm-opt %s --gemm-select-config="target=sm_90 tuning-db=%S/Inputs/db-field-type.json" -verify-diagnostics

// An optional config field of the wrong type is an error, not silently
// replaced by its default.

// expected-error @+1 {{tuning database entry #0: invalid config field 'group'}}
module {
  func.func @f(%a: memref<?x?xf16>, %c: memref<?x?xf16>) {
    gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    return
  }
}
