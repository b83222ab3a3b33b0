// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu="chip=sm_90 dispatch=false" --canonicalize --cse | FileCheck %s
// RUN: rm -rf %t && gemm-opt %s --gemm-to-ptx="chip=sm_90 dispatch=false output-dir=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/gemm_kernels.sm_90.ptx

// `kind = gemv` on mma.sync (instr = [8, 16, 16]): like the FMA gemv, no
// shared-memory pipeline, B streamed through registers and read once; the
// products go to mma.sync m16n8k16 with the operands swapped (16 rows of B
// as the instruction's A, 8 rows of A as its B). The block's warps split K,
// each lane loading a 16-byte chunk of each of its rows (rows l / 4 and
// l / 4 + 8 of B, row l / 4 of A) per 32 k, which feed two instructions.
// Six paths, chosen at run time: each operand in 16-byte loads, else as
// shifted rows (each lane funnel-shifts the two aligned blocks holding its
// chunk by its row's own offset: an odd K, read in place), else element by
// element; B's choice first, A's within it. Only the first path loads its
// chunks of all BK / 32 stretches at once; the others, and the last stretches
// of every path, go a 32-element stretch an iteration of an inner loop (ptxas
// gives the kernel the registers of its hungriest path). Then the warps' sums meet in shared
// memory, added in warp order, and each thread runs the epilogue on one
// element of the 8 x 16 tile.

// The host launches one block per 8 x 16 tile of C (8 warps), with the
// warps' 8 x 8 x 16 f32 sums in dynamic shared memory, on A and B as stored.
// CHECK-LABEL: func.func @gemv_mma(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<?x?xf16>, %[[B:[a-z0-9]+]]: memref<?x?xf16>
// CHECK-NOT: gemm_pack
// CHECK: gpu.launch_func  @gemm_kernels::@gemv_mma_gemm blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%c256, %{{.*}}, %{{.*}})  dynamic_shared_memory_size %c4096_i32 args(%[[A]] : memref<?x?xf16>, %[[B]] : memref<?x?xf16>

