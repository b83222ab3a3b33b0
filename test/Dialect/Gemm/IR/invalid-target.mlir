// RUN: gemm-opt %s -split-input-file -verify-diagnostics

// Checks of #gemm.config against the chip named by `gemm.target`.

// expected-error @+1 {{unknown target chip 'sm_99' (known: sm_80, sm_86, sm_89, sm_90, sm_90a, gfx90a, gfx942, gfx950)}}
module attributes {gemm.target = #gemm.target<"sm_99">} {}

// -----

// expected-error @+1 {{expected 'gemm.target' to be a #gemm.target attribute, got "sm_90"}}
module attributes {gemm.target = "sm_90"} {}

// -----

// expected-error @+1 {{unknown gemm dialect attribute 'gemm.chip'}}
module attributes {gemm.chip = 1} {}

// -----

module attributes {gemm.target = #gemm.target<"sm_86">} {
  func.func @smem(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
    // 4 x (128 + 256) x 64 x 2 bytes = 196608 > 101376 on sm_86.
    // expected-error @+1 {{config needs 196608 bytes of shared memory per block, over the 101376 available on sm_86}}
    gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
      attributes {config = #gemm.config<kind = mma_sync, block = [128, 256, 64], warps = [2, 4], instr = [16, 8, 16], stages = 4>}
    return
  }
}

// -----

module attributes {gemm.target = #gemm.target<"sm_90">} {
  func.func @wgmma_needs_90a(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
    // expected-error @+1 {{config kind wgmma is not available on sm_90}}
    gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
      attributes {config = #gemm.config<kind = wgmma, block = [128, 128, 64], warps = [2, 1], instr = [64, 128, 16]>}
    return
  }
}

// -----

module attributes {gemm.target = #gemm.target<"sm_80">} {
  func.func @fp8_needs_89(%a: memref<?x?xf8E4M3FN>, %c: memref<?x?xf32>) {
    // expected-error @+1 {{mma_sync shape 16x8x32 for f8E4M3FN operands is not available on sm_80}}
    gemm.matmul tn ins(%a, %a : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%c : memref<?x?xf32>) acc(f32)
      attributes {config = #gemm.config<kind = mma_sync, block = [128, 128, 64], warps = [2, 2], instr = [16, 8, 32]>}
    return
  }
}

// -----

module attributes {gemm.target = #gemm.target<"gfx90a">} {
  func.func @mma_sync_on_amd(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
    // expected-error @+1 {{config kind mma_sync is not available on gfx90a}}
    gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
      attributes {config = #gemm.config<kind = mma_sync, block = [128, 128, 32], warps = [2, 2], instr = [16, 8, 16]>}
    return
  }
}

// -----

module attributes {gemm.target = #gemm.target<"gfx90a">} {
  func.func @fp8_mfma_needs_942(%a: memref<?x?xf8E5M2>, %c: memref<?x?xf32>) {
    // expected-error @+1 {{mfma shape 16x16x32 for f8E5M2 operands is not available on gfx90a}}
    gemm.matmul tn ins(%a, %a : memref<?x?xf8E5M2>, memref<?x?xf8E5M2>) outs(%c : memref<?x?xf32>) acc(f32)
      attributes {config = #gemm.config<kind = mfma, block = [64, 64, 64], warps = [2, 2], instr = [16, 16, 32]>}
    return
  }
}

// -----

module attributes {gemm.target = #gemm.target<"sm_90">} {
  func.func @threads(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
    // expected-error @+1 {{config needs 2048 threads per block, over the 1024 allowed on sm_90}}
    gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
      attributes {config = #gemm.config<kind = mma_sync, block = [128, 512, 32], warps = [8, 8], instr = [16, 8, 16], stages = 2>}
    return
  }
}

// -----

module attributes {gemm.target = #gemm.target<"sm_90">} {
  func.func @registers(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
    // One warp owning a 128x128 f32 tile needs 512 accumulator registers.
    // expected-error @+1 {{config needs about 680 registers per thread, over the 255 available on sm_90}}
    gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
      attributes {config = #gemm.config<kind = mma_sync, block = [128, 128, 32], warps = [1, 1], instr = [16, 8, 16], stages = 2>}
    return
  }
}

// -----

module attributes {gemm.target = #gemm.target<"sm_90">} {
  func.func @simt_threads(%a: memref<?x?xf32>, %c: memref<?x?xf32>) {
    // expected-error @+1 {{simt per-thread tile 8x8 covers the 32x32 warp tile with 16 threads, expected the warp size 32}}
    gemm.matmul nn ins(%a, %a : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
      attributes {config = #gemm.config<kind = simt, block = [64, 64, 8], warps = [2, 2], instr = [8, 8, 1]>}
    return
  }
}

// -----

module attributes {gemm.target = #gemm.target<"gfx942">} {
  func.func @lds(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
    // expected-error @+1 {{config needs 98304 bytes of shared memory per block, over the 65536 available on gfx942}}
    gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
      attributes {config = #gemm.config<kind = mfma, block = [128, 128, 64], warps = [2, 2], instr = [32, 32, 8], stages = 3>}
    return
  }
}

// -----

module attributes {gemm.target = #gemm.target<"sm_80">} {
  func.func @cluster_needs_90(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
    // expected-error @+1 {{'reduction = cluster' needs thread-block clusters (sm_90 and later), which sm_80 lacks}}
    gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
      attributes {config = #gemm.config<kind = mma_sync, block = [128, 128, 32], warps = [2, 2], instr = [16, 8, 16], stages = 3, split_k = 4, reduction = cluster>}
    return
  }
}

// -----

module attributes {gemm.target = #gemm.target<"gfx942">} {
  func.func @cluster_needs_nvidia(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
    // expected-error @+1 {{'reduction = cluster' needs thread-block clusters (sm_90 and later), which gfx942 lacks}}
    gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
      attributes {config = #gemm.config<kind = mfma, block = [128, 128, 32], warps = [2, 2], instr = [32, 32, 8], stages = 2, split_k = 4, reduction = cluster>}
    return
  }
}

// -----

module attributes {gemm.target = #gemm.target<"sm_90a">} {
  func.func @tma_half_panel(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
    // expected-error @+1 {{'load = tma' cannot read the nn tiles of block 128x32x64 in TMA boxes (rows of 128 bytes, at most 256 of them)}}
    gemm.matmul nn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
      attributes {config = #gemm.config<kind = wgmma, block = [128, 32, 64], warps = [2, 1], instr = [64, 32, 16], stages = 4, load = tma>}
    return
  }
}
