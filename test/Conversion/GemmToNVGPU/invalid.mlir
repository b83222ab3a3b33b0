// RUN: gemm-opt %s -split-input-file --convert-gemm-to-nvgpu=chip=sm_90 -verify-diagnostics

func.func @wgmma(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{config kind wgmma is not available on sm_90}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 128, 64], warps = [2, 1], instr = [64, 128, 16]>}
  return
}

// -----

func.func @fp8(%a: memref<?x?xf8E4M3FN>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{f8 operands are lowered by convert-gemm-to-nvgpu with kind = wgmma only (sm_90a, layout tn), not simt}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}

// -----

func.func @mfma(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{config kind mfma is not lowered by convert-gemm-to-nvgpu (it lowers mma_sync, wgmma, simt and gemv)}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mfma, block = [128, 128, 32], warps = [2, 2], instr = [32, 32, 8]>}
  return
}

// -----

func.func @smem_over(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{config needs 327680 bytes of shared memory per block, over the 232448 available on sm_90}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [256, 256, 64], warps = [4, 4], instr = [16, 8, 16], stages = 5>}
  return
}

// -----

func.func @swizzle_rows(%a: memref<?x?xf64>, %c: memref<?x?xf64>) {
  // A 64x64x2 f64 tile has 16-byte rows of K but the config checks the
  // M-contiguous A of nt: 8 x 8 bytes is fine, so use a 1-element K row.
  // expected-error @+1 {{swizzled shared tile of A has rows of 8 bytes, not a multiple of 16; use smem = plain or pad}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf64>, memref<?x?xf64>) outs(%c : memref<?x?xf64>) acc(f64)
    attributes {config = #gemm.config<kind = simt, block = [64, 64, 1], warps = [2, 2], instr = [4, 8, 1]>}
  return
}

// -----

func.func @simt_warp(%a: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{simt per-thread tile 8x8 covers the 32x32 warp tile with 16 threads, expected the warp size 32}}
  gemm.matmul nn ins(%a, %a : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = simt, block = [64, 64, 8], warps = [2, 2], instr = [8, 8, 1]>}
  return
}

// -----

// m8n8k16 s8 is in the chip table, but the kernel builder's fragment maps
// implement m16n8k32 only.
func.func @i8_m8n8k16(%a: memref<?x?xi8>, %c: memref<?x?xi32>) {
  // expected-error @+1 {{mma_sync shape 8x8x16 for i8 operands is not lowered by convert-gemm-to-nvgpu (it lowers 16x8x32)}}
  gemm.matmul tn ins(%a, %a : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) acc(i32)
    attributes {config = #gemm.config<kind = mma_sync, block = [32, 32, 128], warps = [2, 2], instr = [8, 8, 16]>}
  return
}

// -----

func.func @f16_m16n8k8(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{mma_sync shape 16x8x8 for f16 operands is not lowered by convert-gemm-to-nvgpu (it lowers 16x8x16)}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [128, 128, 32], warps = [2, 2], instr = [16, 8, 8]>}
  return
}

// -----

// NVPTX has no frem: arith.remf is rejected at the op, not left to fail in
// the NVVM lowering.
func.func @remf(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @below {{epilogue op 'arith.remf' is not lowered by convert-gemm-to-nvgpu (sm_90): LLVM's NVPTX backend has no floating-point remainder (frem)}}
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32) {
  ^bb0(%acc: f32, %cin: f32):
    // expected-note @below {{the epilogue op}}
    %r = arith.remf %acc, %cin : f32
    gemm.yield %r : f32
  }
  return
}

// -----

// An epilogue op outside arith and math (here the other vendor's
// intrinsic; llvm.intr.lround on f16 the same) reached NVPTX instruction
// selection as is and aborted LLVM: rejected at the op.
func.func @foreign(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @below {{epilogue op 'rocdl.workitem.id.x' is not lowered by convert-gemm-to-nvgpu (sm_90): the kernels lower arith and math ops only}}
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32) {
  ^bb0(%acc: f32, %cin: f32):
    // expected-note @below {{the epilogue op}}
    %t = rocdl.workitem.id.x : i32
    %f = arith.sitofp %t : i32 to f32
    %r = arith.addf %acc, %f : f32
    gemm.yield %r : f32
  }
  return
}

// -----

func.func @lround(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @below {{epilogue op 'llvm.intr.lround' is not lowered by convert-gemm-to-nvgpu (sm_90): the kernels lower arith and math ops only}}
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32) {
  ^bb0(%acc: f32, %cin: f32):
    %x = arith.truncf %acc : f32 to f16
    // expected-note @below {{the epilogue op}}
    %i = llvm.intr.lround(%x) : (f16) -> i64
    %r = arith.sitofp %i : i64 to f32
    gemm.yield %r : f32
  }
  return
}

// -----

// A gemm.matmul in device code: the lowering replaces it by a kernel launch,
// which device code cannot hold.
func.func @in_launch(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    // expected-error @below {{is inside 'gpu.launch': convert-gemm-to-nvgpu lowers gemm.matmul in host code only (it becomes a kernel and its launch)}}
    gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    gpu.terminator
  }
  return
}

// -----

// Static sizes past 2^31 - 1: the kernels index in 32 bits (K = 2^63 - 1
// overflowed the packing's rounding before).
func.func @huge_k(%a: memref<8x9223372036854775807xf16>, %b: memref<8x9223372036854775807xf16>, %c: memref<8x8xf32>) {
  // expected-error @below {{operand A has a dimension of 9223372036854775807, over the 2147483647 the kernels' 32-bit index math holds}}
  gemm.matmul tn ins(%a, %b : memref<8x9223372036854775807xf16>, memref<8x9223372036854775807xf16>) outs(%c : memref<8x8xf32>) acc(f32)
  return
}

// -----

// A static launch must fit the grid: 65535 batches at most along grid.z.
func.func @huge_batch(%a: memref<70000x64x64xf16>, %b: memref<70000x64x64xf16>, %c: memref<70000x64x64xf32>) {
  // expected-error @below {{has a batch of 70000, over the 65535 blocks a launch takes along grid.z}}
  gemm.matmul tn ins(%a, %b : memref<70000x64x64xf16>, memref<70000x64x64xf16>) outs(%c : memref<70000x64x64xf32>) acc(f32)
  return
}

// -----

// 2^31 - 1 rows and columns in 128 x 128 tiles: 2^48 blocks along grid.x.
func.func @huge_grid(%a: memref<2147483647x64xf16>, %b: memref<2147483647x64xf16>, %c: memref<2147483647x2147483647xf32>) {
  // expected-error @below {{needs 281474976710656 blocks along grid.x (ceil(M / BM) * ceil(N / BN)), over the 2147483647 a launch takes}}
  gemm.matmul tn ins(%a, %b : memref<2147483647x64xf16>, memref<2147483647x64xf16>) outs(%c : memref<2147483647x2147483647xf32>) acc(f32)
  return
}
