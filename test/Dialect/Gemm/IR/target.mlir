// RUN: gemm-opt %s --verify-roundtrip | FileCheck %s

// A module-level target makes every config inside it checked against the
// chip; configs that fit pass.

// CHECK: module attributes {gemm.target = #gemm.target<"sm_90">}
module attributes {gemm.target = #gemm.target<"sm_90">} {
  // CHECK-LABEL: func @fits_sm90
  func.func @fits_sm90(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
    // 4 x (128 + 256) x 64 x 2 = 196608 bytes: over sm_86, within sm_90.
    // CHECK: block = [128, 256, 64]
    gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
      attributes {config = #gemm.config<kind = mma_sync, block = [128, 256, 64], warps = [2, 4], instr = [16, 8, 16], stages = 4>}
    return
  }
}

// CHECK: module attributes {gemm.target = #gemm.target<"gfx950">}
module attributes {gemm.target = #gemm.target<"gfx950">} {
  // CHECK-LABEL: func @fits_gfx950
  func.func @fits_gfx950(%a: memref<?x?xf8E4M3FN>, %c: memref<?x?xf32>) {
    // CHECK: kind = mfma
    gemm.matmul tn ins(%a, %a : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%c : memref<?x?xf32>) acc(f32)
      attributes {config = #gemm.config<kind = mfma, block = [128, 128, 64], warps = [2, 2], instr = [16, 16, 32]>}
    return
  }
}
