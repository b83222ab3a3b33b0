// RUN: gemm-opt %s -split-input-file --gemm-select-config -verify-diagnostics | FileCheck %s

// Without target=, the module's gemm.target names the chip.

// CHECK-LABEL: func.func @from_module
// CHECK: kind = mma_sync
module attributes {gemm.target = #gemm.target<"sm_86">} {
  func.func @from_module(%a: memref<?x?xf16>, %c: memref<?x?xf16>) {
    gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    return
  }
}

// -----

// expected-error @+1 {{gemm-select-config needs a chip: set target= or the module's gemm.target}}
module {
}

// -----

// AMD chips: the model picks among the MFMA configs convert-gemm-to-amdgpu
// lowers.
// CHECK-LABEL: func.func @amd
// CHECK: kind = mfma
module attributes {gemm.target = #gemm.target<"gfx942">} {
  func.func @amd(%a: memref<?x?xf16>, %c: memref<?x?xf16>) {
    gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    return
  }
}

// -----

// An f16-accumulating GEMM has no MFMA: nothing to choose from on AMD.
module attributes {gemm.target = #gemm.target<"gfx942">} {
  func.func @amd_f16_acc(%a: memref<?x?xf16>, %c: memref<?x?xf16>) {
    // expected-error @+1 {{no legal config for f16 tn on gfx942 (no lowered instruction kind fits)}}
    gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f16)
    return
  }
}
