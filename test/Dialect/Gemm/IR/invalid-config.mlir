// RUN: gemm-opt %s -split-input-file -verify-diagnostics

// Structural checks of #gemm.config, independent of any target.

func.func @block_arity(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{expected 'block' to have 3 entries (BM, BN, BK), got 2}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [128, 128], warps = [2, 2], instr = [16, 8, 16]>}
  return
}

// -----

func.func @negative(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{expected 'warps' entries to be positive, got 0}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [128, 128, 32], warps = [2, 0], instr = [16, 8, 16]>}
  return
}

// -----

func.func @warp_grid(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{block tile N (96) is not divisible by the warp grid N (5)}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [128, 96, 32], warps = [2, 5], instr = [16, 8, 16]>}
  return
}

// -----

func.func @warp_tile(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{warp tile M (24) is not a multiple of the instruction M (16)}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [48, 128, 32], warps = [2, 2], instr = [16, 8, 16]>}
  return
}

// -----

func.func @block_k(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{block tile K (24) is not a multiple of the instruction K (16)}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [128, 128, 24], warps = [2, 2], instr = [16, 8, 16]>}
  return
}

// -----

func.func @stages(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{expected 'stages' in [1, 8], got 12}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [128, 128, 32], warps = [2, 2], instr = [16, 8, 16], stages = 12>}
  return
}

// -----

func.func @split_k(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{expected 'split_k' in [1, 65535], got 0}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [128, 128, 32], warps = [2, 2], instr = [16, 8, 16], split_k = 0>}
  return
}

// -----

func.func @group(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{expected 'group' in [1, 65536], got 0}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [128, 128, 32], warps = [2, 2], instr = [16, 8, 16], group = 0>}
  return
}

// -----

func.func @simt_k(%a: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{simt per-thread tile must have k = 1, got 2}}
  gemm.matmul nn ins(%a, %a : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = simt, block = [64, 64, 8], warps = [2, 2], instr = [4, 8, 2]>}
  return
}

// -----

func.func @wgmma_m(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{wgmma instruction M must be 64, got 16}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 128, 32], warps = [2, 2], instr = [16, 8, 16]>}
  return
}

// -----

func.func @no_such_instruction(%a: memref<?x?xi8>, %c: memref<?x?xi32>) {
  // expected-error @+1 {{no mma_sync instruction has shape 16x8x8 for i8 operands accumulating in i32}}
  gemm.matmul tn ins(%a, %a : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) acc(i32)
    attributes {config = #gemm.config<kind = mma_sync, block = [128, 128, 64], warps = [2, 2], instr = [16, 8, 8]>}
  return
}

// -----

func.func @bf16_mfma_shape(%a: memref<?x?xbf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{no mfma instruction has shape 16x16x8 for bf16 operands accumulating in f32}}
  gemm.matmul tn ins(%a, %a : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mfma, block = [64, 64, 32], warps = [2, 2], instr = [16, 16, 8]>}
  return
}

// -----

// Sizes are bounded: a group of 2^32 tile rows wrapped to 0 in the kernel's
// 32-bit index math (a division by zero at run time).
func.func @group_huge(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{expected 'group' in [1, 65536], got 4294967296}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [128, 128, 32], warps = [2, 2], instr = [16, 8, 16], group = 4294967296>}
  return
}

// -----

// simt sizes near 2^62 overflowed the shared-memory and register estimates.
func.func @block_huge(%a: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{expected 'block' entries to be at most 65536, got 4611686018427387904}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = simt, block = [4611686018427387904, 64, 16], warps = [2, 2], instr = [4611686018427387904, 8, 1]>}
  return
}

// -----

// An instruction N of 2^32 + 8 wrapped to the legal 8 in 32 bits.
func.func @instr_wraps(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{expected 'instr' entries to be at most 1024, got 4294967304}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [128, 128, 32], warps = [2, 1], instr = [16, 4294967304, 16]>}
  return
}

// -----

func.func @warps_huge(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{expected 'warps' entries to be at most 1024, got 2048}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [4096, 128, 32], warps = [2048, 1], instr = [16, 8, 16]>}
  return
}

// -----

func.func @cluster_slices(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{expected 'split_k' in [2, 8] with 'reduction = cluster', got 9}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [128, 128, 32], warps = [2, 2], instr = [16, 8, 16], split_k = 9, reduction = cluster>}
  return
}

// -----

func.func @cluster_unsplit(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{expected 'split_k' in [2, 8] with 'reduction = cluster', got 1}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [128, 128, 32], warps = [2, 2], instr = [16, 8, 16], reduction = cluster>}
  return
}

// -----

func.func @reduction_unknown(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+3 {{expected one of [workspace, cluster, fixup] for how the K slices of a split-K kernel are added, got: atomic}}
  // expected-error @+2 {{failed to parse Gemm_ConfigAttr parameter 'reduction'}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [128, 128, 32], warps = [2, 2], instr = [16, 8, 16], split_k = 2, reduction = atomic>}
  return
}

