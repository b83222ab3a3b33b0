// RUN: gemm-opt %s --gemm-select-config="target=sm_90 tuning-db=%S/Inputs/db-malformed.json" -verify-diagnostics

// gemm-select-config rejects malformed JSON with a diagnostic.

// expected-error @+1 {{malformed tuning database: }}
module {
  func.func @f(%a: memref<?x?xf16>, %c: memref<?x?xf16>) {
    gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    return
  }
}
