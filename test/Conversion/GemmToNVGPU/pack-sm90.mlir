// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu="chip=sm_90 dispatch=false" --split-input-file | FileCheck %s
// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu="chip=sm_90 pack-unaligned=false dispatch=false" --split-input-file | FileCheck %s --check-prefix=NOPACK
// (dispatch=false: the default kernel alone; dispatch-sm90a.mlir tests the families.)

// Operands that 16-byte copies cannot read are packed on the host side into
// zero-padded workspaces (K and the contiguous dimension rounded up to 128
// bytes, so every workspace row starts on a cache line) by a copy kernel,
// and the GEMM kernel reads the workspaces.

// Static strides prove A and B misaligned (K = 4095 f16): always packed, and
// the GEMM kernel reads the workspaces (its sizes are arguments: kernels are
// shape-generic).
// CHECK: pack = {
// CHECK-SAME: block = [256, 1, 1],
// CHECK-SAME: grid_rule = "x = min(ceil(rows' * ceil(cols' / warp_elements) * 32 / block.x), max_blocks), y = 1, z = batch (1 without), the workspace's rows' x cols'",
// CHECK-SAME: max_blocks = 16384 : i64,
// CHECK-SAME: multiple = 8 : i64,
// CHECK-SAME: operands = [{kernel = "gemm_pack_f16", name = "A", round_up_dims = [1]}, {kernel = "gemm_pack_f16_0", name = "B", round_up_dims = [1]}],
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
// CHECK: gpu.func @ragged_gemm(%{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>)
// CHECK: nvgpu.device_async_copy
// The pack kernel: units of 256 elements of a workspace row (16 per row
// here), numbered row by row, a warp per unit (warp w of block bx takes unit
// bx * 8 + w, then steps by the grid's warps), lane l copying elements
// l, l + 32, ...: clamped loads selected to zero outside the source, then
// stores inside the workspace. Like every sm_90 kernel it starts with the
// programmatic-launch control.
// CHECK-LABEL: gpu.func @gemm_pack_f16(
// CHECK-SAME: %[[SRC:.*]]: memref<4099x4095xf16>, %[[DST:.*]]: memref<4099x4096xf16>) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// CHECK: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK-NOT: gpu.block_id y
// CHECK: scf.for %[[UNIT:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: %[[U:.*]] = arith.index_cast %[[UNIT]] : index to i32
// CHECK: %[[ROW:.*]] = arith.divui %[[U]], %[[PERROW:.*]] : i32
// CHECK-NEXT: %[[SEG:.*]] = arith.remui %[[U]], %[[PERROW]] : i32
// CHECK-COUNT-8: memref.load %[[SRC]]
// CHECK-NOT: memref.load
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %[[DST]][%{{.*}}, %{{.*}}] : memref<4099x4096xf16>
// CHECK-LABEL: gpu.func @gemm_pack_f16_0(

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