// -----

func.func @tma_not_wgmma(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{'load = tma' needs kind = wgmma, got kind = mma_sync}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [128, 128, 32], warps = [2, 2], instr = [16, 8, 16], load = tma>}
  return
}

// -----

func.func @tma_unknown(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+3 {{expected one of [cp_async, tma, tma_ws] for how operand tiles travel from global to shared memory, got: bulk}}
  // expected-error @+2 {{failed to parse Gemm_ConfigAttr parameter 'load'}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], load = bulk>}
  return
}

// -----

func.func @tma_ws_warpgroups(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{'load = tma_ws' takes at most 3 consumer warpgroups, got 4}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [256, 128, 64], warps = [4, 1], instr = [64, 128, 16], stages = 4, load = tma_ws>}
  return
}

// -----

func.func @tma_ws_stages(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{'load = tma_ws' needs at least 2 stages, got 1}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 128, 64], warps = [2, 1], instr = [64, 128, 16], stages = 1, load = tma_ws>}
  return
}

// -----

func.func @tma_ws_cluster(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{'load = tma_ws' does not combine with 'reduction = cluster'}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [64, 128, 64], warps = [1, 1], instr = [64, 128, 16], stages = 4, split_k = 2, reduction = cluster, load = tma_ws>}
  return
}

// -----

func.func @tma_cluster(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{'load = tma' does not combine with 'reduction = cluster'}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [64, 128, 64], warps = [1, 1], instr = [64, 128, 16], stages = 4, split_k = 2, reduction = cluster, load = tma>}
  return
}

// -----

func.func @pingpong_load(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{'schedule = pingpong' needs 'load = tma_ws'}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 128, 64], warps = [1, 1], instr = [64, 128, 16], stages = 4, load = tma, schedule = pingpong>}
  return
}

// -----

func.func @pingpong_split(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{'schedule = pingpong' does not combine with split_k = 2}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 128, 64], warps = [1, 1], instr = [64, 128, 16], stages = 4, split_k = 2, load = tma_ws, schedule = pingpong>}
  return
}

// -----

// Two teams of two warpgroups: four consumer warpgroups.
func.func @pingpong_warpgroups(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{'load = tma_ws' takes at most 3 consumer warpgroups, got 4}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 128, 64], warps = [2, 1], instr = [64, 128, 16], stages = 4, load = tma_ws, schedule = pingpong>}
  return
}

// -----

func.func @schedule_unknown(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+3 {{expected one of [tile, pingpong, persistent] for which output tiles a block computes, got: cooperative}}
  // expected-error @+2 {{failed to parse Gemm_ConfigAttr parameter 'schedule'}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 128, 64], warps = [1, 1], instr = [64, 128, 16], schedule = cooperative>}
  return
}

// -----

func.func @persistent_load(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{'schedule = persistent' needs 'load = tma_ws'}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 3, schedule = persistent>}
  return
}

// -----

func.func @gemv_warps(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{gemv warp grid must be [1, W] (warps split N), got [2, 4]}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [2, 16, 512], warps = [2, 4], instr = [1, 1, 8], stages = 1>}
  return
}

// -----

func.func @gemv_rows(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{gemv block M (rows of A a warp multiplies) must be at most 4, got 8}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [8, 16, 512], warps = [1, 8], instr = [1, 1, 8], stages = 1>}
  return
}

// -----

func.func @gemv_warp_tile(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{gemv warp tile N (rows of B a warp streams, block N / warps[1]) must be at most 4, got 8}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [1, 64, 512], warps = [1, 8], instr = [1, 1, 8], stages = 1>}
  return
}

// -----

func.func @gemv_bk(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{gemv block K must be 1 to 8 times 256 (32 lanes x instr K), got 384}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [1, 16, 384], warps = [1, 8], instr = [1, 1, 8], stages = 1>}
  return
}

// -----

func.func @gemv_stages(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{gemv needs stages = 1 (it has no shared-memory pipeline), got 2}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [1, 16, 512], warps = [1, 8], instr = [1, 1, 8], stages = 2>}
  return
}

// -----

func.func @gemv_mma_stages(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{gemv on mma.sync needs stages = 1 or 2 (2: the next iteration's loads in registers), got 3}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [8, 16, 64], warps = [1, 8], instr = [8, 16, 16], stages = 3>}
  return
}

// -----

func.func @gemv_split(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{gemv does not combine with split_k = 4}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [1, 16, 512], warps = [1, 8], instr = [1, 1, 8], stages = 1, split_k = 4>}
  return
}

// -----

func.func @gemv_instr(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{gemv instr must be [1, 1, 16 / element bytes] or [1, 16 / element bytes, 1] (f32 FMAs) or [8, 16, 16] (mma.sync m16n8k16, operands swapped), got 2x1x8}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [2, 16, 512], warps = [1, 8], instr = [2, 1, 8], stages = 1>}
  return
}

