// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu="chip=sm_90a pack-unaligned=false dispatch=false" | FileCheck %s
// (dispatch=false: the default kernel alone; dispatch-sm90a.mlir tests the families.)

// The wgmma kind (sm_90a, the default there for f16/bf16 and for tn tf32/i8):
// cp.async into 128-byte swizzled, 1024-byte aligned stages; the copies are
// fenced into the async proxy before the barrier that publishes a stage; each
// warpgroup issues one wgmma.mma_async per k-step from shared-memory
// descriptors and keeps one stage in flight (wait 1), drained (wait 0) before
// the epilogue.

// K-major A and B (tn): descriptors with LBO 16 bytes (unused) and SBO 1024
// (0x4000004000010000); the k-steps advance the start address by 32 bytes
// (2 units of 16); B's buffer starts at 4 stages x 16 KiB.
// CHECK: dynamic_shared_memory = 197632
// CHECK-LABEL: gpu.func @f16_tn_gemm
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// The tiles are moved up to the next 1024-byte boundary of the shared window
// (the dynamic shared memory symbol is only 16-byte aligned).
// CHECK: %[[SMEM:.*]] = gpu.dynamic_shared_memory
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[SMEM]]
// CHECK: arith.remui %[[PTR]], %{{.*}} : index
// CHECK: memref.view %[[SMEM]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32768xf16
// CHECK: memref.view %[[SMEM]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<65536xf16
// CHECK: memref.extract_aligned_pointer_as_index
// CHECK: arith.constant 4611686293305360384 : i64
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: gpu.barrier
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 256, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: scf.yield
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: llvm.extractvalue %{{.*}}[127]
func.func @f16_tn(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}

// MN-major B (nn): panels of 64 columns; LBO is one panel (64 rows x 128
// bytes = 8192 bytes, 512 units: 0x4000004002000000) and the k-steps advance
// B by 16 rows (2048 bytes, 128 units); the wgmma reads B N-major (row).
// CHECK-LABEL: gpu.func @bf16_nn_gemm
// CHECK: arith.constant 4611686293305360384 : i64
// CHECK: arith.constant 4611686293338849280 : i64
// CHECK: nvvm.wgmma.mma_async {{.*}} A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
func.func @bf16_nn(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xbf16>) acc(f32)
  return
}

// MN-major A (tt): the wgmma reads A M-major (col).
// CHECK-LABEL: gpu.func @f16_tt_gemm
// CHECK: nvvm.wgmma.mma_async {{.*}} A[<f16>, <one>, <col>], B[<f16>, <one>, <col>]
func.func @f16_tt(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  gemm.matmul tt ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}

// tf32 (an explicit config: f32 operands run as tf32 only when asked) and
// i8 (the default in tn) take wgmma K-major only, with their own k-steps.
// CHECK-LABEL: gpu.func @tf32_tn_gemm
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 8>, D[<f32>, <one>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>]
// CHECK-LABEL: gpu.func @i8_tn_gemm
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 256, k = 32>, D[<s32>, <one>], A[<s8>, <one>, <row>], B[<s8>, <one>, <col>]
// i8 in nn: B is copied transposed (transpose-operands, on by default and
// whatever pack-unaligned says), and the kernel reads it K-major
// (transpose-operands-sm90a.mlir).
// CHECK-LABEL: gpu.func @i8_nn_gemm
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 256, k = 32>, D[<s32>, <one>], A[<s8>, <one>, <row>], B[<s8>, <one>, <col>]
func.func @tf32_tn(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 128, 32], warps = [2, 1], instr = [64, 128, 8], stages = 4>}
  return
}
func.func @i8_tn(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) acc(i32)
  return
}
func.func @i8_nn(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) acc(i32)
  return
}

// Two stages: nothing stays in flight (wait 0 per stage), tiles are fetched
// one ahead.
// CHECK-LABEL: gpu.func @two_stages_gemm
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 0
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
func.func @two_stages(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 128, 64], warps = [2, 1], instr = [64, 128, 16], stages = 2>}
  return
}

