// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu="chip=sm_90 dispatch=false" --canonicalize --cse | FileCheck %s
// RUN: rm -rf %t && gemm-opt %s --gemm-to-ptx="chip=sm_90 dispatch=false output-dir=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/gemm_kernels.sm_90.ptx

// `kind = gemv` on an N-contiguous B (instr = [1, 8, 1], layouts nn and nt):
// B streamed once through registers in 16-byte chunks along N. Block
// [1, 32, 256], warps [1, 8]: four lanes side by side read 32 columns of a
// row of B, so a warp reads 8 rows at once and the block 64; each lane owns
// four consecutive k rows of every 256 (four 16-byte loads in flight, then
// the products with A's elements at the same k). Three paths, chosen per
// block at run time: 16-byte loads (N's stride 1, aligned base and pitch,
// the block inside N), shifted chunks (two aligned blocks and four funnel
// shifts a chunk: an odd N, read in place), else element loads clamped to
// N. Each runs its whole iterations, then the last one with its k rows
// clamped to K and their sums selected out. Shuffles add a warp's eight
// groups of lanes, the warps' sums meet in shared memory, and one thread
// per element of the 1 x 32 tile adds the eight in order and stores.

// The host launches M x ceil(N / 32) blocks of 256 threads, with the
// warps' 8 x 32 f32 sums in dynamic shared memory, on A and B as stored.
// CHECK-LABEL: func.func @gemv_columns(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<?x?xf16>, %[[B:[a-z0-9]+]]: memref<?x?xf16>
// CHECK-NOT: gemm_pack
// CHECK: %[[N:.*]] = memref.dim %{{.*}}, %c1 : memref<?x?xf32>
// CHECK: %[[N31:.*]] = arith.addi %[[N]], %c31 : index
// CHECK: %[[TILES:.*]] = arith.divui %[[N31]], %c32 : index
// CHECK: %[[GRID:.*]] = arith.muli %{{.*}}, %[[TILES]] : index
// CHECK: gpu.launch_func  @gemm_kernels::@gemv_columns_gemm blocks in (%[[GRID]], %c1, %c1) threads in (%c256, %c1, %c1)  dynamic_shared_memory_size %c1024_i32 args(%[[A]] : memref<?x?xf16>, %[[B]] : memref<?x?xf16>

// CHECK-LABEL: gpu.func @gemv_columns_gemm(
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// 16-byte loads need a 16-byte aligned B with a pitch of whole chunks, and
// the block's 32 columns inside N.
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %{{.*}} : memref<?x?xf16> -> index
// CHECK: %[[MIS:.*]] = arith.remui %[[PTR]], %c16 : index
// CHECK: %[[ALIGNED:.*]] = arith.cmpi eq, %[[MIS]], %c0 : index
// CHECK: %[[PITCH:.*]] = arith.remui %{{.*}}, %c8 : index
// CHECK: %[[WHOLE:.*]] = arith.cmpi eq, %[[PITCH]], %c0 : index
// CHECK: %[[VEC:.*]] = arith.andi %[[ALIGNED]], %[[WHOLE]] : i1
// CHECK: %[[END:.*]] = arith.addi %{{.*}}, %c32_i32 : i32
// CHECK: %[[INSIDE:.*]] = arith.cmpi sle, %[[END]], %{{.*}} : i32
// Lane l of warp w: group 8 w + l / 4 owns k rows 4 (8 w + l / 4) + u,
// column chunk 8 (l mod 4).
// CHECK: %[[WARP:.*]] = arith.divui %{{.*}}, %c32_i32 : i32
// CHECK: %[[G:.*]] = arith.divui %{{.*}}, %c4_i32 : i32
// CHECK: %[[W8:.*]] = arith.muli %[[WARP]], %c8_i32 : i32
// CHECK: %[[GROUP:.*]] = arith.addi %[[W8]], %[[G]] : i32
// CHECK: %[[LANEK:.*]] = arith.muli %[[GROUP]], %c4_i32 : i32
// CHECK: %[[FAST:.*]] = arith.andi %[[INSIDE]], %[[VEC]] : i1
// CHECK: scf.if %[[FAST]] -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c256 iter_args(
// CHECK-COUNT-4: vector.load %{{.*}} {alignment = 16 : i64} : memref<{{[0-9]+}}xf16, strided<[1]>>, vector<8xf16>
// CHECK-NOT: vector.load
// CHECK: memref.load
// CHECK: arith.extf
// CHECK-COUNT-8: llvm.intr.fma
// CHECK: scf.yield
// The last, partial iteration: rows clamped to K, their sums kept out.
// CHECK: scf.if
// CHECK: arith.minsi
// CHECK: vector.load
// CHECK: llvm.intr.fma
// CHECK-NEXT: arith.select
// Shifted chunks where the buffer is aligned but the rows are not: two
// aligned blocks (the second the one holding the chunk's last element),
// selects, four funnel shifts a chunk.
// CHECK: } else {
// CHECK: %[[SHIFTOK:.*]] = arith.andi %[[INSIDE]], %[[ALIGNED]] : i1
// CHECK: scf.if %[[SHIFTOK]]
// CHECK: scf.for
// CHECK: %[[LAST:.*]] = arith.addi %{{.*}}, %c7 : index
// CHECK: %[[LASTMIS:.*]] = arith.remui %[[LAST]], %c8 : index
// CHECK: %[[SECOND:.*]] = arith.subi %[[LAST]], %[[LASTMIS]] : index
// CHECK: vector.load
// CHECK: vector.load %{{.*}}[%[[SECOND]]]
// CHECK: arith.select
// CHECK-COUNT-4: llvm.intr.fshr(%{{.*}}, %{{.*}}, %{{.*}}) : (i32, i32, i32) -> i32
// Else element by element, columns clamped to N.
// CHECK: } else {
// CHECK: scf.for
// CHECK: arith.minsi
// CHECK: memref.load
// The eight groups of a warp: xor 16, 8, 4; then lanes 0-3 stage the
// warp's 32 sums, a barrier, and the first 32 threads add the warps' in
// order and store.
// CHECK: gpu.shuffle  xor %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK: gpu.shuffle  xor %{{.*}}, %c8_i32, %c32_i32 : f32
// CHECK: gpu.shuffle  xor %{{.*}}, %c4_i32, %c32_i32 : f32
// CHECK-NOT: gpu.shuffle  xor %{{.*}}, %c2_i32
// CHECK: memref.view %{{.*}} to memref<256xf32, #gpu.address_space<workgroup>>
// CHECK: arith.cmpi slt, %{{.*}}, %c4_i32 : i32
// CHECK-COUNT-8: memref.store %{{.*}} : memref<256xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK: arith.cmpi slt, %{{.*}}, %c32_i32 : i32
// CHECK-COUNT-8: memref.load %{{.*}} : memref<256xf32, #gpu.address_space<workgroup>>
// CHECK: memref.store %{{.*}}, %{{.*}} : memref<?x?xf32>

// The PTX has the 16-byte loads of B, the funnel shifts and the shuffles.
// PTX: .visible .entry gemv_columns_gemm(
// PTX: ld.global.v4.b32
// PTX: shf.r.wrap.b32
// PTX: shfl.sync.bfly.b32
// PTX: bar.sync

func.func @gemv_columns(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [1, 32, 256], warps = [1, 8], instr = [1, 8, 1], stages = 1, smem = plain>}
  return
}
