// RUN: rm -rf %t && mkdir -p %t
// RUN: gemm-opt --verify-roundtrip %s --gemm-to-hsaco="chip=gfx90a output-dir=%t" -o /dev/null
// RUN: llvm-readelf --notes %t/gemm_kernels.gfx90a.hsaco > %t/notes.txt
// RUN: %python %gemm_src_root/python/gemm_mlir/hsaco_check.py %t/notes.txt %t/manifest.json | FileCheck %s --check-prefix=META
// RUN: llvm-objdump -d --mcpu=gfx90a %t/gemm_kernels.gfx90a.hsaco | FileCheck %s --check-prefix=ISA
// RUN: llvm-readelf -h %t/gemm_kernels.gfx90a.hsaco | FileCheck %s --check-prefix=ELF

// The default config of every dtype and layout on gfx90a, linked into HSACO:
// no scratch (spills), VGPRs + AGPRs and LDS within the chip's limits
// (python/gemm_mlir/hsaco_check.py over the AMDHSA metadata), the MFMA
// instructions in the disassembly, and a code object bound to gfx90a.

// META-NOT: FAIL
// META: ok f16_nn_gemm gfx90a: vgpr
// META: ok f16_nt_gemm gfx90a: vgpr
// META: ok f16_tn_gemm gfx90a: vgpr
// META: ok f16_tt_gemm gfx90a: vgpr
// META: ok bf16_nn_gemm gfx90a: vgpr
// META: ok bf16_nt_gemm gfx90a: vgpr
// META: ok bf16_tn_gemm gfx90a: vgpr
// META: ok bf16_tt_gemm gfx90a: vgpr
// META: ok f32_nn_gemm gfx90a: vgpr
// META: ok f32_nt_gemm gfx90a: vgpr
// META: ok f32_tn_gemm gfx90a: vgpr
// META: ok f32_tt_gemm gfx90a: vgpr
// META: ok f64_nn_gemm gfx90a: vgpr
// META: ok f64_nt_gemm gfx90a: vgpr
// META: ok f64_tn_gemm gfx90a: vgpr
// META: ok f64_tt_gemm gfx90a: vgpr
// META: ok i8_nn_gemm gfx90a: vgpr
// META: ok i8_nt_gemm gfx90a: vgpr
// META: ok i8_tn_gemm gfx90a: vgpr
// META: ok i8_tt_gemm gfx90a: vgpr
// META: ok f16_tn_gelu_bias_gemm gfx90a: vgpr
// META-NOT: FAIL

// ISA-LABEL: <f16_nn_gemm>:
// ISA: v_mfma_f32_16x16x16{{_?}}f16
// ISA-LABEL: <bf16_nn_gemm>:
// ISA: v_mfma_f32_16x16x16{{_?}}bf16
// ISA-LABEL: <f32_nn_gemm>:
// ISA: v_mfma_f32_16x16x4{{_?}}f32
// ISA-LABEL: <f64_nn_gemm>:
// ISA: v_mfma_f64_16x16x4{{_?}}f64
// ISA-LABEL: <i8_nn_gemm>:
// ISA: v_mfma_i32_16x16x16i8
// ISA-LABEL: <f16_tn_gelu_bias_gemm>:
// ISA: v_mfma_f32_16x16x16{{_?}}f16
// ISA-NOT: __ocml

// ELF: Flags: {{.*}}gfx90a

func.func @f16_nn(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}
func.func @f16_nt(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul nt ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}
func.func @f16_tn(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}
func.func @f16_tt(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tt ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}
func.func @bf16_nn(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xbf16>) acc(f32)
  return
}
func.func @bf16_nt(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  gemm.matmul nt ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xbf16>) acc(f32)
  return
}
func.func @bf16_tn(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xbf16>) acc(f32)
  return
}
func.func @bf16_tt(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  gemm.matmul tt ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xbf16>) acc(f32)
  return
}
func.func @f32_nn(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}
func.func @f32_nt(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  gemm.matmul nt ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}
func.func @f32_tn(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}
func.func @f32_tt(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  gemm.matmul tt ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}
func.func @f64_nn(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xf64>, memref<?x?xf64>) outs(%c : memref<?x?xf64>) acc(f64)
  return
}
func.func @f64_nt(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>) {
  gemm.matmul nt ins(%a, %b : memref<?x?xf64>, memref<?x?xf64>) outs(%c : memref<?x?xf64>) acc(f64)
  return
}
func.func @f64_tn(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf64>, memref<?x?xf64>) outs(%c : memref<?x?xf64>) acc(f64)
  return
}
func.func @f64_tt(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>) {
  gemm.matmul tt ins(%a, %b : memref<?x?xf64>, memref<?x?xf64>) outs(%c : memref<?x?xf64>) acc(f64)
  return
}
func.func @i8_nn(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) acc(i32)
  return
}
func.func @i8_nt(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  gemm.matmul nt ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) acc(i32)
  return
}
func.func @i8_tn(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) acc(i32)
  return
}
func.func @i8_tt(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  gemm.matmul tt ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) acc(i32)
  return
}
// Transcendental epilogues (gelu with erf and with tanh, silu) are expanded
// in the kernel: no ROCm device library is needed to link.
func.func @f16_tn_gelu_bias(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>, %bias: memref<?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
      extras(%bias : memref<?xf32>) acc(f32) attributes {broadcast = [#gemm.bcast<col>]} {
  ^bb0(%acc: f32, %cin: f16, %bv: f32):
    %x = arith.addf %acc, %bv : f32
    %e = math.erf %x : f32
    %t = math.tanh %x : f32
    %s = math.exp %x : f32
    %y = arith.addf %e, %t : f32
    %z = arith.addf %y, %s : f32
    %h = arith.truncf %z : f32 to f16
    gemm.yield %h : f16
  }
  return
}
