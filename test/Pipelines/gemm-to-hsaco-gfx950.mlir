// RUN: rm -rf %t && mkdir -p %t
// RUN: gemm-opt --verify-roundtrip %s --gemm-to-hsaco="chip=gfx950 output-dir=%t" -o /dev/null
// RUN: llvm-readelf --notes %t/gemm_kernels.gfx950.hsaco > %t/notes.txt
// RUN: %python %gemm_src_root/python/gemm_mlir/hsaco_check.py %t/notes.txt %t/manifest.json | FileCheck %s --check-prefix=META
// RUN: llvm-objdump -d --mcpu=gfx950 %t/gemm_kernels.gfx950.hsaco | FileCheck %s --check-prefix=ISA

// gfx950 (CDNA4) has OCP fp8 MFMAs; gfx942's read FNUZ encodings and are not
// used for f8E4M3FN / f8E5M2 (see invalid.mlir).

// META-NOT: FAIL
// META: ok f8_tn_gemm gfx950: vgpr
// META: ok f8e5_tn_gemm gfx950: vgpr
// META: ok f16_tn_gemm gfx950: vgpr
// META: ok f8mixed_tn_gemm gfx950: vgpr
// META-NOT: FAIL
// ISA-LABEL: <f8_tn_gemm>:
// ISA: v_mfma_f32_16x16x32_fp8_fp8
// ISA-LABEL: <f8e5_tn_gemm>:
// ISA: v_mfma_f32_16x16x32_bf8_bf8
// ISA-LABEL: <f16_tn_gemm>:
// ISA: v_mfma_f32_16x16x16{{_?}}f16
// A and B of different f8 types: each operand's own type in its tile and
// fragments (B's were once loaded as A's type).
// ISA-LABEL: <f8mixed_tn_gemm>:
// ISA: v_mfma_f32_16x16x32_fp8_bf8
func.func @f8_tn(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}
func.func @f8e5_tn(%a: memref<?x?xf8E5M2>, %b: memref<?x?xf8E5M2>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf8E5M2>, memref<?x?xf8E5M2>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}
func.func @f16_tn(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}
func.func @f8mixed_tn(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E5M2>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf8E4M3FN>, memref<?x?xf8E5M2>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}
