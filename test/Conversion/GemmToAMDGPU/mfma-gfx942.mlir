// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-amdgpu=chip=gfx942 | FileCheck %s

// One kernel per gemm.matmul in a gpu.module for gfx942; every dtype's
// default uses the 16x16 MFMA of its operand type; explicit configs pick the
// 32x32 and 4-block forms. Fragments of K-contiguous LDS tiles are vector
// loads; transposed tiles gather one element per slot.

// CHECK: gpu.module @gemm_kernels [#rocdl.target<O = 3, chip = "gfx942">]

// CHECK-LABEL: gpu.func @f16_tn_gemm
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK: gpu.dynamic_shared_memory
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK: vector.load {{.*}} : memref<?x?xf16>, vector<8xf16>
// CHECK: vector.load {{.*}} : memref<{{[0-9]+}}xf16, #gpu.address_space<workgroup>>, vector<4xf16>
// CHECK: amdgpu.mfma 16x16x16 {{.*}} : vector<4xf16>, vector<4xf16>, vector<4xf32>
// CHECK: vector.store {{.*}} : memref<{{[0-9]+}}xf16, #gpu.address_space<workgroup>>, vector<{{[48]}}xf16>
// CHECK: scf.yield
// CHECK: memref.store {{.*}} : memref<?x?xf32>
// CHECK: gpu.return
func.func @f16_tn(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}

// M-innermost A and N-innermost B: each slot is its own LDS load.
// CHECK-LABEL: gpu.func @f16_nt_gemm
// CHECK: scf.for
// CHECK: vector.from_elements {{.*}} : vector<4xf16>
// CHECK: amdgpu.mfma 16x16x16
func.func @f16_nt(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul nt ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}

// CHECK-LABEL: gpu.func @bf16_nn_gemm
// CHECK: amdgpu.mfma 16x16x16 {{.*}} : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
func.func @bf16_nn(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xbf16>) acc(f32)
  return
}

// f32 stays exact: the 16x16x4 f32 MFMA, one element per lane.
// CHECK-LABEL: gpu.func @f32_tt_gemm
// CHECK: amdgpu.mfma 16x16x4 {{.*}} : f32, f32, vector<4xf32>
func.func @f32_tt(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  gemm.matmul tt ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}

// CHECK-LABEL: gpu.func @f64_tn_gemm
// CHECK: amdgpu.mfma 16x16x4 {{.*}} : f64, f64, vector<4xf64>
func.func @f64_tn(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf64>, memref<?x?xf64>) outs(%c : memref<?x?xf64>) acc(f64)
  return
}

// gfx942's i8 MFMA takes 8 bytes per lane.
// CHECK-LABEL: gpu.func @i8_tn_gemm
// CHECK: amdgpu.mfma 16x16x32 {{.*}} : vector<8xi8>, vector<8xi8>, vector<4xi32>
func.func @i8_tn(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) acc(i32)
  return
}

// CHECK-LABEL: gpu.func @f16_32x32_gemm
// CHECK: amdgpu.mfma 32x32x8 {{.*}} : vector<4xf16>, vector<4xf16>, vector<16xf32>
func.func @f16_32x32(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mfma, block = [64, 64, 16], warps = [2, 2], instr = [32, 32, 8], stages = 2>}
  return
}

// CHECK-LABEL: gpu.func @f32_32x32_gemm
// CHECK: amdgpu.mfma 32x32x2 {{.*}} : f32, f32, vector<16xf32>
func.func @f32_32x32(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mfma, block = [64, 64, 8], warps = [2, 2], instr = [32, 32, 2]>}
  return
}

// Four independent 4x4x4 blocks side by side along N: a 4 x 16 tile per
// instruction, A shared by the blocks.
// CHECK-LABEL: gpu.func @f64_4x4x4_gemm
// CHECK: amdgpu.mfma 4x4x4 {{.*}} {blocks = 4 : i32} blgp = none : f64, f64, f64
func.func @f64_4x4x4(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xf64>, memref<?x?xf64>) outs(%c : memref<?x?xf64>) acc(f64)
    attributes {config = #gemm.config<kind = mfma, block = [32, 64, 8], warps = [2, 2], instr = [4, 4, 4], stages = 3>}
  return
}
