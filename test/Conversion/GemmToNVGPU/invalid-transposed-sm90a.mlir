// RUN: gemm-opt %s -split-input-file --convert-gemm-to-nvgpu="chip=sm_90a" -verify-diagnostics

// Configs the lowering refuses on operands it copies transposed (f8, tf32
// and i8 outside tn read layout tn in the kernel): promoted f8 tiles of one
// or two compute warpgroups and three or more stages stopped at an illegal
// instruction in nn and nt on an H100 while passing every check in tn
// (docs/design-notes.md, "f8 tiles of two warpgroups on transposed
// operands"); persistent schedules of such tiles are refused too.

func.func @f8_nn_pairs(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf16>) {
  // expected-error @+1 {{'gemm.matmul' op layout nn: f8 tile of 2 compute warpgroups and stages = 6 is not supported on operands copied transposed (tiles of 3 compute warpgroups or of at most 2 stages run there)}}
  gemm.matmul nn ins(%a, %b : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 128, 128], warps = [2, 1], instr = [64, 128, 32], stages = 6, group = 8, load = tma_ws>}
  return
}

// -----

func.func @f8_nt_n192(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf16>) {
  // expected-error @+1 {{'gemm.matmul' op layout nt: f8 tile of 2 compute warpgroups and stages = 4 is not supported on operands copied transposed}}
  gemm.matmul nt ins(%a, %b : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 192, 128], warps = [2, 1], instr = [64, 192, 32], stages = 4, group = 8, load = tma_ws>}
  return
}

// -----

func.func @f8_tt_one_warpgroup(%a: memref<?x?xf8E5M2>, %b: memref<?x?xf8E5M2>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{'gemm.matmul' op layout tt: f8 tile of 1 compute warpgroup and stages = 3 is not supported on operands copied transposed}}
  gemm.matmul tt ins(%a, %b : memref<?x?xf8E5M2>, memref<?x?xf8E5M2>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [64, 128, 128], warps = [1, 1], instr = [64, 128, 32], stages = 3, group = 8>}
  return
}

// -----

func.func @f8_nn_pingpong(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf16>) {
  // expected-error @+1 {{'gemm.matmul' op layout nn: f8 tile of 1 compute warpgroup and stages = 6 is not supported on operands copied transposed}}
  gemm.matmul nn ins(%a, %b : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [64, 128, 128], warps = [1, 1], instr = [64, 128, 32], stages = 6, group = 8, load = tma_ws, schedule = pingpong>}
  return
}

// -----

// Accepted: the same tiles promoting every k-tile (2 stages; three compute
// warpgroups), the pairs in tn, and the f8 nn family (dispatch).
func.func @accepted(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf16>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 128, 128], warps = [2, 1], instr = [64, 128, 32], stages = 2, group = 8, load = tma_ws>}
  gemm.matmul nn ins(%a, %b : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [192, 128, 128], warps = [3, 1], instr = [64, 128, 32], stages = 4, group = 8, load = tma_ws>}
  gemm.matmul tn ins(%a, %b : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 192, 128], warps = [2, 1], instr = [64, 192, 32], stages = 5, group = 8, load = tma_ws>}
  gemm.matmul nn ins(%a, %b : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}
