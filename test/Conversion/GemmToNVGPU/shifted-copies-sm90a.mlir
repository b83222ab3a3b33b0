// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu="chip=sm_90a pack-unaligned=false dispatch=false" | FileCheck %s
// RUN: gemm-opt %s --convert-gemm-to-nvgpu="chip=sm_90a dispatch=false" | FileCheck %s --check-prefix=LIMITS

// Shifted copies (MainLoop.cpp, emitShiftedCopy): where an operand rules
// out 16-byte copies but its buffer is 16-byte aligned with a unit inner
// stride (rows merely off 16 bytes, f16 with an odd K), each thread's chunk
// of 8 elements is the two aligned 16-byte blocks holding it, funnel-shifted
// by four llvm.intr.fshr into place and stored to shared memory in one
// 16-byte vector.store; elements past the matrix are zeroed by a mask per
// word. Buffers that are not 16-byte aligned keep the element copies.

// The packing threshold (docs/dispatch.md): GEMMs whose default reads
// misaligned rows with shifted copies (wgmma) skip the run-time packing
// while batch * M * N <= 2^21, K <= 192 and M * N * K < 2^26; the host
// code compares the outputs and one GEMM's work, and the manifest's pack
// record says so. Others (mma.sync, with
// element copies) keep batch * M * N * K < 2^24 and K <= 128.
// LIMITS: name = "f16_tn_gemm", pack = {{{[^}]*}}max_direct_k = 192 : i64, max_direct_outputs = 2097152 : i64, min_gemm_work = 67108864 : i64, min_work = 536870912 : i64
// LIMITS: name = "f16_tn_mma_sync_gemm", pack = {{{[^}]*}}max_direct_k = 128 : i64, min_work = 16777216 : i64, multiple
// LIMITS-LABEL: func.func @f16_tn(
// LIMITS: arith.constant 192 : index
// LIMITS: arith.constant 2097152 : index
// LIMITS: arith.constant 67108864 : index
// LIMITS-LABEL: func.func @f16_tn_mma_sync(
// LIMITS: arith.constant 16777216 : index
// LIMITS: arith.constant 128 : index

// A wgmma kernel (TMA loads; the fallback when the host has no tensor map):
// the shifted path under the buffer check, then the element copies.
// CHECK-LABEL: gpu.func @f16_tn_gemm
// CHECK: scf.if
// CHECK: memref.extract_aligned_pointer_as_index %arg0
// CHECK: arith.remui %{{.*}}, %c16
// CHECK: scf.if
// CHECK: scf.for
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<?xf16>, vector<8xf16>
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<?xf16>, vector<8xf16>
// CHECK-COUNT-4: llvm.intr.fshr
// CHECK: arith.andi %{{.*}} : vector<4xi32>
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<32768xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK: } else {
// CHECK: scf.for
// CHECK: memref.load %arg0
func.func @f16_tn(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}

// A cp.async wgmma kernel, nn (B stored K x N: its rows are along N): the
// same path for both operands, after the 16-byte copies.
// CHECK-LABEL: gpu.func @f16_nn_cp_async_gemm
// CHECK: nvgpu.device_async_copy
// CHECK: llvm.intr.fshr
// CHECK: vector.store %{{.*}} : memref<{{[0-9]+}}xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK: llvm.intr.fshr
// CHECK: vector.store %{{.*}} : memref<{{[0-9]+}}xf16, #gpu.address_space<workgroup>>, vector<8xf16>
func.func @f16_nn_cp_async(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [64, 64, 64], warps = [1, 1], instr = [64, 64, 16], stages = 2, group = 8>}
  return
}

// Not in warp-specialized kernels, nor in mma.sync ones: register-bound
// tiles spilled with them. Their fallback is the element copies alone.
// CHECK-LABEL: gpu.func @f16_tn_ws_gemm
// CHECK-NOT: llvm.intr.fshr
// CHECK: gpu.return
func.func @f16_tn_ws(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 128, 64], warps = [2, 1], instr = [64, 128, 16], stages = 4, group = 8, load = tma_ws>}
  return
}

// CHECK-LABEL: gpu.func @f16_tn_mma_sync_gemm
// CHECK-NOT: llvm.intr.fshr
// CHECK: gpu.return
func.func @f16_tn_mma_sync(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [64, 64, 32], warps = [2, 2], instr = [16, 8, 16], stages = 3, group = 8>}
  return
}
