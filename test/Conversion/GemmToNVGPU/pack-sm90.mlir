// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu="chip=sm_90 dispatch=false" --split-input-file | FileCheck %s
// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu="chip=sm_90 pack-unaligned=false dispatch=false" --split-input-file | FileCheck %s --check-prefix=NOPACK
// (dispatch=false: the default kernel alone; dispatch-sm90a.mlir tests the families.)

// Operands that 16-byte copies cannot read are packed on the host side into
// zero-padded workspaces (the contiguous dimension rounded up to 128 bytes,
// so every workspace row starts on a cache line) by a copy kernel, and the
// GEMM kernel reads the workspaces. Each operand is packed on its own
// (`each_operand = true`) unless K is contiguous in both (tn): then both
// workspaces pad K, and both are packed whenever one is.

// Static strides prove A and B misaligned (K = 4095 f16): always packed, and
// the GEMM kernel reads the workspaces (its sizes are arguments: kernels are
// shape-generic).
// CHECK: pack = {
// CHECK-SAME: block = [256, 1, 1],
// CHECK-SAME: each_operand = false,
// CHECK-SAME: grid_rule = "x = min(ceil(rows' * ceil(cols' / warp_elements) * 32 / block.x), max_blocks), y = 1, z = batch (1 without), the workspace's rows' x cols'",
// CHECK-SAME: max_blocks = 16384 : i64,
// CHECK-SAME: multiple = 8 : i64,
// CHECK-SAME: operands = [{kernel = "gemm_pack_f16", name = "A", round_up_dims = [1], when = "always"}, {kernel = "gemm_pack_f16_0", name = "B", round_up_dims = [1], when = "always"}],
// CHECK-SAME: round_to = 64 : i64,
// CHECK-SAME: warp_elements = 256 : i64,
// CHECK-SAME: when = "always"},
// CHECK-SAME: params = [{element_type = "f16", kind = "memref", name = "A", rank = 2 : i64, shape = [-1, -1]}
// CHECK-LABEL: func.func @ragged(
// CHECK-SAME: %[[A:.*]]: memref<4099x4095xf16>, %[[B:.*]]: memref<4097x4095xf16>, %[[C:.*]]: memref<4099x4097xf16>)
// CHECK-NOT: scf.if
// CHECK: %[[WA:.*]] = gpu.alloc () : memref<4099x4096xf16>
// grid.x: 4099 rows of 16 segments, 8 per block (8198 blocks); y = z = 1.
// CHECK: gpu.launch_func @gemm_kernels::@gemm_pack_f16 blocks in (%{{.*}}, %c1{{.*}}, %c1{{.*}}) threads in (%c256{{.*}} args(%[[A]] : memref<4099x4095xf16>, %[[WA]] : memref<4099x4096xf16>)
// CHECK: %[[WB:.*]] = gpu.alloc () : memref<4097x4096xf16>
// CHECK: gpu.launch_func @gemm_kernels::@gemm_pack_f16_0 {{.*}} args(%[[B]] : memref<4097x4095xf16>, %[[WB]] : memref<4097x4096xf16>)
// CHECK-DAG: %[[CA:.*]] = memref.cast %[[WA]] : memref<4099x4096xf16> to memref<?x?xf16>
// CHECK-DAG: %[[CB:.*]] = memref.cast %[[WB]] : memref<4097x4096xf16> to memref<?x?xf16>
// CHECK-DAG: %[[CC:.*]] = memref.cast %[[C]] : memref<4099x4097xf16> to memref<?x?xf16>
// CHECK: gpu.launch_func @gemm_kernels::@ragged_gemm {{.*}} args(%[[CA]] : memref<?x?xf16>, %[[CB]] : memref<?x?xf16>, %[[CC]] : memref<?x?xf16>)
// CHECK: gpu.dealloc %[[WA]] : memref<4099x4096xf16>
// CHECK: gpu.dealloc %[[WB]] : memref<4097x4096xf16>
// The pack kernel: units of 256 elements of a workspace row (16 per row
// here), numbered row by row, a warp per unit (warp w of block bx takes unit
// bx * 8 + w, then steps by the grid's warps). Where the source's buffer is
// 16-byte aligned (checked at run time; its inner stride is 1 here) lane l
// copies the 8 elements from 8 l of its unit: the two aligned 16-byte
// blocks holding them, funnel-shifted into place (elements past the row
// masked to zero), one 16-byte store. Else lane l copies elements l,
// l + 32, ...: clamped loads selected to zero outside the source, then
// stores inside the workspace. Like every sm_90 kernel it starts with the
// programmatic-launch control.
// CHECK-LABEL: gpu.func @gemm_pack_f16(
// CHECK-SAME: %[[SRC:.*]]: memref<4099x4095xf16>, %[[DST:.*]]: memref<4099x4096xf16>) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// CHECK: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK-NOT: gpu.block_id y
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[SRC]]
// CHECK: %[[REM:.*]] = arith.remui %[[PTR]], %c16
// CHECK: %[[ALIGNED:.*]] = arith.cmpi eq, %[[REM]], %{{.*}} : index
// CHECK: %[[LINEAR:.*]] = memref.reinterpret_cast
// CHECK: scf.for %[[UNIT:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: %[[U:.*]] = arith.index_cast %[[UNIT]] : index to i32
// CHECK: %[[ROW:.*]] = arith.divui %[[U]], %[[PERROW:.*]] : i32
// CHECK-NEXT: %[[SEG:.*]] = arith.remui %[[U]], %[[PERROW]] : i32
// CHECK: scf.if %{{.*}} {
// CHECK-COUNT-2: vector.load %[[LINEAR]][%{{.*}}] {alignment = 16 : i64} : memref<?xf16>, vector<8xf16>
// CHECK-COUNT-4: llvm.intr.fshr
// CHECK: arith.andi %{{.*}} : vector<4xi32>
// CHECK: scf.if
// CHECK: vector.store %{{.*}}, %[[DST]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<4099x4096xf16>, vector<8xf16>
// CHECK: } else {
// CHECK-COUNT-8: memref.load %[[SRC]]
// CHECK-NOT: memref.load
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %[[DST]][%{{.*}}, %{{.*}}] : memref<4099x4096xf16>
// CHECK-LABEL: gpu.func @gemm_pack_f16_0(
// The GEMM kernel follows the pack kernels.
// CHECK: gpu.func @ragged_gemm(%{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>)
// CHECK: nvgpu.device_async_copy

