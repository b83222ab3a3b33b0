// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu=chip=sm_90 --canonicalize --cse | FileCheck %s

// f16 operands accumulating in f32, all four layouts: fragments come from
// ldmatrix where the element type allows it (transposed when the shared tile
// stores M or N innermost), the MMA is nvgpu.mma.sync.

// CHECK: gpu.module @gemm_kernels [#nvvm.target<O = 3, chip = "sm_90"

// CHECK-LABEL: gpu.func @nn_gemm(
// CHECK: nvgpu.device_async_copy
// CHECK: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false} {{.*}} -> vector<4x2xf16>
// CHECK: nvgpu.ldmatrix {{.*}} transpose = true}
// CHECK: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>,
// CHECK: gpu.return

// CHECK-LABEL: gpu.func @nt_gemm(
// CHECK: nvgpu.device_async_copy
// CHECK: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = true} {{.*}} -> vector<4x2xf16>
// CHECK: nvgpu.ldmatrix {{.*}} transpose = true}
// CHECK: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>,
// CHECK: gpu.return

// CHECK-LABEL: gpu.func @tn_gemm(
// CHECK: nvgpu.device_async_copy
// CHECK: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false} {{.*}} -> vector<4x2xf16>
// CHECK: nvgpu.ldmatrix {{.*}} transpose = false}
// CHECK: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>,
// CHECK: gpu.return

// CHECK-LABEL: gpu.func @tt_gemm(
// CHECK: nvgpu.device_async_copy
// CHECK: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = true} {{.*}} -> vector<4x2xf16>
// CHECK: nvgpu.ldmatrix {{.*}} transpose = false}
// CHECK: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>,
// CHECK: gpu.return
func.func @nn(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}
func.func @nt(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul nt ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}
func.func @tn(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}
func.func @tt(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tt ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}