// Batched (rank-3) operands: grid.z walks the batch; the default config
// loads through TMA with rank-3 tensor maps, the batch the third
// coordinate. Static shapes reach the kernel as dynamic sizes
// (shape-generic kernels), and the epilogue reads its extras per
// accumulator element from the struct.
// CHECK-LABEL: gpu.func @batched_bias_gemm
// CHECK-SAME: memref<?x?x?xf16>
// CHECK: gpu.block_id  z
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}]
// CHECK: nvvm.wgmma.mma_async
// CHECK: llvm.extractvalue %{{.*}}[0]
// CHECK: memref.load %{{.*}} : memref<?xf32>
// CHECK: arith.addf
func.func @batched_bias(%a: memref<4x256x128xf16>, %b: memref<4x512x128xf16>, %c: memref<4x256x512xf16>, %bias: memref<512xf32>) {
  gemm.matmul tn ins(%a, %b : memref<4x256x128xf16>, memref<4x512x128xf16>) outs(%c : memref<4x256x512xf16>)
      extras(%bias : memref<512xf32>) acc(f32) attributes {broadcast = [#gemm.bcast<col>]} {
  ^bb0(%acc: f32, %cin: f16, %bi: f32):
    %0 = arith.addf %acc, %bi : f32
    %1 = arith.truncf %0 : f32 to f16
    gemm.yield %1 : f16
  }
  return
}

// f8 (e4m3, e5m2, and the two mixed) in tn: the default on sm_90a (three
// compute warpgroups of 64 rows beside a producer), K-major
// 128-byte rows (BK = 128), m64n128k32 into f32, with the partial sums
// promoted: each stage's first MMA starts a fresh partial sum (D scale
// zero, its undefined input unread), the stage's group is waited for
// entirely, and its 64 partial sums are added to the f32 sums. The main
// loop is emitted once per load path, under one branch on whether the
// host passed tensor maps (the TMA version first, with no copy code), and
// each version drains its own MMAs.
// CHECK-LABEL: gpu.func @f8_tn_gemm
// CHECK-SAME: known_block_size = array<i32: 512, 1, 1>
// CHECK: nvvm.setmaxregister increase 152
// CHECK: scf.if %{{.*}} -> (!llvm.struct
// CHECK-NOT: nvvm.cp.async
// CHECK: scf.for {{.*}} iter_args
// CHECK-NOT: nvvm.cp.async
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: %[[U3:.*]] = llvm.mlir.undef : !llvm.struct<(f32,
// CHECK: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %[[U3]], <m = 64, n = 128, k = 32>, D[<f32>, <zero>], A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.*}} D[<f32>, <one>]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-COUNT-64: arith.addf
// CHECK: scf.yield
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } else {
// CHECK: scf.for {{.*}} iter_args
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(f32,
// CHECK: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %[[U]], <m = 64, n = 128, k = 32>, D[<f32>, <zero>], A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-COUNT-64: arith.addf
// CHECK: scf.yield
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: scf.yield
// CHECK-LABEL: gpu.func @f8_mixed_gemm
// CHECK: nvvm.wgmma.mma_async {{.*}} A[<e4m3>, <one>, <row>], B[<e5m2>, <one>, <col>]
func.func @f8_tn(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}
func.func @f8_mixed(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E5M2>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf8E4M3FN>, memref<?x?xf8E5M2>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}

// Two compute warpgroups have the registers to keep a partial sum in
// flight: it covers 256 of K (wgmmaPromotionKTiles), two k-tiles of 128,
// and the main loop runs k-tiles in pairs, K padded to an even count
// (a padding k-tile starts at K: its copies read zeros). The first k-tile
// of a pair starts the partial sum (D scale zero) and leaves its group in
// flight (wait 1) like an unpromoted kernel; the second adds to it,
// waits for everything, and the 64 partial sums go into the f32 sums,
// the only loop-carried accumulators.
// CHECK-LABEL: gpu.func @f8_pairs_gemm
// CHECK: %[[PADDED:.*]] = arith.muli %{{.*}}, %c2_i32{{.*}} : i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[PADDED]] step %c2_i32{{[_0-9]*}} iter_args(%{{.*}} = %{{.*}}) -> (!llvm.struct
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: %[[U2:.*]] = llvm.mlir.undef : !llvm.struct<(f32,
// CHECK: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %[[U2]], <m = 64, n = 128, k = 32>, D[<f32>, <zero>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.*}} D[<f32>, <one>]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NOT: arith.addf
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} D[<f32>, <one>]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-COUNT-64: arith.addf
// CHECK: scf.yield
func.func @f8_pairs(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 128, 128], warps = [2, 1], instr = [64, 128, 32], stages = 6, group = 8, load = tma>}
  return
}

// An f8 tile of m64n256 (the accumulators would not fit twice) accumulates
// in the tensor cores alone: every MMA adds to the carried sums, one group
// stays in flight, and nothing is added in registers.
// CHECK-LABEL: gpu.func @f8_fast_gemm
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (!llvm.struct
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NOT: llvm.mlir.undef
// CHECK: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %[[ACC]], <m = 64, n = 256, k = 32>, D[<f32>, <one>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 256, k = 32>, D[<f32>, <one>]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NOT: arith.addf
// CHECK: scf.yield
func.func @f8_fast(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 256, 128], warps = [2, 1], instr = [64, 256, 32], stages = 4, group = 8, load = tma>}
  return
}
