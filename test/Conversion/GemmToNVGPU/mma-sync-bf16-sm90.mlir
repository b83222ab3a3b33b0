// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu=chip=sm_90 --canonicalize --cse | FileCheck %s

// bf16: nvgpu.mma.sync cannot type bf16 in its NVVM lowering, so the MMA is
// nvvm.mma.sync with the fragments packed into 32-bit registers.

// CHECK-LABEL: gpu.func @tn_gemm(
// CHECK: nvgpu.ldmatrix {{.*}} transpose = false} {{.*}} -> vector<4x2xbf16>
// CHECK: vector.bitcast {{.*}} : vector<2xbf16> to vector<1xi32>
// CHECK: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>}
// CHECK-NOT: nvgpu.mma.sync
// CHECK: gpu.return
func.func @tn(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xbf16>) acc(f32)
  return
}

// CHECK-LABEL: gpu.func @nn_gemm(
// CHECK: nvgpu.ldmatrix {{.*}} transpose = true} {{.*}} -> vector<4x2xbf16>
// CHECK: nvvm.mma.sync
func.func @nn(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}
