// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu="chip=sm_90 dispatch=false" --canonicalize --cse | FileCheck %s
// RUN: rm -rf %t && gemm-opt %s --gemm-to-ptx="chip=sm_90 dispatch=false output-dir=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/gemm_kernels.sm_90.ptx

// `kind = gemv`: no shared memory and no pipeline. Each warp streams its
// block-N / warps[1] rows of B (rows warps[1] apart) through registers: per
// iteration every lane issues BK / (32 x 8) 16-byte loads of each row
// before it multiplies them with the chunk of A in f32 FMAs. Five paths,
// chosen at run time, each over the whole iterations and then the last,
// partial one element by element (clamped to K, zero past it): 16-byte
// loads of B and A; shifted rows (K's stride 1 and a 16-byte aligned
// buffer, but rows that start inside a 16-byte block: an odd K, read in
// place, the host never packs for gemv); 16-byte loads of B alone; element
// loads at constant offsets where K's stride is 1 in both; element loads
// through the strides. Five xor shuffles add the lanes' sums and lane 0
// runs the epilogue.

// The host launches one block per 1 x 16 tile of C (8 warps of 2 rows), on
// A and B as stored.
// CHECK-LABEL: func.func @gemv(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<?x?xf16>, %[[B:[a-z0-9]+]]: memref<?x?xf16>
// CHECK-NOT: gemm_pack
// CHECK: gpu.launch_func  @gemm_kernels::@gemv_gemm blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%c256
// CHECK-SAME: args(%[[A]] : memref<?x?xf16>, %[[B]] : memref<?x?xf16>

// CHECK-LABEL: gpu.func @gemv_gemm(
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK-NOT: gpu.dynamic_shared_memory
// CHECK-NOT: workgroup(
// CHECK: memref.reinterpret_cast
// CHECK: %[[FULL:.*]]:2 = scf.if %{{.*}} -> (f32, f32) {
// B and A 16-byte aligned: two loads of each of the two rows of B, then A.
// CHECK-NEXT: arith.remui
// CHECK: scf.for {{.*}} iter_args
// CHECK-COUNT-4: vector.load %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<{{[0-9]+}}xf16, strided<[1]>>, vector<8xf16>
// CHECK: vector.load %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<{{[0-9]+}}xf16, strided<[1]>>, vector<8xf16>
// CHECK: llvm.intr.fma({{.*}}) : (f32, f32, f32) -> f32
// The last, partial iteration: element loads, zero past K.
// CHECK: scf.for
// CHECK: memref.load %{{.*}} : memref<{{[0-9]+}}xf16, strided<[1]>>
// CHECK: arith.select
// Shifted rows: lanes below h read the elements before each row's first
// 16-byte block; then B's blocks, and A's chunk from two blocks and four
// funnel shifts (by the words the selects pick); the same with one chunk
// a lane; then the rest element by element.
// CHECK: } else {
// CHECK-NEXT: scf.if %{{.*}} -> (f32, f32) {
// CHECK: scf.if %{{.*}} -> (f32, f32) {
// CHECK-COUNT-3: memref.load
// CHECK: } else {
// CHECK: scf.for {{.*}} step %c512 iter_args
// CHECK-COUNT-4: vector.load %{{.*}} vector<8xf16>
// CHECK: vector.load %{{.*}} vector<8xf16>
// CHECK-NEXT: vector.bitcast %{{.*}} : vector<8xf16> to vector<4xi32>
// CHECK: vector.load %{{.*}} vector<8xf16>
// CHECK-NEXT: vector.bitcast %{{.*}} : vector<8xf16> to vector<4xi32>
// CHECK: arith.select
// CHECK-COUNT-4: llvm.intr.fshr(%{{.*}}, %{{.*}}, %{{.*}}) : (i32, i32, i32) -> i32
// CHECK-NEXT: vector.from_elements
// CHECK-NEXT: vector.bitcast %{{.*}} : vector<4xi32> to vector<8xf16>
// CHECK: llvm.intr.fma
// CHECK: scf.for {{.*}} step %c256 iter_args
// CHECK-COUNT-2: vector.load %{{.*}} vector<8xf16>
// CHECK: llvm.intr.fshr
// CHECK: scf.for
// CHECK-NOT: vector.load
// CHECK: arith.select
// B alone aligned: A element by element.
// CHECK: } else {
// CHECK-NEXT: scf.if %{{.*}} -> (f32, f32) {
// CHECK: scf.for {{.*}} iter_args
// CHECK-COUNT-4: vector.load %{{.*}} vector<8xf16>
// CHECK-NOT: vector.load
// CHECK: memref.load %{{.*}} : memref<{{[0-9]+}}xf16, strided<[1]>>
// CHECK: llvm.intr.fma
// Rows with K's stride 1 in a buffer that is not 16-byte aligned:
// unclamped element loads over the whole iterations, then the clamped
// rest. (The fifth path, clamped element loads through the strides, is
// folded away here: identity layouts have K's stride 1; see
// @gemv_strided.)
// CHECK: } else {
// CHECK-NOT: scf.if
// CHECK: scf.for {{.*}} iter_args
// CHECK-NOT: vector.load
// CHECK-NOT: arith.minsi
// CHECK-NOT: arith.select
// CHECK: scf.yield
// CHECK: scf.for
// CHECK: arith.select
// CHECK-COUNT-5: gpu.shuffle  xor
// CHECK: scf.if
// CHECK: memref.store %{{.*}} : memref<?x?xf16
// CHECK: gpu.return
func.func @gemv(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [1, 16, 512], warps = [1, 8], instr = [1, 1, 8], stages = 1, smem = plain>}
  return
}

