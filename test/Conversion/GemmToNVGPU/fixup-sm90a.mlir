// RUN: gemm-opt --verify-roundtrip %s --split-input-file --convert-gemm-to-nvgpu="chip=sm_90a pack-unaligned=false" --canonicalize --cse | FileCheck %s
// RUN: rm -rf %t && gemm-opt %s --gemm-to-ptx="chip=sm_90a pack-unaligned=false output-dir=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/gemm_kernels.sm_90a.ptx

// `reduction = fixup`: the tiles of the grid's last partial wave (the tile
// count modulo the 132 SMs of sm_90a times the kernel's blocks per SM, one
// here) run in K slices, the others whole. The host sizes the tail, its
// slices (at most split_k, at most 132 / tail, at most ceil(K / BK); one
// slice splits nothing, and the tail is then 0) and
// grid.x = tiles - tail + tail * slices, allocates the workspace of
// max(tail, 1) x slices planes of BM x BN partial sums and one i32 flag a
// plane (zeroed where tail > 0: otherwise no tile reads one), and launches
// no reduction kernel.

// CHECK: module attributes {gemm.kernels = [{
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4, split_k = 4, reduction = fixup, load = tma>"
// CHECK-SAME: {element_type = "f32", kind = "memref", name = "workspace", rank = 4 : i64, shape = [-1, -1, 128, 256]},
// CHECK-SAME: {element_type = "i32", kind = "memref", name = "flags", rank = 1 : i64, shape = [-1]}]
// CHECK-SAME: split_k = {blocks_per_sm = 1 : i64, fill_blocks = 0 : i64, max = 4 : i64, min_k_per_slice = 64 : i64, reduction = "fixup", sms = 132 : i64, workspace_type = "f32"}
// CHECK-NOT: reduce

// CHECK-LABEL: func.func @tn(
// CHECK-DAG: %[[M:.*]] = memref.dim %arg2, %c0 : memref<?x?xf16>
// CHECK-DAG: %[[N:.*]] = memref.dim %arg2, %c1 : memref<?x?xf16>
// CHECK-DAG: %[[K:.*]] = memref.dim %arg0, %c1 : memref<?x?xf16>
// CHECK: %[[TILES:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK: %[[R0:.*]] = arith.remui %[[TILES]], %c132 : index
// CHECK: %[[NONE:.*]] = arith.cmpi eq, %[[R0]], %c0 : index
// CHECK: %[[R1:.*]] = arith.maxsi %[[R0]], %c1 : index
// CHECK: %[[FILL:.*]] = arith.divui %c132, %[[R1]] : index
// CHECK: %[[S0:.*]] = arith.minsi %[[FILL]], %c4 : index
// CHECK: %[[KT:.*]] = arith.divui %{{.*}}, %c64 : index
// CHECK: %[[S1:.*]] = arith.minsi %[[S0]], %[[KT]] : index
// CHECK: %[[S2:.*]] = arith.maxsi %[[S1]], %c1 : index
// CHECK: %[[SLICES:.*]] = arith.select %[[NONE]], %c1, %[[S2]] : index
// CHECK: %[[MANY0:.*]] = arith.cmpi sgt, %[[SLICES]], %c1 : index
// CHECK: %[[TAIL:.*]] = arith.select %[[MANY0]], %[[R0]], %c0 : index
// CHECK: %[[PLANES:.*]] = arith.maxsi %[[TAIL]], %c1 : index
// CHECK: %[[SPLIT:.*]] = arith.muli %[[TAIL]], %[[SLICES]] : index
// CHECK: %[[WHOLE:.*]] = arith.subi %[[TILES]], %[[TAIL]] : index
// CHECK: %[[GX:.*]] = arith.addi %[[WHOLE]], %[[SPLIT]] : index
// CHECK: %[[WS:.*]] = gpu.alloc  (%[[PLANES]], %[[SLICES]]) : memref<?x?x128x256xf32>
// CHECK: %[[FLAGS:.*]] = gpu.alloc  (%[[PLANES]]) : memref<?xi32>
// CHECK: %[[ANY:.*]] = arith.cmpi sgt, %[[TAIL]], %c0 : index
// CHECK-NEXT: scf.if %[[ANY]] {
// CHECK-NEXT: gpu.memset  %[[FLAGS]], %c0_i32 : memref<?xi32>, i32
// CHECK-NEXT: }
// CHECK: gpu.launch_func  @gemm_kernels::@tn_gemm blocks in (%[[GX]], %c1, %c1)
// CHECK-SAME: %[[WS]] : memref<?x?x128x256xf32>, %[[FLAGS]] : memref<?xi32>
// CHECK-NEXT: gpu.dealloc  %[[WS]]
// CHECK-NEXT: gpu.dealloc  %[[FLAGS]]

