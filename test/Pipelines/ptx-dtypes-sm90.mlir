// RUN: rm -rf %t && mkdir -p %t
// RUN: gemm-opt --verify-roundtrip %s --gemm-to-ptx="chip=sm_90 allow-tf32=true output-dir=%t" -o /dev/null
// RUN: FileCheck %s < %t/gemm_kernels.sm_90.ptx

// The MMA instruction in the PTX for every dtype, and transposed ldmatrix
// where a layout stores M or N innermost (16-bit types only).

// CHECK-DAG: .entry f16_nn_gemm(
// CHECK-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-DAG: mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16
// CHECK-DAG: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK-DAG: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// CHECK-DAG: cvt.rna.tf32.f32
// CHECK-DAG: mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32
// CHECK-DAG: mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64
// CHECK-DAG: fma.rn.f32
func.func @f16_nn(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}
func.func @f16acc_tt(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tt ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f16)
  return
}
func.func @bf16_nt(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  gemm.matmul nt ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xbf16>) acc(f32)
  return
}
func.func @tf32_tn(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}
func.func @i8_tn(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) acc(i32)
  return
}
func.func @f64_nn(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xf64>, memref<?x?xf64>) outs(%c : memref<?x?xf64>) acc(f64)
  return
}
func.func @f32_simt(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = simt, block = [64, 64, 16], warps = [2, 2], instr = [4, 8, 1], stages = 3>}
  return
}
