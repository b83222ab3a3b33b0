// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu=chip=sm_90 --canonicalize --cse | FileCheck %s

// Edges and alignment: 16-byte copies are chosen at run time from the base
// pointer, offset and strides; interior tiles copy without predication, edge
// tiles zero-fill through the cp.async source size, unaligned operands take
// predicated element copies, and non-unit inner strides never use cp.async.

// CHECK-LABEL: gpu.func @dynamic_gemm(
// CHECK-DAG: memref.extract_aligned_pointer_as_index %arg0
// CHECK-DAG: memref.extract_strided_metadata %arg0
// Interior: no source size, from a 1-D view of the operand's base buffer
// addressed with hoisted row strides (one 64-bit add per copy).
// CHECK: %[[VIEW:.*]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [9223372036854775807], strides: [1]
// CHECK: %[[LIN:.*]] = memref.cast %[[VIEW]]
// CHECK: nvgpu.device_async_copy %[[LIN]][{{.*}}], %{{.*}}[{{.*}}], 8 {bypassL1} :
// Edge: a source size operand.
// CHECK: nvgpu.device_async_copy %arg0[{{.*}}], %{{.*}}[{{.*}}], 8, %{{.*}} {bypassL1} :
// Unaligned: predicated element loads.
// CHECK: scf.if
// CHECK: memref.load %arg0[
// CHECK: memref.store {{.*}} : memref<24576xf16, #gpu.address_space<workgroup>>
func.func @dynamic(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}

// CHECK-LABEL: gpu.func @strided_gemm(
// CHECK-NOT: nvgpu.device_async_copy %arg0
// CHECK: memref.load %arg0[
// CHECK: nvgpu.device_async_copy %arg1
func.func @strided(%a: memref<?x?xf16, strided<[?, ?], offset: ?>>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16, strided<[?, ?], offset: ?>>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}

// Operands in the global address space: the 1-D view the copies address
// keeps it.
// CHECK-LABEL: gpu.func @global_space_gemm(
// CHECK: memref.reinterpret_cast %arg0 to offset: [0], sizes: [9223372036854775807], strides: [1] : memref<?x?xf16, #gpu.address_space<global>> to memref<9223372036854775807xf16, strided<[1]>, #gpu.address_space<global>>
func.func @global_space(%a: memref<?x?xf16, #gpu.address_space<global>>, %b: memref<?x?xf16, #gpu.address_space<global>>, %c: memref<?x?xf16, #gpu.address_space<global>>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16, #gpu.address_space<global>>, memref<?x?xf16, #gpu.address_space<global>>) outs(%c : memref<?x?xf16, #gpu.address_space<global>>) acc(f32)
  return
}
