// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu="chip=sm_90 allow-tf32=true" --canonicalize --cse | FileCheck %s
// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu=chip=sm_90 --canonicalize --cse | FileCheck %s --check-prefix=EXACT

// f32 operands run on tf32 tensor cores only when asked (allow-tf32); each
// fragment element is rounded to nearest (cvt.rna.tf32.f32) first.
// Without the option f32 stays exact: SIMT FMAs.

// CHECK-LABEL: gpu.func @tn_gemm(
// CHECK: nvgpu.ldmatrix {{.*}} transpose = false} {{.*}} -> vector<4x1xf32>
// CHECK: nvvm.convert.float.to.tf32 {{.*}} {rnd = #nvvm.fp_rnd_mode<rna>}
// CHECK: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 8], tf32Enabled}
// EXACT-LABEL: gpu.func @tn_gemm(
// EXACT-NOT: nvgpu.mma.sync
// EXACT: llvm.intr.fma
func.func @tn(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}

// M-contiguous A cannot use ldmatrix for 32-bit elements: element loads.
// CHECK-LABEL: gpu.func @nt_gemm(
// CHECK-NOT: transpose = true
// CHECK: memref.load {{.*}} : memref<{{[0-9]+}}xf32, #gpu.address_space<workgroup>>
// CHECK: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 8], tf32Enabled}
func.func @nt(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  gemm.matmul nt ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}
