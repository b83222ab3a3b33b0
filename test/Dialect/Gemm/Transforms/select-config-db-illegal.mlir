// RUN: gemm-opt %s --gemm-select-config="target=sm_90 tuning-db=%S/Inputs/db-illegal.json" -verify-diagnostics

// gemm-select-config rejects an entry whose config is illegal for its key with a diagnostic.

// expected-error @+1 {{tuning database entry #1: config #gemm.config<kind = mma_sync, block = [256, 256, 64], warps = [2, 2], instr = [16, 8, 16], stages = 4, smem = swizzle, raster = row, group = 1> is illegal for f16 nn on sm_90: config needs 262144 bytes of shared memory per block, over the 232448 available on sm_90}}
module {
  func.func @f(%a: memref<?x?xf16>, %c: memref<?x?xf16>) {
    gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    return
  }
}
