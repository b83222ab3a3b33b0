// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu=chip=sm_80 --canonicalize --cse | FileCheck %s

// f16 operands accumulating in f16, all four layouts: fragments come from
// ldmatrix where the element type allows it (transposed when the shared tile
// stores M or N innermost), the MMA is nvgpu.mma.sync.

// CHECK: gpu.module @gemm_kernels [#nvvm.target<O = 3, chip = "sm_80"

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
  gemm.matmul nn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f16)
  return
}
func.func @nt(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul nt ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f16)
  return
}
func.func @tn(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f16)
  return
}
func.func @tt(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tt ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f16)
  return
}

// f16 sums stored to a bf16 C (no epilogue; here staged in shared memory):
// the two 16-bit formats meet through f32, which holds both exactly (a
// truncf from f16 to bf16 is invalid).
// CHECK-LABEL: gpu.func @to_bf16_gemm(
// CHECK: %[[W:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT: %[[N:.*]] = arith.truncf %[[W]] : f32 to bf16
// CHECK: memref.store %[[N]]
func.func @to_bf16(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xbf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xbf16>) acc(f16)
  return
}
