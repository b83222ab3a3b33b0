// RUN: gemm-opt %s -split-input-file --convert-gemm-to-nvgpu="chip=sm_90a transpose-operands=false" -verify-diagnostics

// Every wgmma config the lowering rejects, with the reason. Without
// transpose-operands, tf32, i8 and f8 outside tn are among them (with it,
// the default, their MN-major operands are copied transposed first:
// transpose-operands-sm90a.mlir).

func.func @f16_acc(%a: memref<?x?xf16>, %c: memref<?x?xf16>) {
  // expected-error @+1 {{wgmma lowering supports f16/bf16/tf32/f8 operands with f32 accumulation and i8 with i32, not f16 with f16}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f16)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 128, 64], warps = [2, 1], instr = [64, 128, 16]>}
  return
}

// -----

func.func @tile_m(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{wgmma warpgroup tile M must be 64 or 128 (block M / warps[0]), got 256}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [256, 64, 64], warps = [1, 1], instr = [64, 64, 16]>}
  return
}

// -----

func.func @tile_n(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{wgmma warpgroup tile N (block N / warps[1] = 256) must equal the instruction N 128}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 128, 16]>}
  return
}

// -----

func.func @plain_smem(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{wgmma needs smem = swizzle (the 128-byte swizzle its descriptors describe), got plain}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 128, 64], warps = [2, 1], instr = [64, 128, 16], smem = plain>}
  return
}

// -----

func.func @block_k(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{wgmma with K-contiguous operands needs block K = 64 (rows of 128 bytes), got 32}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 128, 32], warps = [2, 1], instr = [64, 128, 16]>}
  return
}

// -----

func.func @tf32_nn(%a: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{wgmma reads tf32 operands K-major only: layout nn needs tn}}
  gemm.matmul nn ins(%a, %a : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 128, 32], warps = [2, 1], instr = [64, 128, 8]>}
  return
}

// -----

func.func @i8_tt(%a: memref<?x?xi8>, %c: memref<?x?xi32>) {
  // expected-error @+1 {{wgmma reads i8 operands K-major only: layout tt needs tn}}
  gemm.matmul tt ins(%a, %a : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) acc(i32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 128, 128], warps = [2, 1], instr = [64, 128, 32]>}
  return
}

// -----

func.func @n_panel(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{wgmma with N-contiguous B needs the instruction N to be a multiple of 64, got 96}}
  gemm.matmul nn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 96, 64], warps = [2, 1], instr = [64, 96, 16]>}
  return
}

// -----

func.func @i8_n40(%a: memref<?x?xi8>, %c: memref<?x?xi32>) {
  // i8 wgmma takes N = 8, 16, 24 and multiples of 16 only (the op verifier
  // knows the shapes of every chip).
  // expected-error @+1 {{no wgmma instruction has shape 64x40x32 for i8 operands accumulating in i32}}
  gemm.matmul tn ins(%a, %a : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) acc(i32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 40, 128], warps = [2, 1], instr = [64, 40, 32]>}
  return
}

// -----

func.func @f8_nn(%a: memref<?x?xf8E4M3FN>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{wgmma reads f8E4M3FN operands K-major only: layout nn needs tn}}
  gemm.matmul nn ins(%a, %a : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 128, 128], warps = [2, 1], instr = [64, 128, 32]>}
  return
}

// -----

func.func @f8_mma_sync(%a: memref<?x?xf8E4M3FN>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{f8 operands are lowered by convert-gemm-to-nvgpu with kind = wgmma only (sm_90a, layout tn), not mma_sync}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [128, 128, 64], warps = [2, 2], instr = [16, 8, 32]>}
  return
}

// -----

// Three compute warpgroups beside the producer: 512 threads, 128 registers
// each at launch, where ptxas compiles every instruction; an m64n256 f32
// wgmma needs 128 for its accumulators and 4 for its descriptors.
func.func @tma_ws_instr_registers(%a: memref<?x?xf16>, %c: memref<?x?xf16>) {
  // expected-error @+1 {{'load = tma_ws' block of 512 threads: one 64x256x16 wgmma needs 132 registers per thread (accumulators and descriptors), over the 128 each thread gets on sm_90a}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [192, 256, 64], warps = [3, 1], instr = [64, 256, 16], stages = 4, group = 8, load = tma_ws>}
  return
}
