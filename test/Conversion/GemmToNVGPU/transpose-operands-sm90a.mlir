// RUN: gemm-opt --verify-roundtrip %s --split-input-file --convert-gemm-to-nvgpu="chip=sm_90a allow-tf32" | FileCheck %s
// RUN: gemm-opt %s --split-input-file --convert-gemm-to-nvgpu="chip=sm_90a allow-tf32 transpose-operands=false" -verify-diagnostics | FileCheck %s --check-prefix=OFF

// wgmma reads tf32, i8 and f8 operands K-major only. With
// transpose-operands (the default) an operand stored MN-major (A as K x M,
// B as K x N) is copied transposed into a K-major workspace first by a
// transposing kernel, and the kernels read layout tn. The workspace rounds
// K up to 128 bytes (its row pitch); the kernel reads it through a strided
// view of the logical K, and takes K from it.

// tf32 nn, one kernel (dispatch=false is in the next case): B (K x N) is
// copied into an N x K' workspace, K' = K rounded up to 32 elements; the
// tensor map and the kernel read the view.
// CHECK: config = "#gemm.config<kind = wgmma,
// CHECK-SAME: layout = "nn"
// CHECK-SAME: operands = [{kernel = "gemm_pack_f32", name = "A", round_up_dims = [1], when = "unaligned"}, {grid_rule = "x = min(ceil(rows' / tile[0]) * ceil(cols' / tile[1]), max_blocks), y = 1, z = batch (1 without), the workspace's rows' x cols'", kernel = "gemm_transpose_f32", name = "B", round_up_dims = [1], tile = [32, 128], transpose = true, when = "always"}]
// CHECK-LABEL: func.func @tf32_nn(
// CHECK-SAME: %[[A:.*]]: memref<?x?xf32>, %[[B:.*]]: memref<?x?xf32>, %[[C:.*]]: memref<?x?xf32>)
// CHECK-DAG: %[[N:.*]] = memref.dim %[[B]], %c1
// CHECK-DAG: %[[K:.*]] = memref.dim %[[B]], %c0
// CHECK: %[[WS:.*]] = gpu.alloc (%[[N]], %{{.*}}) : memref<?x?xf32>
// CHECK: gpu.launch_func @gemm_kernels::@gemm_transpose_f32 {{.*}} threads in (%c256{{.*}} args(%[[B]] : memref<?x?xf32>, %[[WS]] : memref<?x?xf32>)
// CHECK: %[[VIEW:.*]] = memref.subview %[[WS]][0, 0] [%[[N]], %[[K]]] [1, 1] : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1]>>
// CHECK: %[[VB:.*]] = memref.cast %[[VIEW]] : memref<?x?xf32, strided<[?, 1]>> to memref<?x?xf32, strided<[?, 1], offset: ?>>
// CHECK: %[[PA:.*]] = scf.if
// CHECK: llvm.call @mgpuGemmTensorMap(
// CHECK: gpu.launch_func @gemm_kernels::@tf32_nn_gemm {{.*}} args(%[[PA]] : memref<?x?xf32>, %[[VB]] : memref<?x?xf32, strided<[?, 1], offset: ?>>, %[[C]] : memref<?x?xf32>
// CHECK: gpu.dealloc %[[WS]] : memref<?x?xf32>
// The transposing kernel: 128 source rows x 32 source columns (16 KiB) per
// tile, staged transposed (source column c is staged row c). Where the
// source allows (unit inner stride, 16-byte aligned base, strides and
// column count multiples of 4 elements) a thread loads 4 16-byte vectors,
// all before the staging, else the same 16 elements one by one; each
// element is stored to its staged row; then 4 16-byte shared loads, each
// stored as one 16-byte vector.
// CHECK-LABEL: gpu.func @gemm_transpose_f32(
// CHECK-SAME: %[[SRC:.*]]: memref<?x?xf32>, %[[DST:.*]]: memref<?x?xf32>) workgroup(%[[TILE:.*]] : memref<32x128xf32, #gpu.address_space<workgroup>>) kernel
// CHECK: %[[REM:.*]] = arith.remui %{{.*}}, %c4_i32
// CHECK: %[[WHOLE:.*]] = arith.cmpi eq, %[[REM]], %c0_i32
// CHECK: memref.extract_aligned_pointer_as_index %[[SRC]]
// CHECK: %[[OK:.*]] = arith.andi %{{.*}}, %[[WHOLE]] : i1
// CHECK: %[[LINEAR:.*]] = memref.reinterpret_cast
// CHECK: scf.for
// CHECK: scf.if %[[OK]] {
// CHECK-COUNT-4: vector.load %[[LINEAR]][%{{.*}}] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK-COUNT-16: memref.store %{{.*}}, %[[TILE]]
// CHECK: } else {
// CHECK-COUNT-4: memref.load %[[SRC]]
// CHECK-COUNT-4: memref.store %{{.*}}, %[[TILE]]
// CHECK: gpu.barrier
// CHECK: vector.load %[[TILE]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<32x128xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: vector.store %{{.*}}, %[[DST]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xf32>, vector<4xf32>
// CHECK-COUNT-3: vector.store %{{.*}}, %[[DST]]
// CHECK: gpu.barrier
// The kernel reads K from B (the transposed operand: A's workspace pads K)
// and issues tf32 wgmma K-major.
// CHECK-LABEL: gpu.func @tf32_nn_gemm(
// CHECK-SAME: %{{.*}}: memref<?x?xf32>, %[[KB:.*]]: memref<?x?xf32, strided<[?, 1], offset: ?>>,
// CHECK: memref.dim %[[KB]], %c1
// CHECK: nvvm.wgmma.mma_async {{.*}} A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>]

