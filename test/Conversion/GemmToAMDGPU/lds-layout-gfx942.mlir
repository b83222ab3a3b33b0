// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-amdgpu="chip=gfx942 dispatch=false" | FileCheck %s
// (dispatch=false: the default kernel alone; dispatch-sm90a.mlir tests the families.)

// LDS layouts. Without a config the bank-conflict model of
// gemm/Utils/MfmaLayout.h picks plain, padded or swizzled tiles (and how much
// padding) for the kernel's own accesses; an explicit `smem = pad` gets the
// model's padding per tile; plain and swizzle are taken as given. The LDS
// size of the launch shows the padding: 2 stages x 2 tiles x 128 x 32 f16 is
// 32768 bytes unpadded.

// f16 tn: 64-byte rows read 8 bytes per lane down 16 rows collide in the
// plain layout; padding rows by 4 elements (72-byte pitch) spreads them
// (modelled 128 cycles per k-tile against 544 plain and 160 swizzled).
// CHECK-LABEL: func.func @default_f16_tn
// CHECK: gpu.launch_func @gemm_kernels::@default_f16_tn_gemm {{.*}} dynamic_shared_memory_size %c36864_i32
func.func @default_f16_tn(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}

// f32 nt: both tiles are read one element per lane along their contiguous
// dimension, conflict-free already: plain, no padding.
// CHECK-LABEL: func.func @default_f32_nt
// CHECK: gpu.launch_func @gemm_kernels::@default_f32_nt_gemm {{.*}} dynamic_shared_memory_size %c32768_i32
func.func @default_f32_nt(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  gemm.matmul nt ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}

// Explicit layouts.
// CHECK-LABEL: func.func @plain
// CHECK: dynamic_shared_memory_size %c32768_i32
func.func @plain(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mfma, block = [128, 128, 32], warps = [2, 2], instr = [16, 16, 16], stages = 2, smem = plain>}
  return
}

// CHECK-LABEL: func.func @pad
// CHECK: dynamic_shared_memory_size %c36864_i32
func.func @pad(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mfma, block = [128, 128, 32], warps = [2, 2], instr = [16, 16, 16], stages = 2, smem = pad>}
  return
}

// The swizzle permutes 16-byte chunks (an XOR of the chunk index) at the
// same footprint as plain.
// CHECK-LABEL: func.func @swizzle
// CHECK: dynamic_shared_memory_size %c32768_i32
func.func @swizzle(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mfma, block = [128, 128, 32], warps = [2, 2], instr = [16, 16, 16], stages = 2, smem = swizzle>}
  return
}

// CHECK: gpu.func @default_f16_tn_gemm
// CHECK: gpu.func @swizzle_gemm
// CHECK: arith.xori
// CHECK: amdgpu.mfma
