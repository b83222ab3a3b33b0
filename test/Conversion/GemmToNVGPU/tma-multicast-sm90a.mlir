// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu="chip=sm_90a dispatch=false" | FileCheck %s
// RUN: rm -rf %t && gemm-opt %s --gemm-to-ptx="chip=sm_90a dispatch=false output-dir=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/gemm_kernels.sm_90a.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json

// `multicast = 2`: clusters of two consecutive blocks (compiled in as
// nvvm.cluster_dim, PTX .reqnctapercluster) whose tiles share B's tile
// when they lie in one tile column. The host rounds grid.x up to whole
// clusters and the manifest says so (grid.cluster_x); B's tensor map box
// is half the tile (128 of 256 rows), so that block r loads part r.

// MANIFEST: "grid": {
// MANIFEST-NEXT: "batched": false,
// MANIFEST-NEXT: "cluster_x": 2,
// MANIFEST: "tensor_maps": [
// MANIFEST: "box": [
// MANIFEST-NEXT: 128,
// MANIFEST-NEXT: 64
// MANIFEST: "operand": "A"
// MANIFEST: "box": [
// MANIFEST-NEXT: 128,
// MANIFEST-NEXT: 64
// MANIFEST: "operand": "B"

// CHECK-LABEL: func.func @tn(
// CHECK: %[[TM:.*]] = arith.divui %{{.*}}, %c128 : index
// CHECK: %[[TILES:.*]] = arith.muli %[[TM]], %{{.*}} : index
// CHECK: %[[UP:.*]] = arith.addi %[[TILES]], %c1{{.*}} : index
// CHECK: %[[PAIRS:.*]] = arith.divui %[[UP]], %c2{{(_[0-9]+)?}} : index
// CHECK: %[[GX:.*]] = arith.muli %[[PAIRS]], %c2{{.*}} : index
// CHECK: gpu.launch_func @gemm_kernels::@tn_gemm blocks in (%[[GX]],

// The kernel: the pair's rank (bid mod 2), whether the block holds a tile
// and whether the partner (bid xor 1) holds one of the same tile column.
// CHECK-LABEL: gpu.func @tn_gemm(
// CHECK-SAME: nvvm.cluster_dim = array<i32: 2, 1, 1>
// CHECK-SAME: nvvm.minctasm = 1
// CHECK: %[[BID:.*]] = arith.index_cast %block_id_x : index to i32
// CHECK: %[[PARTNER:.*]] = arith.xori %[[BID]], %c1_i32 : i32
// CHECK: %[[RANK:.*]] = arith.remui %[[BID]], %c2_i32 : i32
// CHECK: %[[VALID:.*]] = arith.cmpi slt, %[[BID]], %{{.*}} : i32
// CHECK: %[[SAMECOL:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK: %[[PVALID:.*]] = arith.cmpi slt, %[[PARTNER]], %{{.*}} : i32
// CHECK: %[[BOTH:.*]] = arith.andi %[[VALID]], %[[PVALID]] : i1
// CHECK: %[[SHARE:.*]] = arith.andi %[[BOTH]], %[[SAMECOL]] : i1

// The empty barriers take both blocks' compute warpgroups (4 arrivals)
// where the pair shares B, else this block's two; the initialization is
// fenced for the cluster and published by a cluster barrier.
// CHECK: %[[ARRIVALS:.*]] = arith.select %[[SHARE]], %c4_i32, %c2_i32{{.*}} : i32
// CHECK: nvvm.mbarrier.init %{{.*}}, %[[ARRIVALS]] : !llvm.ptr<3>, i32
// CHECK: nvvm.fence.mbarrier.init
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK-NOT: gpu.barrier
// A block past the tiles stops here.
// CHECK: scf.if %[[VALID]] {

// The producer: A on its own, then B: part `rank` of its two boxes
// multicast to both blocks (mask 0b11), or both boxes when the pair does
// not share B.
// CHECK: nvvm.setmaxregister decrease 40
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c49152_i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg3, %{{.*}} : !llvm.ptr<7>, !llvm.ptr
// CHECK: scf.if %[[SHARE]] {
// CHECK: arith.muli %[[RANK]], %c8192_i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg4, %{{.*}} multicast_mask = %c3_i16 : !llvm.ptr<7>, !llvm.ptr
// CHECK-NOT: multicast_mask
// CHECK: } else {
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg4, %{{.*}} : !llvm.ptr<7>, !llvm.ptr
// CHECK: nvvm.setmaxregister increase 232

// A compute warpgroup releases a stage (only one the producers refill:
// k-tile + stages < numK) on its own block's empty barrier and, sharing B,
// on the other block's (release at CTA scope: a cluster-scope release
// is a MEMBAR.ALL.GPU before each arrival).
// CHECK: %[[SUM:.*]] = arith.addi %[[DONE:.*]], %c4_i32{{.*}} : i32
// CHECK: %[[REFILLED:.*]] = arith.cmpi slt, %[[SUM]], %{{.*}} : i32
// CHECK: nvvm.mbarrier.arrive %[[OWN:.*]] : !llvm.ptr<3>
// CHECK-NEXT: scf.if %[[SHARE]] {
// CHECK: %[[OTHER:.*]] = arith.subi %c1_i32{{.*}}, %[[RANK]] : i32
// CHECK-NEXT: %[[REMOTE:.*]] = nvvm.mapa %[[OWN]], %[[OTHER]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT: nvvm.mbarrier.arrive %[[REMOTE]] : !llvm.ptr<7>

// PTX: .minnctapersm 1
// PTX: .explicitcluster
// PTX: .reqnctapercluster 2, 1, 1
// PTX: fence.mbarrier_init.release.cluster;
// PTX: barrier.cluster.arrive.aligned;
// PTX-NEXT: barrier.cluster.wait.aligned;
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
// PTX: mapa.shared::cluster.u64
// PTX: mbarrier.arrive.shared::cluster.b64
func.func @tn(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4, group = 8, load = tma_ws, multicast = 2>}
  return
}

// nn: B's tile is four 64-column panels; each block loads two of them for
// both (boxes rank * 2 and rank * 2 + 1).
// CHECK-LABEL: gpu.func @nn_gemm(
// CHECK: scf.if %{{.*}} {
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}} multicast_mask = %c3_i16
// CHECK: } else {
// CHECK-COUNT-4: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg4, %{{.*}} : !llvm.ptr<7>, !llvm.ptr
func.func @nn(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xbf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4, group = 8, load = tma_ws, multicast = 2>}
  return
}
