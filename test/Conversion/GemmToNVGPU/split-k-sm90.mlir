// RUN: gemm-opt --verify-roundtrip %s --split-input-file --convert-gemm-to-nvgpu="chip=sm_90 pack-unaligned=false" --canonicalize --cse | FileCheck %s

// Split-K (an explicit config with split_k = S > 1): the GEMM kernel runs
// grid.y = slices K slices, each over a run of whole k-tiles, and stores
// its partial sums, unconverted, to a workspace [batch][slices][M][N] of
// the accumulator type (its last argument); a reduction kernel
// `<kernel>_reduce` (32 x 8 threads; C, the extras, the workspace) adds the
// slices in order and applies the epilogue once. The host allocates the
// workspace, launches both kernels and frees it. For an explicit config
// the slices are max(min(S, ceil(K / BK)), 1) (no fill target:
// fill_blocks = 0).

// The launch facts: the workspace parameter and the split_k record.
// CHECK: module attributes {gemm.kernels = [{
// CHECK-SAME: config = "#gemm.config<kind = mma_sync, block = [128, 128, 32], warps = [2, 2], instr = [16, 8, 16], stages = 3, split_k = 4>"
// CHECK-SAME: name = "bias_relu_gemm",
// CHECK-SAME: params = [{element_type = "f16", kind = "memref", name = "A", rank = 2 : i64, shape = [-1, -1]},
// CHECK-SAME: {element_type = "f16", kind = "memref", name = "B", rank = 2 : i64, shape = [-1, -1]},
// CHECK-SAME: {element_type = "f16", kind = "memref", name = "C", rank = 2 : i64, shape = [-1, -1]},
// CHECK-SAME: {broadcast = "col", element_type = "f32", kind = "memref", name = "extra0", rank = 1 : i64, shape = [-1]},
// CHECK-SAME: {element_type = "f32", kind = "memref", name = "workspace", rank = 4 : i64, shape = [-1, -1, -1, -1]}],
// CHECK-SAME: rule = "config",
// CHECK-SAME: split_k = {fill_blocks = 0 : i64, max = 4 : i64, min_k_per_slice = 32 : i64,
// CHECK-SAME: reduce = {block = [32, 8, 1], group_outputs = 1024 : i64, name = "bias_relu_gemm_reduce",
// CHECK-SAME: params = [{element_type = "f16", kind = "memref", name = "C", rank = 2 : i64, shape = [-1, -1]},
// CHECK-SAME: {broadcast = "col", element_type = "f32", kind = "memref", name = "extra0", rank = 1 : i64, shape = [-1]},
// CHECK-SAME: {element_type = "f32", kind = "memref", name = "workspace", rank = 4 : i64, shape = [-1, -1, -1, -1]}]},
// CHECK-SAME: workspace_type = "f32"}, when = {}}]

