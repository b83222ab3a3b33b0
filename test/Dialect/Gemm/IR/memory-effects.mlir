// RUN: gemm-opt --verify-roundtrip %s --cse --canonicalize | FileCheck %s

// gemm.matmul writes C and reads A, B (and C only when the epilogue does):
// identical ops are not merged and ops whose result nobody reads are kept.

// CHECK-LABEL: func @not_dead
// CHECK-COUNT-2: gemm.matmul
func.func @not_dead(%a: memref<8x8xf16>, %c: memref<8x8xf32>) {
  gemm.matmul nn ins(%a, %a : memref<8x8xf16>, memref<8x8xf16>) outs(%c : memref<8x8xf32>) acc(f32)
  gemm.matmul nn ins(%a, %a : memref<8x8xf16>, memref<8x8xf16>) outs(%c : memref<8x8xf32>) acc(f32)
  return
}

// The epilogue's constants stay inside the region (nothing is hoisted out of
// a region the lowering outlines into a kernel).
// CHECK-LABEL: func @region_constants
// CHECK: gemm.matmul
// CHECK: ^bb0
// CHECK-NEXT: arith.constant 2.000000e+00 : f32
func.func @region_constants(%a: memref<8x8xf16>, %c: memref<8x8xf32>) {
  gemm.matmul nn ins(%a, %a : memref<8x8xf16>, memref<8x8xf16>) outs(%c : memref<8x8xf32>) acc(f32) {
  ^bb0(%acc: f32, %cin: f32):
    %two = arith.constant 2.0 : f32
    %0 = arith.mulf %acc, %two : f32
    gemm.yield %0 : f32
  }
  return
}
