// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-amdgpu=chip=gfx942 --convert-amdgpu-to-rocdl=chipset=gfx942 | FileCheck %s
// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-amdgpu=chip=gfx90a --convert-amdgpu-to-rocdl=chipset=gfx90a | FileCheck %s --check-prefix=GFX90A

// The MFMAs at the rocdl level: the intrinsic each default config selects on
// gfx942 and gfx90a (i8 changes width between CDNA2 and CDNA3).

// CHECK-LABEL: gpu.func @f16_gemm
// CHECK: rocdl.mfma.f32.16x16x16f16 {{.*}} : (vector<4xf16>, vector<4xf16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
// CHECK-LABEL: gpu.func @bf16_gemm
// CHECK: rocdl.mfma.f32.16x16x16bf16.1k {{.*}} : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
// CHECK-LABEL: gpu.func @f32_gemm
// CHECK: rocdl.mfma.f32.16x16x4f32 {{.*}} : (f32, f32, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
// CHECK-LABEL: gpu.func @f64_gemm
// CHECK: rocdl.mfma.f64.16x16x4f64 {{.*}} : (f64, f64, vector<4xf64>, i32, i32, i32) -> vector<4xf64>
// CHECK-LABEL: gpu.func @i8_gemm
// CHECK: rocdl.mfma.i32.16x16x32.i8 {{.*}} : (i64, i64, vector<4xi32>, i32, i32, i32) -> vector<4xi32>

// GFX90A-LABEL: gpu.func @f16_gemm
// GFX90A: rocdl.mfma.f32.16x16x16f16
// GFX90A-LABEL: gpu.func @i8_gemm
// GFX90A: rocdl.mfma.i32.16x16x16i8 {{.*}} : (i32, i32, vector<4xi32>, i32, i32, i32) -> vector<4xi32>

func.func @f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}
func.func @bf16(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}
func.func @f32(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  gemm.matmul tt ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}
func.func @f64(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>) {
  gemm.matmul nt ins(%a, %b : memref<?x?xf64>, memref<?x?xf64>) outs(%c : memref<?x?xf64>) acc(f64)
  return
}
func.func @i8(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) acc(i32)
  return
}