// Without transpose-operands the config is rejected (the expected errors
// are those of the OFF run, which verifies diagnostics).
func.func @tf32_nn(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{wgmma reads tf32 operands K-major only: layout nn needs tn}}
  gemm.matmul nn ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 128, 32], warps = [2, 1], instr = [64, 128, 8], stages = 4, group = 8, load = tma>}
  return
}

// -----

// i8 nn with dynamic sizes and the family: small M (below 256 for 1-byte
// types, 128 for tf32) keeps the stored layout's members (mma.sync, no
// copy), the rest copies B transposed; the host chooses between the two on
// M, and the manifest's bounds say the same (m_max = 255, then m_min =
// 256).
// CHECK: rule = "default"
// CHECK-SAME: when = {m_max = 255 : i64}
// CHECK: pack = {{{.*}}transpose = true
// CHECK-SAME: when = {{{.*}}m_min = 256 : i64
// CHECK-LABEL: func.func @i8_nn(
// CHECK: %[[M:.*]] = memref.dim %arg2, %c0
// CHECK: %[[SMALL:.*]] = arith.cmpi sle, %[[M]], %c255
// CHECK: scf.if %[[SMALL]] {
// CHECK-NOT: gemm_transpose
// CHECK: gpu.launch_func @gemm_kernels::@i8_nn_gemm
// CHECK: } else {
// CHECK: gpu.launch_func @gemm_kernels::@gemm_transpose_i8
// CHECK: gpu.launch_func @gemm_kernels::@i8_nn_gemm_
// The transposing kernel of i8: 128 source rows by 128 source columns per
// tile, 16-byte loads (where the source allows) staged transposed byte by
// byte, and 16-byte shared loads stored as 16-byte vectors.
// CHECK-LABEL: gpu.func @gemm_transpose_i8(
// CHECK-SAME: workgroup(%[[TILE8:.*]] : memref<128x128xi8, #gpu.address_space<workgroup>>)
// CHECK: scf.if %{{.*}} {
// CHECK-COUNT-4: vector.load {{.*}} : memref<?xi8>, vector<16xi8>
// CHECK-COUNT-64: memref.store %{{.*}}, %[[TILE8]]
// CHECK: vector.load %[[TILE8]]{{.*}} : memref<128x128xi8, #gpu.address_space<workgroup>>, vector<16xi8>
// CHECK: vector.store {{.*}} : memref<?x?xi8>, vector<16xi8>

// Without it: the stored layout's family alone, for every M.
// OFF-NOT: m_min = 256
// OFF-LABEL: func.func @i8_nn(
// OFF-NOT: gemm_transpose
// OFF: gpu.launch_func @gemm_kernels::@i8_nn_gemm
// OFF-NOT: gemm_transpose
func.func @i8_nn(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) acc(i32)
  return
}

// -----

