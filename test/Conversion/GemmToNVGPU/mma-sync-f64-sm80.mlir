// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu=chip=sm_80 --canonicalize --cse | FileCheck %s

// f64 operands accumulating in f64, all four layouts: fragments come from
// ldmatrix where the element type allows it (transposed when the shared tile
// stores M or N innermost), the MMA is nvgpu.mma.sync.

// CHECK: gpu.module @gemm_kernels [#nvvm.target<O = 3, chip = "sm_80"

// CHECK-LABEL: gpu.func @nn_gemm(
// CHECK: nvgpu.device_async_copy
// CHECK: nvgpu.mma.sync({{.*}}) {mmaShape = [8, 8, 4]} : (vector<1x1xf64>,
// CHECK: gpu.return

// CHECK-LABEL: gpu.func @nt_gemm(
// CHECK: nvgpu.device_async_copy
// CHECK: nvgpu.mma.sync({{.*}}) {mmaShape = [8, 8, 4]} : (vector<1x1xf64>,
// CHECK: gpu.return

// CHECK-LABEL: gpu.func @tn_gemm(
// CHECK: nvgpu.device_async_copy
// CHECK: nvgpu.mma.sync({{.*}}) {mmaShape = [8, 8, 4]} : (vector<1x1xf64>,
// CHECK: gpu.return

// CHECK-LABEL: gpu.func @tt_gemm(
// CHECK: nvgpu.device_async_copy
// CHECK: nvgpu.mma.sync({{.*}}) {mmaShape = [8, 8, 4]} : (vector<1x1xf64>,
// CHECK: gpu.return
func.func @nn(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xf64>, memref<?x?xf64>) outs(%c : memref<?x?xf64>) acc(f64)
  return
}
func.func @nt(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>) {
  gemm.matmul nt ins(%a, %b : memref<?x?xf64>, memref<?x?xf64>) outs(%c : memref<?x?xf64>) acc(f64)
  return
}
func.func @tn(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf64>, memref<?x?xf64>) outs(%c : memref<?x?xf64>) acc(f64)
  return
}
func.func @tt(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>) {
  gemm.matmul tt ins(%a, %b : memref<?x?xf64>, memref<?x?xf64>) outs(%c : memref<?x?xf64>) acc(f64)
  return
}
