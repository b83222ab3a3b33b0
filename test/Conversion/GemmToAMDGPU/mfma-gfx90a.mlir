// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-amdgpu=chip=gfx90a | FileCheck %s

// CDNA2 (gfx90a): the 4-byte i8 MFMA (16x16x16) and the bf16 "_1k" forms
// (selected by amdgpu.mfma for vector<4xbf16>).

// CHECK: gpu.module @gemm_kernels [#rocdl.target<O = 3, chip = "gfx90a">]
// CHECK-LABEL: gpu.func @i8_tn_gemm
// CHECK: amdgpu.mfma 16x16x16 {{.*}} : vector<4xi8>, vector<4xi8>, vector<4xi32>
func.func @i8_tn(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) acc(i32)
  return
}

// CHECK-LABEL: gpu.func @bf16_tn_gemm
// CHECK: amdgpu.mfma 16x16x16 {{.*}} : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
func.func @bf16_tn(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}
