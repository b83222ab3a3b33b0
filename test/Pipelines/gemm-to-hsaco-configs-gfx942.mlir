// RUN: rm -rf %t && mkdir -p %t
// RUN: gemm-opt --verify-roundtrip %s --gemm-to-hsaco="chip=gfx942 output-dir=%t" -o /dev/null
// RUN: llvm-readelf --notes %t/gemm_kernels.gfx942.hsaco > %t/notes.txt
// RUN: %python %gemm_src_root/python/gemm_mlir/hsaco_check.py %t/notes.txt %t/manifest.json | FileCheck %s --check-prefix=META
// RUN: llvm-objdump -d --mcpu=gfx942 %t/gemm_kernels.gfx942.hsaco | FileCheck %s --check-prefix=ISA

// Explicit configs beyond the defaults: every other MFMA shape the lowering
// implements on gfx942, 1 and 3 stages, plain and swizzled LDS, a 4-byte row
// pitch (f32 BK = 4) and a narrow tile, all linked without scratch.

// META-NOT: FAIL
// META: ok f16_32x32_gemm gfx942
// META: ok bf16_32x32_gemm gfx942
// META: ok i8_32x32_gemm gfx942
// META: ok f32_32x32_gemm gfx942
// META: ok f64_4x4x4_gemm gfx942
// META: ok f16_one_stage_swizzle_gemm gfx942
// META: ok f32_bk4_gemm gfx942
// META-NOT: FAIL

// ISA-LABEL: <f16_32x32_gemm>:
// ISA: v_mfma_f32_32x32x8_f16
// ISA-LABEL: <bf16_32x32_gemm>:
// ISA: v_mfma_f32_32x32x8_bf16
// ISA-LABEL: <i8_32x32_gemm>:
// ISA: v_mfma_i32_32x32x16_i8
// ISA-LABEL: <f32_32x32_gemm>:
// ISA: v_mfma_f32_32x32x2_f32
// ISA-LABEL: <f64_4x4x4_gemm>:
// ISA: v_mfma_f64_4x4x4_4b_f64
// ISA-LABEL: <f16_one_stage_swizzle_gemm>:
// ISA: v_mfma_f32_16x16x16_f16
// ISA-LABEL: <f32_bk4_gemm>:
// ISA: v_mfma_f32_16x16x4_f32

func.func @f16_32x32(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = mfma, block = [128, 128, 32], warps = [2, 2], instr = [32, 32, 8], stages = 2, smem = pad>}
  return
}
func.func @bf16_32x32(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  gemm.matmul tt ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xbf16>) acc(f32)
    attributes {config = #gemm.config<kind = mfma, block = [64, 128, 32], warps = [1, 2], instr = [32, 32, 8], stages = 3>}
  return
}
func.func @i8_32x32(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) acc(i32)
    attributes {config = #gemm.config<kind = mfma, block = [128, 128, 64], warps = [2, 2], instr = [32, 32, 16], stages = 2, smem = plain>}
  return
}
func.func @f32_32x32(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  gemm.matmul nt ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mfma, block = [64, 64, 16], warps = [2, 2], instr = [32, 32, 2], stages = 2>}
  return
}
func.func @f64_4x4x4(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xf64>, memref<?x?xf64>) outs(%c : memref<?x?xf64>) acc(f64)
    attributes {config = #gemm.config<kind = mfma, block = [32, 64, 8], warps = [2, 2], instr = [4, 4, 4], stages = 3, smem = pad>}
  return
}
func.func @f16_one_stage_swizzle(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mfma, block = [64, 64, 64], warps = [2, 2], instr = [16, 16, 16], stages = 1, smem = swizzle>}
  return
}
func.func @f32_bk4(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mfma, block = [32, 32, 4], warps = [1, 2], instr = [16, 16, 4], stages = 2, smem = pad>}
  return
}
