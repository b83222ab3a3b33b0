// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu="chip=sm_90 dispatch=false" --canonicalize --cse | FileCheck %s
// RUN: rm -rf %t && gemm-opt %s --gemm-to-ptx="chip=sm_90 dispatch=false output-dir=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/gemm_kernels.sm_90.ptx

// gemv on mma.sync (instr = [8, 16, 16]) on a B stored K x N (nn, nt): no
// 16-byte chunk holds a column of B (a row of the instruction's A), so
// each lane loads, for each of the 8 k rows of its chunk, 2 P consecutive
// columns (P of the block's 16-row tiles, gemvMmaColumn): their pairs are
// rows l / 4 and l / 4 + 8 of the P tiles. A is read as on a K-contiguous B
// (one 16-byte chunk a lane and row). B takes these loads where the block's
// columns lie inside N and the rows allow them; 16-byte loads (four tiles)
// whose rows do not allow them (an odd N) the two aligned blocks holding
// them, shifted; else element loads with the columns clamped to N. A
// 16-byte loads, shifted rows or elements.

// One tile (16 columns): 4-byte loads, one column pair a k row. The host
// launches 8 x 16 tiles of 8 warps with their 8 x 8 x 16 f32 sums in
// dynamic shared memory, on A and B as stored.
// CHECK-LABEL: func.func @nn(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<?x?xf16>, %[[B:[a-z0-9]+]]: memref<?x?xf16>
// CHECK-NOT: gemm_pack
// CHECK: gpu.launch_func  @gemm_kernels::@nn_gemm blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%c256, %{{.*}}, %{{.*}})  dynamic_shared_memory_size %c4096_i32 args(%[[A]] : memref<?x?xf16>, %[[B]] : memref<?x?xf16>

// CHECK-LABEL: gpu.func @nn_gemm(
// Loads of B and of A: each of the 8 k rows of the lane's two chunks (BK =
// 64) a column pair, then A's two chunks; the pairs of k rows 0-3 are the
// first instruction's A (the even column rows l / 4, the odd l / 4 + 8).
// CHECK: scf.if %{{.*}} -> (vector<2x2xf32>) {
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %cst) -> (vector<2x2xf32>) {
// CHECK: %[[R0:.*]] = vector.load %{{.*}} {alignment = 4 : i64} : memref<{{[0-9]+}}xf16, strided<[1]>>, vector<2xf16>
// CHECK-NEXT: %[[E0:.*]] = vector.extract %[[R0]][0]
// CHECK-NEXT: %[[O0:.*]] = vector.extract %[[R0]][1]
// CHECK: %[[R1:.*]] = vector.load %{{.*}} vector<2xf16>
// CHECK-NEXT: %[[E1:.*]] = vector.extract %[[R1]][0]
// CHECK-NEXT: %[[O1:.*]] = vector.extract %[[R1]][1]
// CHECK-COUNT-14: vector.load %{{.*}} {alignment = 4 : i64} : memref<{{[0-9]+}}xf16, strided<[1]>>, vector<2xf16>
// CHECK-COUNT-2: vector.load %{{.*}} {alignment = 16 : i64} : memref<{{[0-9]+}}xf16, strided<[1]>>, vector<8xf16>
// CHECK-NOT: vector.load
// CHECK: vector.from_elements %[[E0]], %[[E1]], %[[O0]], %[[O1]], %{{.*}} : vector<4x2xf16>
// CHECK-NEXT: vector.from_elements {{.*}} : vector<2x2xf16>
// CHECK-NEXT: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-COUNT-3: nvgpu.mma.sync
// CHECK-NEXT: scf.yield
// The rest of K element by element: rows clamped to K, zero past it. Its
// first stretch goes to the warp whose turn is next after the whole
// stretches (slot (w + 8 - (whole / 64) mod 8) mod 8), not to warp 0.
// CHECK: %[[TURNS:.*]] = arith.divui %[[WHOLE:.*]], %c64_i32 : i32
// CHECK-NEXT: %[[TURN:.*]] = arith.remui %[[TURNS]], %c8_i32 : i32
// CHECK-NEXT: %[[W8:.*]] = arith.addi %{{.*}}, %c8_i32 : i32
// CHECK-NEXT: %[[D:.*]] = arith.subi %[[W8]], %[[TURN]] : i32
// CHECK-NEXT: %[[SLOT:.*]] = arith.remui %[[D]], %c8_i32 : i32
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[SLOT]], %c64_i32 : i32
// CHECK-NEXT: %[[START:.*]] = arith.addi %[[WHOLE]], %[[OFF]] : i32
// CHECK-NEXT: %[[STARTI:.*]] = arith.index_cast %[[START]] : i32 to index
// CHECK-NEXT: scf.for %{{.*}} = %[[STARTI]] to %{{.*}} step %c512
// CHECK: arith.minsi
// CHECK: memref.load
// CHECK: arith.select
// B's loads with A's rows shifted, then with A element by element.
// CHECK: } else {
// CHECK-NEXT: scf.if %{{.*}} -> (vector<2x2xf32>) {
// CHECK: scf.for
// CHECK-COUNT-16: vector.load %{{.*}} vector<2xf16>
// CHECK: llvm.intr.fshr
// CHECK: nvgpu.mma.sync
// CHECK: } else {
// CHECK-NEXT: scf.if %{{.*}} -> (vector<2x2xf32>) {
// CHECK: scf.for
// CHECK-COUNT-16: vector.load %{{.*}} vector<2xf16>
// CHECK-NOT: vector.load
// CHECK: nvgpu.mma.sync
// B element by element (columns clamped to N: an odd N, or the last
// block), A in 16-byte loads, then shifted; then both element by element.
// CHECK: } else {
// CHECK-NEXT: scf.if %{{.*}} -> (vector<2x2xf32>) {
// CHECK: scf.for
// CHECK-COUNT-32: memref.load
// CHECK-COUNT-2: vector.load %{{.*}} vector<8xf16>
// CHECK: nvgpu.mma.sync
// CHECK: } else {
// CHECK-NEXT: scf.if %{{.*}} -> (vector<2x2xf32>) {
// CHECK: scf.for
// CHECK-COUNT-32: memref.load
// CHECK: llvm.intr.fshr
// CHECK: nvgpu.mma.sync
// CHECK: } else {
// CHECK-NEXT: arith.muli
// CHECK-NEXT: arith.index_cast
// CHECK-NEXT: scf.for
// CHECK-NOT: vector.load
// CHECK: nvgpu.mma.sync
// The warps' sums at [warp][row of A][column]: the accumulator's rows are
// columns 2 (l / 4) and 2 (l / 4) + 1 of the tile.
// CHECK: %[[SMEM:.*]] = gpu.dynamic_shared_memory
// CHECK-NEXT: %[[VIEW:.*]] = memref.view %[[SMEM]][%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1024xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-4: memref.store %{{.*}}, %[[VIEW]]
// CHECK-NEXT: gpu.barrier
func.func @nn(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [8, 16, 64], warps = [1, 8], instr = [8, 16, 16], stages = 1>}
  return
}

