// RUN: %python -c "print('[' * 100000)" > %t.json
// RUN: not gemm-opt %s --gemm-select-config="target=sm_90 tuning-db=%t.json" 2>&1 | FileCheck %s

// A database nested 100000 levels deep overflowed the stack of the JSON
// parser; the depth is bounded before parsing.

// CHECK: error: malformed tuning database: nested deeper than 64 levels at offset 64
module {
  func.func @f(%a: memref<?x?xf16>, %c: memref<?x?xf16>) {
    gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    return
  }
}
