// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu=chip=sm_90 | FileCheck %s
// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu="chip=sm_90 allow-tf32=true" | FileCheck %s --check-prefix=TF32

// Ops without a config get the default for their types on the chip; the
// chosen config is recorded in the launch manifest.

// CHECK-DAG: name = "f16_gemm"
// CHECK-DAG: config = "#gemm.config<kind = mma_sync, block = [128, 128, 64], warps = [2, 2], instr = [16, 8, 16], stages = 3, group = 8>"
// CHECK-DAG: config = "#gemm.config<kind = simt, block = [64, 64, 16], warps = [2, 2], instr = [4, 8, 1], stages = 3, group = 8>"
// CHECK-DAG: config = "#gemm.config<kind = mma_sync, block = [128, 128, 64], warps = [2, 4], instr = [16, 8, 32], stages = 3, group = 8>"
// CHECK-DAG: config = "#gemm.config<kind = mma_sync, block = [64, 64, 16], warps = [2, 4], instr = [8, 8, 4], stages = 3, group = 8>"
// TF32: config = "#gemm.config<kind = mma_sync, block = [128, 128, 32], warps = [2, 4], instr = [16, 8, 8], stages = 3, group = 8>"
func.func @f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}
func.func @f32(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}
func.func @i8(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) acc(i32)
  return
}
func.func @f64(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf64>, memref<?x?xf64>) outs(%c : memref<?x?xf64>) acc(f64)
  return
}