// -----

func.func @gemv_mma_warps(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{gemv on mma.sync needs warps = [1, W] with W (warps splitting K) 1 to 8, got [1, 16]}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [8, 16, 64], warps = [1, 16], instr = [8, 16, 16], stages = 1>}
  return
}

// -----

func.func @gemv_mma_rows_a(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{gemv on mma.sync needs block M (rows of A) a multiple of 8 up to 16, got 12}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [12, 16, 64], warps = [1, 8], instr = [8, 16, 16], stages = 1>}
  return
}

// -----

func.func @gemv_mma_rows_b(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{gemv on mma.sync needs block N (rows of B) a multiple of 16 up to 64, got 128}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [8, 128, 64], warps = [1, 8], instr = [8, 16, 16], stages = 1>}
  return
}

// -----

func.func @gemv_mma_bk(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{gemv on mma.sync needs block K 1 to 8 times 32 (4 lanes x 8 elements a row), got 48}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [8, 16, 48], warps = [1, 8], instr = [8, 16, 16], stages = 1>}
  return
}

// -----

func.func @gemv_mma_instr(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{gemv instr must be [1, 1, 16 / element bytes] or [1, 16 / element bytes, 1] (f32 FMAs) or [8, 16, 16] (mma.sync m16n8k16, operands swapped), got 16x8x16}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [16, 16, 64], warps = [1, 8], instr = [16, 8, 16], stages = 1>}
  return
}

// -----

// gemv on an N-contiguous B (instr [1, V, 1]): BN / V lanes a row of B
// dividing the warp, block K the block's k rows times 1 to 8 loads, at
// most 4 rows of A and 16 warps.
func.func @gemv_columns_bn(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{gemv block N on an N-contiguous B must be instr N times a divisor of 32 (lanes side by side on a row of B), got 24}}
  gemm.matmul nn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [1, 24, 256], warps = [1, 8], instr = [1, 8, 1], stages = 1>}
  return
}

// -----

func.func @gemv_columns_bk(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{gemv block K on an N-contiguous B must be 1 to 8 times 64 (the k rows of B the block reads at once), got 96}}
  gemm.matmul nn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [1, 32, 96], warps = [1, 8], instr = [1, 8, 1], stages = 1>}
  return
}

// -----

func.func @gemv_columns_rows(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{gemv block M (rows of A a lane multiplies) must be 1 to 4, got 6}}
  gemm.matmul nn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [6, 32, 256], warps = [1, 8], instr = [1, 8, 1], stages = 1>}
  return
}

// -----

func.func @gemv_columns_warps(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{gemv on an N-contiguous B needs warps = [1, W] with W (warps splitting K) 1 to 16, got [2, 4]}}
  gemm.matmul nn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [1, 32, 256], warps = [2, 4], instr = [1, 8, 1], stages = 1>}
  return
}

// -----

func.func @gemv_columns_instr(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{gemv instr must be [1, 16 / element bytes, 1] on an N-contiguous B, got 1x8x2}}
  gemm.matmul nn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [1, 32, 256], warps = [1, 8], instr = [1, 8, 2], stages = 1>}
  return
}

// -----

func.func @multicast_value(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{expected 'multicast' to be 1 or 2, got 4}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4, load = tma_ws, multicast = 4>}
  return
}

// -----

func.func @multicast_cp_async(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{'multicast = 2' needs 'load = tma_ws'}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4, multicast = 2>}
  return
}

// -----

func.func @multicast_tma(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{'multicast = 2' needs 'load = tma_ws'}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4, load = tma, multicast = 2>}
  return
}

// -----

func.func @multicast_split(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{'multicast = 2' does not combine with split_k = 2}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4, split_k = 2, load = tma_ws, multicast = 2>}
  return
}

// -----

func.func @multicast_pingpong(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{'multicast = 2' does not combine with 'schedule = pingpong'}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 128, 64], warps = [1, 1], instr = [64, 128, 16], stages = 4, load = tma_ws, schedule = pingpong, multicast = 2>}
  return
}

// -----

func.func @fixup_unsplit(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{expected 'split_k' in [2, 16] with 'reduction = fixup', got 1}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4, reduction = fixup, load = tma>}
  return
}

// -----

func.func @fixup_slices(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{expected 'split_k' in [2, 16] with 'reduction = fixup', got 17}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4, split_k = 17, reduction = fixup, load = tma>}
  return
}

// -----

func.func @fixup_mma_sync(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{'reduction = fixup' needs kind = wgmma, got kind = mma_sync}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [128, 128, 32], warps = [2, 2], instr = [16, 8, 16], split_k = 4, reduction = fixup>}
  return
}

// -----

func.func @fixup_persistent(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+2 {{'schedule = persistent' does not combine with split_k = 4}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4, split_k = 4, reduction = fixup, load = tma_ws, schedule = persistent>}
  return
}
