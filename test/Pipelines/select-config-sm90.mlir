// RUN: gemm-opt --verify-roundtrip %s --gemm-to-ptx="chip=sm_90 tuning-db=%S/../Dialect/Gemm/Transforms/Inputs/db-sm90.json" | FileCheck %s --check-prefix=DB
// RUN: gemm-opt --verify-roundtrip %s --gemm-to-ptx="chip=sm_90 select-config=true" | FileCheck %s --check-prefix=MODEL
// RUN: gemm-opt --verify-roundtrip %s --gemm-to-ptx="chip=sm_90" | FileCheck %s --check-prefix=DEFAULT
// RUN: gemm-opt --verify-roundtrip %s --gemm-to-ptx="chip=sm_90 tuning-db=%gemm_src_root/tuning/h200.json" | FileCheck %s --check-prefix=SHIPPED

// The pipelines run gemm-select-config when asked: the database's entry
// (4096^3 f16 tn: 128x256x32 in the test database), the model's pick, or
// without either the lowering's per-type default (128x128x64).

// DB: config = "#gemm.config<kind = mma_sync, block = [128, 256, 32], warps = [2, 4], instr = [16, 8, 16], stages = 4
// MODEL: config = "#gemm.config<kind = mma_sync,
// DEFAULT: config = "#gemm.config<kind = mma_sync, block = [128, 128, 64], warps = [2, 2], instr = [16, 8, 16], stages = 3
// SHIPPED: config = "#gemm.config<kind = mma_sync,
// DB: gpu.binary @gemm_kernels
// MODEL: gpu.binary @gemm_kernels
// SHIPPED: gpu.binary @gemm_kernels
func.func @f(%a: memref<4096x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<4096x4096xf16>) {
  gemm.matmul tn ins(%a, %b : memref<4096x4096xf16>, memref<4096x4096xf16>) outs(%c : memref<4096x4096xf16>) acc(f32)
  return
}