// CHECK-LABEL: gpu.func @gemv_mma_gemm(
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// The shifted path stops where a chunk's second block would pass K.
// CHECK: %[[SPAN:.*]] = arith.subi %{{.*}}, %c8_i32 : i32
// CHECK: arith.maxsi %[[SPAN]], %c0_i32 : i32
// 16-byte loads of both: warp w starts at w x 64 and steps over 8 x 64;
// two rows of B, then the row of A, two chunks each (BK = 64), then four
// instructions (two a chunk).
// CHECK: scf.if %{{.*}} -> (vector<2x2xf32>) {
// CHECK: %[[W:.*]] = arith.muli %{{.*}}, %c64_i32 : i32
// CHECK-NEXT: %[[START:.*]] = arith.index_cast %[[W]]
// CHECK-NEXT: scf.for %{{.*}} = %[[START]] to %{{.*}} step %c512 iter_args(%{{.*}} = %cst) -> (vector<2x2xf32>) {
// CHECK-COUNT-4: vector.load %{{.*}} {alignment = 16 : i64} : memref<{{[0-9]+}}xf16, strided<[1]>>, vector<8xf16>
// CHECK-COUNT-2: vector.load %{{.*}} {alignment = 16 : i64} : memref<{{[0-9]+}}xf16, strided<[1]>>, vector<8xf16>
// CHECK-NOT: vector.load
// CHECK: vector.from_elements {{.*}} : vector<4x2xf16>
// CHECK-NEXT: vector.from_elements {{.*}} : vector<2x2xf16>
// CHECK-NEXT: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-COUNT-3: nvgpu.mma.sync
// CHECK-NEXT: scf.yield
// The rest element by element, a stretch at a time: clamped to K, zero
// past it.
// CHECK: scf.for
// CHECK: scf.for %{{.*}} step %c32
// CHECK: arith.minsi
// CHECK: memref.load
// CHECK: arith.select
// B in 16-byte loads, A's rows shifted, a stretch an inner iteration: the
// two rows of B, then A's two aligned blocks and four funnel shifts; then A
// element by element.
// CHECK: } else {
// CHECK-NEXT: scf.if %{{.*}} -> (vector<2x2xf32>) {
// CHECK: scf.for
// CHECK: %[[END:.*]] = arith.addi %{{.*}}, %c64_i32 : i32
// CHECK: scf.for %{{.*}} to %{{.*}} step %c32
// CHECK-COUNT-2: vector.load %{{.*}} vector<8xf16>
// CHECK-COUNT-2: vector.bitcast %{{.*}} : vector<8xf16> to vector<4xi32>
// CHECK: arith.select
// CHECK-COUNT-4: llvm.intr.fshr(%{{.*}}, %{{.*}}, %{{.*}}) : (i32, i32, i32) -> i32
// CHECK-NEXT: vector.from_elements
// CHECK-NEXT: vector.bitcast %{{.*}} : vector<4xi32> to vector<8xf16>
// CHECK-NOT: llvm.intr.fshr
// CHECK: nvgpu.mma.sync
// CHECK: } else {
// CHECK-NEXT: scf.if %{{.*}} -> (vector<2x2xf32>) {
// CHECK: scf.for
// CHECK: scf.for %{{.*}} to %{{.*}} step %c32
// CHECK-COUNT-2: vector.load %{{.*}} vector<8xf16>
// CHECK-NOT: vector.load
// CHECK: nvgpu.mma.sync
// Both operands' rows shifted (an odd K); then B shifted with A element by
// element.
// CHECK: } else {
// CHECK-NEXT: scf.if %{{.*}} -> (vector<2x2xf32>) {
// CHECK: scf.for
// CHECK: scf.for %{{.*}} step %c32
// CHECK-COUNT-12: llvm.intr.fshr
// CHECK-NOT: llvm.intr.fshr
// CHECK: nvgpu.mma.sync
// CHECK: } else {
// CHECK-NEXT: scf.if %{{.*}} -> (vector<2x2xf32>) {
// CHECK: scf.for
// CHECK: scf.for %{{.*}} step %c32
// CHECK-COUNT-8: llvm.intr.fshr
// CHECK-NOT: llvm.intr.fshr
// CHECK: nvgpu.mma.sync
// Element loads of both over the whole of K.
// CHECK: } else {
// CHECK-NEXT: arith.muli
// CHECK-NEXT: arith.index_cast
// CHECK-NEXT: scf.for
// CHECK-NOT: vector.load
// CHECK: nvgpu.mma.sync
// The warps' sums: each lane stores its four accumulators at [warp][row of
// A][row of B], then threads 0..127 add the eight warps' in order and store.
// CHECK: %[[SMEM:.*]] = gpu.dynamic_shared_memory
// CHECK-NEXT: %[[VIEW:.*]] = memref.view %[[SMEM]][%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1024xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-4: memref.store %{{.*}}, %[[VIEW]]
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi slt, %{{.*}}, %c128_i32 : i32
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-COUNT-7: arith.addf
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x?xf16>
func.func @gemv_mma(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [8, 16, 64], warps = [1, 8], instr = [8, 16, 16], stages = 1>}
  return
}

// bf16, two tiles of A (16 rows) and of B (32 rows), one chunk a lane and
// row: the four products of each instruction step go to nvvm.mma.sync on
// 32-bit registers (nvgpu.mma.sync has no bf16 form).
// CHECK-LABEL: gpu.func @gemv_mma_bf16_gemm(
// CHECK: scf.for
// CHECK-COUNT-6: vector.load %{{.*}} vector<8xbf16>
// CHECK-NOT: vector.load
// CHECK-COUNT-8: nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>
// CHECK: scf.yield {{.*}} : vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>
// CHECK: memref.view %{{.*}} to memref<2048xf32, #gpu.address_space<workgroup>>
func.func @gemv_mma_bf16(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>) {
  gemm.matmul tt ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [16, 32, 32], warps = [1, 4], instr = [8, 16, 16], stages = 1>}
  return
}

