// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu="chip=sm_90 pack-unaligned=false" --canonicalize --cse | FileCheck %s

// Split-K reduced inside a thread-block cluster (`reduction = cluster`,
// sm_90 and later, split_k <= 8): no workspace and no reduction kernel. The
// host launches grid (tiles, slices, batch) in clusters of (1, slices, 1)
// blocks; block s of a cluster runs K slice s, stages its partial sums in
// its own shared memory, and after a cluster barrier adds, for the s-th
// share of the tile's elements inside C, the slices' partial sums in slice
// order through distributed shared memory (mapa) and applies the epilogue
// once; a second cluster barrier keeps every block's shared memory alive
// until the others have read it.

// The launch facts: no workspace parameter; split_k says "cluster".
// CHECK: module attributes {gemm.kernels = [{
// CHECK-SAME: config = "#gemm.config<kind = mma_sync, block = [16, 128, 128], warps = [1, 4], instr = [16, 8, 16], stages = 4, split_k = 4, reduction = cluster>"
// CHECK-SAME: {broadcast = "col", element_type = "f32", kind = "memref", name = "extra0", rank = 1 : i64, shape = [-1]}],
// CHECK-SAME: split_k = {fill_blocks = 0 : i64, max = 4 : i64, min_k_per_slice = 128 : i64, reduction = "cluster"}

// Host: slices = max(min(ceil(K / 128), 4), 1) is grid.y and the cluster's
// y extent; nothing is allocated and one kernel is launched.
// CHECK-LABEL: func.func @bias_relu(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<?x?xf16>, %[[B:[a-z0-9]+]]: memref<?x?xf16>, %[[C:[a-z0-9]+]]: memref<?x?xf16>, %[[BIAS:[a-z0-9]+]]: memref<?xf32>)
// CHECK-NOT: gpu.alloc
// CHECK: %[[BLOCKS:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK: %[[S0:.*]] = arith.minsi %{{.*}}, %c4 : index
// CHECK-NEXT: %[[S:.*]] = arith.maxsi %[[S0]], %c1 : index
// CHECK-NEXT: gpu.launch_func @gemm_kernels::@bias_relu_gemm clusters in (%c1, %[[S]], %c1) blocks in (%[[BLOCKS]], %[[S]], %c1) threads in (%c128, %c1, %c1) dynamic_shared_memory_size %{{.*}} args(%[[A]] : memref<?x?xf16>, %[[B]] : memref<?x?xf16>, %[[C]] : memref<?x?xf16>, %[[BIAS]] : memref<?xf32>)
// CHECK-NEXT: return

// The kernel: the slice and the slice count come from the cluster, not
// from a workspace; the partial sums go to shared memory (rows of 128 + 4
// floats), never to C, before the first cluster barrier.
// CHECK-LABEL: gpu.func @bias_relu_gemm(
// CHECK-SAME: %[[KA:[a-z0-9]+]]: memref<?x?xf16>, %{{[a-z0-9]+}}: memref<?x?xf16>, %[[KC:[a-z0-9]+]]: memref<?x?xf16>, %[[KBIAS:[a-z0-9]+]]: memref<?xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
// CHECK: %[[SLICES:.*]] = gpu.cluster_dim_blocks y
// CHECK: %[[SLICE:.*]] = gpu.cluster_block_id y
// CHECK: %[[SLICE32:.*]] = arith.index_cast %[[SLICE]] : index to i32
// CHECK: %[[BEGIN0:.*]] = arith.muli %[[SLICE]], %{{.*}} : index
// CHECK: nvgpu.mma.sync
// CHECK-NOT: memref.store {{.*}}, %[[KC]][
// CHECK-NOT: arith.maximumf
// CHECK: gpu.barrier
// CHECK-NEXT: %[[STAGED:.*]] = memref.view %{{.*}}[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2112xf32, #gpu.address_space<workgroup>>
// CHECK: memref.store %{{.*}}, %[[STAGED]][%{{.*}}] : memref<2112xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.store {{.*}}, %[[KC]][
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK: %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>

// Block s takes elements [s * share, min((s + 1) * share, rows inside C *
// 128)), consecutive threads on consecutive columns; each element is the
// sum over the slices q = 0, 1, ... in order of block q's staged value,
// then + bias, relu, f32 -> f16, stored to C once.
// CHECK: %[[MYBEGIN:.*]] = arith.muli %[[SLICE32]], %[[SHARE:.*]] : i32
// CHECK: scf.for
// CHECK: scf.if
// CHECK: %[[SUM:.*]] = scf.for %[[Q:.*]] = %c0 to %[[SLICES]] step %c1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT: %[[Q32:.*]] = arith.index_cast %[[Q]] : index to i32
// CHECK-NEXT: %[[REMOTE:.*]] = nvvm.mapa %[[BASE]], %[[Q32]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT: %[[AT:.*]] = llvm.getelementptr %[[REMOTE]][%{{.*}}] : (!llvm.ptr<7>, i32) -> !llvm.ptr<7>, f32
// CHECK-NEXT: %[[X:.*]] = llvm.load %[[AT]] : !llvm.ptr<7> -> f32
// CHECK-NEXT: %[[NEXT:.*]] = arith.addf %[[ACC]], %[[X]] : f32
// CHECK-NEXT: scf.yield %[[NEXT]] : f32
// CHECK: %[[BI:.*]] = memref.load %[[KBIAS]][%{{.*}}] : memref<?xf32>
// CHECK-NEXT: %[[Y0:.*]] = arith.addf %[[SUM]], %[[BI]] : f32
// CHECK-NEXT: %[[Y1:.*]] = arith.maximumf %[[Y0]], %{{.*}} : f32
// CHECK-NEXT: %[[Y2:.*]] = arith.truncf %[[Y1]] : f32 to f16
// CHECK-NEXT: memref.store %[[Y2]], %[[KC]][%{{.*}}, %{{.*}}] : memref<?x?xf16>
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK-NEXT: gpu.return
func.func @bias_relu(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>, %bias: memref<?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
      extras(%bias : memref<?xf32>) acc(f32)
      attributes {broadcast = [#gemm.bcast<col>], config = #gemm.config<kind = mma_sync, block = [16, 128, 128], warps = [1, 4], instr = [16, 8, 16], stages = 4, split_k = 4, reduction = cluster>} {
  ^bb0(%acc: f32, %cin: f16, %bi: f32):
    %0 = arith.addf %acc, %bi : f32
    %z = arith.constant 0.0 : f32
    %1 = arith.maximumf %0, %z : f32
    %2 = arith.truncf %1 : f32 to f16
    gemm.yield %2 : f16
  }
  return
}
