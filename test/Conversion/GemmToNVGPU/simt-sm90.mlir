// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu=chip=sm_90 --canonicalize --cse | FileCheck %s

// The SIMT kind: scalar FMAs per thread on tiles staged through shared
// memory (cp.async when aligned); DP4A for i8 (4-byte shared loads when K is
// contiguous, gathered bytes otherwise), integer multiply-adds when BK is
// not a multiple of 4.

// CHECK-LABEL: gpu.func @f32_gemm(
// CHECK: nvgpu.device_async_copy
// CHECK-NOT: nvgpu.mma.sync
// CHECK: llvm.intr.fma({{.*}}) : (f32, f32, f32) -> f32
func.func @f32(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = simt, block = [64, 64, 16], warps = [2, 2], instr = [4, 8, 1], stages = 3>}
  return
}

// CHECK-LABEL: gpu.func @i8_gemm(
// CHECK: vector.load {{.*}} : memref<{{[0-9]+}}xi8, #gpu.address_space<workgroup>>, vector<4xi8>
// CHECK: nvvm.dot.accumulate.4way {{.*}} : vector<4xi8>, vector<4xi8>
// CHECK-NOT: nvgpu.mma.sync
func.func @i8(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) acc(i32)
    attributes {config = #gemm.config<kind = simt, block = [64, 64, 16], warps = [2, 2], instr = [4, 8, 1], stages = 2>}
  return
}

// M-contiguous A: the four bytes are gathered.
// CHECK-LABEL: gpu.func @i8_nt_gemm(
// CHECK: vector.from_elements {{.*}} : vector<4xi8>
// CHECK: nvvm.dot.accumulate.4way
func.func @i8_nt(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  gemm.matmul nt ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) acc(i32)
    attributes {config = #gemm.config<kind = simt, block = [64, 64, 16], warps = [2, 2], instr = [4, 8, 1], stages = 2>}
  return
}

// BK = 2 is not a multiple of 4: widened multiply-adds.
// CHECK-LABEL: gpu.func @i8_bk2_gemm(
// CHECK-NOT: nvvm.dot.accumulate.4way
// CHECK: arith.extsi {{.*}} : i8 to i32
// CHECK: arith.muli {{.*}} : i32
// CHECK: arith.addi {{.*}} : i32
func.func @i8_bk2(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) acc(i32)
    attributes {config = #gemm.config<kind = simt, block = [64, 64, 2], warps = [2, 2], instr = [4, 8, 1], stages = 2, smem = plain>}
  return
}

// CHECK-LABEL: gpu.func @f16_gemm(
// CHECK: arith.extf {{.*}} : f16 to f32
// CHECK: llvm.intr.fma({{.*}}) : (f32, f32, f32) -> f32
func.func @f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tt ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = simt, block = [32, 64, 16], warps = [1, 2], instr = [4, 8, 1], stages = 2>}
  return
}