// NOPACK-LABEL: func.func @ragged(
// NOPACK-NOT: gpu.alloc
// NOPACK: memref.cast %arg0 : memref<4099x4095xf16> to memref<?x?xf16>
// NOPACK: gpu.launch_func @gemm_kernels::@ragged_gemm
// NOPACK-NOT: pack
func.func @ragged(%a: memref<4099x4095xf16>, %b: memref<4097x4095xf16>, %c: memref<4099x4097xf16>) {
  gemm.matmul tn ins(%a, %b : memref<4099x4095xf16>, memref<4097x4095xf16>) outs(%c : memref<4099x4097xf16>) acc(f32)
  return
}

// -----

// Dynamic sizes: the host checks each operand's alignment (base, offset,
// leading stride) and packs only the operands that need it: nn's B (K x N)
// pads its contiguous N only, and the kernel reads K from B, so A's padded K
// is never read. The workspaces share the operands' type, so the kernel's
// signature is unchanged.
// CHECK: each_operand = true
// CHECK-SAME: operands = [{kernel = "gemm_pack_f16", name = "A", round_up_dims = [1], when = "unaligned"}, {kernel = "gemm_pack_f16", name = "B", round_up_dims = [1], when = "unaligned"}], round_to = 64 : i64, warp_elements = 256 : i64, when = "unaligned"
// CHECK-LABEL: func.func @dyn(
// CHECK: memref.extract_aligned_pointer_as_index %arg0
// CHECK: %[[RA:.*]] = scf.if %[[OKA:.*]] -> (memref<?x?xf16>) {
// CHECK-NEXT: scf.yield %arg0
// CHECK: } else {
// CHECK: %[[WA:.*]] = gpu.alloc (%{{.*}}, %{{.*}}) : memref<?x?xf16>
// CHECK: gpu.launch_func @gemm_kernels::@gemm_pack_f16 {{.*}} args(%arg0 : memref<?x?xf16>, %[[WA]] : memref<?x?xf16>)
// CHECK: scf.yield %[[WA]]
// CHECK: %[[PACKEDA:.*]] = arith.xori %[[OKA]], %true
// CHECK: memref.extract_aligned_pointer_as_index %arg1
// CHECK: %[[RB:.*]] = scf.if %[[OKB:.*]] -> (memref<?x?xf16>) {
// CHECK-NEXT: scf.yield %arg1
// CHECK: } else {
// CHECK: %[[WB:.*]] = gpu.alloc (%{{.*}}, %{{.*}}) : memref<?x?xf16>
// CHECK: gpu.launch_func @gemm_kernels::@gemm_pack_f16 {{.*}} args(%arg1 : memref<?x?xf16>, %[[WB]] : memref<?x?xf16>)
// CHECK: scf.yield %[[WB]]
// CHECK: %[[PACKEDB:.*]] = arith.xori %[[OKB]], %true
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm {{.*}} args(%[[RA]] : memref<?x?xf16>, %[[RB]] : memref<?x?xf16>, %arg2 : memref<?x?xf16>)
// CHECK: scf.if %[[PACKEDA]] {
// CHECK-NEXT: gpu.dealloc %[[RA]]
// CHECK: scf.if %[[PACKEDB]] {
// CHECK-NEXT: gpu.dealloc %[[RB]]
// One pack kernel serves both operands (same signature).
// CHECK: gpu.func @gemm_pack_f16(%{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>)
// CHECK-NOT: gpu.func @gemm_pack
// The kernel's K is B's dimension 0.
// CHECK: gpu.func @dyn_gemm(%[[KA:.*]]: memref<?x?xf16>, %[[KB:.*]]: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>)
// CHECK-NOT: memref.dim %[[KA]], %c1
// CHECK: memref.dim %[[KB]], %c0

