// RUN: gemm-opt --verify-roundtrip %s --split-input-file --gemm-select-config="target=sm_90a tuning-db=%gemm_src_root/tuning/h200.json report=true" 2>&1 | FileCheck %s

// The shipped database's sm_90a entries (measured on the H200, the every
// suite of docs/performance.md, "Tuning database for sm_90a", and the gemv
// rows of 2026-12-02) cover the dispatch family's kinds: a static one-row
// decode shape gets the measured gemv tile, a wider nn one the split in
// clusters, and a large one the wgmma default.

// CHECK-LABEL: func.func @decode
// CHECK: config = #gemm.config<kind = gemv, block = [1, 16, 512], warps = [1, 8], instr = [1, 1, 8], stages = 1, smem = plain>
func.func @decode(%a: memref<1x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<1x4096xf16>) {
  gemm.matmul tn ins(%a, %b : memref<1x4096xf16>, memref<4096x4096xf16>) outs(%c : memref<1x4096xf16>) acc(f32)
  return
}

// -----

// CHECK-LABEL: func.func @wide_decode_nn
// CHECK: config = #gemm.config<kind = mma_sync, block = [16, 128, 128], warps = [1, 4], instr = [16, 8, 16], stages = 6, split_k = 2, reduction = cluster>
func.func @wide_decode_nn(%a: memref<2x8192xf16>, %b: memref<8192x8192xf16>, %c: memref<2x8192xf16>) {
  gemm.matmul nn ins(%a, %b : memref<2x8192xf16>, memref<8192x8192xf16>) outs(%c : memref<2x8192xf16>) acc(f32)
  return
}

// -----

// CHECK-LABEL: func.func @large
// CHECK: config = #gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4, group = 8>
func.func @large(%a: memref<4096x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<4096x4096xf16>) {
  gemm.matmul tn ins(%a, %b : memref<4096x4096xf16>, memref<4096x4096xf16>) outs(%c : memref<4096x4096xf16>) acc(f32)
  return
}