// Static sizes decide at compile time: M = 16 reads the stored layout (one
// mma.sync kernel, nothing copied), M = 4096 copies B transposed (one wgmma
// kernel).
// CHECK-LABEL: func.func @i8_nn_small(
// CHECK-NOT: gemm_transpose
// CHECK-NOT: scf.if
// CHECK: gpu.launch_func @gemm_kernels::@i8_nn_small_gemm
// CHECK-LABEL: func.func @i8_nn_large(
// CHECK-NOT: scf.if
// CHECK: gpu.alloc () : memref<4096x4096xi8>
// CHECK: gpu.launch_func @gemm_kernels::@gemm_transpose_i8 {{.*}} args(%arg1 : memref<4096x4096xi8>, %{{.*}} : memref<4096x4096xi8>)
// CHECK: gpu.launch_func @gemm_kernels::@i8_nn_large_gemm
// CHECK-LABEL: gpu.func @i8_nn_small_gemm(
// CHECK-NOT: nvvm.wgmma
// CHECK: nvgpu.mma.sync
// CHECK-LABEL: gpu.func @i8_nn_large_gemm(
// CHECK: nvvm.wgmma.mma_async {{.*}} D[<s32>, <one>], A[<s8>, <one>, <row>], B[<s8>, <one>, <col>]
func.func @i8_nn_small(%a: memref<16x4096xi8>, %b: memref<4096x4096xi8>, %c: memref<16x4096xi32>) {
  gemm.matmul nn ins(%a, %b : memref<16x4096xi8>, memref<4096x4096xi8>) outs(%c : memref<16x4096xi32>) acc(i32)
  return
}
func.func @i8_nn_large(%a: memref<4096x4096xi8>, %b: memref<4096x4096xi8>, %c: memref<4096x4096xi32>) {
  gemm.matmul nn ins(%a, %b : memref<4096x4096xi8>, memref<4096x4096xi8>) outs(%c : memref<4096x4096xi32>) acc(i32)
  return
}

// -----

// f8 nt: both operands transposed, in every member (f8 has no other
// lowering, so no member reads the stored layout); batched tt i8 (N = 300,
// at least 256) copies A only, one batch element per grid.z, into a static
// workspace (K = 100 rounded up to 128).
// CHECK-LABEL: func.func @f8_nt(
// CHECK-NOT: scf.if %{{.*}} {
// CHECK: gpu.launch_func @gemm_kernels::@gemm_transpose_f8E4M3FN {{.*}} args(%arg0
// CHECK: gpu.launch_func @gemm_kernels::@gemm_transpose_f8E4M3FN {{.*}} args(%arg1
// CHECK-LABEL: func.func @i8_tt_batched(
// CHECK: %[[WA:.*]] = gpu.alloc () : memref<3x77x128xi8>
// CHECK: gpu.launch_func @gemm_kernels::@gemm_transpose_i8 blocks in (%{{.*}}, %c1{{.*}}, %{{.*}}) {{.*}} args(%arg0 : memref<3x100x77xi8>, %[[WA]] : memref<3x77x128xi8>)
// CHECK: memref.subview %[[WA]][0, 0, 0] [%{{.*}}, %{{.*}}, %{{.*}}] [1, 1, 1] : memref<3x77x128xi8> to memref<?x?x?xi8, strided<[9856, 128, 1]>>
// CHECK: gpu.dealloc %[[WA]]
func.func @f8_nt(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf16>) {
  // expected-error @+1 {{f8 operands are lowered by convert-gemm-to-nvgpu with kind = wgmma only (sm_90a, layout tn), not simt}}
  gemm.matmul nt ins(%a, %b : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}
func.func @i8_tt_batched(%a: memref<3x100x77xi8>, %b: memref<3x300x100xi8>, %c: memref<3x77x300xi32>) {
  gemm.matmul tt ins(%a, %b : memref<3x100x77xi8>, memref<3x300x100xi8>) outs(%c : memref<3x77x300xi32>) acc(i32)
  return
}

// -----

// One value as both operands (nn): B's copy is of the same buffer A reads in
// place.
// CHECK-LABEL: func.func @same_operand(
// CHECK-SAME: %[[X:.*]]: memref<?x?xf32>,
// CHECK: gpu.launch_func @gemm_kernels::@gemm_transpose_f32 {{.*}} args(%[[X]] : memref<?x?xf32>, %[[WS:.*]] : memref<?x?xf32>)
// CHECK: %[[V:.*]] = memref.subview %[[WS]]
// CHECK: %[[VC:.*]] = memref.cast %[[V]]
// CHECK: gpu.launch_func @gemm_kernels::@same_operand_gemm {{.*}} args(%{{.*}} : memref<?x?xf32>, %[[VC]] :
func.func @same_operand(%x: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{wgmma reads tf32 operands K-major only: layout nn needs tn}}
  gemm.matmul nn ins(%x, %x : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 128, 32], warps = [2, 1], instr = [64, 128, 8], stages = 4, group = 8, load = tma>}
  return
}