// Host: slices = max(min(ceil(K / 32), 4), 1) is grid.y and the workspace's
// dimension 1; the reduction's grid is ceil(N / 32) x min(ceil(M / R),
// 65535), R = 1 row per block from 8 slices on while batch * M * N <=
// 1024 * slices (batch <= 1024 * slices / M / N; batch = 1 folds it to
// 1 <= ...), else 8.
// CHECK-LABEL: func.func @bias_relu(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<?x?xf16>, %[[B:[a-z0-9]+]]: memref<?x?xf16>, %[[C:[a-z0-9]+]]: memref<?x?xf16>, %[[BIAS:[a-z0-9]+]]: memref<?xf32>)
// CHECK-DAG: %[[M:.*]] = memref.dim %[[C]], %c0 : memref<?x?xf16>
// CHECK-DAG: %[[N:.*]] = memref.dim %[[C]], %c1 : memref<?x?xf16>
// CHECK-DAG: %[[K:.*]] = memref.dim %[[A]], %c1 : memref<?x?xf16>
// CHECK: %[[BLOCKS:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[KT0:.*]] = arith.addi %[[K]], %c31 : index
// CHECK-NEXT: %[[KT:.*]] = arith.divui %[[KT0]], %c32 : index
// CHECK-NEXT: %[[S0:.*]] = arith.minsi %[[KT]], %c4 : index
// CHECK-NEXT: %[[S:.*]] = arith.maxsi %[[S0]], %c1 : index
// CHECK-NEXT: %[[WS:.*]] = gpu.alloc (%c1, %[[S]], %[[M]], %[[N]]) : memref<?x?x?x?xf32>
// CHECK-NEXT: gpu.launch_func @gemm_kernels::@bias_relu_gemm blocks in (%[[BLOCKS]], %[[S]], %c1) threads in (%c128, %c1, %c1) dynamic_shared_memory_size %c49152_i32 args(%[[A]] : memref<?x?xf16>, %[[B]] : memref<?x?xf16>, %[[C]] : memref<?x?xf16>, %[[BIAS]] : memref<?xf32>, %[[WS]] : memref<?x?x?x?xf32>)
// CHECK-NEXT: %[[RX0:.*]] = arith.addi %[[N]], %c31 : index
// CHECK-NEXT: %[[RX:.*]] = arith.divui %[[RX0]], %c32 : index
// CHECK-NEXT: %[[L:.*]] = arith.muli %[[S]], %c1024 : index
// CHECK-NEXT: %[[N1:.*]] = arith.maxsi %[[N]], %c1 : index
// CHECK-NEXT: %[[M1:.*]] = arith.maxsi %[[M]], %c1 : index
// CHECK-NEXT: %[[LM:.*]] = arith.divui %[[L]], %[[M1]] : index
// CHECK-NEXT: %[[LMN:.*]] = arith.divui %[[LM]], %[[N1]] : index
// CHECK-NEXT: %[[FEW:.*]] = arith.cmpi sge, %[[LMN]], %c1 : index
// CHECK-NEXT: %[[GE8:.*]] = arith.cmpi sge, %[[S]], %c8 : index
// CHECK-NEXT: %[[GROUPED:.*]] = arith.andi %[[GE8]], %[[FEW]] : i1
// CHECK-NEXT: %[[R:.*]] = arith.select %[[GROUPED]], %c1, %c8 : index
// CHECK-NEXT: %[[R1:.*]] = arith.subi %[[R]], %c1 : index
// CHECK-NEXT: %[[RY0:.*]] = arith.addi %[[M]], %[[R1]] : index
// CHECK-NEXT: %[[RY1:.*]] = arith.divui %[[RY0]], %[[R]] : index
// CHECK-NEXT: %[[RY:.*]] = arith.minsi %[[RY1]], %c65535 : index
// CHECK-NEXT: gpu.launch_func @gemm_kernels::@bias_relu_gemm_reduce blocks in (%[[RX]], %[[RY]], %c1) threads in (%c32, %c8, %c1) dynamic_shared_memory_size %c0_i32 args(%[[C]] : memref<?x?xf16>, %[[BIAS]] : memref<?xf32>, %[[WS]] : memref<?x?x?x?xf32>)
// CHECK-NEXT: gpu.dealloc %[[WS]] : memref<?x?x?x?xf32>
// CHECK-NEXT: return

// The GEMM kernel: slice blockIdx.y of the workspace's dim(1) slices runs
// k in [min(y * per_slice, K), min(begin + per_slice, K)); its results go
// to the workspace only: neither C nor the bias is touched, and none of the
// epilogue (add, relu, truncation) runs here.
// CHECK-LABEL: gpu.func @bias_relu_gemm(
// CHECK-SAME: %[[KA:[a-z0-9]+]]: memref<?x?xf16>, %{{[a-z0-9]+}}: memref<?x?xf16>, %[[KC:[a-z0-9]+]]: memref<?x?xf16>, %[[KBIAS:[a-z0-9]+]]: memref<?xf32>, %[[KWS:[a-z0-9]+]]: memref<?x?x?x?xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
// CHECK: %[[KK:.*]] = memref.dim %[[KA]], %c1 : memref<?x?xf16>
// CHECK: memref.dim %[[KWS]], %c1 : memref<?x?x?x?xf32>
// CHECK: %[[SLICE:.*]] = gpu.block_id y
// CHECK: %[[BEGIN0:.*]] = arith.muli %[[SLICE]], %[[PER:.*]] : index
// CHECK-NEXT: %[[BEGIN:.*]] = arith.minsi %[[BEGIN0]], %[[KK]] : index
// CHECK: %[[END0:.*]] = arith.addi %[[BEGIN]], %[[PER]] : index
// CHECK-NEXT: arith.minsi %[[END0]], %[[KK]] : index
// CHECK-NOT: memref.load %[[KBIAS]]
// CHECK: nvgpu.mma.sync
// CHECK-NOT: memref.store {{.*}}, %[[KC]][
// CHECK-NOT: memref.load %[[KBIAS]]
// CHECK-NOT: arith.maximumf
// CHECK-NOT: arith.truncf
// CHECK: memref.store %{{.*}}, %[[KWS]][%c0, %[[SLICE]], %{{.*}}, %{{.*}}] : memref<?x?x?x?xf32>
// CHECK-NOT: memref.store {{.*}}, %[[KC]][
// CHECK-NOT: memref.load %[[KBIAS]]
// CHECK-NOT: arith.maximumf
// CHECK-NOT: arith.truncf
// CHECK: gpu.return

