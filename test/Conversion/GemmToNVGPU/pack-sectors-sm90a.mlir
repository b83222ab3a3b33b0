// RUN: gemm-opt %s --convert-gemm-to-nvgpu="chip=sm_90a dispatch=false" | FileCheck %s
// RUN: gemm-opt %s --convert-gemm-to-nvgpu="chip=sm_90a dispatch=false" | FileCheck %s --check-prefix=MANIFEST

// Rows of an odd number of 16 bytes (OperandPacking::sectorMultiple,
// docs/dispatch.md): a family whose default reads through TMA also packs an
// operand whose rows do not start on 32-byte boundaries (its first
// element's address, or an outer stride not a multiple of 16 f16 elements)
// when the GEMM is compute-bound, M * N >= 512 * (M + N) with M and N
// clamped to 2^30; the manifest's pack record says so (static shapes:
// decided here). Kernels that read with cp.async (and mma.sync ones) keep
// the 16-byte rule alone.

// MANIFEST: name = "f16_tn_gemm", pack = {{{[^}]*}}multiple = 8 : i64
// MANIFEST-SAME: round_to = 64 : i64, sector_min_intensity = 512 : i64, sector_multiple = 16 : i64, warp_elements = 256
// MANIFEST-SAME: name = "f16_tn_cp_async_gemm", pack = {{{[^}]*}}multiple = 8 : i64
// MANIFEST-SAME: round_to = 64 : i64, warp_elements = 256
// MANIFEST-SAME: name = "f16_tn_k3000_gemm", pack = {{{[^}]*}}multiple = 8 : i64
// MANIFEST-SAME: round_to = 64 : i64, sector_min_intensity = 512 : i64, sector_multiple = 16
// MANIFEST-SAME: name = "f16_tn_k3000_decode_gemm", params =

// The host code: 16-byte rows (strides % 8) and rows on 32-byte
// boundaries (the first element's address % 32, strides % 16) or a
// memory-bound GEMM, else the pack kernel.
// CHECK-LABEL: func.func @f16_tn(
// CHECK: %[[CAP:.*]] = arith.constant 1073741824 : index
// CHECK: %[[M:.*]] = arith.minsi %{{.*}}, %[[CAP]] : index
// CHECK: %[[N:.*]] = arith.minsi %{{.*}}, %[[CAP]] : index
// CHECK: %[[SUM:.*]] = arith.addi %[[M]], %[[N]] : index
// CHECK: %[[ISUM:.*]] = arith.muli %[[SUM]], %c512{{(_[0-9]+)?}} : index
// CHECK: %[[MN:.*]] = arith.muli %[[M]], %[[N]] : index
// CHECK: %[[MEMBOUND:.*]] = arith.cmpi slt, %[[MN]], %[[ISUM]] : index
// CHECK: arith.remui %strides{{.*}}#0, %c8{{.*}} : index
// CHECK: %[[OFF:.*]] = arith.muli %offset{{.*}}, %c2{{(_[0-9]+)?}} : index
// CHECK: %[[FIRST:.*]] = arith.addi %intptr{{.*}}, %[[OFF]] : index
// CHECK: arith.remui %[[FIRST]], %c32{{(_[0-9]+)?}} : index
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

// Static M, N and K of 3000 (6000-byte rows): the types prove 16-byte
// copies and rows off 32 bytes, and the GEMM compute-bound, so both
// operands are packed always, with no run-time test.
// CHECK-LABEL: func.func @f16_tn_k3000(
// CHECK-NOT: scf.if
// CHECK: gpu.alloc () : memref<4096x3008xf16>
// CHECK-NOT: scf.if
// CHECK: gpu.launch_func @gemm_kernels::@gemm_pack_f16
// CHECK-NOT: scf.if
// CHECK: gpu.launch_func @gemm_kernels::@f16_tn_k3000_gemm
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

// A static memory-bound shape (128 x 4096: 124 < 512) drops the rule: no
// sector fields, no packing, B's static type kept.
// CHECK-LABEL: func.func @f16_tn_k3000_decode(
// CHECK-NOT: gemm_pack_
// CHECK: return
func.func @f16_tn_k3000_decode(%a: memref<128x3000xf16>, %b: memref<4096x3000xf16>, %c: memref<128x4096xf16>) {
  gemm.matmul tn ins(%a, %b : memref<128x3000xf16>, memref<4096x3000xf16>) outs(%c : memref<128x4096xf16>) acc(f32)
  return
}