// Dynamic sizes: the host checks alignment (base, offset, leading stride) and
// packs only when needed; nn pads K (rows of B) as well as the contiguous
// dimensions. The workspaces share the operands' type, so the kernel's
// signature is unchanged.
// CHECK: operands = [{kernel = "gemm_pack_f16", name = "A", round_up_dims = [1]}, {kernel = "gemm_pack_f16", name = "B", round_up_dims = [0, 1]}], round_to = 64 : i64, warp_elements = 256 : i64, when = "unaligned"
// CHECK-LABEL: func.func @dyn(
// CHECK: memref.extract_aligned_pointer_as_index %arg0
// CHECK: memref.extract_aligned_pointer_as_index %arg1
// CHECK: %[[R:.*]]:2 = scf.if %[[OK:.*]] -> (memref<?x?xf16>, memref<?x?xf16>) {
// CHECK-NEXT: scf.yield %arg0, %arg1
// CHECK: } else {
// CHECK: %[[WA:.*]] = gpu.alloc (%{{.*}}, %{{.*}}) : memref<?x?xf16>
// CHECK: gpu.launch_func @gemm_kernels::@gemm_pack_f16 
// CHECK: %[[WB:.*]] = gpu.alloc (%{{.*}}, %{{.*}}) : memref<?x?xf16>
// CHECK: gpu.launch_func @gemm_kernels::@gemm_pack_f16 
// CHECK: scf.yield %[[WA]], %[[WB]]
// CHECK: %[[PACKED:.*]] = arith.xori %[[OK]], %true
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm {{.*}} args(%[[R]]#0 : memref<?x?xf16>, %[[R]]#1 : memref<?x?xf16>, %arg2 : memref<?x?xf16>)
// CHECK: scf.if %[[PACKED]] {
// CHECK-NEXT: gpu.dealloc %[[R]]#0
// CHECK-NEXT: gpu.dealloc %[[R]]#1
// CHECK: gpu.func @dyn_gemm(%{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>)
// One pack kernel serves both operands (same signature).
// CHECK: gpu.func @gemm_pack_f16(%{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>)
// CHECK-NOT: gpu.func @gemm_pack

// NOPACK-LABEL: func.func @dyn(
// NOPACK-NOT: scf.if
// NOPACK: gpu.launch_func @gemm_kernels::@dyn_gemm {{.*}} args(%arg0 : memref<?x?xf16>, %arg1 : memref<?x?xf16>, %arg2 : memref<?x?xf16>)
func.func @dyn(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}

// -----

// A strided operand (inner stride checked at run time too) and a static one:
// the kernel takes types both the operands and the workspaces cast to.
// CHECK-LABEL: func.func @strided(
// CHECK: arith.cmpi eq, %strides#1, %c1
// CHECK: scf.if %{{.*}} -> (memref<?x?xi8, strided<[?, ?], offset: ?>>, memref<?x?xi8, strided<[?, 1], offset: ?>>)
// CHECK: memref.cast %arg1 : memref<64x64xi8> to memref<?x?xi8, strided<[?, 1], offset: ?>>
// CHECK: } else {
// CHECK: gpu.alloc (%{{.*}}, %{{.*}}) : memref<?x?xi8>
// CHECK: memref.cast %{{.*}} : memref<?x?xi8> to memref<?x?xi8, strided<[?, ?], offset: ?>>
// CHECK: scf.if
// CHECK: %[[W:.*]] = memref.cast %{{.*}}#0 : memref<?x?xi8, strided<[?, ?], offset: ?>> to memref<?x?xi8>
// CHECK-NEXT: gpu.dealloc %[[W]] : memref<?x?xi8>
// CHECK: gpu.func @strided_gemm(%{{.*}}: memref<?x?xi8, strided<[?, ?], offset: ?>>, %{{.*}}: memref<?x?xi8, strided<[?, 1], offset: ?>>, %{{.*}}: memref<?x?xi32>)
// i8: 16 elements per 16 bytes.
// CHECK-LABEL: gpu.func @gemm_pack_i8(
// CHECK-COUNT-16: memref.load
// CHECK-NOT: memref.load
// CHECK: memref.store {{.*}} : memref<?x?xi8>
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

// Batched operands: rank-3 workspaces (the batch dimension kept, K and the
// contiguous dimension rounded up), one batch element per grid.z.
// CHECK: operands = [{kernel = "gemm_pack_f16", name = "A", round_up_dims = [2]}, {kernel = "gemm_pack_f16", name = "B", round_up_dims = [2]}]
// CHECK-LABEL: func.func @batched(
// CHECK: scf.if %{{.*}} -> (memref<?x?x?xf16>, memref<?x?x?xf16>)
// CHECK: %[[BATCH:.*]] = memref.dim %arg0, %c0
// CHECK: gpu.alloc (%[[BATCH]], %{{.*}}, %{{.*}}) : memref<?x?x?xf16>
// CHECK: gpu.launch_func @gemm_kernels::@gemm_pack_f16 blocks in (%{{.*}}, %{{.*}}, %[[BATCH]])
// CHECK: gpu.func @gemm_pack_f16(
// CHECK: %[[Z:.*]] = gpu.block_id z
// CHECK: memref.load %{{.*}}[%[[Z]], %{{.*}}, %{{.*}}] : memref<?x?x?xf16>
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[Z]], %{{.*}}, %{{.*}}] : memref<?x?x?xf16>
func.func @batched(%a: memref<?x?x?xf16>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?x?xf16>, memref<?x?x?xf16>) outs(%c : memref<?x?x?xf16>) acc(f32)
  return
}

// -----

// nn: B is K x N; both its dimensions are rounded up to 64 f16 (128 bytes):
// 4095 x 4097 -> 4096 x 4160, whose rows start on cache lines (4104-element
// rows, 16 bytes apart from a line, made the GEMM 16% slower on the H200).
// CHECK-LABEL: func.func @ragged_nn
// CHECK: gpu.alloc () : memref<4099x4096xf16>
// CHECK: gpu.alloc () : memref<4096x4160xf16>
func.func @ragged_nn(%a: memref<4099x4095xf16>, %b: memref<4095x4097xf16>, %c: memref<4099x4097xf16>) {
  gemm.matmul nn ins(%a, %b : memref<4099x4095xf16>, memref<4095x4097xf16>) outs(%c : memref<4099x4097xf16>) acc(f32)
  return
}
