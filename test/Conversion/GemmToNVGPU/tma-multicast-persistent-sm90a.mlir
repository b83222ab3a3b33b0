// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu="chip=sm_90a dispatch=false" | FileCheck %s
// RUN: rm -rf %t && gemm-opt %s --gemm-to-ptx="chip=sm_90a dispatch=false output-dir=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/gemm_kernels.sm_90a.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json

// Persistent blocks in multicast pairs (`schedule = persistent,
// multicast = 2`): the grid is whole clusters, at most the SMs (132 on
// sm_90a, even), so that the blocks of a pair walk tiles 2i and 2i + 1 of
// the walk at once. Both walk as many tiles as the pair's first block; a
// second block past the last tile computes a copy of it (clamped) and
// stores nothing. Whether the pair shares B changes from tile to tile, so
// the empty barriers count both blocks' warpgroups always (4) and every
// release also arrives on the other block's barrier.

// MANIFEST: "grid": {
// MANIFEST-NEXT: "batched": false,
// MANIFEST-NEXT: "cluster_x": 2,
// MANIFEST-NEXT: "persistent": true,

// CHECK-LABEL: func.func @tn(
// CHECK: %[[PAIRS:.*]] = arith.divui %{{.*}}, %c2{{(_[0-9]+)?}} : index
// CHECK: %[[GX:.*]] = arith.muli %[[PAIRS]], %c2{{.*}} : index
// CHECK: %[[GRID:.*]] = arith.minsi %[[GX]], %c132 : index
// CHECK: gpu.launch_func @gemm_kernels::@tn_gemm blocks in (%[[GRID]],

// CHECK-LABEL: gpu.func @tn_gemm(
// CHECK-SAME: nvvm.cluster_dim = array<i32: 2, 1, 1>
// CHECK: nvvm.mbarrier.init %{{.*}}, %c4_i32 : !llvm.ptr<3>, i32
// CHECK: nvvm.fence.mbarrier.init
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}

// The walk: the pair's first block (bid - bid mod 2) sets the tile count;
// the k-tiles of all of them bound the releases.
// CHECK: %[[BID:.*]] = arith.index_cast %block_id_x : index to i32
// CHECK: %[[GRIDX:.*]] = arith.index_cast %grid_dim_x : index to i32
// CHECK: %[[TOTAL:.*]] = arith.muli
// CHECK: %[[ODD:.*]] = arith.remui %[[BID]], %c2_i32 : i32
// CHECK: %[[LEAD:.*]] = arith.subi %[[BID]], %[[ODD]] : i32
// CHECK: %[[LEFT:.*]] = arith.subi %[[TOTAL]], %[[LEAD]] : i32
// CHECK: %[[ANY:.*]] = arith.cmpi slt, %[[LEAD]], %[[TOTAL]] : i32
// CHECK: %[[COUNT:.*]] = arith.select %[[ANY]], %{{.*}}, %c0_i32{{.*}} : i32
// CHECK: %[[KEND:.*]] = arith.muli %[[COUNT]], %{{.*}} : i32

// The producer's tile: clamped to the last for the origin; the pair from
// the walk's own index.
// CHECK: nvvm.setmaxregister decrease 40
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[COUNT]]
// CHECK: %[[STEP:.*]] = arith.muli %[[J]], %[[GRIDX]] : i32
// CHECK: %[[WALKED:.*]] = arith.addi %[[BID]], %[[STEP]] : i32
// CHECK: %[[LAST:.*]] = arith.subi %[[TOTAL]], %c1_i32{{.*}} : i32
// CHECK: arith.minsi %[[WALKED]], %[[LAST]] : i32
// CHECK: %[[PARTNER:.*]] = arith.xori %[[WALKED]], %c1_i32{{.*}} : i32
// CHECK: %[[RANK:.*]] = arith.remui %[[WALKED]], %c2_i32{{.*}} : i32
// CHECK: %[[VALID:.*]] = arith.cmpi slt, %[[WALKED]], %[[TOTAL]] : i32
// CHECK: %[[SAMECOL:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK: %[[PVALID:.*]] = arith.cmpi slt, %[[PARTNER]], %[[TOTAL]] : i32
// CHECK: %[[BOTH:.*]] = arith.andi %[[VALID]], %[[PVALID]] : i1
// CHECK: %[[SHARE:.*]] = arith.andi %[[BOTH]], %[[SAMECOL]] : i1
// CHECK: scf.if %[[SHARE]] {
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}} multicast_mask = %c3_i16
// CHECK: } else {