// NOPACK-LABEL: func.func @dyn(
// NOPACK-NOT: scf.if
// NOPACK: gpu.launch_func @gemm_kernels::@dyn_gemm {{.*}} args(%arg0 : memref<?x?xf16>, %arg1 : memref<?x?xf16>, %arg2 : memref<?x?xf16>)
func.func @dyn(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}

// -----

// A strided operand (inner stride checked at run time too) and a static,
// aligned one, in tn: K is contiguous in both, so both are packed when
// either is, under one check of both; the kernel takes types both the
// operands and the workspaces cast to.
// CHECK: each_operand = false
// CHECK-LABEL: func.func @strided(
// CHECK: arith.cmpi eq, %strides{{.*}}#1, %c1
// CHECK: scf.if %{{.*}} -> (memref<?x?xi8, strided<[?, ?], offset: ?>>, memref<?x?xi8, strided<[?, 1], offset: ?>>)
// CHECK: memref.cast %arg1 : memref<64x64xi8> to memref<?x?xi8, strided<[?, 1], offset: ?>>
// CHECK: } else {
// CHECK: gpu.alloc (%{{.*}}, %{{.*}}) : memref<?x?xi8>
// CHECK: memref.cast %{{.*}} : memref<?x?xi8> to memref<?x?xi8, strided<[?, ?], offset: ?>>
// CHECK: scf.if
// CHECK: %[[W:.*]] = memref.cast %{{.*}}#0 : memref<?x?xi8, strided<[?, ?], offset: ?>> to memref<?x?xi8>
// CHECK-NEXT: gpu.dealloc %[[W]] : memref<?x?xi8>
// i8: 16 elements per 16 bytes. The shifted path needs the source's inner
// stride, dynamic here, to be 1 (checked in the kernel).
// CHECK-LABEL: gpu.func @gemm_pack_i8(
// CHECK: %{{.*}}, %{{.*}}, %{{.*}}, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %arg0
// CHECK: arith.cmpi eq, %[[STRIDES]]#1, %c1
// CHECK: scf.if
// CHECK: vector.load {{.*}} : memref<?xi8>, vector<16xi8>
// CHECK: } else {
// CHECK-COUNT-16: memref.load
// CHECK-NOT: memref.load
// CHECK: memref.store {{.*}} : memref<?x?xi8>
// CHECK: gpu.func @strided_gemm(%{{.*}}: memref<?x?xi8, strided<[?, ?], offset: ?>>, %{{.*}}: memref<?x?xi8, strided<[?, 1], offset: ?>>, %{{.*}}: memref<?x?xi32>)
func.func @strided(%a: memref<?x?xi8, strided<[?, ?], offset: ?>>, %b: memref<64x64xi8>, %c: memref<?x?xi32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xi8, strided<[?, ?], offset: ?>>, memref<64x64xi8>) outs(%c : memref<?x?xi32>) acc(i32)
  return
}

// -----

// Nothing to pack: static, aligned strides (the base pointer is still checked
// in the kernel): no `pack` record between the name and the parameters.
// CHECK: name = "aligned_gemm", params =
// CHECK-LABEL: func.func @aligned(
// CHECK-NOT: gpu.alloc
// CHECK: gpu.launch_func @gemm_kernels::@aligned_gemm
func.func @aligned(%a: memref<256x64xbf16>, %b: memref<64x128xbf16>, %c: memref<256x128xf32>) {
  gemm.matmul nn ins(%a, %b : memref<256x64xbf16>, memref<64x128xbf16>) outs(%c : memref<256x128xf32>) acc(f32)
  return
}

// -----

