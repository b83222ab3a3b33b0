// RUN: gemm-opt --verify-roundtrip %s --gemm-to-amdgcn="chip=gfx942 select-config=true" | FileCheck %s
// RUN: gemm-opt --verify-roundtrip %s --gemm-to-amdgcn="chip=gfx942" | FileCheck %s --check-prefix=DEFAULT

// gemm-to-amdgcn with select-config: the cost model picks among the MFMA
// configs convert-gemm-to-amdgpu lowers, and the pick compiles.

// CHECK: gemm.kernels = [{{{.*}}config = "#gemm.config<kind = mfma
// CHECK: gpu.binary @gemm_kernels
// CHECK-SAME: v_mfma
// DEFAULT: config = "#gemm.config<kind = mfma, block = [128, 128, 32], warps = [2, 2], instr = [16, 16, 16], smem = pad, group = 8>"
func.func @f16_tn(%a: memref<4096x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<4096x4096xf32>) {
  gemm.matmul tn ins(%a, %b : memref<4096x4096xf16>, memref<4096x4096xf16>) outs(%c : memref<4096x4096xf32>) acc(f32)
  return
}
