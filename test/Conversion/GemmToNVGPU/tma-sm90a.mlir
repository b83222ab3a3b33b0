// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu="chip=sm_90a dispatch=false" | FileCheck %s
// RUN: rm -rf %t && gemm-opt %s --gemm-to-ptx="chip=sm_90a dispatch=false output-dir=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/gemm_kernels.sm_90a.ptx

// `load = tma`: the host code builds the tensor maps of A and B through the
// runtime's mgpuGemmTensorMap (dtype f16 = 1, rank 2, the memref's pointer,
// offset, sizes and strides, the box outermost first) and passes them last;
// the kernel initializes one mbarrier per stage, and thread 0 issues each
// k-tile's boxes (A: one 128 x 64 box of K-major rows; B of nn: four
// 64 x 64 panels of N) with the stage's byte count as the expected
// transaction. Every thread waits on the stage's phase. Null maps (operands
// TMA cannot address: unaligned, so no 16-byte copies either) take the
// element-copy path.

// The warp-specialized main loops are not unrolled (loop_annotation):
// CHECK: #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true, runtimeDisable = true>
// CHECK: #[[NOUNROLL:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// CHECK: tensor_maps = [{box = [128, 64], operand = "A", swizzle = 128 : i64}, {box = [64, 64], operand = "B", swizzle = 128 : i64}]
// CHECK: llvm.func @mgpuGemmTensorMap(i64, i64, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64) -> !llvm.ptr
// CHECK-LABEL: func.func @nn(
// CHECK: %[[MA:.*]] = llvm.call @mgpuGemmTensorMap(%{{.*}}) : (i64, i64, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64) -> !llvm.ptr
// CHECK: %[[MB:.*]] = llvm.call @mgpuGemmTensorMap(%{{.*}})
// CHECK: gpu.launch_func @gemm_kernels::@nn_gemm {{.*}} args({{.*}}, %[[MA]] : !llvm.ptr, %[[MB]] : !llvm.ptr)
// CHECK-LABEL: gpu.func @nn_gemm(
// CHECK-SAME: %[[MAPA:[a-z0-9]+]]: !llvm.ptr, %[[MAPB:[a-z0-9]+]]: !llvm.ptr) workgroup(%[[BARS:.*]] : memref<4xi64, #gpu.address_space<workgroup>>)
// CHECK-DAG: llvm.ptrtoint %[[MAPA]]
// CHECK-DAG: llvm.ptrtoint %[[MAPB]]
// CHECK-COUNT-4: nvvm.mbarrier.init %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32
// CHECK: gpu.barrier
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c49152_i32 : !llvm.ptr<3>, i32
// CHECK-COUNT-5: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}]
// CHECK: nvvm.mbarrier.try_wait.parity %{{.*}}, %{{.*}}, %c10000000_i32 : !llvm.ptr<3>, i32, i32
// CHECK: nvvm.wgmma.mma_async

// PTX: .target sm_90a
// PTX-DAG: mbarrier.init.shared.b64
// PTX-DAG: mbarrier.arrive.expect_tx.shared.b64
// PTX-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-DAG: mbarrier.try_wait.parity.shared.b64
// PTX-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
func.func @nn(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xbf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4, group = 8, load = tma>}
  return
}