// bf16 nt, two tiles of A (16 rows) and four of B (64 columns), one chunk a
// lane and row: 16-byte loads of B, each four tiles' column pairs of one k
// row (8 of them), then the two rows of A; 16 products an iteration on
// nvvm.mma.sync.
// CHECK-LABEL: gpu.func @nt_bf16_gemm(
// CHECK: scf.for
// CHECK-COUNT-10: vector.load %{{.*}} {alignment = 16 : i64} : memref<{{[0-9]+}}xbf16, strided<[1]>>, vector<8xbf16>
// CHECK-NOT: vector.load
// CHECK-COUNT-16: nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>
// CHECK: scf.yield {{.*}} : vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>
// After B's 16-byte loads with A's rows shifted and element by element:
// B's columns shifted (an odd N in a 16-byte aligned buffer), each k row's
// load the two aligned 16-byte blocks holding its columns, moved by the
// row's own offset (two selects on its whole words, then a funnel shift of
// each word), 8 k rows, then A's rows in 16-byte loads; then the same
// with A's rows shifted.
// CHECK: } else {
// CHECK: } else {
// CHECK: } else {
// CHECK-NEXT: scf.if
// CHECK: scf.for
// CHECK: %[[LO:.*]] = vector.load %{{.*}} {alignment = 16 : i64} : memref<{{[0-9]+}}xbf16, strided<[1]>>, vector<8xbf16>
// CHECK: vector.bitcast %[[LO]] : vector<8xbf16> to vector<4xi32>
// CHECK: %[[HI:.*]] = vector.load %{{.*}} {alignment = 16 : i64} : memref<{{[0-9]+}}xbf16, strided<[1]>>, vector<8xbf16>
// CHECK: vector.bitcast %[[HI]] : vector<8xbf16> to vector<4xi32>
// CHECK-COUNT-11: arith.select
// CHECK-COUNT-4: llvm.intr.fshr
// CHECK: vector.bitcast %{{.*}} : vector<4xi32> to vector<8xbf16>
// CHECK-COUNT-28: llvm.intr.fshr
// CHECK-COUNT-2: vector.load %{{.*}} {alignment = 16 : i64} : memref<{{[0-9]+}}xbf16, strided<[1]>>, vector<8xbf16>
// CHECK-NOT: llvm.intr.fshr
// CHECK: nvvm.mma.sync
// CHECK: } else {
// CHECK-NEXT: scf.if
// CHECK: scf.for
// CHECK-COUNT-8: llvm.intr.fshr
// CHECK: nvvm.mma.sync
// CHECK: memref.view %{{.*}} to memref<4096xf32, #gpu.address_space<workgroup>>
func.func @nt_bf16(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>) {
  gemm.matmul nt ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [16, 64, 32], warps = [1, 4], instr = [8, 16, 16], stages = 1>}
  return
}

// In the PTX, m16n8k16 with f32 accumulators, B's 4- and 16-byte loads and
// the funnel shifts of the shifted paths.
// PTX-LABEL: .entry nn_gemm(
// PTX: ld.global.v2.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-LABEL: .entry nt_bf16_gemm(
// PTX: ld.global.v4.b32
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX: shf.r.wrap.b32