// The kernel: blocks before tiles - tail (the workspace's dimension 0)
// compute their tile whole; block b past them computes slice (b - first) %
// slices of tail tile (b - first) / slices, slices the workspace's
// dimension 1.
// CHECK-LABEL: gpu.func @tn_gemm(
// CHECK-SAME: %arg3: memref<?x?x128x256xf32>, %arg4: memref<?xi32>
// CHECK-SAME: workgroup({{.*}}, %[[LAST:.*]] : memref<1xi32, #gpu.address_space<workgroup>>)
// CHECK: %[[TAILD:.*]] = memref.dim %arg3, %c0 : memref<?x?x128x256xf32>
// CHECK: %[[SLD:.*]] = memref.dim %arg3, %c1 : memref<?x?x128x256xf32>
// CHECK: %[[FIRST:.*]] = arith.subi %{{.*}}, %{{.*}} : i32
// CHECK: %[[BID:.*]] = arith.index_cast %block_id_x : index to i32
// CHECK: %[[INTAIL:.*]] = arith.cmpi sle, %[[FIRST]], %[[BID]] : i32
// CHECK: %[[J:.*]] = arith.maxsi %{{.*}}, %c0_i32 : i32
// CHECK: %[[TT:.*]] = arith.divui %[[J]], %{{.*}} : i32
// CHECK: %[[TAILTILE:.*]] = arith.select %[[INTAIL]], %[[TT]], %c0_i32 : i32
// CHECK: %[[MANY:.*]] = arith.cmpi sgt, %{{.*}}, %c1_i32 : i32
// CHECK: %[[ISSPLIT:.*]] = arith.andi %[[INTAIL]], %[[MANY]] : i1

// After the main loop: a split tile's block stores its partial sums to its
// plane, fences, counts itself on the tile's flag (thread 0), and the last
// to count (the flag read slices - 1) resets the flag and adds every
// plane in slice order from zero before it alone runs the epilogue.
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: %[[FIX:.*]]:2 = scf.if %[[ISSPLIT]] -> (!llvm.struct<{{.*}}>, i1) {
// CHECK: memref.store %{{.*}}, %arg3[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<?x?x128x256xf32>
// CHECK: nvvm.memory.barrier <gpu>
// CHECK-NEXT: gpu.barrier
// CHECK: memref.atomic_rmw addi %c1_i32, %arg4[%{{.*}}] : (i32, memref<?xi32>) -> i32
// CHECK: memref.store %{{.*}}, %[[LAST]][%c0]
// CHECK: memref.store %c0_i32, %arg4[%{{.*}}] : memref<?xi32>
// CHECK: gpu.barrier
// CHECK: memref.load %[[LAST]][%c0]
// CHECK: scf.if %{{.*}} -> (!llvm.struct<{{.*}}>) {
// CHECK-NEXT: nvvm.memory.barrier <gpu>
// CHECK: scf.for %{{.*}} = %c0_i32 to %{{.*}} step %c1_i32 iter_args
// CHECK: memref.load %arg3[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<?x?x128x256xf32>
// CHECK-NEXT: arith.addf
// CHECK: } else {
// CHECK: scf.yield %{{.*}}, %true
// CHECK: scf.if %[[FIX]]#1 {

// PTX: membar.gl;
// PTX: atom.global.add.u32
// PTX: membar.gl;
func.func @tn(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4, split_k = 4, reduction = fixup, load = tma>}
  return
}

// -----

// Batched: the batch folds into the tile index (grid.z = 1), and the i32
// accumulators of i8 add with addi.
// CHECK-LABEL: func.func @batched_i8(
// CHECK: %[[BATCH:.*]] = memref.dim %arg2, %c0 : memref<?x?x?xi32>
// CHECK: %[[T:.*]] = arith.muli %{{.*}}, %[[BATCH]] : index
// CHECK: arith.remui %[[T]], %c132 : index
// CHECK: gpu.launch_func  @gemm_kernels::@batched_i8_gemm blocks in (%{{.*}}, %c1, %c1)
// CHECK-LABEL: gpu.func @batched_i8_gemm(
// CHECK-SAME: memref<?x?x128x256xi32>, %{{.*}}: memref<?xi32>
// CHECK: memref.atomic_rmw addi
// CHECK: memref.load %{{.*}} : memref<?x?x128x256xi32>
// CHECK-NEXT: arith.addi
func.func @batched_i8(%a: memref<?x?x?xi8>, %b: memref<?x?x?xi8>, %c: memref<?x?x?xi32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?x?xi8>, memref<?x?x?xi8>) outs(%c : memref<?x?x?xi32>) acc(i32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 256, 128], warps = [2, 1], instr = [64, 256, 32], stages = 4, split_k = 2, reduction = fixup, load = tma>}
  return
}
