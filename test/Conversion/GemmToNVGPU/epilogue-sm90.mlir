// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu="chip=sm_90 dispatch=false" --canonicalize --cse | FileCheck %s

// The epilogue runs in registers on each accumulator element, predicated on
// the element lying inside C.

// C is never loaded when the region does not read it; the bias is loaded by
// column.
// CHECK-LABEL: gpu.func @bias_relu_gemm(
// CHECK-SAME: %[[A:.*]]: memref<?x?xf16>, %[[B:.*]]: memref<?x?xf16>, %[[C:.*]]: memref<?x?xf16>, %[[BIAS:.*]]: memref<?xf32>
// CHECK-NOT: memref.load %[[C]]
// CHECK: scf.if
// CHECK: memref.load %[[BIAS]]
// CHECK: arith.maximumf
// CHECK: arith.truncf {{.*}} : f32 to f16
// CHECK: memref.store {{.*}}, %[[C]]
func.func @bias_relu(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>, %bias: memref<?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
      extras(%bias : memref<?xf32>) acc(f32) attributes {broadcast = [#gemm.bcast<col>]} {
  ^bb0(%acc: f32, %cin: f16, %bi: f32):
    %0 = arith.addf %acc, %bi : f32
    %z = arith.constant 0.0 : f32
    %1 = arith.maximumf %0, %z : f32
    %2 = arith.truncf %1 : f32 to f16
    gemm.yield %2 : f16
  }
  return
}

// alpha * acc + beta * C reads C, but only where beta != 0 at run time (the
// BLAS convention); the scalars are kernel arguments. Whole chunks of C
// read it as one vector of 4 (zeros when beta == 0), the ragged edge
// element by element.
// CHECK-LABEL: gpu.func @linear_gemm(
// CHECK-SAME: %[[C:arg2]]: memref<?x?xf32>, %[[ALPHA:arg3]]: f32, %[[BETA:arg4]]: f32
// CHECK: %[[NZ:.*]] = arith.cmpf une, %[[BETA]], %{{.*}} : f32
// CHECK: %[[CV:.*]] = scf.if %[[NZ]] -> (vector<4xf32>) {
// CHECK: vector.load %[[C]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xf32>, vector<4xf32>
// CHECK: } else {
// CHECK-NEXT: scf.yield %{{.*}} : vector<4xf32>
// CHECK: %[[C0:.*]] = vector.extract %[[CV]][0] : f32 from vector<4xf32>
// CHECK: arith.mulf %{{.*}}, %[[ALPHA]]
// CHECK: arith.mulf %[[C0]], %[[BETA]]
// CHECK: vector.store {{.*}}, %[[C]]
// CHECK: %[[CIN:.*]] = scf.if %{{.*}} -> (f32) {
// CHECK-NEXT: memref.load %[[C]]
// CHECK: } else {
// CHECK-NEXT: scf.yield %{{.*}} : f32
// CHECK: arith.mulf %{{.*}}, %[[ALPHA]]
// CHECK: arith.mulf %[[CIN]], %[[BETA]]
// CHECK: memref.store {{.*}}, %[[C]]
func.func @linear(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
  gemm.matmul nn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>)
      extras(%alpha, %beta : f32, f32) acc(f32) attributes {broadcast = [#gemm.bcast<scalar>, #gemm.bcast<scalar>]} {
  ^bb0(%acc: f32, %cin: f32, %al: f32, %be: f32):
    %0 = arith.mulf %acc, %al : f32
    %1 = arith.mulf %cin, %be : f32
    %2 = arith.addf %0, %1 : f32
    gemm.yield %2 : f32
  }
  return
}

// C used other than as beta * C is loaded unconditionally.
// CHECK-LABEL: gpu.func @accumulate_gemm(
// CHECK-NOT: arith.cmpf
// CHECK: memref.load %arg2
// CHECK: arith.addf
func.func @accumulate(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32) {
  ^bb0(%acc: f32, %cin: f32):
    %0 = arith.addf %acc, %cin : f32
    gemm.yield %0 : f32
  }
  return
}

// gelu (tanh form), with a bias per row and a residual.
// CHECK-LABEL: gpu.func @gelu_residual_gemm(
// CHECK: math.tanh
// CHECK: memref.load %arg4[
// CHECK: memref.store
func.func @gelu_residual(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>, %bias: memref<?xf32>, %res: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
      extras(%bias, %res : memref<?xf32>, memref<?x?xf16>) acc(f32) attributes {broadcast = [#gemm.bcast<row>, #gemm.bcast<full>]} {
  ^bb0(%acc: f32, %cin: f16, %bi: f32, %r: f16):
    %x = arith.addf %acc, %bi : f32
    %t = math.tanh %x : f32
    %re = arith.extf %r : f16 to f32
    %y = arith.addf %t, %re : f32
    %h = arith.truncf %y : f32 to f16
    gemm.yield %h : f16
  }
  return
}

// Without a region, narrowing i32 to i8 saturates.
// CHECK-LABEL: gpu.func @saturate_gemm(
// CHECK: arith.maxsi {{.*}}, %c-128_i32
// CHECK: arith.minsi {{.*}}, %c127_i32
// CHECK: arith.trunci {{.*}} : i32 to i8
func.func @saturate(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi8>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi8>) acc(i32)
  return
}
