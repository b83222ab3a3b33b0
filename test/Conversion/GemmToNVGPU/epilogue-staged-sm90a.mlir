// RUN: gemm-opt --verify-roundtrip %s --split-input-file --convert-gemm-to-nvgpu="chip=sm_90a dispatch=false pack-unaligned=false" --canonicalize --cse | FileCheck %s
// (dispatch=false: the default 128 x 256 wgmma kernel alone, 256 threads.)

// NVIDIA kernels stage the epilogue through shared memory (Epilogue.cpp):
// after the main loop (all wgmma and cp.async groups drained) a barrier
// frees the A and B stages, each thread runs the epilogue on its
// accumulators and stores the results into a row-major tile of C's type
// reusing the dynamic shared memory at offset 0 (128 rows of 256 + 8
// elements: one 16-byte chunk of padding per row, 128 * 264 = 33792 f16),
// a second barrier, then the threads copy the tile to C. When C is 16-byte
// aligned at run time they copy 16-byte chunks, consecutive threads taking
// consecutive chunks of a row (up to 128 * 32 chunks / 256 threads = 16
// per thread: only the tile's rows inside C): one aligned vector.load + vector.store where the chunk lies
// inside C, element by element at the ragged right edge. When it is not,
// they copy single elements, consecutive threads consecutive elements of a
// row (up to 128 per thread), so that warp stores stay coalesced.

// CHECK-LABEL: gpu.func @staged_gemm(
// CHECK-SAME: %[[C:[a-z0-9]+]]: memref<?x?xf16>{{(, %[a-z0-9]+: !llvm.ptr)*}}) {{(workgroup\(.*\) )?}}kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// CHECK: %[[SMEM:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[TILE:.*]] = memref.view %[[SMEM]][%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<33792xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: gpu.barrier
// CHECK-NOT: memref.store {{.*}}, %[[C]][
// CHECK: %[[V:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK-NOT: memref.store {{.*}}, %[[C]][
// CHECK: memref.store %[[V]], %[[TILE]][%{{.*}}] : memref<33792xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.store {{.*}}, %[[C]][
// CHECK-NOT: vector.store
// CHECK: gpu.barrier
// C's run-time alignment: 16-byte base, row stride a multiple of 8 elements.
// CHECK-NEXT: %{{.*}}, %{{.*}}, %{{.*}}, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[C]]
// CHECK-NEXT: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[C]]
// CHECK-NEXT: %[[P16:.*]] = arith.remui %[[PTR]], %c16 : index
// CHECK-NEXT: %[[PALIGNED:.*]] = arith.cmpi eq, %[[P16]], %c0 : index
// CHECK-NEXT: %[[S8:.*]] = arith.remui %[[STRIDES]]#0, %c8 : index
// CHECK-NEXT: %[[SALIGNED:.*]] = arith.cmpi eq, %[[S8]], %c0 : index
// CHECK-NEXT: %[[ALIGNED:.*]] = arith.andi %[[PALIGNED]], %[[SALIGNED]] : i1
// The rows of the tile inside C: min(M - tile row, 128); chunks (32 per
// row) or elements (256 per row) of those rows, 256 threads.
// CHECK-NEXT: %[[LEFT:.*]] = arith.subi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[ROWS:.*]] = arith.minsi %[[LEFT]], %c128_i32 : i32
// CHECK-NEXT: scf.if %[[ALIGNED]] {
// CHECK-NEXT: %[[CHUNKS:.*]] = arith.muli %[[ROWS]], %c32_i32 : i32
// CHECK-NEXT: %[[CI0:.*]] = arith.addi %[[CHUNKS]], %c255_i32 : i32
// CHECK-NEXT: %[[CI:.*]] = arith.divui %[[CI0]], %c256_i32 : i32
// CHECK-NEXT: scf.for %{{.*}} = %c0_i32 to %[[CI]] step %c1_i32 : i32 {
// CHECK: scf.if
// CHECK: %[[END:.*]] = arith.addi %{{.*}}, %c8_i32 : i32
// CHECK-NEXT: %[[WHOLE:.*]] = arith.cmpi sle, %[[END]], %{{.*}} : i32
// CHECK-NEXT: scf.if %[[WHOLE]] {
// CHECK: %[[CHUNK:.*]] = vector.load %[[TILE]][%{{.*}}] {alignment = 16 : i64} : memref<33792xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK: vector.store %[[CHUNK]], %[[C]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xf16>, vector<8xf16>
// CHECK-NEXT: } else {
// CHECK-COUNT-8: memref.store %{{.*}}, %[[C]][%{{.*}}, %{{.*}}] : memref<?x?xf16>
// CHECK-NOT: vector.store
// CHECK: } else {
// CHECK-NEXT: %[[ELEMS:.*]] = arith.muli %[[ROWS]], %c256_i32 : i32
// CHECK-NEXT: %[[EI0:.*]] = arith.addi %[[ELEMS]], %c255_i32 : i32
// CHECK-NEXT: %[[EI:.*]] = arith.divui %[[EI0]], %c256_i32 : i32
// CHECK-NEXT: scf.for %{{.*}} = %c0_i32 to %[[EI]] step %c1_i32 : i32 {
// CHECK: memref.load %[[TILE]][%{{.*}}] : memref<33792xf16, #gpu.address_space<workgroup>>
// CHECK: memref.store %{{.*}}, %[[C]][%{{.*}}, %{{.*}}] : memref<?x?xf16>
// CHECK-NOT: memref.store
// CHECK-NOT: vector.store
// CHECK: gpu.return
func.func @staged(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}

