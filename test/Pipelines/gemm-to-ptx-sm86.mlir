// RUN: rm -rf %t && gemm-opt --verify-roundtrip %s --gemm-to-ptx="chip=sm_86 output-dir=%t" -o /dev/null
// RUN: FileCheck %s < %t/gemm_kernels.sm_86.ptx

// PTX for sm_86: the chip's default PTX version, the tensor-core path.

// CHECK: .version 8.0
// CHECK: .target sm_86
// CHECK: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
func.func @bf16_nn(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xbf16>) acc(f32)
  return
}
