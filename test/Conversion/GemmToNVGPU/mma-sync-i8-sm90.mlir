// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu=chip=sm_90 --canonicalize --cse | FileCheck %s

// i8 operands accumulating in i32, all four layouts: fragments come from
// ldmatrix where the element type allows it (transposed when the shared tile
// stores M or N innermost), the MMA is nvgpu.mma.sync.

// CHECK: gpu.module @gemm_kernels [#nvvm.target<O = 3, chip = "sm_90"

// CHECK-LABEL: gpu.func @nn_gemm(
// CHECK: nvgpu.device_async_copy
// CHECK: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false} {{.*}} -> vector<4x4xi8>
// CHECK: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 32]} : (vector<4x4xi8>,
// CHECK: gpu.return

// CHECK-LABEL: gpu.func @nt_gemm(
// CHECK: nvgpu.device_async_copy
// CHECK: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 32]} : (vector<4x4xi8>,
// CHECK: gpu.return

// CHECK-LABEL: gpu.func @tn_gemm(
// CHECK: nvgpu.device_async_copy
// CHECK: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false} {{.*}} -> vector<4x4xi8>
// CHECK: nvgpu.ldmatrix {{.*}} transpose = false}
// CHECK: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 32]} : (vector<4x4xi8>,
// CHECK: gpu.return

// CHECK-LABEL: gpu.func @tt_gemm(
// CHECK: nvgpu.device_async_copy
// CHECK: nvgpu.ldmatrix {{.*}} transpose = false}
// CHECK: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 32]} : (vector<4x4xi8>,
// CHECK: gpu.return
func.func @nn(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) acc(i32)
  return
}
func.func @nt(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  gemm.matmul nt ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) acc(i32)
  return
}
func.func @tn(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) acc(i32)
  return
}
func.func @tt(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  gemm.matmul tt ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) acc(i32)
  return
}