// -----

// With a region, the raw accumulators are staged (f32, 128 rows of 256 + 4:
// 33280) and the region runs in the loop over C's chunks: each thread takes
// 4 chunks an iteration, reads each chunk's 8 accumulators and 8 bias
// values as one vector each, runs the region on each element, and only then stores
// the 4 chunks as 16-byte vectors; at the ragged edge (or C unaligned) chunk
// by chunk, element by element. The region is cloned 40 times (the two
// paths), not once per accumulator (128).
// CHECK-LABEL: gpu.func @bias_relu_gemm(
// CHECK-SAME: %[[C:[a-z0-9]+]]: memref<?x?xf16>, %[[BIAS:[a-z0-9]+]]: memref<?xf32>{{(, %[a-z0-9]+: !llvm.ptr)*}}) {{(workgroup\(.*\) )?}}kernel
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[TILE:.*]] = memref.view {{.*}} to memref<33280xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.load %[[BIAS]]
// CHECK-COUNT-128: memref.store %{{.*}}, %[[TILE]][%{{.*}}] : memref<33280xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.load %[[BIAS]]
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: scf.if
// CHECK: vector.load %[[TILE]][%{{.*}}] {alignment = 16 : i64} : memref<33280xf32, #gpu.address_space<workgroup>>, vector<8xf32>
// CHECK-NOT: vector.store
// CHECK-COUNT-32: arith.maximumf
// CHECK-NOT: vector.store
// CHECK: %[[V:.*]] = vector.from_elements {{.*}} : vector<8xf16>
// CHECK-COUNT-4: vector.store %{{.*}}, %[[C]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xf16>, vector<8xf16>
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.for
// CHECK-COUNT-8: memref.store %{{.*}}, %[[C]][%{{.*}}, %{{.*}}] : memref<?x?xf16>
// CHECK-NOT: arith.maximumf
// CHECK: gpu.return
func.func @bias_relu(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>, %bias: memref<?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
      extras(%bias : memref<?xf32>) acc(f32) attributes {broadcast = [#gemm.bcast<col>]} {
  ^bb0(%acc: f32, %cin: f16, %bi: f32):
    %0 = arith.addf %acc, %bi : f32
    %z = arith.constant 0.0 : f32
    %1 = arith.maximumf %0, %z : f32
    %2 = arith.truncf %1 : f32 to f16
    gemm.yield %2 : f16
  }
  return
}

// -----

// The extras the region reads come in with the chunk, before any of its
// math: the bias (by column) and a residual (full) as one 16-byte vector per
// chunk, their run-time alignment (16-byte base, rows a multiple of 8
// elements) joining C's in the test for the fast path. A residual whose
// inner stride is not 1 is read element by element.
// CHECK-LABEL: gpu.func @silu_residual_gemm(
// CHECK-SAME: %[[C:[a-z0-9]+]]: memref<?x?xf16>, %[[BIAS:[a-z0-9]+]]: memref<?xf16>, %[[RES:[a-z0-9]+]]: memref<?x?xf16>, %[[RS:[a-z0-9]+]]: memref<?x?xf16, strided<[?, 2]>>
// CHECK: %[[BPTR:.*]] = memref.extract_aligned_pointer_as_index %[[BIAS]]
// CHECK: %{{.*}}, %{{.*}}, %{{.*}}, %[[RSTRIDES:.*]]:2 = memref.extract_strided_metadata %[[RES]]
// CHECK: %[[RPTR:.*]] = memref.extract_aligned_pointer_as_index %[[RES]]
// CHECK: arith.remui %[[RSTRIDES]]#0, %c8 : index
// CHECK-NOT: memref.extract_aligned_pointer_as_index %[[RS]]
// CHECK: memref.extract_aligned_pointer_as_index %[[C]]
// CHECK: scf.for
// CHECK: scf.if
// CHECK-NOT: math.exp
// CHECK-COUNT-4: vector.load %[[BIAS]][%{{.*}}] {alignment = 16 : i64} : memref<?xf16>, vector<8xf16>
// CHECK-NOT: math.exp
// CHECK: vector.load %[[RES]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xf16>, vector<8xf16>
// CHECK-NOT: math.exp
// CHECK: memref.load %[[RS]]
// CHECK: math.exp
// CHECK-COUNT-4: vector.store %{{.*}}, %[[C]]
func.func @silu_residual(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>, %bias: memref<?xf16>, %res: memref<?x?xf16>, %rs: memref<?x?xf16, strided<[?, 2]>>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
      extras(%bias, %res, %rs : memref<?xf16>, memref<?x?xf16>, memref<?x?xf16, strided<[?, 2]>>) acc(f32) attributes {broadcast = [#gemm.bcast<col>, #gemm.bcast<full>, #gemm.bcast<full>]} {
  ^bb0(%acc: f32, %cin: f16, %bi: f16, %r: f16, %r2: f16):
    %b32 = arith.extf %bi : f16 to f32
    %t = arith.addf %acc, %b32 : f32
    %n = arith.negf %t : f32
    %e = math.exp %n : f32
    %one = arith.constant 1.0 : f32
    %d = arith.addf %e, %one : f32
    %s = arith.divf %t, %d : f32
    %r32 = arith.extf %r : f16 to f32
    %y = arith.addf %s, %r32 : f32
    %q32 = arith.extf %r2 : f16 to f32
    %z = arith.addf %y, %q32 : f32
    %h = arith.truncf %z : f32 to f16
    gemm.yield %h : f16
  }
  return
}

// -----

// An extra of index elements (no bit width to form a vector of) is read
// element by element in the fast path too.
// CHECK-LABEL: gpu.func @index_extra_gemm(
// CHECK-SAME: %[[C:[a-z0-9]+]]: memref<?x?xf16>, %[[IDX:[a-z0-9]+]]: memref<?x?xindex>
// CHECK-NOT: vector.load %[[IDX]]
// CHECK: memref.load %[[IDX]]
// CHECK: vector.store %{{.*}}, %[[C]]
// CHECK-NOT: vector.load %[[IDX]]
// CHECK: gpu.return
func.func @index_extra(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>, %e: memref<?x?xindex>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
      extras(%e : memref<?x?xindex>) acc(f32) attributes {broadcast = [#gemm.bcast<full>]} {
  ^bb0(%acc: f32, %cin: f16, %x: index):
    %i = arith.index_cast %x : index to i32
    %f = arith.sitofp %i : i32 to f32
    %s = arith.addf %acc, %f : f32
    %h = arith.truncf %s : f32 to f16
    gemm.yield %h : f16
  }
  return
}

// -----

// A row stride and offset known only at run time, unit inner stride: still
// staged, and the offset joins the run-time alignment test.
// CHECK-LABEL: gpu.func @row_strided_gemm(
// CHECK-SAME: %[[C:[a-z0-9]+]]: memref<?x?xf16, strided<[?, 1], offset: ?>>{{(, %[a-z0-9]+: !llvm.ptr)*}}) {{(workgroup\(.*\) )?}}kernel
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[TILE:.*]] = memref.view {{.*}} to memref<33792xf16, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK-NEXT: %{{.*}}, %[[OFFSET:.*]], %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[C]]
// CHECK: arith.remui %[[OFFSET]], %c8 : index
// CHECK: vector.load %[[TILE]]
// CHECK: vector.store %{{.*}}, %[[C]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xf16, strided<[?, 1], offset: ?>>, vector<8xf16>
func.func @row_strided(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16, strided<[?, 1], offset: ?>>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16, strided<[?, 1], offset: ?>>) acc(f32)
  return
}

