// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu=chip=sm_90 --canonicalize --cse | FileCheck %s

// Shared tiles: the XOR swizzle (16-byte chunks, key from the row or the
// 128-byte line), plain row-major, or rows padded by one 16-byte vector.

// CHECK-LABEL: gpu.func @swizzle_gemm(
// CHECK: memref.view {{.*}} to memref<12288xf16
// CHECK: arith.xori
// CHECK: nvgpu.ldmatrix
func.func @swizzle(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [128, 128, 32], warps = [2, 2], instr = [16, 8, 16], stages = 3, smem = swizzle>}
  return
}

// CHECK-LABEL: gpu.func @plain_gemm(
// CHECK: memref.view {{.*}} to memref<12288xf16
// CHECK-NOT: arith.xori
// CHECK: gpu.return
func.func @plain(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [128, 128, 32], warps = [2, 2], instr = [16, 8, 16], stages = 3, smem = plain>}
  return
}

// Rows of 32 + 8 halfs: 3 stages x 128 rows x 40 = 15360 elements per operand.
// CHECK-LABEL: gpu.func @pad_gemm(
// CHECK: memref.view {{.*}} to memref<15360xf16
// CHECK-NOT: arith.xori
// CHECK: gpu.return
func.func @pad(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [128, 128, 32], warps = [2, 2], instr = [16, 8, 16], stages = 3, smem = pad>}
  return
}
