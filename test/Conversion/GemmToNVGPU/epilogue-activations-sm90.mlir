// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu=chip=sm_90 --canonicalize --cse | FileCheck %s

// Any elementwise arith/math in the region is applied in registers: silu
// (exp), gelu (erf) and a clamp between scalar extras.

// CHECK-LABEL: gpu.func @silu_gemm(
// CHECK: math.exp
// CHECK: arith.divf
func.func @silu(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32) {
  ^bb0(%acc: f32, %cin: f16):
    %0 = arith.negf %acc : f32
    %1 = math.exp %0 : f32
    %one = arith.constant 1.0 : f32
    %2 = arith.addf %1, %one : f32
    %3 = arith.divf %acc, %2 : f32
    %4 = arith.truncf %3 : f32 to f16
    gemm.yield %4 : f16
  }
  return
}

// CHECK-LABEL: gpu.func @gelu_erf_gemm(
// CHECK: math.erf
func.func @gelu_erf(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32) {
  ^bb0(%acc: f32, %cin: f32):
    %k = arith.constant 0.7071067811865476 : f32
    %0 = arith.mulf %acc, %k : f32
    %1 = math.erf %0 : f32
    %one = arith.constant 1.0 : f32
    %2 = arith.addf %1, %one : f32
    %half = arith.constant 0.5 : f32
    %3 = arith.mulf %acc, %half : f32
    %4 = arith.mulf %3, %2 : f32
    gemm.yield %4 : f32
  }
  return
}

// CHECK-LABEL: gpu.func @clamp_gemm(
// CHECK-SAME: %[[LO:arg3]]: f32, %[[HI:arg4]]: f32
// CHECK: arith.maximumf %{{.*}}, %[[LO]]
// CHECK: arith.minimumf %{{.*}}, %[[HI]]
func.func @clamp(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %lo: f32, %hi: f32) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>)
      extras(%lo, %hi : f32, f32) acc(f32) attributes {broadcast = [#gemm.bcast<scalar>, #gemm.bcast<scalar>]} {
  ^bb0(%acc: f32, %cin: f32, %l: f32, %h: f32):
    %0 = arith.maximumf %acc, %l : f32
    %1 = arith.minimumf %0, %h : f32
    gemm.yield %1 : f32
  }
  return
}