// `load = tma_ws` (warp specialization): a fifth warpgroup (384 threads)
// produces. A second row of mbarriers hands the stages back (count 2, one
// arrival per compute warpgroup). The producer gives up registers and its
// first thread waits on a stage's empty barrier before refilling it; the
// compute warpgroups take the registers, wait on the full barriers, arrive
// on the empty ones after their MMAs retire, and synchronize among
// themselves with named barrier 1 of 256 threads (the cp.async fallback
// and the staged epilogue), never with the block's barrier 0.
// CHECK-LABEL: gpu.func @ws_gemm(
// CHECK-SAME: workgroup(%{{.*}} : memref<8xi64, #gpu.address_space<workgroup>>)
// CHECK-SAME: known_block_size = array<i32: 384, 1, 1>, nvvm.minctasm = 1 : i32
// CHECK-COUNT-4: nvvm.mbarrier.init %{{.*}}, %c2_i32{{.*}} : !llvm.ptr<3>, i32
// CHECK: gpu.barrier
// Producer and both loop versions run max(k-tiles, 1) k-tiles (an empty K
// loads one k-tile of zeros): a loop that may not run gets a bypass whose
// zero accumulators ptxas reads inside the other version's MMA stage.
// CHECK: %[[NUMK:.*]] = arith.maxsi %{{.*}}, %c1_i32{{.*}} : i32
// CHECK: nvvm.setmaxregister decrease 40
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[NUMK]] step
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.mbarrier.arrive.expect_tx
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: nvvm.setmaxregister increase 232
// The main loop once per load path: with tensor maps, the compute
// warpgroups only wait, multiply and hand stages back (no copy, no
// cp.async group, no barrier among themselves; LLVM may not unroll it);
// without, they copy and synchronize with the named barrier.
// CHECK: scf.if %{{.*}} -> (!llvm.struct
// CHECK-NOT: nvvm.barrier id
// CHECK-NOT: nvvm.cp.async
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[NUMK]] step {{.*}} iter_args
// CHECK-NOT: nvvm.barrier id
// CHECK-NOT: nvvm.cp.async
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK-NOT: nvvm.barrier id
// CHECK-NOT: nvvm.cp.async
// CHECK: nvvm.wgmma.mma_async
// CHECK-NOT: nvvm.barrier id
// CHECK-NOT: nvvm.cp.async
// CHECK: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// CHECK-NOT: nvvm.cp.async
// CHECK: } {loop_annotation = #[[NOUNROLL]]}
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } else {
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[NUMK]] step {{.*}} iter_args
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK: nvvm.wgmma.mma_async
// CHECK-NOT: nvvm.mbarrier.arrive
// CHECK: } {loop_annotation = #[[NOUNROLL]]}
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
// One block an SM (nvvm.minctasm = 1, .minnctapersm 1) fixes the register
// count at entry; with .maxntid alone ptxas ignores setmaxnreg ("unable to
// determine register count at entry").
// PTX-DAG: setmaxnreg.dec.sync.aligned.u32 {{[ \t]*}}40;
// PTX-DAG: setmaxnreg.inc.sync.aligned.u32 {{[ \t]*}}232;
// PTX-DAG: .maxntid 384, 1, 1
// PTX-DAG: .minnctapersm 1
func.func @ws(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4, group = 8, load = tma_ws>}
  return
}

// Three compute warpgroups (the promoted f8 tile of 192 rows, 512
// threads): the empty barriers count 3 arrivals, the compute threads'
// named barrier 384, and setmaxnreg shares the register file out as 40 for
// the producer and 152 for each consumer (tmaWsConsumerRegisters).
// CHECK-LABEL: gpu.func @ws3_gemm(
// CHECK-SAME: known_block_size = array<i32: 512, 1, 1>
// CHECK-COUNT-5: nvvm.mbarrier.init %{{.*}}, %c3_i32{{.*}} : !llvm.ptr<3>, i32
// CHECK: nvvm.setmaxregister decrease 40
// CHECK: nvvm.setmaxregister increase 152
// CHECK: nvvm.wgmma.mma_async
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %c384_i32
// CHECK: gpu.return
// PTX-DAG: setmaxnreg.inc.sync.aligned.u32 {{[ \t]*}}152;
// PTX-DAG: .maxntid 512, 1, 1
func.func @ws3(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [192, 128, 128], warps = [3, 1], instr = [64, 128, 32], stages = 5, group = 8, load = tma_ws>}
  return
}

// A warp-specialized block small enough for two on an SM (98 KiB of
// stages) keeps its thread bound alone: one block an SM would fix 232
// registers a thread at entry and keep the second block off the SM.
// CHECK-LABEL: gpu.func @ws_small_gemm(
// CHECK-SAME: kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
// CHECK: nvvm.setmaxregister decrease 40
func.func @ws_small(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [64, 128, 64], warps = [1, 1], instr = [64, 128, 16], stages = 4, group = 8, load = tma_ws>}
  return
}
