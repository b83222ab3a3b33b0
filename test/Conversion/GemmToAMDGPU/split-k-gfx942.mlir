// RUN: gemm-opt --verify-roundtrip %s --split-input-file --convert-gemm-to-amdgpu="chip=gfx942 pack-unaligned=false" --canonicalize --cse | FileCheck %s

// Split-K and runtime dispatch on AMD (shared with NVIDIA in
// lib/Conversion/KernelCommon: Launch.cpp, SplitK.cpp; split-k-sm90.mlir and
// dispatch-sm90a.mlir test them in depth).

// An explicit mfma config with split_k = 8: the GEMM kernel takes the f32
// workspace [1][slices][M][N] last and stores its partial sums there
// (slice = blockIdx.y); slices = max(min(ceil(K / 32), 8), 1) is grid.y;
// the reduction kernel (32 x 8 threads) reads the workspace and writes C.
// CHECK: module attributes {gemm.kernels = [{
// CHECK-SAME: chip = "gfx942"
// CHECK-SAME: config = "#gemm.config<kind = mfma, block = [64, 64, 32], warps = [2, 2], instr = [16, 16, 16], split_k = 8>"
// CHECK-SAME: name = "split_gemm",
// CHECK-SAME: {element_type = "f32", kind = "memref", name = "workspace", rank = 4 : i64, shape = [-1, -1, -1, -1]}],
// CHECK-SAME: rule = "config", split_k = {fill_blocks = 0 : i64, max = 8 : i64, min_k_per_slice = 32 : i64, reduce = {block = [32, 8, 1], group_outputs = 1024 : i64, name = "split_gemm_reduce",
// CHECK-SAME: workspace_type = "f32"}, when = {}}]
// CHECK-LABEL: func.func @split(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<?x?xf16>, %[[B:[a-z0-9]+]]: memref<?x?xf16>, %[[C:[a-z0-9]+]]: memref<?x?xf32>)
// CHECK-DAG: %[[M:.*]] = memref.dim %[[C]], %c0 : memref<?x?xf32>
// CHECK-DAG: %[[N:.*]] = memref.dim %[[C]], %c1 : memref<?x?xf32>
// CHECK-DAG: %[[K:.*]] = memref.dim %[[A]], %c1 : memref<?x?xf16>
// CHECK: %[[KT0:.*]] = arith.addi %[[K]], %c31 : index
// CHECK-NEXT: %[[KT:.*]] = arith.divui %[[KT0]], %c32 : index
// CHECK-NEXT: %[[S0:.*]] = arith.minsi %[[KT]], %c8 : index
// CHECK-NEXT: %[[S:.*]] = arith.maxsi %[[S0]], %c1 : index
// CHECK-NEXT: %[[WS:.*]] = gpu.alloc (%c1, %[[S]], %[[M]], %[[N]]) : memref<?x?x?x?xf32>
// CHECK-NEXT: gpu.launch_func @gemm_kernels::@split_gemm blocks in (%{{.*}}, %[[S]], %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %{{.*}} args(%[[A]] : memref<?x?xf16>, %[[B]] : memref<?x?xf16>, %[[C]] : memref<?x?xf32>, %[[WS]] : memref<?x?x?x?xf32>)
// CHECK: gpu.launch_func @gemm_kernels::@split_gemm_reduce blocks in (%{{.*}}, %{{.*}}, %c1) threads in (%c32, %c8, %c1) dynamic_shared_memory_size %c0_i32 args(%[[C]] : memref<?x?xf32>, %[[WS]] : memref<?x?x?x?xf32>)
// CHECK-NEXT: gpu.dealloc %[[WS]] : memref<?x?x?x?xf32>
// CHECK-NEXT: return

// CHECK: gpu.module @gemm_kernels [#rocdl.target<O = 3, chip = "gfx942">]
// CHECK-LABEL: gpu.func @split_gemm(
// CHECK-SAME: %{{[a-z0-9]+}}: memref<?x?xf16>, %{{[a-z0-9]+}}: memref<?x?xf16>, %[[KC:[a-z0-9]+]]: memref<?x?xf32>, %[[KWS:[a-z0-9]+]]: memref<?x?x?x?xf32>) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// CHECK: memref.dim %[[KWS]], %c1 : memref<?x?x?x?xf32>
// CHECK: %[[SLICE:.*]] = gpu.block_id y
// CHECK: amdgpu.mfma
// CHECK-NOT: memref.store {{.*}}, %[[KC]][
// CHECK: memref.store %{{.*}}, %[[KWS]][%c0, %[[SLICE]], %{{.*}}, %{{.*}}] : memref<?x?x?x?xf32>
// CHECK-NOT: memref.store {{.*}}, %[[KC]][
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @split_gemm_reduce(
// CHECK-SAME: %[[RC:[a-z0-9]+]]: memref<?x?xf32>, %[[RWS:[a-z0-9]+]]: memref<?x?x?x?xf32>) workgroup(%[[PARTS:[a-z0-9]+]] : memref<256xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 32, 8, 1>}
// CHECK-NOT: nvvm.griddepcontrol
// CHECK: %[[SLICES:.*]] = memref.dim %[[RWS]], %c1 : memref<?x?x?x?xf32>
// CHECK: %[[SL32:.*]] = arith.index_cast %[[SLICES]] : index to i32
// CHECK: arith.cmpi sge, %[[SL32]], %c8_i32 : i32
// CHECK: scf.for %{{.*}} step %c4 iter_args(%{{.*}}) -> (f32) {
// CHECK-COUNT-4: memref.load %[[RWS]][%c0, %{{.*}}, %{{.*}}, %{{.*}}] : memref<?x?x?x?xf32>
// CHECK-COUNT-4: arith.addf
// CHECK: scf.if %{{.*}} -> (f32) {
// CHECK-COUNT-3: memref.load %[[RWS]][%c0, %{{.*}}, %{{.*}}, %{{.*}}] : memref<?x?x?x?xf32>
// CHECK: arith.select
// CHECK: memref.store %{{.*}}, %[[PARTS]]
// CHECK-NEXT: gpu.barrier
// CHECK: memref.load %[[PARTS]]
// CHECK: memref.store %{{.*}}, %[[RC]][%{{.*}}, %{{.*}}] : memref<?x?xf32>
// CHECK: gpu.return
func.func @split(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mfma, block = [64, 64, 32], warps = [2, 2], instr = [16, 16, 16], split_k = 8>}
  return
}