// -----

// A non-unit (dynamic) inner stride rules out 16-byte chunks of C: no
// staging (no barrier or shared tile after the main loop, no vector
// stores); each thread stores its elements straight to C.
// CHECK-LABEL: gpu.func @strided_gemm(
// CHECK-SAME: %[[C:[a-z0-9]+]]: memref<?x?xf16, strided<[?, ?], offset: ?>>{{(, %[a-z0-9]+: !llvm.ptr)*}}) {{(workgroup\(.*\) )?}}kernel
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NOT: gpu.barrier
// CHECK-NOT: memref.view
// CHECK: %[[V:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK-NEXT: memref.store %[[V]], %[[C]][%{{.*}}, %{{.*}}] : memref<?x?xf16, strided<[?, ?], offset: ?>>
// CHECK-NOT: gpu.barrier
// CHECK-NOT: memref.view
// CHECK-NOT: vector.store
// CHECK-NOT: vector.load
// CHECK: gpu.return
func.func @strided(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16, strided<[?, ?], offset: ?>>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16, strided<[?, ?], offset: ?>>) acc(f32)
  return
}

// -----

// A persistent block keeps its stage ring (4 x 48 KiB, from 1 KiB in for
// the 1024-byte alignment) while it stages: C's 128 x 256 tile (67.6 KB)
// does not fit beside it, so the epilogue stages it in column slices of
// 64 (128 rows of 64 + 8: 9216 f16 at 197632 bytes, 216064 in all). Each
// slice: the compute warpgroups' barrier (named barrier 1, 256 threads),
// each thread's 32 elements of the slice (its accumulators 32s .. 32s + 31:
// columns 64s .. 64s + 63), the barrier, and the slice's 16-byte copies to
// C at column 64s of the tile. (The epilogue follows both versions of the
// main loop, each of which drains its MMAs.)
// CHECK-LABEL: gpu.func @sliced_gemm(
// CHECK-SAME: %[[C:[a-z0-9]+]]: memref<?x?xf16>{{(, %[a-z0-9]+: !llvm.ptr)*}}) workgroup
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK-NEXT: %[[TILE:.*]] = memref.view %{{.*}}[%c197632][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<9216xf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-32: memref.store %{{.*}}, %[[TILE]][%{{.*}}] : memref<9216xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.store %{{.*}}, %[[TILE]]
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK: vector.load %[[TILE]][%{{.*}}] {alignment = 16 : i64} : memref<9216xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK: vector.store %{{.*}}, %[[C]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xf16>, vector<8xf16>
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK-COUNT-32: memref.store %{{.*}}, %[[TILE]][%{{.*}}] : memref<9216xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.store %{{.*}}, %[[TILE]]
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK: %[[COL1:.*]] = arith.addi %{{.*}}, %c64_i32 : i32
// CHECK: vector.store %{{.*}}, %[[C]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xf16>, vector<8xf16>
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK-COUNT-32: memref.store %{{.*}}, %[[TILE]][%{{.*}}] : memref<9216xf16, #gpu.address_space<workgroup>>
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK: arith.addi %{{.*}}, %c128_i32 : i32
// CHECK: vector.store %{{.*}}, %[[C]]
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK-COUNT-32: memref.store %{{.*}}, %[[TILE]][%{{.*}}] : memref<9216xf16, #gpu.address_space<workgroup>>
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK: arith.addi %{{.*}}, %c192_i32 : i32
// CHECK: vector.store %{{.*}}, %[[C]]
// CHECK-NOT: memref.store %{{.*}}, %[[TILE]]
// CHECK: gpu.return
func.func @sliced(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4, group = 8, load = tma_ws, schedule = persistent>}
  return
}

// -----

// With a region the slices hold raw accumulators (f32, 128 rows of 32 + 4:
// 4608 at the same offset), eight of them, and the region runs in the loop
// over each slice's chunks: sliced accumulators come before a whole tile
// of C's values (which would fit beside three stages, not four), whose
// region would run on all 128 accumulators a thread in registers.
// CHECK-LABEL: gpu.func @sliced_bias_relu_gemm(
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK-NEXT: %[[TILE:.*]] = memref.view %{{.*}}[%c197632][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4608xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-16: memref.store %{{.*}}, %[[TILE]][%{{.*}}] : memref<4608xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.store %{{.*}}, %[[TILE]]
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK: vector.load %[[TILE]][%{{.*}}] {alignment = 16 : i64} : memref<4608xf32, #gpu.address_space<workgroup>>, vector<8xf32>
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK-COUNT-16: memref.store %{{.*}}, %[[TILE]][%{{.*}}] : memref<4608xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.store %{{.*}}, %[[TILE]]
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK: vector.load %[[TILE]][%{{.*}}] {alignment = 16 : i64} : memref<4608xf32, #gpu.address_space<workgroup>>, vector<8xf32>
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK-COUNT-16: memref.store %{{.*}}, %[[TILE]][%{{.*}}] : memref<4608xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.store %{{.*}}, %[[TILE]]
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK: vector.load %[[TILE]][%{{.*}}] {alignment = 16 : i64} : memref<4608xf32, #gpu.address_space<workgroup>>, vector<8xf32>
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK-COUNT-16: memref.store %{{.*}}, %[[TILE]][%{{.*}}] : memref<4608xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.store %{{.*}}, %[[TILE]]
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK: vector.load %[[TILE]][%{{.*}}] {alignment = 16 : i64} : memref<4608xf32, #gpu.address_space<workgroup>>, vector<8xf32>
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK-COUNT-16: memref.store %{{.*}}, %[[TILE]][%{{.*}}] : memref<4608xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.store %{{.*}}, %[[TILE]]
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK: vector.load %[[TILE]][%{{.*}}] {alignment = 16 : i64} : memref<4608xf32, #gpu.address_space<workgroup>>, vector<8xf32>
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK-COUNT-16: memref.store %{{.*}}, %[[TILE]][%{{.*}}] : memref<4608xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.store %{{.*}}, %[[TILE]]
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK: vector.load %[[TILE]][%{{.*}}] {alignment = 16 : i64} : memref<4608xf32, #gpu.address_space<workgroup>>, vector<8xf32>
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK-COUNT-16: memref.store %{{.*}}, %[[TILE]][%{{.*}}] : memref<4608xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.store %{{.*}}, %[[TILE]]
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK: vector.load %[[TILE]][%{{.*}}] {alignment = 16 : i64} : memref<4608xf32, #gpu.address_space<workgroup>>, vector<8xf32>
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK-COUNT-16: memref.store %{{.*}}, %[[TILE]][%{{.*}}] : memref<4608xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.store %{{.*}}, %[[TILE]]
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK: vector.load %[[TILE]][%{{.*}}] {alignment = 16 : i64} : memref<4608xf32, #gpu.address_space<workgroup>>, vector<8xf32>
// CHECK-NOT: memref.store %{{.*}}, %[[TILE]]
// CHECK: gpu.return
func.func @sliced_bias_relu(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>, %bias: memref<?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
      extras(%bias : memref<?xf32>) acc(f32) attributes {broadcast = [#gemm.bcast<col>], config = #gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4, group = 8, load = tma_ws, schedule = persistent>} {
  ^bb0(%acc: f32, %cin: f16, %bi: f32):
    %0 = arith.addf %acc, %bi : f32
    %z = arith.constant 0.0 : f32
    %1 = arith.maximumf %0, %z : f32
    %2 = arith.truncf %1 : f32 to f16
    gemm.yield %2 : f16
  }
  return
}

// -----

// Teams (`schedule = pingpong`, one warpgroup a team, 128 x 128 tiles, five
// stages: 160 KiB): a region's accumulators of a team's tile (67.6 KB of
// f32) do not fit beside the ring, so they go in two slices of 64 columns
// (128 rows of 64 + 4: 8704 f32 at 164864 bytes); the barriers are the
// team's (named barrier 1 + team, 128 threads), and each thread stages its
// 64 accumulators of a slice.
// CHECK-LABEL: gpu.func @teams_sliced_bias_relu_gemm(
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.barrier id = %[[TEAMBAR:.*]] number_of_threads = %c128_i32
// CHECK-NEXT: %[[TILE:.*]] = memref.view %{{.*}}[%c164864][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8704xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-64: memref.store %{{.*}}, %[[TILE]][%{{.*}}] : memref<8704xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.store %{{.*}}, %[[TILE]]
// CHECK: nvvm.barrier id = %[[TEAMBAR]] number_of_threads = %c128_i32
// CHECK: vector.load %[[TILE]]
// CHECK: nvvm.barrier id = %[[TEAMBAR]] number_of_threads = %c128_i32
// CHECK-COUNT-64: memref.store %{{.*}}, %[[TILE]][%{{.*}}] : memref<8704xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.store %{{.*}}, %[[TILE]]
// CHECK: nvvm.barrier id = %[[TEAMBAR]] number_of_threads = %c128_i32
// CHECK: arith.addi %{{.*}}, %c64_i32 : i32
// CHECK: vector.load %[[TILE]]
// CHECK-NOT: memref.store %{{.*}}, %[[TILE]]
// CHECK: gpu.return
func.func @teams_sliced_bias_relu(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>, %bias: memref<?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
      extras(%bias : memref<?xf32>) acc(f32) attributes {broadcast = [#gemm.bcast<col>], config = #gemm.config<kind = wgmma, block = [128, 128, 64], warps = [1, 1], instr = [64, 128, 16], stages = 5, group = 8, load = tma_ws, schedule = pingpong>} {
  ^bb0(%acc: f32, %cin: f16, %bi: f32):
    %0 = arith.addf %acc, %bi : f32
    %z = arith.constant 0.0 : f32
    %1 = arith.maximumf %0, %z : f32
    %2 = arith.truncf %1 : f32 to f16
    gemm.yield %2 : f16
  }
  return
}

// -----

// A tile width that is not a power of two: 192 columns halve to slices of
// 48 (128 rows of 48 + 8: 7168 f16 at 205824 bytes beside five stages),
// four of them at columns 0, 48, 96 and 144, 24 elements a thread each.
// CHECK-LABEL: gpu.func @sliced192_gemm(
// CHECK: %[[TILE:.*]] = memref.view %{{.*}}[%c205824][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<7168xf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-24: memref.store %{{.*}}, %[[TILE]][%{{.*}}] : memref<7168xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.store %{{.*}}, %[[TILE]]
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK: vector.load %[[TILE]]
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK-COUNT-24: memref.store %{{.*}}, %[[TILE]][%{{.*}}] : memref<7168xf16, #gpu.address_space<workgroup>>
// CHECK: arith.addi %{{.*}}, %c48_i32 : i32
// CHECK: vector.load %[[TILE]]
// CHECK-COUNT-24: memref.store %{{.*}}, %[[TILE]][%{{.*}}] : memref<7168xf16, #gpu.address_space<workgroup>>
// CHECK: arith.addi %{{.*}}, %c96_i32 : i32
// CHECK-COUNT-24: memref.store %{{.*}}, %[[TILE]][%{{.*}}] : memref<7168xf16, #gpu.address_space<workgroup>>
// CHECK: arith.addi %{{.*}}, %c144_i32 : i32
// CHECK-NOT: memref.store %{{.*}}, %[[TILE]]
// CHECK: gpu.return
func.func @sliced192(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 192, 64], warps = [2, 1], instr = [64, 192, 16], stages = 5, group = 8, load = tma_ws, schedule = persistent>}
  return
}
