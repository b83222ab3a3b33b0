// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: gemm-opt --verify-roundtrip %s --gemm-to-ptx="chip=sm_90a output-dir=%t" -o /dev/null
// RUN: %ptxas -arch=sm_90a -v %t/gemm_kernels.sm_90a.ptx -o %t/k.cubin 2>&1 | FileCheck %s
// RUN: gemm-opt %s --gemm-to-ptx="chip=sm_90a dispatch=false output-dir=%t/single" -o /dev/null
// RUN: %ptxas -arch=sm_90a -v %t/single/gemm_kernels.sm_90a.ptx -o %t/single.cubin 2>&1 | FileCheck %s --check-prefix=SINGLE

// The wgmma defaults of sm_90a (f16/bf16 in every layout, i8 and f8 in tn,
// with and without an epilogue) and their dispatch families assemble with
// zero spills, and ptxas does not serialize the warpgroup MMAs.
// CHECK-NOT: {{[1-9][0-9]*}} bytes spill
// CHECK-NOT: wgmma.mma_async instructions are serialized
// CHECK: Compiling entry function
// CHECK-NOT: {{[1-9][0-9]*}} bytes spill
// CHECK-NOT: wgmma.mma_async instructions are serialized

// The default kernels alone: ptxas honours the setmaxnreg of the f8
// default's warp-specialized block, which fills an SM and says so
// (.minnctapersm 1); with a thread bound alone ptxas reports "'setmaxnreg'
// ignored; unable to determine register count at entry". (The families'
// small warp-specialized members, two blocks an SM, keep the launch
// bound's registers: design-notes.md, "Hopper: wgmma fed by TMA".)
// SINGLE-NOT: 'setmaxnreg' ignored
// SINGLE: Compiling entry function
// SINGLE-NOT: 'setmaxnreg' ignored
func.func @f8_tn(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}
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
func.func @f16_tt(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  gemm.matmul tt ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}
func.func @bf16_tn(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xbf16>) acc(f32)
  return
}
func.func @i8_tn(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) acc(i32)
  return
}
func.func @f16_tn_bias_gelu(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>, %bias: memref<?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
      extras(%bias : memref<?xf32>) acc(f32) attributes {broadcast = [#gemm.bcast<row>]} {
  ^bb0(%acc: f32, %cin: f16, %bi: f32):
    %x = arith.addf %acc, %bi : f32
    %g = math.tanh %x : f32
    %r = arith.truncf %g : f32 to f16
    gemm.yield %r : f16
  }
  return
}

// A persistent block's main loop in two versions (TMA and copies) inside
// its tile loop: the versioned loop runs at least one k-tile, which keeps
// LLVM from giving each version a bypass of zero accumulators that ptxas
// reads as lying inside the other version's MMA stage (C7515, every wgmma
// serialized, on this tile).
func.func @f16_tn_persistent(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 3, group = 8, load = tma_ws, schedule = persistent>}
  return
}
