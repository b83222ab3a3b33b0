// RUN: gemm-opt %s --gemm-select-config="target=sm_90 tuning-db=%S/Inputs/db-chip.json" -verify-diagnostics

// gemm-select-config rejects an entry for an unknown chip with a diagnostic.

// expected-error @+1 {{tuning database entry #0: unknown chip 'sm_100'}}
module {
  func.func @f(%a: memref<?x?xf16>, %c: memref<?x?xf16>) {
    gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    return
  }
}
