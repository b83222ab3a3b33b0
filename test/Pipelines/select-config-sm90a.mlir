// RUN: gemm-opt --verify-roundtrip %s --gemm-to-ptx="chip=sm_90a select-config=true" | FileCheck %s --check-prefix=MODEL
// RUN: gemm-opt --verify-roundtrip %s --gemm-to-ptx="chip=sm_90a" | FileCheck %s --check-prefix=DEFAULT

// On sm_90a the lattice holds wgmma points and the cost model ranks them
// (data-sheet peak, per-warp work per instruction, prefetch depth S-2): its
// pick for 4096^3 f16 is the measured best, the same as the default.

// MODEL: config = "#gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4
// DEFAULT: config = "#gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4
// MODEL: gpu.binary @gemm_kernels
func.func @f(%a: memref<4096x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<4096x4096xf16>) {
  gemm.matmul tn ins(%a, %b : memref<4096x4096xf16>, memref<4096x4096xf16>) outs(%c : memref<4096x4096xf16>) acc(f32)
  return
}
