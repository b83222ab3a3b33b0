// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-amdgpu="chip=gfx942 pack-unaligned=false" --canonicalize | FileCheck %s
// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-amdgpu=chip=gfx942 --canonicalize | FileCheck %s --check-prefix=PACK

// The register-staged LDS pipeline. Per k-tile: one barrier; the next
// tile's chunks are loaded into registers (whole 16-byte chunks when the
// operand is aligned and the tile inside the matrix, clamped element loads
// otherwise) before the MFMAs of this tile, and written to LDS after them.

// CHECK-LABEL: gpu.func @two_stages_gemm
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8xf16>
// Prologue: tile 0 straight into stage 0.
// CHECK: scf.if
// CHECK: scf.if %{{.*}} -> (vector<8xf16>)
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<?x?xf16>, vector<8xf16>
// CHECK: } else {
// CHECK-COUNT-8: memref.load %{{.*}} : memref<?x?xf16>
// CHECK: vector.from_elements
// CHECK: vector.store {{.*}} : memref<4096xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// Steady state.
// CHECK: scf.for {{.*}} -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if %{{.*}} -> (vector<8xf16>, vector<8xf16>)
// CHECK: vector.load {{.*}} : memref<?x?xf16>, vector<8xf16>
// CHECK: } else {
// CHECK: scf.yield %[[ZERO]], %[[ZERO]] : vector<8xf16>, vector<8xf16>
// CHECK: amdgpu.mfma 16x16x16
// CHECK: scf.if
// CHECK: vector.store {{.*}} : memref<4096xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK: scf.yield
// Epilogue: predicated stores.
// CHECK: scf.if
// CHECK: memref.store {{.*}} : memref<?x?xf32>
func.func @two_stages(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mfma, block = [64, 64, 32], warps = [2, 2], instr = [16, 16, 16], stages = 2, smem = plain>}
  return
}

// Three stages: a prologue loop over tiles 0 and 1.
// CHECK-LABEL: gpu.func @three_stages_gemm
// CHECK: scf.for
// CHECK: vector.store
// CHECK: scf.for {{.*}} -> (vector<4xf32>
// CHECK-NEXT: gpu.barrier
func.func @three_stages(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mfma, block = [64, 64, 32], warps = [2, 2], instr = [16, 16, 16], stages = 3, smem = plain>}
  return
}

// One stage: barrier, copy, barrier, MFMAs.
// CHECK-LABEL: gpu.func @one_stage_gemm
// CHECK: scf.for
// CHECK-NEXT: gpu.barrier
// CHECK: vector.store
// CHECK: gpu.barrier
// CHECK: amdgpu.mfma
func.func @one_stage(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mfma, block = [64, 64, 32], warps = [2, 2], instr = [16, 16, 16], stages = 1, smem = plain>}
  return
}

// A non-unit inner stride cannot be loaded in chunks: element loads only
// (without packing; packed, the kernel reads an aligned workspace).
// PACK-LABEL: func.func @strided(
// PACK: gpu.alloc
// PACK: gpu.launch_func @gemm_kernels::@gemm_pack_f16
// PACK: gpu.launch_func @gemm_kernels::@gemm_pack_f16
// PACK: gpu.launch_func @gemm_kernels::@strided_gemm {{.*}} args(%{{.*}} : memref<?x?xf16>, %{{.*}} : memref<?x?xf16>, %arg2 : memref<?x?xf32>)
// PACK-LABEL: gpu.func @strided_gemm(
// PACK: vector.load %arg0
// CHECK-LABEL: gpu.func @strided_gemm
// CHECK-NOT: vector.load %arg0
// CHECK: memref.load %arg0
// CHECK-NOT: vector.load %arg0
// CHECK: gpu.return
func.func @strided(%a: memref<?x?xf16, strided<[?, 2], offset: ?>>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16, strided<[?, 2], offset: ?>>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mfma, block = [64, 64, 32], warps = [2, 2], instr = [16, 16, 16], stages = 2, smem = plain>}
  return
}