// stages = 2 (a K-contiguous B): the path of 16-byte loads of both operands
// double-buffers them in registers. Warp w's loop runs one iteration more
// than its stretches of [0, whole): the vectors start as zeros, each
// iteration loads the next stretch (the last, at or past `whole`, reloads
// its predecessor's: k0 - 512) and multiplies the vectors the iteration
// before loaded, so the loads fly during the products. A warp without
// stretches runs no iteration. The other paths are those of stages = 1.
// CHECK-LABEL: gpu.func @gemv_mma_pipelined_gemm(
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8xf16>
// K rounded down to BK: the end of the whole stretches.
// CHECK: %[[REM:.*]] = arith.remui %[[KK:.*]], %c64_i32 : i32
// CHECK-NEXT: %[[WHOLE:.*]] = arith.subi %[[KK]], %[[REM]] : i32
// CHECK: scf.if %{{.*}} -> (vector<2x2xf32>) {
// CHECK-NEXT: %[[START:.*]] = arith.muli %{{.*}}, %c64_i32 : i32
// CHECK-NEXT: %[[PAST:.*]] = arith.addi %[[WHOLE]], %c512_i32 : i32
// CHECK-NEXT: %[[ANY:.*]] = arith.cmpi slt, %[[START]], %[[WHOLE]] : i32
// CHECK-NEXT: %[[UPPER:.*]] = arith.select %[[ANY]], %[[PAST]], %[[START]] : i32
// CHECK-NEXT: %[[UPPERI:.*]] = arith.index_cast %[[UPPER]]
// CHECK-NEXT: %[[STARTI:.*]] = arith.index_cast %[[START]]
// CHECK-NEXT: scf.for %[[K:.*]] = %[[STARTI]] to %[[UPPERI]] step %c512 iter_args(%[[ACC:.*]] = %{{.*}}, %[[B0:.*]] = %[[ZERO]], %{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]], %[[A0:.*]] = %[[ZERO]], %{{.*}} = %[[ZERO]]) -> (vector<2x2xf32>, vector<8xf16>, vector<8xf16>, vector<8xf16>, vector<8xf16>, vector<8xf16>, vector<8xf16>) {
// CHECK-NEXT: %[[KI:.*]] = arith.index_cast %[[K]] : index to i32
// CHECK-NEXT: %[[BACK:.*]] = arith.subi %[[KI]], %c512_i32 : i32
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi slt, %[[KI]], %[[WHOLE]] : i32
// CHECK-NEXT: arith.select %[[IN]], %[[KI]], %[[BACK]] : i32
// CHECK: %[[L0:.*]] = vector.load %{{.*}} {alignment = 16 : i64} : memref<{{[0-9]+}}xf16, strided<[1]>>, vector<8xf16>
// CHECK-COUNT-5: vector.load %{{.*}} {alignment = 16 : i64} : memref<{{[0-9]+}}xf16, strided<[1]>>, vector<8xf16>
// CHECK-NOT: vector.load
// CHECK: vector.extract %[[B0]][0] : f16 from vector<8xf16>
// CHECK: vector.extract %[[A0]][0] : f16 from vector<8xf16>
// CHECK: nvgpu.mma.sync(%{{.*}}, %{{.*}}, %[[ACC]]) {mmaShape = [16, 8, 16]}
// CHECK-COUNT-3: nvgpu.mma.sync
// CHECK-NEXT: scf.yield %{{.*}}, %[[L0]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : vector<2x2xf32>, vector<8xf16>, vector<8xf16>, vector<8xf16>, vector<8xf16>, vector<8xf16>, vector<8xf16>
// The last stretches element by element, as with stages = 1.
// CHECK: scf.for
// CHECK: scf.for %{{.*}} step %c32
// CHECK: memref.load
func.func @gemv_mma_pipelined(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [8, 16, 64], warps = [1, 8], instr = [8, 16, 16], stages = 2>}
  return
}

// In the PTX, m16n8k16 with f32 accumulators, the funnel shifts of the
// shifted path, and the barrier before the warps' sums are added.
// PTX-LABEL: .entry gemv_mma_gemm(
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX: shf.r.wrap.b32
// PTX: bar.sync {{.*}}0;
// PTX-LABEL: .entry gemv_mma_bf16_gemm(
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// With stages = 2 the loop's loads stay ahead of its products in the PTX
// (LLVM does not fold them back into loads at the top of the loop: the
// loop's first vectors are zeros, not loads).
// PTX-LABEL: .entry gemv_mma_pipelined_gemm(
// PTX: add.s32 {{.*}}, -512;
// PTX-COUNT-6: ld.global.v4.b32
// PTX-NOT: ld.global
// PTX-COUNT-4: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-NOT: ld.global
// PTX: @%p{{[0-9]+}} bra