// Batched operands: rank-3 workspaces (the batch dimension kept, the
// contiguous dimension rounded up), one batch element per grid.z.
// CHECK: operands = [{kernel = "gemm_pack_f16", name = "A", round_up_dims = [2], when = "unaligned"}, {kernel = "gemm_pack_f16", name = "B", round_up_dims = [2], when = "unaligned"}]
// CHECK-LABEL: func.func @batched(
// CHECK: scf.if %{{.*}} -> (memref<?x?x?xf16>, memref<?x?x?xf16>)
// CHECK: %[[BATCH:.*]] = memref.dim %arg0, %c0
// CHECK: gpu.alloc (%[[BATCH]], %{{.*}}, %{{.*}}) : memref<?x?x?xf16>
// CHECK: gpu.launch_func @gemm_kernels::@gemm_pack_f16 blocks in (%{{.*}}, %{{.*}}, %[[BATCH]])
// The shifted path starts from the batch element's offset in the buffer.
// CHECK: gpu.func @gemm_pack_f16(
// CHECK: %[[Z:.*]] = gpu.block_id z
// CHECK: %{{.*}}, %[[OFF:.*]], %{{.*}}:3, %[[STR:.*]]:3 = memref.extract_strided_metadata %arg0
// CHECK: %[[ZOFF:.*]] = arith.muli %[[Z]], %[[STR]]#0 : index
// CHECK: arith.addi %[[OFF]], %[[ZOFF]] : index
// CHECK: vector.store %{{.*}}, %{{.*}}[%[[Z]], %{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?x?xf16>, vector<8xf16>
// CHECK: memref.load %{{.*}}[%[[Z]], %{{.*}}, %{{.*}}] : memref<?x?x?xf16>
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[Z]], %{{.*}}, %{{.*}}] : memref<?x?x?xf16>
func.func @batched(%a: memref<?x?x?xf16>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?x?xf16>, memref<?x?x?xf16>) outs(%c : memref<?x?x?xf16>) acc(f32)
  return
}

// -----

// nn: B is K x N; its contiguous N is rounded up to 64 f16 (128 bytes):
// 4095 x 4097 -> 4095 x 4160, whose rows start on cache lines (4104-element
// rows, 16 bytes apart from a line, made the GEMM 16% slower on the H200).
// A's K is padded to 4096, which the kernel (K from B) never reads.
// CHECK-LABEL: func.func @ragged_nn
// CHECK: gpu.alloc () : memref<4099x4096xf16>
// CHECK: gpu.alloc () : memref<4095x4160xf16>
func.func @ragged_nn(%a: memref<4099x4095xf16>, %b: memref<4095x4097xf16>, %c: memref<4099x4097xf16>) {
  gemm.matmul nn ins(%a, %b : memref<4099x4095xf16>, memref<4095x4097xf16>) outs(%c : memref<4099x4097xf16>) acc(f32)
  return
}

// -----

// nn with K = 4095 and N = 4096: only A's rows are misaligned. A alone is
// packed (always: its type proves it), B is read where it is.
// CHECK: each_operand = true
// CHECK-SAME: operands = [{kernel = "gemm_pack_f16", name = "A", round_up_dims = [1], when = "always"}]
// CHECK-LABEL: func.func @one_misaligned(
// CHECK-SAME: %[[A:.*]]: memref<8x4095xf16>, %[[B:.*]]: memref<4095x4096xf16>, %[[C:.*]]: memref<8x4096xf16>)
// CHECK-NOT: scf.if
// CHECK: %[[WA:.*]] = gpu.alloc () : memref<8x4096xf16>
// CHECK: gpu.launch_func @gemm_kernels::@gemm_pack_f16 {{.*}} args(%[[A]] : memref<8x4095xf16>, %[[WA]] : memref<8x4096xf16>)
// CHECK-NOT: gpu.alloc
// CHECK-DAG: %[[CA:.*]] = memref.cast %[[WA]] : memref<8x4096xf16> to memref<?x?xf16>
// CHECK-DAG: %[[CB:.*]] = memref.cast %[[B]] : memref<4095x4096xf16> to memref<?x?xf16>
// CHECK: gpu.launch_func @gemm_kernels::@one_misaligned_gemm {{.*}} args(%[[CA]] : memref<?x?xf16>, %[[CB]] : memref<?x?xf16>,
// CHECK: gpu.dealloc %[[WA]] : memref<8x4096xf16>
// CHECK-NOT: gpu.dealloc
func.func @one_misaligned(%a: memref<8x4095xf16>, %b: memref<4095x4096xf16>, %c: memref<8x4096xf16>) {
  gemm.matmul nn ins(%a, %b : memref<8x4095xf16>, memref<4095x4096xf16>) outs(%c : memref<8x4096xf16>) acc(f32)
  return
}