// tt: A is stored K x M. Its K stride is 1 where M = 1 (a K x 1 column):
// then 16-byte loads of A too, checked at run time (K's stride, the base,
// and one row or rows 16 bytes apart); else its elements one by one
// (strided in K) while B keeps its 16-byte loads. Two rows of A, four of B
// per warp, bf16 widened to f32; the epilogue (bias along N) sees each sum
// once.
// CHECK-LABEL: gpu.func @gemv_tt_gemm(
// CHECK: memref.extract_aligned_pointer_as_index
// CHECK: scf.for {{.*}} iter_args
// CHECK-COUNT-4: vector.load %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<{{[0-9]+}}xbf16, strided<[1]>>, vector<8xbf16>
// CHECK-COUNT-2: vector.load %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<{{[0-9]+}}xbf16, strided<[1]>>, vector<8xbf16>
// CHECK: } else {
// CHECK: scf.for {{.*}} iter_args
// CHECK-COUNT-4: vector.load %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<{{[0-9]+}}xbf16, strided<[1]>>, vector<8xbf16>
// CHECK: memref.load %{{.*}} : memref<{{[0-9]+}}xbf16, strided<[1]>>
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: llvm.intr.fma
// CHECK-COUNT-5: gpu.shuffle  xor
// CHECK: memref.load %{{.*}} : memref<?xf32
// CHECK: arith.addf
func.func @gemv_tt(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %bias: memref<?xf32>, %c: memref<?x?xf32>) {
  gemm.matmul tt ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xf32>)
      extras(%bias : memref<?xf32>) acc(f32) attributes {broadcast = [#gemm.bcast<col>], config = #gemm.config<kind = gemv, block = [2, 16, 256], warps = [1, 4], instr = [1, 1, 8], stages = 1, smem = plain>} {
  ^bb0(%acc: f32, %cin: f32, %bi: f32):
    %0 = arith.addf %acc, %bi : f32
    gemm.yield %0 : f32
  }
  return
}

// A strided view of B (K's stride a run-time value): the fifth path,
// element loads through the strides, each clamped to K.
// CHECK-LABEL: gpu.func @gemv_strided_gemm(
// CHECK: scf.if %{{.*}} -> (f32) {
// CHECK: } else {
// CHECK-NEXT: scf.if %{{.*}} -> (f32) {
// CHECK: llvm.intr.fshr
// CHECK: } else {
// CHECK-NEXT: scf.if %{{.*}} -> (f32) {
// CHECK: } else {
// CHECK-NEXT: scf.if %{{.*}} -> (f32) {
// CHECK: } else {
// CHECK: scf.for
// CHECK-NOT: vector.load
// CHECK: arith.minsi
// CHECK: arith.muli
// CHECK: memref.load %{{.*}} : memref<{{[0-9]+}}xf16, strided<[1]>>
// CHECK: arith.select
// CHECK-COUNT-5: gpu.shuffle  xor
func.func @gemv_strided(%a: memref<?x?xf16>, %b: memref<?x?xf16, strided<[?, ?], offset: ?>>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16, strided<[?, ?], offset: ?>>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [1, 8, 256], warps = [1, 8], instr = [1, 1, 8], stages = 1, smem = plain>}
  return
}

// Batched f32: four-element lanes, the batch from grid.z.
// CHECK-LABEL: gpu.func @gemv_batched_gemm(
// CHECK: gpu.block_id  z
// CHECK: vector.load %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<{{[0-9]+}}xf32, strided<[1]>>, vector<4xf32>
func.func @gemv_batched(%a: memref<?x?x?xf32>, %b: memref<?x?x?xf32>, %c: memref<?x?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?x?xf32>, memref<?x?x?xf32>) outs(%c : memref<?x?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [1, 8, 128], warps = [1, 8], instr = [1, 1, 4], stages = 1, smem = plain>}
  return
}

// The PTX has 128-bit global loads, FMAs and the shuffles, and no shared memory.
// PTX-LABEL: .entry gemv_gemm(
// PTX-NOT: .shared
// PTX: ld.global.v4.{{[bu]}}32
// PTX: fma.rn.f32
// PTX: shf.r.wrap.b32
// PTX: shfl.sync.bfly.b32