// The reduction kernel: thread (x, y) of block (bx, by) owns column
// bx * 32 + x; its y is slice group y % G of block row y / G (G = 8 / R);
// block rows start at by * R and step by the grid's rows. Each group adds
// its slices g, g + G, ... in order from 0.0: four loaded at once, then
// added in order, while four remain (count - count % 4 of the group's
// count = ceil((slices - g) / G) of the workspace's dim 1), then the rest
// loaded at once; it stores its sum to shared memory, and after a barrier
// the group's first thread adds the G sums in order and runs the epilogue,
// once: + bias[col], relu, f32 -> f16, stored to C. Like every sm_90
// kernel it starts with the programmatic-launch control.
// CHECK-LABEL: gpu.func @bias_relu_gemm_reduce(
// CHECK-SAME: %[[RC:[a-z0-9]+]]: memref<?x?xf16>, %[[RBIAS:[a-z0-9]+]]: memref<?xf32>, %[[RWS:[a-z0-9]+]]: memref<?x?x?x?xf32>) workgroup(%[[PARTS:[a-z0-9]+]] : memref<256xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 32, 8, 1>}
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: %[[TY:.*]] = arith.index_cast %thread_id_y : index to i32
// CHECK: %[[SLICES0:.*]] = memref.dim %[[RWS]], %c1 : memref<?x?x?x?xf32>
// CHECK: %[[GROUPS:.*]] = arith.divui %c8_i32, %{{.*}} : i32
// CHECK-NEXT: %[[GROUP:.*]] = arith.remui %[[TY]], %[[GROUPS]] : i32
// CHECK-NEXT: %{{.*}} = arith.divui %[[TY]], %[[GROUPS]] : i32
// CHECK: scf.for %{{[a-z0-9]+}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: %[[PART:.*]] = scf.if %{{.*}} -> (f32) {
// CHECK: %[[COUNT:.*]] = arith.divui %{{.*}}, %[[GROUPS]] : i32
// CHECK-NEXT: %[[Q:.*]] = arith.divui %[[COUNT]], %c4_i32 : i32
// CHECK-NEXT: %[[UNROLLED:.*]] = arith.muli %[[Q]], %c4_i32 : i32
// CHECK-NEXT: %[[UI:.*]] = arith.index_cast %[[UNROLLED]] : i32 to index
// CHECK-NEXT: %[[SUM4:.*]] = scf.for %{{[a-z0-9]+}} = %c0 to %[[UI]] step %c4 iter_args(%[[ACC4:[a-z0-9]+]] = %[[ZERO]]) -> (f32) {
// CHECK: %[[L0:.*]] = memref.load %[[RWS]][%c0, %{{.*}}, %{{.*}}, %{{.*}}] : memref<?x?x?x?xf32>
// CHECK: %[[L1:.*]] = memref.load %[[RWS]][%c0, %{{.*}}, %{{.*}}, %{{.*}}] : memref<?x?x?x?xf32>
// CHECK: %[[L2:.*]] = memref.load %[[RWS]][%c0, %{{.*}}, %{{.*}}, %{{.*}}] : memref<?x?x?x?xf32>
// CHECK: %[[L3:.*]] = memref.load %[[RWS]][%c0, %{{.*}}, %{{.*}}, %{{.*}}] : memref<?x?x?x?xf32>
// CHECK-NEXT: %[[A0:.*]] = arith.addf %[[ACC4]], %[[L0]] : f32
// CHECK-NEXT: %[[A1:.*]] = arith.addf %[[A0]], %[[L1]] : f32
// CHECK-NEXT: %[[A2:.*]] = arith.addf %[[A1]], %[[L2]] : f32
// CHECK-NEXT: %[[A3:.*]] = arith.addf %[[A2]], %[[L3]] : f32
// CHECK-NEXT: scf.yield %[[A3]] : f32
// CHECK-NEXT: }
// The last count - unrolled (< 4) slices at once: their indices clamped to
// the group's last (count - 1), the second and third added only if they
// are slices of the group.
// CHECK-NEXT: %[[LEFT:.*]] = arith.subi %[[COUNT]], %[[UNROLLED]] : i32
// CHECK-NEXT: %[[ANY:.*]] = arith.cmpi sgt, %[[LEFT]], %c0_i32 : i32
// CHECK-NEXT: %[[SUM:.*]] = scf.if %[[ANY]] -> (f32) {
// CHECK-NEXT: %[[LAST:.*]] = arith.subi %[[COUNT]], %c1_i32 : i32
// CHECK-NEXT: %{{.*}} = arith.minsi %[[UNROLLED]], %[[LAST]] : i32
// CHECK: %[[T0:.*]] = memref.load %[[RWS]][%c0, %{{.*}}, %{{.*}}, %{{.*}}] : memref<?x?x?x?xf32>
// CHECK: arith.minsi %{{.*}}, %[[LAST]] : i32
// CHECK: %[[T1:.*]] = memref.load %[[RWS]][%c0, %{{.*}}, %{{.*}}, %{{.*}}] : memref<?x?x?x?xf32>
// CHECK: arith.minsi %{{.*}}, %[[LAST]] : i32
// CHECK: %[[T2:.*]] = memref.load %[[RWS]][%c0, %{{.*}}, %{{.*}}, %{{.*}}] : memref<?x?x?x?xf32>
// CHECK-NEXT: %[[S0:.*]] = arith.addf %[[SUM4]], %[[T0]] : f32
// CHECK-NEXT: %[[S1:.*]] = arith.addf %[[S0]], %[[T1]] : f32
// CHECK-NEXT: %[[H1:.*]] = arith.cmpi sgt, %[[LEFT]], %c1_i32 : i32
// CHECK-NEXT: %[[S1S:.*]] = arith.select %[[H1]], %[[S1]], %[[S0]] : f32
// CHECK-NEXT: %[[S2:.*]] = arith.addf %[[S1S]], %[[T2]] : f32
// CHECK-NEXT: %[[H2:.*]] = arith.cmpi sgt, %[[LEFT]], %c2_i32 : i32
// CHECK-NEXT: %[[S2S:.*]] = arith.select %[[H2]], %[[S2]], %[[S1S]] : f32
// CHECK-NEXT: scf.yield %[[S2S]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[SUM4]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %[[SUM]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[ZERO]] : f32
// CHECK-NEXT: }
// CHECK-NOT: arith.maximumf
// CHECK: memref.store %[[PART]], %[[PARTS]][%{{.*}}] : memref<256xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %{{.*}} = arith.cmpi eq, %[[GROUP]], %c0_i32 : i32
// CHECK: scf.if
// CHECK: %[[TOTAL:.*]] = scf.for %{{.*}} = %c0 to %{{.*}} step %c1 iter_args(%[[TACC:[a-z0-9]+]] = %[[ZERO]]) -> (f32) {
// CHECK: %[[P:.*]] = memref.load %[[PARTS]][%{{.*}}] : memref<256xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[TN:.*]] = arith.addf %[[TACC]], %[[P]] : f32
// CHECK-NEXT: scf.yield %[[TN]] : f32
// CHECK: %[[BI:.*]] = memref.load %[[RBIAS]][%{{.*}}] : memref<?xf32>
// CHECK-NEXT: %[[X:.*]] = arith.addf %[[TOTAL]], %[[BI]] : f32
// CHECK-NEXT: %[[Y:.*]] = arith.maximumf %[[X]], %[[ZERO]] : f32
// CHECK-NEXT: %[[Z:.*]] = arith.truncf %[[Y]] : f32 to f16
// CHECK-NEXT: memref.store %[[Z]], %[[RC]][%{{.*}}, %{{.*}}] : memref<?x?xf16>
// CHECK-NOT: arith.maximumf
// CHECK: gpu.barrier
// CHECK-NEXT: }
// CHECK-NEXT: gpu.return
func.func @bias_relu(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>, %bias: memref<?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
      extras(%bias : memref<?xf32>) acc(f32)
      attributes {broadcast = [#gemm.bcast<col>], config = #gemm.config<kind = mma_sync, block = [128, 128, 32], warps = [2, 2], instr = [16, 8, 16], stages = 3, split_k = 4>} {
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

// Batched: the workspace is [batch][slices][M][N], grid.z = batch for both
// kernels, and blockIdx.z picks the batch in both.
// CHECK: module attributes {gemm.kernels = [{
// CHECK-SAME: grid = {batched = true, tile_m = 128 : i64, tile_n = 128 : i64}
// CHECK-SAME: name = "batched_gemm",
// CHECK-SAME: split_k = {fill_blocks = 0 : i64, max = 4 : i64, min_k_per_slice = 32 : i64, reduce = {block = [32, 8, 1], group_outputs = 1024 : i64, name = "batched_gemm_reduce",
// CHECK-LABEL: func.func @batched(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<?x?x?xf16>, %{{[a-z0-9]+}}: memref<?x?x?xf16>, %[[C:[a-z0-9]+]]: memref<?x?x?xf32>)
// CHECK-DAG: %[[M:.*]] = memref.dim %[[C]], %c1 : memref<?x?x?xf32>
// CHECK-DAG: %[[N:.*]] = memref.dim %[[C]], %c2 : memref<?x?x?xf32>
// CHECK-DAG: %[[K:.*]] = memref.dim %[[A]], %c2 : memref<?x?x?xf16>
// CHECK-DAG: %[[BATCH:.*]] = memref.dim %[[C]], %c0 : memref<?x?x?xf32>
// CHECK: %[[KT0:.*]] = arith.addi %[[K]], %c31 : index
// CHECK: %[[S:.*]] = arith.maxsi %{{.*}}, %c1 : index
// CHECK-NEXT: %[[WS:.*]] = gpu.alloc (%[[BATCH]], %[[S]], %[[M]], %[[N]]) : memref<?x?x?x?xf32>
// CHECK-NEXT: gpu.launch_func @gemm_kernels::@batched_gemm blocks in (%{{.*}}, %[[S]], %[[BATCH]]) threads in (%c128, %c1, %c1) {{.*}}, %[[WS]] : memref<?x?x?x?xf32>)
// The batch counts in the reduction's grouping: batch <= 1024 * slices /
// M / N.
// CHECK: %[[BL:.*]] = arith.muli %[[S]], %c1024 : index
// CHECK: %[[BLM:.*]] = arith.divui %[[BL]], %{{.*}} : index
// CHECK-NEXT: %[[BLMN:.*]] = arith.divui %[[BLM]], %{{.*}} : index
// CHECK-NEXT: %{{.*}} = arith.cmpi sle, %[[BATCH]], %[[BLMN]] : index
// CHECK: gpu.launch_func @gemm_kernels::@batched_gemm_reduce blocks in (%{{.*}}, %{{.*}}, %[[BATCH]]) threads in (%c32, %c8, %c1) dynamic_shared_memory_size %c0_i32 args(%[[C]] : memref<?x?x?xf32>, %[[WS]] : memref<?x?x?x?xf32>)
// CHECK-NEXT: gpu.dealloc %[[WS]] : memref<?x?x?x?xf32>

// CHECK-LABEL: gpu.func @batched_gemm(
// CHECK-SAME: %[[KWS:[a-z0-9]+]]: memref<?x?x?x?xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
// CHECK-DAG: %[[BY:.*]] = gpu.block_id y
// CHECK-DAG: %[[BZ:.*]] = gpu.block_id z
// CHECK: memref.store %{{.*}}, %[[KWS]][%[[BZ]], %[[BY]], %{{.*}}, %{{.*}}] : memref<?x?x?x?xf32>

// CHECK-LABEL: gpu.func @batched_gemm_reduce(
// CHECK-SAME: %[[RC:[a-z0-9]+]]: memref<?x?x?xf32>, %[[RWS:[a-z0-9]+]]: memref<?x?x?x?xf32>) workgroup(%{{.*}} : memref<256xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 32, 8, 1>}
// CHECK-DAG: memref.dim %[[RC]], %c1 : memref<?x?x?xf32>
// CHECK-DAG: memref.dim %[[RC]], %c2 : memref<?x?x?xf32>
// CHECK-DAG: %[[RBZ:.*]] = gpu.block_id z
// CHECK-DAG: %[[RB:.*]] = memref.dim %[[RC]], %c0 : memref<?x?x?xf32>
// CHECK: %[[RB32:.*]] = arith.index_cast %[[RB]] : index to i32
// CHECK: %[[RL:.*]] = arith.muli %{{.*}}, %c1024_i32 : i32
// CHECK: %[[RLM:.*]] = arith.divui %[[RL]], %{{.*}} : i32
// CHECK-NEXT: %[[RLMN:.*]] = arith.divui %[[RLM]], %{{.*}} : i32
// CHECK-NEXT: %{{.*}} = arith.cmpi sle, %[[RB32]], %[[RLMN]] : i32
// CHECK: scf.for
// CHECK: memref.load %[[RWS]][%[[RBZ]], %{{.*}}, %{{.*}}, %{{.*}}] : memref<?x?x?x?xf32>
// CHECK: memref.store %{{.*}}, %[[RC]][%[[RBZ]], %{{.*}}, %{{.*}}] : memref<?x?x?xf32>
func.func @batched(%a: memref<?x?x?xf16>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?x?xf16>, memref<?x?x?xf16>) outs(%c : memref<?x?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [128, 128, 32], warps = [2, 2], instr = [16, 8, 16], stages = 3, split_k = 4>}
  return
}
