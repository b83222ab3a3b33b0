// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu="chip=sm_90a dispatch=false" | FileCheck %s
// RUN: rm -rf %t && gemm-opt %s --gemm-to-ptx="chip=sm_90a dispatch=false output-dir=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/gemm_kernels.sm_90a.ptx

// `schedule = pingpong`: a persistent block of two consumer teams (one
// warpgroup each here) and the producer warpgroup, 384 threads. The host
// launches min(tiles x batch, the target's 132 SMs) blocks along x and
// nothing along z; the manifest says `persistent`, so that a runtime
// takes the device's SM count instead.
// CHECK: grid = {batched = false, persistent = true, tile_m = 64 : i64, tile_n = 256 : i64}
// CHECK: grid = {batched = true, persistent = true, tile_m = 128 : i64, tile_n = 128 : i64}
// CHECK: grid = {batched = false, persistent = true, tile_m = 128 : i64, tile_n = 256 : i64}
// CHECK-LABEL: func.func @pp(
// CHECK: %[[SMS:.*]] = arith.constant 132 : index
// CHECK: %[[GX:.*]] = arith.minsi %{{.*}}, %[[SMS]] : index
// CHECK: gpu.launch_func  @gemm_kernels::@pp_gemm blocks in (%[[GX]], %{{.*}}, %{{.*}}) threads in (%c384
// CHECK-LABEL: func.func @ppb(
// CHECK: gpu.launch_func  @gemm_kernels::@ppb_gemm blocks in (%{{.*}}, %{{.*}}, %c1{{.*}})

// The kernel: the stage barriers (4 full, 4 empty of one arrival: one
// warpgroup consumes each stage) and the two turn barriers, all published
// by the block's one barrier. The producer walks the block's tiles
// (block id, grid size) and each tile's k-tiles, waiting on a stage's
// empty barrier before refilling it. Each team walks every other tile:
// it waits for the previous tile's main loop (the main-loop turn), waits
// on the full barriers, hands each stage back after its MMAs, passes the
// turn on (its named barrier 1 + team of 128 threads, then one arrival),
// and the same for the epilogue's staging area. Its main loop comes in two
// versions under one branch on the tensor maps (the copy version for
// operands the host could not map), each of which passes the turn before
// it drains its MMAs; only the TMA version hands the last stage back.
// CHECK-LABEL: gpu.func @pp_gemm(
// CHECK-SAME: workgroup(%{{.*}} : memref<8xi64, #gpu.address_space<workgroup>>, %{{.*}} : memref<2xi64, #gpu.address_space<workgroup>>)
// CHECK-SAME: known_block_size = array<i32: 384, 1, 1>
// CHECK-COUNT-8: nvvm.mbarrier.init %{{.*}}, %c1_i32{{.*}} : !llvm.ptr<3>, i32
// CHECK: nvvm.mbarrier.init %[[MAINTURN:[0-9]+]], %c1_i32{{.*}} : !llvm.ptr<3>, i32
// CHECK: nvvm.mbarrier.init %[[EPITURN:[0-9]+]], %c1_i32{{.*}} : !llvm.ptr<3>, i32
// CHECK: gpu.barrier
// CHECK: gpu.block_id  x
// CHECK: gpu.grid_dim  x
// CHECK: nvvm.setmaxregister  decrease 40
// CHECK: scf.for
// CHECK: scf.for
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c40960_i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: nvvm.setmaxregister  increase 232
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}}  : i32 {
// CHECK: nvvm.mbarrier.try_wait.parity %[[MAINTURN]]
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.wgmma.mma_async
// CHECK: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %c128_i32
// CHECK: nvvm.mbarrier.arrive %[[MAINTURN]] : !llvm.ptr<3>
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// CHECK: } else {
// CHECK: nvvm.wgmma.mma_async
// CHECK: } {loop_annotation =
// CHECK: nvvm.mbarrier.arrive %[[MAINTURN]] : !llvm.ptr<3>
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: scf.yield
// CHECK: nvvm.mbarrier.try_wait.parity %[[EPITURN]]
// CHECK: nvvm.mbarrier.arrive %[[EPITURN]] : !llvm.ptr<3>
// CHECK: gpu.return
// PTX-DAG: setmaxnreg.dec.sync.aligned.u32 {{[ \t]*}}40;
// PTX-DAG: setmaxnreg.inc.sync.aligned.u32 {{[ \t]*}}232;
// PTX-DAG: .maxntid 384, 1, 1
// PTX-DAG: %nctaid.x
func.func @pp(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [64, 256, 64], warps = [1, 1], instr = [64, 256, 16], stages = 4, group = 8, load = tma_ws, schedule = pingpong>}
  return
}

// Batched: the block's tiles run over every batch (tile / tiles per batch
// is the batch, read from C's first dimension), so the host launches
// grid.z = 1. A warpgroup tile of 128 rows issues two m64 instructions a
// k-step, each into its own accumulators: 8 for BK = 64.
// CHECK-LABEL: gpu.func @ppb_gemm(
// CHECK: memref.dim %arg2, %c0{{.*}} : memref<?x?x?xbf16>
// CHECK: nvvm.setmaxregister  increase 232
// CHECK-COUNT-8: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>
// CHECK: gpu.return
func.func @ppb(%a: memref<?x?x?xbf16>, %b: memref<?x?x?xbf16>, %c: memref<?x?x?xbf16>) {
  gemm.matmul nn ins(%a, %b : memref<?x?x?xbf16>, memref<?x?x?xbf16>) outs(%c : memref<?x?x?xbf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 128, 64], warps = [1, 1], instr = [64, 128, 16], stages = 5, group = 8, load = tma_ws, schedule = pingpong>}
  return
}

// `schedule = persistent`: the same walk with one team (both warpgroups on
// each 128 x 256 tile), no turn barriers; the epilogue stages after the
// three stages, so that the producer fills the next tile's stages during
// it.
// CHECK-LABEL: gpu.func @ps_gemm(
// CHECK-SAME: workgroup(%{{.*}} : memref<6xi64, #gpu.address_space<workgroup>>)
// CHECK-SAME: known_block_size = array<i32: 384, 1, 1>
// CHECK: gpu.grid_dim  x
// CHECK: nvvm.setmaxregister  decrease 40
// CHECK: nvvm.setmaxregister  increase 232
// CHECK: scf.for %{{.*}} = %c0_i32{{.*}} to %{{.*}} step %c1_i32{{.*}}  : i32 {
// CHECK: nvvm.wgmma.mma_async
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %c256_i32
// CHECK: gpu.return
func.func @ps(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 3, group = 8, load = tma_ws, schedule = persistent>}
  return
}