// -----

// Dynamic sizes on gfx942 (304 CUs): the family is split-k (64 x 64,
// split_k = 128, when blocks <= 304 and K >= 256; slices added up to the
// fill target, a tunable read from the manifest, with at least 128 of K
// each) and the default (128 x 128), nothing else: no small, short-m,
// narrow-n or mid on AMD.
// CHECK: module attributes {gemm.kernels = [{
// CHECK-SAME: config = "#gemm.config<kind = mfma, block = [64, 64, 32], warps = [2, 2], instr = [16, 16, 16], smem = pad, group = 8, split_k = 128>"
// CHECK-SAME: name = "family_gemm",
// CHECK-SAME: rule = "split-k", split_k = {fill_blocks = [[FILL:[0-9]+]] : i64, max = 128 : i64, min_k_per_slice = 128 : i64, reduce = {block = [32, 8, 1], group_outputs = 1024 : i64, name = "family_gemm_reduce",
// CHECK-SAME: when = {blocks_max = 304 : i64, k_min = 256 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = mfma, block = [128, 128, 32], warps = [2, 2], instr = [16, 16, 16], smem = pad, group = 8>"
// CHECK-SAME: name = "family_gemm_0",
// CHECK-SAME: rule = "default", when = {}}]
// CHECK-LABEL: func.func @family(
// CHECK-SAME: %{{[a-z0-9]+}}: memref<?x?xf16>, %{{[a-z0-9]+}}: memref<?x?xf16>, %[[C:[a-z0-9]+]]: memref<?x?xf16>)
// CHECK: %[[KOK:.*]] = arith.cmpi sge, %{{.*}}, %c256 : index
// CHECK: %[[BLOCKS:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[FIT:.*]] = arith.cmpi sle, %[[BLOCKS]], %c304 : index
// CHECK-NEXT: %[[SK:.*]] = arith.andi %[[KOK]], %[[FIT]] : i1
// CHECK-NEXT: scf.if %[[SK]] {
// CHECK: arith.divui %c[[FILL]], %{{.*}} : index
// CHECK: %[[WS:.*]] = gpu.alloc (%c1, %{{.*}}, %{{.*}}, %{{.*}}) : memref<?x?x?x?xf32>
// CHECK-NEXT: gpu.launch_func @gemm_kernels::@family_gemm blocks in (%[[BLOCKS]], %{{.*}}, %c1) threads in (%c256, %c1, %c1) {{.*}}, %[[WS]] : memref<?x?x?x?xf32>)
// CHECK: gpu.launch_func @gemm_kernels::@family_gemm_reduce blocks
// CHECK-NEXT: gpu.dealloc %[[WS]]
// CHECK-NEXT: } else {
// CHECK-NOT: scf.if
// CHECK: gpu.launch_func @gemm_kernels::@family_gemm_0 blocks in (%{{.*}}, %c1, %c1) threads in (%c256, %c1, %c1)
// CHECK-NEXT: }
// CHECK-NEXT: return

// The kernels: split-k, its reduction, the default; nothing more.
// CHECK-LABEL: gpu.func @family_gemm(
// CHECK-SAME: memref<?x?x?x?xf32>) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// CHECK-LABEL: gpu.func @family_gemm_reduce(
// CHECK-SAME: known_block_size = array<i32: 32, 8, 1>

// AMD kernels store their results straight from registers to C (no staged
// epilogue through LDS: no 16-byte vector stores to C).
// CHECK-LABEL: gpu.func @family_gemm_0(
// CHECK-SAME: %[[DC:[a-z0-9]+]]: memref<?x?xf16>) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// CHECK: amdgpu.mfma
// CHECK-NOT: vector.store {{.*}}, %[[DC]][
// CHECK: memref.store %{{.*}}, %[[DC]][%{{.*}}, %{{.*}}] : memref<?x?xf16>
// CHECK-NOT: vector.store {{.*}}, %[[DC]][
// CHECK: gpu.return
// CHECK-NOT: gpu.func
func.func @family(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}
