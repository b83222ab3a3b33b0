// RUN: gemm-opt %s -split-input-file --gemm-select-config=target=sm_90 -verify-diagnostics

// Explicit configs are checked against the chip; the chip must agree with
// the module's gemm.target.

func.func @explicit_too_much_smem(%a: memref<?x?xf16>, %c: memref<?x?xf16>) {
  // 8 x (256 + 256) x 64 x 2 bytes = 524288 > 232448.
  // expected-error @+1 {{config needs 524288 bytes of shared memory per block, over the 232448 available on sm_90}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
      attributes {config = #gemm.config<kind = mma_sync, block = [256, 256, 64], warps = [4, 4], instr = [16, 8, 16], stages = 8>}
  return
}

// -----

// expected-error @+1 {{module declares gemm.target sm_80 but gemm-select-config targets sm_90}}
module attributes {gemm.target = #gemm.target<"sm_80">} {
}