// A consumer releases a stage the producers refill (its k-tile over the
// walk + stages < the walk's k-tiles) on both blocks' barriers, shared or
// not.
// CHECK: nvvm.setmaxregister increase 232
// CHECK: %[[CSTEP:.*]] = arith.muli %{{.*}}, %[[GRIDX]] : i32
// CHECK: %[[CWALKED:.*]] = arith.addi %[[BID]], %[[CSTEP]] : i32
// CHECK: %[[CVALID:.*]] = arith.cmpi slt, %[[CWALKED]], %[[TOTAL]] : i32
// CHECK: %[[SUM:.*]] = arith.addi %{{.*}}, %c4_i32{{.*}} : i32
// CHECK: arith.cmpi slt, %[[SUM]], %[[KEND]] : i32
// CHECK: nvvm.mbarrier.arrive %[[OWN:.*]] : !llvm.ptr<3>
// CHECK-NEXT: %c1_i32{{.*}} = arith.constant 1 : i32
// CHECK-NEXT: %[[OTHER:.*]] = arith.subi %c1_i32{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[REMOTE:.*]] = nvvm.mapa %[[OWN]], %[[OTHER]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT: nvvm.mbarrier.arrive %[[REMOTE]] : !llvm.ptr<7>

// After the drain the last stages go back on the same condition; the
// epilogue runs for a tile inside the walk only.
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: %[[LASTSUM:.*]] = arith.addi %{{.*}}, %c4_i32{{.*}} : i32
// CHECK: arith.cmpi slt, %[[LASTSUM]], %[[KEND]] : i32
// CHECK: nvvm.mapa
// CHECK: scf.if %[[CVALID]] {
// CHECK-NEXT: %c1_i32{{.*}} = arith.constant 1 : i32
// CHECK-NEXT: %c256_i32{{.*}} = arith.constant 256 : i32
// CHECK-NEXT: nvvm.barrier id = %c1_i32{{.*}} number_of_threads = %c256_i32

// PTX: .explicitcluster
// PTX: .reqnctapercluster 2, 1, 1
// PTX: mapa.shared::cluster.u64
// PTX: mbarrier.arrive.shared::cluster.b64
func.func @tn(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4, group = 8, load = tma_ws, schedule = persistent, multicast = 2>}
  return
}

// Batched: the walk crosses batches, so the pair also checks that the
// partner's tile lies in the same batch.
// CHECK-LABEL: gpu.func @batched_gemm(
// CHECK: %[[PB:.*]] = arith.xori %{{.*}}, %c1_i32{{.*}} : i32
// CHECK: arith.remui %[[PB]], %[[PER:.*]] : i32
// CHECK: %[[OBATCH:.*]] = arith.divui %{{.*}}, %[[PER]] : i32
// CHECK-NEXT: %[[PBATCH:.*]] = arith.divui %[[PB]], %[[PER]] : i32
// CHECK-NEXT: arith.cmpi eq, %[[PBATCH]], %[[OBATCH]] : i32
func.func @batched(%a: memref<?x?x?xbf16>, %b: memref<?x?x?xbf16>, %c: memref<?x?x?xbf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?x?xbf16>, memref<?x?x?xbf16>) outs(%c : memref<?x?x?xbf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4, group = 8, load = tma_ws, schedule = persistent, multicast = 2>}
  return
}
