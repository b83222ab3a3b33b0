// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu="chip=sm_90 dispatch=false" --canonicalize --cse | FileCheck %s

// Without a region the accumulator is converted to C's element type.

// CHECK-LABEL: gpu.func @to_f16_gemm(
// CHECK-NOT: memref.load %arg2{{.*}} : memref<?x?xf16>
// CHECK: arith.truncf {{.*}} : f32 to f16
// CHECK: memref.store {{.*}}, %arg2
func.func @to_f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}

// CHECK-LABEL: gpu.func @to_f64_gemm(
// CHECK: arith.extf {{.*}} : f32 to f64
func.func @to_f64(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf64>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xf64>) acc(f32)
  return
}

// CHECK-LABEL: gpu.func @same_gemm(
// CHECK-NOT: arith.truncf
// CHECK-NOT: arith.extf
// CHECK: memref.store {{.*}} : memref<?x?xf32>
func.func @same(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}

// CHECK-LABEL: gpu.func @to_i64_gemm(
// CHECK: arith.extsi {{.*}} : i32 to i64
func.func @to_i64(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi64>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi64>) acc(i32)
  return
}
