// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-amdgpu=chip=gfx942 --canonicalize --cse | FileCheck %s

// The host side: a gpu.launch_func per gemm.matmul (grid.x over the output
// tiles, grid.z over the batch, 4 waves of 64 lanes) and the launch facts,
// with the chip, in the module attribute gemm.kernels.

// CHECK: module attributes {gemm.kernels = [{{{.*}}chip = "gfx942"{{.*}}name = "batched_gemm"{{.*}}}], gpu.container_module}
// CHECK-LABEL: func.func @batched
// CHECK-DAG: memref.dim %arg2, %c1
// CHECK-DAG: memref.dim %arg2, %c2
// CHECK-DAG: %[[B:.*]] = memref.dim %arg2, %c0
// CHECK: gpu.launch_func @gemm_kernels::@batched_gemm blocks in (%{{.*}}, %c1, %[[B]]) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %c16384_i32
// CHECK: gpu.func @batched_gemm
// CHECK: gpu.block_id z
func.func @batched(%a: memref<?x?x?xf16>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?x?xf16>, memref<?x?x?xf16>) outs(%c : memref<?x?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mfma, block = [64, 64, 32], warps = [2, 2], instr = [16, 16, 16]>}
  return
}
