// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu=chip=sm_90 --canonicalize --cse | FileCheck %s

// Block rasterization: group = 1 walks tiles row by row (or column by
// column); group > 1 walks `group` tile rows (columns) together.

// Plain row order: tile row = bid / tilesN, tile column = bid % tilesN.
// CHECK-LABEL: gpu.func @row_gemm(
// CHECK: %[[BID:.*]] = arith.index_cast %block_id_x : index to i32
// CHECK-NEXT: %[[ROW:.*]] = arith.divui %[[BID]], %[[TILESN:.*]] : i32
// CHECK-NEXT: %[[COL:.*]] = arith.remui %[[BID]], %[[TILESN]] : i32
// CHECK-NEXT: arith.muli %[[ROW]], %c128_i32
// CHECK-NEXT: arith.muli %[[COL]], %c128_i32
// CHECK: gpu.return
func.func @row(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [128, 128, 32], warps = [2, 2], instr = [16, 8, 16], stages = 3, raster = row, group = 1>}
  return
}

// Grouped: the group size is clamped at the last (partial) group.
// CHECK-LABEL: gpu.func @grouped_gemm(
// CHECK: arith.muli %{{.*}}, %c4_i32
// CHECK: arith.minsi %{{.*}}, %c4_i32
// CHECK: gpu.return
func.func @grouped(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [128, 128, 32], warps = [2, 2], instr = [16, 8, 16], stages = 3, raster = column, group = 4>}
  return
}
