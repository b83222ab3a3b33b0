// RUN: gemm-opt %s --gemm-select-config="target=sm_90 tuning-db=%S/Inputs/db-schema.json" -verify-diagnostics

// gemm-select-config rejects the wrong schema with a diagnostic.

// expected-error @+1 {{tuning database schema is 'cutlass-profiler', expected 'gemm-mlir-tuning-db'}}
module {
  func.func @f(%a: memref<?x?xf16>, %c: memref<?x?xf16>) {
    gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    return
  }
}
