// RUN: gemm-opt %s --convert-gemm-to-nvgpu="chip=sm_90a dispatch=false" | FileCheck %s
// RUN: gemm-opt %s --convert-gemm-to-nvgpu="chip=sm_90a dispatch=false" | FileCheck %s --check-prefix=MANIFEST

// Rows of an odd number of 16 bytes (OperandPacking::sectorMultiple,
// docs/dispatch.md): a family whose default reads through TMA also packs an
// operand whose offset or outer strides are not multiples of 32 bytes (16
// f16 elements) when the GEMM is compute-bound, M * N >= 512 * (M + N) with
// M and N clamped to 2^30; the manifest's pack record says so. Kernels
// that read with cp.async (and mma.sync ones) keep the 16-byte rule alone.

// MANIFEST: name = "f16_tn_gemm", pack = {{{[^}]*}}multiple = 8 : i64
// MANIFEST-SAME: round_to = 64 : i64, sector_min_intensity = 512 : i64, sector_multiple = 16 : i64, warp_elements = 256
// MANIFEST-SAME: name = "f16_tn_cp_async_gemm", pack = {{{[^}]*}}multiple = 8 : i64
// MANIFEST-SAME: round_to = 64 : i64, warp_elements = 256
// MANIFEST-SAME: name = "f16_tn_k3000_gemm", pack = {{{[^}]*}}multiple = 8 : i64
// MANIFEST-SAME: round_to = 64 : i64, sector_min_intensity = 512 : i64, sector_multiple = 16

// The host code: 16-byte rows (strides % 8), 32-byte rows (strides % 16)
// or a memory-bound GEMM, else the pack kernel.
// CHECK-LABEL: func.func @f16_tn(
// CHECK: %[[CAP:.*]] = arith.constant 1073741824 : index
// CHECK: %[[M:.*]] = arith.minsi %{{.*}}, %[[CAP]] : index
// CHECK: %[[N:.*]] = arith.minsi %{{.*}}, %[[CAP]] : index
// CHECK: %[[SUM:.*]] = arith.addi %[[M]], %[[N]] : index
// CHECK: %[[ISUM:.*]] = arith.muli %[[SUM]], %c512 : index
// CHECK: %[[MN:.*]] = arith.muli %[[M]], %[[N]] : index
// CHECK: %[[MEMBOUND:.*]] = arith.cmpi slt, %[[MN]], %[[ISUM]] : index
// CHECK: arith.remui %strides{{.*}}#0, %c8{{.*}} : index
// CHECK: %[[S:.*]] = arith.remui %strides{{.*}}#0, %c16{{.*}} : index
// CHECK: %[[R32:.*]] = arith.cmpi eq, %[[S]]
// CHECK: %[[ROWS32:.*]] = arith.andi %{{.*}}, %[[R32]] : i1
// CHECK: arith.ori %[[ROWS32]], %[[MEMBOUND]] : i1
// CHECK: scf.if
// CHECK: gpu.launch_func {{.*}}@gemm_pack_
func.func @f16_tn(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}

// CHECK-LABEL: func.func @f16_tn_cp_async(
// CHECK-NOT: arith.constant 1073741824 : index
// CHECK: return
func.func @f16_tn_cp_async(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 128, 64], warps = [2, 1], instr = [64, 128, 16], stages = 4, group = 8>}
  return
}

// A static K of 3000 (6000-byte rows): 16-byte copies are proven, the
// sectors are not, so the packing is decided at run time (the GEMM kernel
// takes the dynamic type both A and its workspace cast to).
// CHECK-LABEL: func.func @f16_tn_k3000(
// CHECK: arith.cmpi slt
// CHECK: scf.if {{.*}} -> (memref<?x?xf16, strided<[?, 1], offset: ?>>, memref<?x?xf16, strided<[?, 1], offset: ?>>)
// CHECK: gpu.launch_func {{.*}}@gemm_pack_
func.func @f16_tn_k3000(%a: memref<4096x3000xf16>, %b: memref<4096x3000xf16>, %c: memref<4096x4096xf16>) {
  gemm.matmul tn ins(%a, %b : memref<4096x3000xf16>, memref<4096x3000xf16>) outs(%c : memref<4096x4096xf16>) acc(f32)
  return
}

// K = 3008 (6016-byte rows, whole 32-byte multiples): nothing to pack.
// CHECK-LABEL: func.func @f16_tn_k3008(
// CHECK-NOT: gemm_pack_
// CHECK: return
func.func @f16_tn_k3008(%a: memref<4096x3008xf16>, %b: memref<4096x3008xf16>, %c: memref<4096x4096xf16>) {
  gemm.matmul tn ins(%a, %b : memref<4096x3008xf16>, memref<4096x3008xf16>) outs(%c : memref<4096x4096xf16>) acc(f32)
  return
}
