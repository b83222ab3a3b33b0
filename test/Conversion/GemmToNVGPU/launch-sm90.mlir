// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu="chip=sm_90 pack-unaligned=false" | FileCheck %s

// (Packing of unaligned operands, which would route A and B through an
// scf.if first, is tested in pack-sm90.mlir.)

// Host side: the op becomes a gpu.launch_func with grid.x covering the output
// tiles, grid.z the batch, the block of the config's warps and the dynamic
// shared memory of its stages; launch facts go to `gemm.kernels`.

// CHECK: module attributes {gemm.kernels = [{
// CHECK-SAME: a_type = "f16",
// CHECK-SAME: acc_type = "f32",
// CHECK-SAME: block = [256, 1, 1],
// CHECK-SAME: c_type = "f16",
// CHECK-SAME: chip = "sm_90",
// CHECK-SAME: config = "#gemm.config<kind = mma_sync, block = [128, 256, 32], warps = [2, 4], instr = [16, 8, 16], stages = 3, raster = column, group = 4>",
// CHECK-SAME: dynamic_shared_memory = 73728 : i64,
// CHECK-SAME: grid = {batched = true, tile_m = 128 : i64, tile_n = 256 : i64},
// CHECK-SAME: layout = "tn",
// CHECK-SAME: module = "gemm_kernels",
// CHECK-SAME: name = "batched_gemm"
// CHECK-SAME: gpu.container_module

// CHECK-LABEL: func.func @batched(
// CHECK-SAME: %[[A:.*]]: memref<?x?x?xf16>, %[[B:.*]]: memref<?x?x?xf16>, %[[C:.*]]: memref<?x?x?xf16>)
// CHECK-DAG: %[[M:.*]] = memref.dim %[[C]], %c1
// CHECK-DAG: %[[N:.*]] = memref.dim %[[C]], %c2
// CHECK-DAG: %[[BATCH:.*]] = memref.dim %[[C]], %c0
// CHECK: gpu.launch_func @gemm_kernels::@batched_gemm blocks in (%{{.*}}, %{{.*}}, %[[BATCH]]) threads in (%{{.*}}, %{{.*}}, %{{.*}}) dynamic_shared_memory_size %{{.*}} args(%[[A]] : memref<?x?x?xf16>, %[[B]] : memref<?x?x?xf16>, %[[C]] : memref<?x?x?xf16>)
// CHECK-NOT: gemm.matmul

// CHECK: gpu.module @gemm_kernels [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx84">]
// CHECK: gpu.func @batched_gemm({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// CHECK: gpu.block_id  z
func.func @batched(%a: memref<?x?x?xf16>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?x?xf16>, memref<?x?x?xf16>) outs(%c : memref<?x?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [128, 256, 32], warps = [2, 4], instr = [16, 8, 16], stages = 3, raster = column, group = 4>}
  return
}

