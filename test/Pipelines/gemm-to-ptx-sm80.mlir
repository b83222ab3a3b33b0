// RUN: rm -rf %t && gemm-opt --verify-roundtrip %s --gemm-to-ptx="chip=sm_80 output-dir=%t" -o /dev/null
// RUN: FileCheck %s < %t/gemm_kernels.sm_80.ptx
// RUN: rm -rf %t && gemm-opt --verify-roundtrip %s --gemm-to-ptx="chip=sm_80 ptx-version=70 output-dir=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX70 < %t/gemm_kernels.sm_80.ptx

// The PTX version follows the chip (8.0 by default for sm_80) or the request.

// CHECK: .version 8.0
// CHECK: .target sm_80
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX70: .version 7.0
// PTX70: .target sm_80
func.func @f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}
