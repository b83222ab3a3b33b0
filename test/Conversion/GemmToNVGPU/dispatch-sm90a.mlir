// RUN: gemm-opt --verify-roundtrip %s --split-input-file --convert-gemm-to-nvgpu=chip=sm_90a --canonicalize | FileCheck %s
// RUN: gemm-opt --verify-roundtrip %s --split-input-file --convert-gemm-to-nvgpu="chip=sm_90a dispatch=false" --canonicalize | FileCheck %s --check-prefix=ONE

// Runtime dispatch (gemm/Tuning/Dispatch.h, ConfigPolicy.cpp): a gemm.matmul
// without a config lowers to a family of kernels, one per rule that its
// static sizes do not rule out, and host code choosing one from the sizes at
// run time (an scf.if chain in rule order, the last kernel unconditional).
// For f16 tn on sm_90a (132 SMs) the rules are, in order:
//   split-k-narrow 64 x 64, split_k = 128:  N <= 64, blocks <= 132, K >= 512
//   gemv      1 x 16, 8 warps of 2 rows of B: M <= 1, K >= 256, blocks >= 66
//   gemv-2    the same with 2 rows of A:    M = 2, N <= 8320, K >= 256,
//                                            blocks >= 66
//   gemv-mma  gemv on mma.sync, 8 x 16, 8 warps splitting K:
//                                            3 <= M <= 8, K >= 256, blocks >= 66
//   gemv-mma-16-few the same, 16 x 32:       9 <= M <= 16, 256 <= K <= 6144,
//                                            33 <= blocks <= 65
//   gemv-mma-16 its kernel again:            9 <= M <= 16, K >= 256,
//                                            blocks >= 66
//   decode-128x128 wgmma, 6 stages, a producer warpgroup, group 1:
//                                            65 <= M <= 128, K >= 512,
//                                            66 <= blocks <= 132
//   decode-192x128 the same, 192 x 128, 5 stages: 129 <= M <= 192,
//                                            K >= 512, 66 <= blocks <= 132
//   decode-128x64 the same, 128 x 64, 8 stages: 193 <= M <= 256,
//                                            K >= 512, 66 <= blocks <= 132
//   decode-64x64-split 64 x 64, 8 stages, 2 slices: 33 <= M <= 64,
//                                            K >= 8192, 33 <= blocks <= 66
//   decode-64x64 the same, one slice:         33 <= M <= 64, K >= 512,
//                                            33 <= blocks <= 132
//   decode-64x128 64 x 128, 8 stages:         33 <= M <= 256, K >= 512,
//                                            33 <= blocks <= 132
//   mid-64x64 decode-64x64's kernel again:   M >= 65, K >= 512,
//                                            33 <= blocks <= 132
//   mid-64x128 decode-64x128's kernel:       M >= 257, K >= 512,
//                                            33 <= blocks <= 132
//   split-k-64x64 decode-64x64-split's kernel, up to 4 slices: M >= 65,
//                                            2048 <= K <= 16384,
//                                            8 <= blocks <= 32
//   decode    mma.sync 16 x 128, 6 stages:   M <= 16, K >= 512, blocks >= 66
//   decode-cluster the same, split_k = 8 reduced in clusters (at most as
//             many slices as clusters of that size run at once):
//                                            M <= 16, K >= 512, blocks >= 45
//   decode-split the same, split_k = 128:    M <= 16, K >= 512
//   decode-32, decode-32-cluster, decode-32-split: the same with 32-row
//             tiles, 4 stages, for 17 <= M <= 32
//   decode-64-split split-k's wgmma 64 x 128 tile with decode's fill, for
//             33 <= M <= 64, K >= 512 and blocks <= 65
//   split-k   64 x BN wgmma, split_k = 128:  blocks <= 132 and K >= 512
//             (BN = 128: decode-64-split's kernel, under its own fill)
//   small     64 x 64, 2 stages:            blocks <= 132
//   tiny-k    mma.sync 64 x 64 x 16, 1 stage: K <= 16, blocks <= 1056
//   short-k   64 x 128, 2 stages:           K <= 128, N >= 65, blocks >= 529
//   short-m   64 x 256:                     M <= 64
//   narrow-n  128 x 64:                     N <= 64
//   mid       128 x 128:                    blocks <= its blocks_max
//   default   128 x 256:                    always
// (blocks = ceil(M / BM) * ceil(N / BN) with the rule's own tile). The
// tunables under measurement (docs/dispatch.md: the split-k tile's width BN
// and its fill target, mid's bound) are read from the manifest entries; the
// host code and kernels must agree with them.
// dispatch=false (the ONE prefix) keeps the default kernel alone; an op with
// an explicit config gets that config alone either way.

// Dynamic sizes: all twenty-five kernels. The launch facts record each one's rule
// and bounds ("when"), in rule order; only the split-K member has the
// split_k record (its reduction kernel and slice policy).
// CHECK: module attributes {gemm.kernels = [{
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [64, 64, 64], warps = [1, 1], instr = [64, 64, 16], stages = 4, group = 8, split_k = 128, load = tma>"
// CHECK-SAME: function = "dyn", gemm = 0 : i64
// CHECK-SAME: name = "dyn_gemm",
// CHECK-SAME: rule = "split-k-narrow", split_k = {fill_blocks = 396 : i64, max = 128 : i64, min_k_per_slice = 256 : i64, reduce = {block = [32, 8, 1], group_outputs = 1024 : i64, name = "dyn_gemm_reduce", params = [{{.*}}]}, workspace_type = "f32"}, {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_max = 132 : i64, k_min = 512 : i64, n_max = 64 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = gemv, block = [1, 16, 512], warps = [1, 8], instr = [1, 1, 8], stages = 1, smem = plain>", dynamic_shared_memory = 0 : i64
// CHECK-SAME: name = "dyn_gemm_0",
// CHECK-SAME: rule = "gemv", when = {blocks_min = 66 : i64, k_min = 256 : i64, m_max = 1 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = gemv, block = [2, 16, 512], warps = [1, 8], instr = [1, 1, 8], stages = 1, smem = plain>", dynamic_shared_memory = 0 : i64
// CHECK-SAME: name = "dyn_gemm_1",
// CHECK-SAME: rule = "gemv-2", when = {blocks_min = 66 : i64, k_min = 256 : i64, m_max = 2 : i64, m_min = 2 : i64, n_max = 8320 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [64, 128, 64], warps = [1, 1], instr = [64, 128, 16], stages = 8>", dynamic_shared_memory = 197632 : i64
// CHECK-SAME: name = "dyn_gemm_2",
// CHECK-SAME: rule = "decode-wgmma", when = {a_aligned = true, b_aligned = true, blocks_max = 132 : i64, blocks_min = 67 : i64, k_min = 4096 : i64, m_max = 8 : i64, m_min = 3 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [64, 128, 64], warps = [1, 1], instr = [64, 128, 16], stages = 8>", dynamic_shared_memory = 197632 : i64
// CHECK-SAME: name = "dyn_gemm_2",
// CHECK-SAME: rule = "decode-wgmma-two-waves", when = {a_aligned = true, b_aligned = true, blocks_max = 264 : i64, blocks_min = 212 : i64, k_min = 4096 : i64, m_max = 8 : i64, m_min = 3 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [64, 128, 64], warps = [1, 1], instr = [64, 128, 16], stages = 8>", dynamic_shared_memory = 197632 : i64
// CHECK-SAME: name = "dyn_gemm_2",
// CHECK-SAME: rule = "decode-wgmma-16", when = {a_aligned = true, b_aligned = true, blocks_max = 132 : i64, blocks_min = 67 : i64, k_min = 2048 : i64, m_max = 16 : i64, m_min = 9 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [64, 128, 64], warps = [1, 1], instr = [64, 128, 16], stages = 8>", dynamic_shared_memory = 197632 : i64
// CHECK-SAME: name = "dyn_gemm_2",
// CHECK-SAME: rule = "decode-wgmma-16-two-waves", when = {a_aligned = true, b_aligned = true, blocks_max = 264 : i64, blocks_min = 212 : i64, k_min = 2048 : i64, m_max = 16 : i64, m_min = 9 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = gemv, block = [8, 16, 64], warps = [1, 8], instr = [8, 16, 16], stages = 1, smem = plain>", dynamic_shared_memory = 4096 : i64
// CHECK-SAME: name = "dyn_gemm_3",
// CHECK-SAME: rule = "gemv-mma", when = {blocks_min = 66 : i64, k_min = 256 : i64, m_max = 8 : i64, m_min = 3 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = gemv, block = [16, 32, 64], warps = [1, 8], instr = [8, 16, 16], stages = 1, smem = plain>", dynamic_shared_memory = 16384 : i64
// CHECK-SAME: name = "dyn_gemm_4",
// CHECK-SAME: rule = "gemv-mma-16-few", when = {blocks_max = 65 : i64, blocks_min = 33 : i64, k_max = 6144 : i64, k_min = 256 : i64, m_max = 16 : i64, m_min = 9 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = gemv, block = [16, 32, 64], warps = [1, 8], instr = [8, 16, 16], stages = 1, smem = plain>", dynamic_shared_memory = 16384 : i64
// CHECK-SAME: name = "dyn_gemm_4",
// CHECK-SAME: rule = "gemv-mma-16", when = {blocks_min = 66 : i64, k_min = 256 : i64, m_max = 16 : i64, m_min = 9 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [128, 128, 64], warps = [2, 1], instr = [64, 128, 16], stages = 6, load = tma_ws>"
// CHECK-SAME: name = "dyn_gemm_5",
// CHECK-SAME: rule = "decode-128x128", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_max = 132 : i64, blocks_min = 66 : i64, k_min = 512 : i64, m_max = 128 : i64, m_min = 65 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [192, 128, 64], warps = [3, 1], instr = [64, 128, 16], stages = 5, load = tma_ws>"
// CHECK-SAME: name = "dyn_gemm_6",
// CHECK-SAME: rule = "decode-192x128", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_max = 132 : i64, blocks_min = 66 : i64, k_min = 512 : i64, m_max = 192 : i64, m_min = 129 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [128, 64, 64], warps = [2, 1], instr = [64, 64, 16], stages = 8, load = tma_ws>"
// CHECK-SAME: name = "dyn_gemm_7",
// CHECK-SAME: rule = "decode-128x64", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_max = 132 : i64, blocks_min = 66 : i64, k_min = 512 : i64, m_max = 256 : i64, m_min = 193 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [64, 64, 64], warps = [1, 1], instr = [64, 64, 16], stages = 8, split_k = 2, load = tma_ws>"
// CHECK-SAME: name = "dyn_gemm_8",
// CHECK-SAME: rule = "decode-64x64-split", split_k = {fill_blocks = 132 : i64, max = 2 : i64, min_k_per_slice = 4096 : i64, reduce = {block = [32, 8, 1], group_outputs = 1024 : i64, name = "dyn_gemm_8_reduce", params = [{{.*}}]}, workspace_type = "f32"}, {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_max = 66 : i64, blocks_min = 33 : i64, k_min = 8192 : i64, m_max = 64 : i64, m_min = 33 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [64, 64, 64], warps = [1, 1], instr = [64, 64, 16], stages = 8, load = tma_ws>"
// CHECK-SAME: name = "dyn_gemm_9",
// CHECK-SAME: rule = "decode-64x64", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_max = 132 : i64, blocks_min = 33 : i64, k_min = 512 : i64, m_max = 64 : i64, m_min = 33 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [64, 128, 64], warps = [1, 1], instr = [64, 128, 16], stages = 8, load = tma_ws>"
// CHECK-SAME: name = "dyn_gemm_10",
// CHECK-SAME: rule = "decode-64x128", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_max = 132 : i64, blocks_min = 33 : i64, k_min = 512 : i64, m_max = 256 : i64, m_min = 33 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [64, 64, 64], warps = [1, 1], instr = [64, 64, 16], stages = 8, load = tma_ws>"
// CHECK-SAME: name = "dyn_gemm_9",
// CHECK-SAME: rule = "mid-64x64", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_max = 132 : i64, blocks_min = 33 : i64, k_min = 512 : i64, m_min = 65 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [64, 128, 64], warps = [1, 1], instr = [64, 128, 16], stages = 8, load = tma_ws>"
// CHECK-SAME: name = "dyn_gemm_10",
// CHECK-SAME: rule = "mid-64x128", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_max = 132 : i64, blocks_min = 33 : i64, k_min = 512 : i64, m_min = 257 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [64, 64, 64], warps = [1, 1], instr = [64, 64, 16], stages = 8, split_k = 2, load = tma_ws>"
// CHECK-SAME: name = "dyn_gemm_8",
// CHECK-SAME: rule = "split-k-64x64", split_k = {fill_blocks = 132 : i64, max = 4 : i64, min_k_per_slice = 1024 : i64, reduce = {block = [32, 8, 1], group_outputs = 1024 : i64, name = "dyn_gemm_8_reduce", params = [{{.*}}]}, workspace_type = "f32"}, {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_max = 32 : i64, blocks_min = 8 : i64, k_max = 16384 : i64, k_min = 2048 : i64, m_min = 65 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [64, 64, 64], warps = [1, 1], instr = [64, 64, 16], stages = 8, load = tma_ws>"
// CHECK-SAME: name = "dyn_gemm_9",
// CHECK-SAME: rule = "mid-64x64-few", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_max = 32 : i64, blocks_min = 8 : i64, k_max = 2047 : i64, k_min = 512 : i64, m_min = 65 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = mma_sync, block = [16, 128, 128], warps = [1, 4], instr = [16, 8, 16], stages = 6>"
// CHECK-SAME: function = "dyn", gemm = 0 : i64
// CHECK-SAME: name = "dyn_gemm_11",
// CHECK-SAME: rule = "decode", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_min = 66 : i64, k_min = 512 : i64, m_max = 16 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = mma_sync, block = [16, 128, 128], warps = [1, 4], instr = [16, 8, 16], stages = 6, split_k = 8, reduction = cluster>"
// CHECK-SAME: name = "dyn_gemm_12",
// CHECK-SAME: rule = "decode-cluster", split_k = {cluster_capacity = [132, 66, 39, 30, 22, 17, 15, 15], fill_blocks = 132 : i64, max = 8 : i64, min_k_per_slice = 512 : i64, reduction = "cluster"}, {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_min = 45 : i64, k_min = 512 : i64, m_max = 16 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = mma_sync, block = [16, 128, 128], warps = [1, 4], instr = [16, 8, 16], stages = 6, split_k = 128>"
// CHECK-SAME: name = "dyn_gemm_13",
// CHECK-SAME: rule = "decode-split", split_k = {fill_blocks = 132 : i64, max = 128 : i64, min_k_per_slice = 512 : i64, reduce = {block = [32, 8, 1], group_outputs = 1024 : i64, name = "dyn_gemm_13_reduce", params = [{{.*}}]}, workspace_type = "f32"}, {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {k_min = 512 : i64, m_max = 16 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = mma_sync, block = [32, 128, 128], warps = [1, 4], instr = [16, 8, 16], stages = 4>"
// CHECK-SAME: name = "dyn_gemm_14",
// CHECK-SAME: rule = "decode-32", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_min = 66 : i64, k_min = 512 : i64, m_max = 32 : i64, m_min = 17 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = mma_sync, block = [32, 128, 128], warps = [1, 4], instr = [16, 8, 16], stages = 4, split_k = 8, reduction = cluster>"
// CHECK-SAME: name = "dyn_gemm_15",
// CHECK-SAME: rule = "decode-32-cluster", split_k = {cluster_capacity = [132, 66, 39, 30, 22, 17, 15, 15], fill_blocks = 132 : i64, max = 8 : i64, min_k_per_slice = 512 : i64, reduction = "cluster"}, {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_min = 45 : i64, k_min = 512 : i64, m_max = 32 : i64, m_min = 17 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = mma_sync, block = [32, 128, 128], warps = [1, 4], instr = [16, 8, 16], stages = 4, split_k = 128>"
// CHECK-SAME: name = "dyn_gemm_16",
// CHECK-SAME: rule = "decode-32-split", split_k = {fill_blocks = 132 : i64, max = 128 : i64, min_k_per_slice = 512 : i64, reduce = {block = [32, 8, 1], group_outputs = 1024 : i64, name = "dyn_gemm_16_reduce", params = [{{.*}}]}, workspace_type = "f32"}, {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {k_min = 512 : i64, m_max = 32 : i64, m_min = 17 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [64, 128, 64], warps = [1, 1], instr = [64, 128, 16], stages = 4, group = 8, split_k = 128, load = tma>"
// CHECK-SAME: name = "dyn_gemm_17",
// CHECK-SAME: rule = "decode-64-split", split_k = {fill_blocks = 132 : i64, max = 128 : i64, min_k_per_slice = 512 : i64, reduce = {block = [32, 8, 1], group_outputs = 1024 : i64, name = "dyn_gemm_17_reduce", params = [{{.*}}]}, workspace_type = "f32"}, {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_max = 65 : i64, k_min = 512 : i64, m_max = 64 : i64, m_min = 33 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [64, [[SKBN:[0-9]+]], 64], warps = [1, 1], instr = [64, [[SKBN]], 16], stages = 4, group = 8, split_k = 128, load = tma>"
// CHECK-SAME: function = "dyn", gemm = 0 : i64
// CHECK-SAME: name = "dyn_gemm_17",
// CHECK-SAME: rule = "split-k", split_k = {fill_blocks = [[FILL:[0-9]+]] : i64, max = 128 : i64, min_k_per_slice = 256 : i64, reduce = {block = [32, 8, 1], group_outputs = 1024 : i64, name = "dyn_gemm_17_reduce", params = [{{.*}}]}, workspace_type = "f32"}, {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_max = 132 : i64, k_min = 512 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [64, 64, 64], warps = [1, 1], instr = [64, 64, 16], group = 8, load = tma>"
// CHECK-SAME: function = "dyn", gemm = 0 : i64
// CHECK-SAME: name = "dyn_gemm_18",
// CHECK-SAME: rule = "small", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_max = 132 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = mma_sync, block = [64, 64, 16], warps = [2, 2], instr = [16, 8, 16], stages = 1>"
// CHECK-SAME: name = "dyn_gemm_19",
// CHECK-SAME: rule = "tiny-k", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_max = 1056 : i64, k_max = 16 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [64, 128, 64], warps = [1, 1], instr = [64, 128, 16], group = 8, load = tma>"
// CHECK-SAME: name = "dyn_gemm_20",
// CHECK-SAME: rule = "short-k", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_min = 529 : i64, k_max = 128 : i64, n_min = 65 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [64, 128, 64], warps = [1, 1], instr = [64, 128, 16], group = 8, load = tma>"
// CHECK-SAME: name = "dyn_gemm_20",
// CHECK-SAME: rule = "short-k-narrow", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_min = 265 : i64, k_max = 128 : i64, n_max = 128 : i64, n_min = 65 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [64, 256, 64], warps = [1, 1], instr = [64, 256, 16], stages = 4, group = 8, load = tma>"
// CHECK-SAME: name = "dyn_gemm_21",
// CHECK-SAME: rule = "short-m", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {m_max = 64 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [128, 64, 64], warps = [2, 1], instr = [64, 64, 16], stages = 4, group = 8, load = tma>"
// CHECK-SAME: name = "dyn_gemm_22",
// CHECK-SAME: rule = "narrow-n", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {n_max = 64 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [128, 128, 64], warps = [2, 1], instr = [64, 128, 16], stages = 4, group = 8, load = tma>"
// CHECK-SAME: name = "dyn_gemm_23",
// CHECK-SAME: rule = "mid", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_max = [[MIDMAX:[0-9]+]] : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [128, 128, 64], warps = [2, 1], instr = [64, 128, 16], stages = 4, group = 8, load = tma>"
// CHECK-SAME: name = "dyn_gemm_23",
// CHECK-SAME: rule = "half-n", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {n_max = 128 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [128, 192, 64], warps = [2, 1], instr = [64, 192, 16], stages = 4, group = 8, load = tma>"
// CHECK-SAME: name = "dyn_gemm_24",
// CHECK-SAME: rule = "wave-fit", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_min = 133 : i64, wave_fit = {versus = [128, 256], versus_weight = 94 : i64, wave = 132 : i64, weight = 75 : i64}}}, {
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4, group = 8, load = tma_ws, schedule = persistent>"
// CHECK-SAME: name = "dyn_gemm_25",
// CHECK-SAME: rule = "persistent", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {batch_max = 1 : i64, blocks_min = 133 : i64, k_min = 1024 : i64, whole_tiles = true}}, {
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4, group = 8, load = tma>"
// CHECK-SAME: name = "dyn_gemm_26",
// CHECK-SAME: rule = "default", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {}}]

// Host side: the gemv member reads A and B as stored (readsOperandsInPlace),
// so the operands are not packed before the chain: each other member packs
// them (if misaligned) in its own branch, launches on the packed operands
// and frees them after its launch. Each level of the chain reads the sizes
// and tests its rule's bounds with its own tile.
// CHECK-LABEL: func.func @dyn(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<?x?xf16>, %[[B:[a-z0-9]+]]: memref<?x?xf16>, %[[C:[a-z0-9]+]]: memref<?x?xf16>)
// CHECK-NOT: gemm_pack

// split-k-narrow: N <= 64, K >= 512 and ceil(M / 64) * ceil(N / 64) <= 132,
// with 396 (3 x 132) as the fill target.
// CHECK: %[[MN:.*]] = memref.dim %[[C]], %c0 : memref<?x?xf16>
// CHECK-NEXT: %[[NN:.*]] = memref.dim %[[C]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %[[KN:.*]] = memref.dim %[[A]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %[[NOK:.*]] = arith.cmpi sle, %[[NN]], %c64 : index
// CHECK-NEXT: %[[KNOK:.*]] = arith.cmpi sge, %[[KN]], %c512 : index
// CHECK-NEXT: %[[NK:.*]] = arith.andi %[[NOK]], %[[KNOK]] : i1
// CHECK: %[[NB:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[NFIT:.*]] = arith.cmpi sle, %[[NB]], %c132 : index
// CHECK-NEXT: %[[NSK:.*]] = arith.andi %[[NK]], %[[NFIT]] : i1
// CHECK-NEXT: scf.if %[[NSK]] {
// CHECK: %[[P:.*]]:2 = scf.if %{{.*}} -> (memref<?x?xf16>, memref<?x?xf16>) {
// CHECK-NEXT: scf.yield %[[A]], %[[B]]
// CHECK: gpu.launch_func @gemm_kernels::@gemm_pack_f16
// CHECK: gpu.launch_func @gemm_kernels::@gemm_pack_f16
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK: arith.divui %c396, %{{.*}} : index
// CHECK: %[[NWS:.*]] = gpu.alloc (%c1, %{{.*}}, %{{.*}}, %{{.*}}) : memref<?x?x?x?xf32>
// The wgmma members load through TMA: the tensor maps of A and B (of the
// packed operands).
// CHECK: memref.extract_aligned_pointer_as_index %[[P]]#0
// CHECK: %[[MAPA:.*]] = llvm.call @mgpuGemmTensorMap(
// CHECK: memref.extract_aligned_pointer_as_index %[[P]]#1
// CHECK: %[[MAPB:.*]] = llvm.call @mgpuGemmTensorMap(
// CHECK-NEXT: gpu.launch_func @gemm_kernels::@dyn_gemm blocks in
// CHECK-SAME: args(%[[P]]#0 : memref<?x?xf16>, %[[P]]#1 : memref<?x?xf16>
// CHECK-SAME: %[[MAPA]] : !llvm.ptr, %[[MAPB]] : !llvm.ptr)
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_reduce blocks in
// CHECK-NEXT: gpu.dealloc %[[NWS]] : memref<?x?x?x?xf32>
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc %[[P]]#0
// CHECK-NEXT: gpu.dealloc %[[P]]#1
// CHECK-NEXT: }
// CHECK-NEXT: } else {

// gemv: M <= 1, K >= 256 and ceil(M / 1) * ceil(N / 16) >= 66: one
// kernel of 256 threads and no shared memory, on A and B as stored.
// CHECK-NEXT: %[[GM:.*]] = memref.dim %[[C]], %c0 : memref<?x?xf16>
// CHECK-NEXT: %[[GN:.*]] = memref.dim %[[C]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %[[GK:.*]] = memref.dim %[[A]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %[[GMOK:.*]] = arith.cmpi sle, %[[GM]], %c1 : index
// CHECK-NEXT: %[[GKOK:.*]] = arith.cmpi sge, %[[GK]], %c256 : index
// CHECK-NEXT: %[[GMK:.*]] = arith.andi %[[GMOK]], %[[GKOK]] : i1
// CHECK: %[[GB:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[GFILL:.*]] = arith.cmpi sge, %[[GB]], %c66 : index
// CHECK-NEXT: %[[GEMV:.*]] = arith.andi %[[GMK]], %[[GFILL]] : i1
// CHECK-NEXT: scf.if %[[GEMV]] {
// CHECK-NOT: gemm_pack
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_0 blocks in (%{{.*}}, %c1, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %c0_i32 args(%[[A]] : memref<?x?xf16>, %[[B]] : memref<?x?xf16>, %[[C]] : memref<?x?xf16>)
// CHECK-NEXT: } else {

// gemv-2: M = 2, N <= 8320 (decode's 16 x 128 grid below 66 blocks), K >=
// 256 and ceil(M / 2) * ceil(N / 16) >= 66: the gemv kernel with two rows
// of A, on A and B as stored.
// CHECK-NEXT: %[[TM:.*]] = memref.dim %[[C]], %c0 : memref<?x?xf16>
// CHECK-NEXT: %[[TN:.*]] = memref.dim %[[C]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %[[TK:.*]] = memref.dim %[[A]], %c1 : memref<?x?xf16>
// CHECK-NEXT: arith.cmpi sge, %[[TM]], %c2 : index
// CHECK-NEXT: arith.cmpi sle, %[[TM]], %c2 : index
// CHECK: arith.cmpi sle, %[[TN]], %c8320 : index
// CHECK: arith.cmpi sge, %[[TK]], %c256 : index
// CHECK: arith.cmpi sge, %{{.*}}, %c66 : index
// CHECK: scf.if
// CHECK-NOT: gemm_pack
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_1 blocks in (%{{.*}}, %c1, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %c0_i32 args(%[[A]] : memref<?x?xf16>, %[[B]] : memref<?x?xf16>, %[[C]] : memref<?x?xf16>)
// CHECK-NEXT: } else {

// decode-wgmma: 3 <= M <= 8, K >= 4096, 67 to 132 blocks of 64 x 128 and
// both operands' rows 16-byte aligned: decode-64x128's tile on cp.async
// (128 threads, eight stages); then -two-waves (212 to 264 blocks) and
// decode-wgmma-16 and its -two-waves (9 <= M <= 16, K >= 2048), the same
// kernel.
// CHECK-NEXT: %[[WM:.*]] = memref.dim %[[C]], %c0 : memref<?x?xf16>
// CHECK-NEXT: %[[WN:.*]] = memref.dim %[[C]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %[[WK:.*]] = memref.dim %[[A]], %c1 : memref<?x?xf16>
// CHECK-NEXT: arith.cmpi sge, %[[WM]], %c3 : index
// CHECK-NEXT: arith.cmpi sle, %[[WM]], %c8 : index
// CHECK: arith.cmpi sge, %[[WK]], %c4096 : index
// CHECK: arith.cmpi sge, %{{.*}}, %c67 : index
// CHECK: arith.cmpi sle, %{{.*}}, %c132 : index
// CHECK: memref.extract_aligned_pointer_as_index %[[A]]
// CHECK: memref.extract_aligned_pointer_as_index %[[B]]
// CHECK: scf.if
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_2 blocks in (%{{.*}}, %c1, %c1) threads in (%c128, %c1, %c1) dynamic_shared_memory_size %c197632_i32
// CHECK: arith.cmpi sge, %{{.*}}, %c212 : index
// CHECK: arith.cmpi sle, %{{.*}}, %c264 : index
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_2 blocks
// CHECK: arith.cmpi sge, %{{.*}}, %c9 : index
// CHECK: arith.cmpi sge, %{{.*}}, %c2048 : index
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_2 blocks
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_2 blocks
// CHECK: } else {

// gemv-mma: 3 <= M <= 8, K >= 256 and ceil(M / 8) * ceil(N / 16) >= 66:
// gemv on mma.sync, 4 KiB of shared memory for the warps' sums, on A and B
// as stored; gemv-mma-16-few likewise for 9 <= M <= 16 in 16 x 32 tiles
// on 33 to 65 blocks with K <= 6144, gemv-mma-16 (the same kernel) from 66
// blocks on any K.
// CHECK: %[[YM:.*]] = memref.dim %[[C]], %c0 : memref<?x?xf16>
// CHECK-NEXT: %[[YN:.*]] = memref.dim %[[C]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %[[YK:.*]] = memref.dim %[[A]], %c1 : memref<?x?xf16>
// CHECK-NEXT: arith.cmpi sge, %[[YM]], %c3 : index
// CHECK-NEXT: arith.cmpi sle, %[[YM]], %c8 : index
// CHECK: arith.cmpi sge, %[[YK]], %c256 : index
// CHECK: arith.cmpi sge, %{{.*}}, %c66 : index
// CHECK: scf.if
// CHECK-NOT: gemm_pack
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_3 blocks in (%{{.*}}, %c1, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %c4096_i32 args(%[[A]] : memref<?x?xf16>, %[[B]] : memref<?x?xf16>, %[[C]] : memref<?x?xf16>)
// CHECK-NEXT: } else {
// CHECK: arith.cmpi sge, %{{.*}}, %c9 : index
// CHECK: arith.cmpi sle, %{{.*}}, %c6144 : index
// CHECK: arith.cmpi sge, %{{.*}}, %c33 : index
// CHECK: arith.cmpi sle, %{{.*}}, %c65 : index
// CHECK: scf.if
// CHECK-NOT: gemm_pack
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_4 blocks in (%{{.*}}, %c1, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %c16384_i32 args(%[[A]] : memref<?x?xf16>, %[[B]] : memref<?x?xf16>, %[[C]] : memref<?x?xf16>)
// CHECK-NEXT: } else {
// CHECK: arith.cmpi sge, %{{.*}}, %c9 : index
// CHECK-NOT: %c6144
// CHECK: arith.cmpi sge, %{{.*}}, %c66 : index
// CHECK: scf.if
// CHECK-NOT: gemm_pack
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_4 blocks in (%{{.*}}, %c1, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %c16384_i32 args(%[[A]] : memref<?x?xf16>, %[[B]] : memref<?x?xf16>, %[[C]] : memref<?x?xf16>)
// CHECK-NEXT: } else {

// decode-128x128: 65 <= M <= 128, K >= 512 and 66 <= ceil(M / 128) *
// ceil(N / 128) <= 132: two consumer warpgroups and the producer (384
// threads), six stages of TMA loads; one kernel, no workspace.
// CHECK-NEXT: %[[WM:.*]] = memref.dim %[[C]], %c0 : memref<?x?xf16>
// CHECK-NEXT: %[[WN:.*]] = memref.dim %[[C]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %[[WK:.*]] = memref.dim %[[A]], %c1 : memref<?x?xf16>
// CHECK-NEXT: arith.cmpi sge, %[[WM]], %c65 : index
// CHECK-NEXT: arith.cmpi sle, %[[WM]], %c128 : index
// CHECK-NEXT: arith.andi
// CHECK-NEXT: arith.cmpi sge, %[[WK]], %c512 : index
// CHECK: %[[WB:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK-NEXT: arith.cmpi sge, %[[WB]], %c66 : index
// CHECK-NEXT: arith.andi
// CHECK-NEXT: arith.cmpi sle, %[[WB]], %c132 : index
// CHECK-NEXT: arith.andi
// CHECK-NEXT: scf.if
// CHECK-NOT: gpu.alloc (%c1,
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_5 blocks in (%{{.*}}, %c1, %c1) threads in (%c384, %c1, %c1) dynamic_shared_memory_size %c197632_i32 args(
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: } else {

// decode-192x128: 129 <= M <= 192, the same bounds on 192 x 128 tiles:
// three consumer warpgroups and the producer (512 threads), five stages.
// CHECK: arith.cmpi sge, %{{.*}}, %c129 : index
// CHECK: arith.cmpi sle, %{{.*}}, %c192 : index
// CHECK-NOT: gpu.alloc (%c1,
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_6 blocks in (%{{.*}}, %c1, %c1) threads in (%c512, %c1, %c1) dynamic_shared_memory_size %c205824_i32 args(
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: } else {

// decode-128x64: 193 <= M <= 256, the same bounds on 128 x 64 tiles: two
// consumer warpgroups and the producer (384 threads), eight stages.
// CHECK: arith.cmpi sge, %{{.*}}, %c193 : index
// CHECK: arith.cmpi sle, %{{.*}}, %c256 : index
// CHECK-NOT: gpu.alloc (%c1,
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_7 blocks in (%{{.*}}, %c1, %c1) threads in (%c384, %c1, %c1) dynamic_shared_memory_size %c197632_i32 args(
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: } else {

// decode-64x64-split: 33 <= M <= 64, K >= 8192 and 33 <= ceil(M / 64) * ceil(N / 64) <=
// 66: max(min(132 / blocks, 2, ceil(K / 4096)), 1) slices into a
// workspace, then the reduction.
// CHECK: arith.cmpi sle, %{{.*}}, %c64 : index
// CHECK: arith.cmpi sge, %{{.*}}, %c8192 : index
// CHECK: arith.cmpi sge, %{{.*}}, %c33 : index
// CHECK: arith.cmpi sle, %{{.*}}, %c66 : index
// CHECK: arith.divui %c132, %{{.*}} : index
// CHECK: arith.divui %{{.*}}, %c4096 : index
// CHECK: %[[WWS:.*]] = gpu.alloc (%c1, %{{.*}}, %{{.*}}, %{{.*}}) : memref<?x?x?x?xf32>
// CHECK: llvm.call @mgpuGemmTensorMap(
// CHECK: llvm.call @mgpuGemmTensorMap(
// CHECK-NEXT: gpu.launch_func @gemm_kernels::@dyn_gemm_8 blocks in (%{{.*}}, %{{.*}}, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %c132096_i32 args(
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_8_reduce blocks in
// CHECK-NEXT: gpu.dealloc %[[WWS]] : memref<?x?x?x?xf32>
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: } else {

// decode-64x64: 33 <= M <= 64, 33 <= ceil(N / 64) <= 132, one slice.
// CHECK: arith.cmpi sle, %{{.*}}, %c64 : index
// CHECK: arith.cmpi sge, %{{.*}}, %c33 : index
// CHECK-NOT: gpu.alloc (%c1,
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_9 blocks in (%{{.*}}, %c1, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %c132096_i32 args(
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: } else {

// decode-64x128: 33 <= M <= 256, K >= 512 and 33 <= ceil(M / 64) *
// ceil(N / 128) <= 132, eight stages.
// CHECK: arith.cmpi sge, %{{.*}}, %c33 : index
// CHECK: arith.cmpi sle, %{{.*}}, %c256 : index
// CHECK: arith.cmpi sge, %{{.*}}, %c512 : index
// CHECK: arith.cmpi sge, %{{.*}}, %c33 : index
// CHECK-NOT: gpu.alloc (%c1,
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_10 blocks in (%{{.*}}, %c1, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %c197632_i32 args(
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: } else {

// mid-64x64: M >= 65, K >= 512 and 33 <= ceil(M / 64) * ceil(N / 64) <=
// 132: decode-64x64's kernel.
// CHECK-NEXT: %[[MM:.*]] = memref.dim %[[C]], %c0 : memref<?x?xf16>
// CHECK-NEXT: %[[MN:.*]] = memref.dim %[[C]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %[[MK:.*]] = memref.dim %[[A]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %[[MMOK:.*]] = arith.cmpi sge, %[[MM]], %c65 : index
// CHECK-NEXT: %[[MKOK:.*]] = arith.cmpi sge, %[[MK]], %c512 : index
// CHECK: arith.cmpi sge, %{{.*}}, %c33 : index
// CHECK: arith.cmpi sle, %{{.*}}, %c132 : index
// CHECK-NOT: gpu.alloc (%c1,
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_9 blocks in (%{{.*}}, %c1, %c1) threads in (%c256, %c1, %c1)
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: } else {

// mid-64x128: M >= 257, K >= 512 and 33 <= ceil(M / 64) * ceil(N / 128) <=
// 132: decode-64x128's kernel.
// CHECK-NEXT: %[[WM:.*]] = memref.dim %[[C]], %c0 : memref<?x?xf16>
// CHECK-NEXT: %{{.*}} = memref.dim %[[C]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %[[WK:.*]] = memref.dim %[[A]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %{{.*}} = arith.cmpi sge, %[[WM]], %c257 : index
// CHECK-NEXT: %{{.*}} = arith.cmpi sge, %[[WK]], %c512 : index
// CHECK-NOT: gpu.alloc (%c1,
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_10 blocks in (%{{.*}}, %c1, %c1) threads in (%c256, %c1, %c1)
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: } else {

// split-k-64x64: M >= 65, 2048 <= K <= 16384 and 8 <= ceil(M / 64) *
// ceil(N / 64) <= 32: decode-64x64-split's kernels, its own fill.
// CHECK-NEXT: %[[FM:.*]] = memref.dim %[[C]], %c0 : memref<?x?xf16>
// CHECK-NEXT: %{{.*}} = memref.dim %[[C]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %[[FK:.*]] = memref.dim %[[A]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %{{.*}} = arith.cmpi sge, %[[FM]], %c65 : index
// CHECK-NEXT: %{{.*}} = arith.cmpi sge, %[[FK]], %c2048 : index
// CHECK: arith.cmpi sle, %[[FK]], %c16384 : index
// CHECK: arith.cmpi sge, %{{.*}}, %c8 : index
// CHECK: arith.cmpi sle, %{{.*}}, %c32 : index
// CHECK: gpu.alloc (%c1, %{{.*}}, %{{.*}}, %{{.*}}) : memref<?x?x?x?xf32>
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_8 blocks
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_8_reduce blocks
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: } else {

// mid-64x64-few: M >= 65, 512 <= K <= 2047 and 8 <= ceil(M / 64) *
// ceil(N / 64) <= 32: decode-64x64's kernel unsplit.
// CHECK-NEXT: %[[SM:.*]] = memref.dim %[[C]], %c0 : memref<?x?xf16>
// CHECK-NEXT: %{{.*}} = memref.dim %[[C]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %[[SK:.*]] = memref.dim %[[A]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %{{.*}} = arith.cmpi sge, %[[SM]], %c65 : index
// CHECK-NEXT: %{{.*}} = arith.cmpi sge, %[[SK]], %c512 : index
// CHECK: arith.cmpi sle, %[[SK]], %c2047 : index
// CHECK-NOT: gpu.alloc (%c1,
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_9 blocks in (%{{.*}}, %c1, %c1) threads in (%c256, %c1, %c1)
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: } else {

// decode: M <= 16, K >= 512 and ceil(M / 16) * ceil(N / 128) >= 66: one
// kernel, no workspace.
// CHECK-NEXT: %[[DM:.*]] = memref.dim %[[C]], %c0 : memref<?x?xf16>
// CHECK-NEXT: %[[DN:.*]] = memref.dim %[[C]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %[[DK:.*]] = memref.dim %[[A]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %[[DMOK:.*]] = arith.cmpi sle, %[[DM]], %c16 : index
// CHECK-NEXT: %[[DKOK:.*]] = arith.cmpi sge, %[[DK]], %c512 : index
// CHECK-NEXT: %[[DMK:.*]] = arith.andi %[[DMOK]], %[[DKOK]] : i1
// CHECK: %[[DB:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[DFILL:.*]] = arith.cmpi sge, %[[DB]], %c66 : index
// CHECK-NEXT: %[[DEC:.*]] = arith.andi %[[DMK]], %[[DFILL]] : i1
// CHECK-NEXT: scf.if %[[DEC]] {
// CHECK: %[[DP:.*]]:2 = scf.if %{{.*}} -> (memref<?x?xf16>, memref<?x?xf16>) {
// CHECK: gpu.launch_func @gemm_kernels::@gemm_pack_f16
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_11 blocks in (%{{.*}}, %c1, %c1) threads in (%c128, %c1, %c1) dynamic_shared_memory_size %c221184_i32 args(%[[DP]]#0 : memref<?x?xf16>, %[[DP]]#1 : memref<?x?xf16>, %[[C]] : memref<?x?xf16>{{(, %[0-9a-z_]+ : !llvm.ptr)*}})
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc %[[DP]]#0
// CHECK-NEXT: gpu.dealloc %[[DP]]#1
// CHECK-NEXT: }
// CHECK-NEXT: } else {

// decode-cluster: M <= 16, K >= 512 and blocks >= 45: slices =
// max(min(132 / blocks, 8, ceil(K / 512), the cluster sizes whose capacity
// holds the blocks), 1) are grid.y and the clusters' y extent; no
// workspace (the allocations are the packing's), no reduction kernel.
// CHECK-NEXT: %[[CM:.*]] = memref.dim %[[C]], %c0 : memref<?x?xf16>
// CHECK: %[[CB:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[CFILL:.*]] = arith.cmpi sge, %[[CB]], %c45 : index
// CHECK: scf.if
// CHECK: %[[CP:.*]]:2 = scf.if
// CHECK: gpu.launch_func @gemm_kernels::@gemm_pack_f16
// CHECK: gpu.launch_func @gemm_kernels::@gemm_pack_f16
// CHECK-NEXT: scf.yield
// CHECK-NOT: gpu.alloc
// CHECK: arith.cmpi sle, %{{.*}}, %c132 : index
// CHECK: arith.cmpi sle, %{{.*}}, %c15 : index
// CHECK: %[[CS:.*]] = arith.maxsi %{{.*}}, %c1 : index
// CHECK-NEXT: gpu.launch_func @gemm_kernels::@dyn_gemm_12 clusters in (%c1, %[[CS]], %c1) blocks in (%{{.*}}, %[[CS]], %c1) threads in (%c128, %c1, %c1)
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: } else {

// decode-split: M <= 16 and K >= 512; slices fill one block per SM,
// max(min(132 / blocks, 128, ceil(K / 512)), 1).
// CHECK-NEXT: %[[DSM:.*]] = memref.dim %[[C]], %c0 : memref<?x?xf16>
// CHECK-NEXT: %[[DSK:.*]] = memref.dim %[[A]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %[[DSMOK:.*]] = arith.cmpi sle, %[[DSM]], %c16 : index
// CHECK-NEXT: %[[DSKOK:.*]] = arith.cmpi sge, %[[DSK]], %c512 : index
// CHECK-NEXT: %[[DS:.*]] = arith.andi %[[DSMOK]], %[[DSKOK]] : i1
// CHECK-NEXT: scf.if %[[DS]] {
// CHECK: arith.divui %c132, %{{.*}} : index
// CHECK: %[[DWS:.*]] = gpu.alloc (%c1, %{{.*}}, %{{.*}}, %{{.*}}) : memref<?x?x?x?xf32>
// CHECK-NEXT: gpu.launch_func @gemm_kernels::@dyn_gemm_13 blocks in
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_13_reduce blocks in
// CHECK-NEXT: gpu.dealloc %[[DWS]] : memref<?x?x?x?xf32>
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: } else {

// decode-32 and decode-32-split: the same for 17 <= M <= 32.
// CHECK: arith.cmpi sge, %{{.*}}, %c17 : index
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_14 blocks in (%{{.*}}, %c1, %c1) threads in (%c128, %c1, %c1) dynamic_shared_memory_size %c163840_i32 args(
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: } else {
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_15 clusters in
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: } else {
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_16 blocks in
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_16_reduce blocks in
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: } else {

// decode-64-split: 33 <= M <= 64, K >= 512, blocks <= 65.
// CHECK: arith.cmpi sge, %{{.*}}, %c33 : index
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_17 blocks in
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_17_reduce blocks in
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: } else {

// split-k: K >= 512 and ceil(M / 64) * ceil(N / BN) <= 132. The slices,
// max(min(fill_blocks / blocks, 128, ceil(K / 256)), 1), are grid.y and
// dimension 1 of the workspace [1][slices][M][N]; the reduction kernel runs
// after the GEMM kernel, and the workspace is freed.
// CHECK-NEXT: %[[M0:.*]] = memref.dim %[[C]], %c0 : memref<?x?xf16>
// CHECK-NEXT: %[[N0:.*]] = memref.dim %[[C]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %[[K0:.*]] = memref.dim %[[A]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %[[KOK:.*]] = arith.cmpi sge, %[[K0]], %c512 : index
// CHECK: %[[SKB0:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[SKFIT:.*]] = arith.cmpi sle, %[[SKB0]], %c132 : index
// CHECK-NEXT: %[[SK:.*]] = arith.andi %[[KOK]], %[[SKFIT]] : i1
// CHECK-NEXT: scf.if %[[SK]] {
// The packing first (the i1 of the cleanup: whether it packed).
// CHECK: gpu.launch_func @gemm_kernels::@gemm_pack_f16
// CHECK: gpu.launch_func @gemm_kernels::@gemm_pack_f16
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: arith.xori
// CHECK-NEXT: %[[M1:.*]] = memref.dim %[[C]], %c0 : memref<?x?xf16>
// CHECK-NEXT: %[[N1:.*]] = memref.dim %[[C]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %[[K1:.*]] = memref.dim %[[A]], %c1 : memref<?x?xf16>
// CHECK: %[[SKB:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[B1:.*]] = arith.maxsi %[[SKB]], %c1 : index
// CHECK-NEXT: %[[FILLS:.*]] = arith.divui %c[[FILL]], %[[B1]] : index
// CHECK-NEXT: %[[S0:.*]] = arith.minsi %[[FILLS]], %c128 : index
// CHECK-NEXT: %[[KS0:.*]] = arith.addi %[[K1]], %c255 : index
// CHECK-NEXT: %[[KS:.*]] = arith.divui %[[KS0]], %c256 : index
// CHECK-NEXT: %[[S1:.*]] = arith.minsi %[[S0]], %[[KS]] : index
// CHECK-NEXT: %[[S:.*]] = arith.maxsi %[[S1]], %c1 : index
// CHECK-NEXT: %[[WS:.*]] = gpu.alloc (%c1, %[[S]], %[[M1]], %[[N1]]) : memref<?x?x?x?xf32>
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_17 blocks in (%[[SKB]], %[[S]], %c1) threads in (%c128, %c1, %c1) dynamic_shared_memory_size %{{.*}} args(%{{.*}}#0 : memref<?x?xf16>, %{{.*}}#1 : memref<?x?xf16>, %[[C]] : memref<?x?xf16>, %[[WS]] : memref<?x?x?x?xf32>{{(, %[0-9a-z_]+ : !llvm.ptr)*}})
// CHECK-NEXT: %[[RX0:.*]] = arith.addi %[[N1]], %c31 : index
// CHECK-NEXT: %[[RX:.*]] = arith.divui %[[RX0]], %c32 : index
// CHECK-NEXT: %[[L:.*]] = arith.muli %[[S]], %c1024 : index
// CHECK-NEXT: %[[NP:.*]] = arith.maxsi %[[N1]], %c1 : index
// CHECK-NEXT: %[[MP:.*]] = arith.maxsi %[[M1]], %c1 : index
// CHECK-NEXT: %[[LM:.*]] = arith.divui %[[L]], %[[MP]] : index
// CHECK-NEXT: %[[LMN:.*]] = arith.divui %[[LM]], %[[NP]] : index
// CHECK-NEXT: %[[FEW:.*]] = arith.cmpi sge, %[[LMN]], %c1 : index
// CHECK-NEXT: %[[GE8:.*]] = arith.cmpi sge, %[[S]], %c8 : index
// CHECK-NEXT: %[[GROUPED:.*]] = arith.andi %[[GE8]], %[[FEW]] : i1
// CHECK-NEXT: %[[R:.*]] = arith.select %[[GROUPED]], %c1, %c8 : index
// CHECK-NEXT: %[[R1:.*]] = arith.subi %[[R]], %c1 : index
// CHECK-NEXT: %[[RY0:.*]] = arith.addi %[[M1]], %[[R1]] : index
// CHECK-NEXT: %[[RY1:.*]] = arith.divui %[[RY0]], %[[R]] : index
// CHECK-NEXT: %[[RY:.*]] = arith.minsi %[[RY1]], %c65535 : index
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_17_reduce blocks in (%[[RX]], %[[RY]], %c1) threads in (%c32, %c8, %c1) dynamic_shared_memory_size %c0_i32 args(%[[C]] : memref<?x?xf16>, %[[WS]] : memref<?x?x?x?xf32>{{(, %[0-9a-z_]+ : !llvm.ptr)*}})
// CHECK-NEXT: gpu.dealloc %[[WS]] : memref<?x?x?x?xf32>
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: } else {

// small: ceil(M / 64) * ceil(N / 64) <= 132.
// CHECK-NEXT: %[[M2:.*]] = memref.dim %[[C]], %c0 : memref<?x?xf16>
// CHECK-NEXT: %[[N2:.*]] = memref.dim %[[C]], %c1 : memref<?x?xf16>
// CHECK-DAG: %[[SMN0:.*]] = arith.addi %[[N2]], %c63 : index
// CHECK-DAG: %[[SMN:.*]] = arith.divui %[[SMN0]], %c64 : index
// CHECK-DAG: %[[SMM0:.*]] = arith.addi %[[M2]], %c63 : index
// CHECK-DAG: %[[SMM:.*]] = arith.divui %[[SMM0]], %c64 : index
// CHECK: %[[SMB:.*]] = arith.muli %[[SMM]], %[[SMN]] : index
// CHECK-NEXT: %[[SM:.*]] = arith.cmpi sle, %[[SMB]], %c132 : index
// CHECK-NEXT: scf.if %[[SM]] {
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_18 blocks in (%{{.*}}, %c1, %c1) threads in (%c128, %c1, %c1) dynamic_shared_memory_size %{{.*}} args(%{{.*}}#0 : memref<?x?xf16>, %{{.*}}#1 : memref<?x?xf16>, %[[C]] : memref<?x?xf16>{{(, %[0-9a-z_]+ : !llvm.ptr)*}})
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: } else {

// tiny-k: K <= 16 and ceil(M / 64) * ceil(N / 64) <= 1056.
// CHECK-NEXT: %[[TM:.*]] = memref.dim %[[C]], %c0 : memref<?x?xf16>
// CHECK-NEXT: %[[TN:.*]] = memref.dim %[[C]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %[[TK:.*]] = memref.dim %[[A]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %[[TKOK:.*]] = arith.cmpi sle, %[[TK]], %c16 : index
// CHECK: %[[TB:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[TFIT:.*]] = arith.cmpi sle, %[[TB]], %c1056 : index
// CHECK-NEXT: %[[TINY:.*]] = arith.andi %[[TKOK]], %[[TFIT]] : i1
// CHECK-NEXT: scf.if %[[TINY]] {
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_19 blocks in (%{{.*}}, %c1, %c1) threads in (%c128, %c1, %c1) dynamic_shared_memory_size %c9216_i32 args(
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: } else {

// short-k: N >= 65, K <= 128 and ceil(M / 64) * ceil(N / 128) >= 529.
// CHECK-NEXT: %[[SKM:.*]] = memref.dim %[[C]], %c0 : memref<?x?xf16>
// CHECK-NEXT: %[[SKN:.*]] = memref.dim %[[C]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %[[SKK:.*]] = memref.dim %[[A]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %[[SKNOK:.*]] = arith.cmpi sge, %[[SKN]], %c65 : index
// CHECK-NEXT: %[[SKKOK:.*]] = arith.cmpi sle, %[[SKK]], %c128 : index
// CHECK-NEXT: %[[SKNK:.*]] = arith.andi %[[SKNOK]], %[[SKKOK]] : i1
// CHECK: %[[SKBL:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[SKMANY:.*]] = arith.cmpi sge, %[[SKBL]], %c529 : index
// CHECK-NEXT: %[[SHK:.*]] = arith.andi %[[SKNK]], %[[SKMANY]] : i1
// CHECK-NEXT: scf.if %[[SHK]] {
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_20 blocks in (%{{.*}}, %c1, %c1) threads in (%c128, %c1, %c1) dynamic_shared_memory_size %c50176_i32 args(
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: } else {

// short-k-narrow: 65 <= N <= 128, K <= 128 and ceil(M / 64) * ceil(N /
// 128) >= 265: short-k's kernel.
// CHECK-NEXT: %{{.*}} = memref.dim %[[C]], %c0 : memref<?x?xf16>
// CHECK-NEXT: %[[SNN:.*]] = memref.dim %[[C]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %[[SNK:.*]] = memref.dim %[[A]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %{{.*}} = arith.cmpi sge, %[[SNN]], %c65 : index
// CHECK-NEXT: %{{.*}} = arith.cmpi sle, %[[SNN]], %c128 : index
// CHECK: arith.cmpi sle, %[[SNK]], %c128 : index
// CHECK: arith.cmpi sge, %{{.*}}, %c265 : index
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_20 blocks in (%{{.*}}, %c1, %c1) threads in (%c128, %c1, %c1) dynamic_shared_memory_size %c50176_i32 args(
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: } else {

// short-m: M <= 64.
// CHECK-NEXT: %[[M3:.*]] = memref.dim %[[C]], %c0 : memref<?x?xf16>
// CHECK-NEXT: %[[SHORT:.*]] = arith.cmpi sle, %[[M3]], %c64 : index
// CHECK-NEXT: scf.if %[[SHORT]] {
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_21 blocks in (%{{.*}}, %c1, %c1) threads in (%c128, %c1, %c1) dynamic_shared_memory_size %{{.*}} args(%{{.*}}#0 : memref<?x?xf16>, %{{.*}}#1 : memref<?x?xf16>, %[[C]] : memref<?x?xf16>{{(, %[0-9a-z_]+ : !llvm.ptr)*}})
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: } else {

// narrow-n: N <= 64.
// CHECK-NEXT: %[[N4:.*]] = memref.dim %[[C]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %[[NARROW:.*]] = arith.cmpi sle, %[[N4]], %c64 : index
// CHECK-NEXT: scf.if %[[NARROW]] {
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_22 blocks in (%{{.*}}, %c1, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %{{.*}} args(%{{.*}}#0 : memref<?x?xf16>, %{{.*}}#1 : memref<?x?xf16>, %[[C]] : memref<?x?xf16>{{(, %[0-9a-z_]+ : !llvm.ptr)*}})
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: } else {

// mid: ceil(M / 128) * ceil(N / 128) <= its blocks_max.
// CHECK-NEXT: %[[M5:.*]] = memref.dim %[[C]], %c0 : memref<?x?xf16>
// CHECK-NEXT: %[[N5:.*]] = memref.dim %[[C]], %c1 : memref<?x?xf16>
// CHECK-DAG: %[[MIDN0:.*]] = arith.addi %[[N5]], %c127 : index
// CHECK-DAG: %[[MIDN:.*]] = arith.divui %[[MIDN0]], %c128 : index
// CHECK-DAG: %[[MIDM0:.*]] = arith.addi %[[M5]], %c127 : index
// CHECK-DAG: %[[MIDM:.*]] = arith.divui %[[MIDM0]], %c128 : index
// CHECK: %[[MIDB:.*]] = arith.muli %[[MIDM]], %[[MIDN]] : index
// CHECK-NEXT: %[[MID:.*]] = arith.cmpi sle, %[[MIDB]], %c[[MIDMAX]] : index
// CHECK-NEXT: scf.if %[[MID]] {
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_23 blocks in (%{{.*}}, %c1, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %{{.*}} args(%{{.*}}#0 : memref<?x?xf16>, %{{.*}}#1 : memref<?x?xf16>, %[[C]] : memref<?x?xf16>{{(, %[0-9a-z_]+ : !llvm.ptr)*}})
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: } else {

// half-n: N <= 128, mid's kernel.
// CHECK-NEXT: %[[HN:.*]] = memref.dim %[[C]], %c1 : memref<?x?xf16>
// CHECK-NEXT: %[[HALF:.*]] = arith.cmpi sle, %[[HN]], %c128 : index
// CHECK-NEXT: scf.if %[[HALF]] {
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_23 blocks in (%{{.*}}, %c1, %c1) threads in (%c256, %c1, %c1)
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: } else {

// wave-fit: ceil(M / 128) * ceil(N / 192) >= 133, and 75 times its waves
// of 132 blocks at most 94 times those of ceil(M / 128) * ceil(N / 256).
// CHECK-NEXT: %[[M6:.*]] = memref.dim %[[C]], %c0 : memref<?x?xf16>
// CHECK-NEXT: %[[N6:.*]] = memref.dim %[[C]], %c1 : memref<?x?xf16>
// CHECK-DAG: %[[FITN0:.*]] = arith.addi %[[N6]], %c191 : index
// CHECK-DAG: %[[FITN:.*]] = arith.divui %[[FITN0]], %c192 : index
// CHECK-DAG: %[[FITM0:.*]] = arith.addi %[[M6]], %c127 : index
// CHECK-DAG: %[[FITM:.*]] = arith.divui %[[FITM0]], %c128 : index
// CHECK: %[[FITB:.*]] = arith.muli %[[FITM]], %[[FITN]] : index
// CHECK-NEXT: %[[PASTONE:.*]] = arith.cmpi sge, %[[FITB]], %c133 : index
// CHECK-DAG: %[[VSN0:.*]] = arith.addi %[[N6]], %c255 : index
// CHECK-DAG: %[[VSN:.*]] = arith.divui %[[VSN0]], %c256 : index
// CHECK-DAG: %[[VSM0:.*]] = arith.addi %[[M6]], %c127 : index
// CHECK-DAG: %[[VSM:.*]] = arith.divui %[[VSM0]], %c128 : index
// CHECK: %[[VSB:.*]] = arith.muli %[[VSM]], %[[VSN]] : index
// CHECK-DAG: %[[FITW0:.*]] = arith.addi %[[FITB]], %c131 : index
// CHECK-DAG: %[[FITW:.*]] = arith.divui %[[FITW0]], %c132 : index
// CHECK-DAG: %[[FITX:.*]] = arith.muli %[[FITW]], %c75 : index
// CHECK-DAG: %[[VSW0:.*]] = arith.addi %[[VSB]], %c131 : index
// CHECK-DAG: %[[VSW:.*]] = arith.divui %[[VSW0]], %c132 : index
// CHECK-DAG: %[[VSX:.*]] = arith.muli %[[VSW]], %c94 : index
// CHECK: %[[FITS:.*]] = arith.cmpi sle, %[[FITX]], %[[VSX]] : index
// CHECK-NEXT: %[[FIT:.*]] = arith.andi %[[PASTONE]], %[[FITS]] : i1
// CHECK-NEXT: scf.if %[[FIT]] {
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_24 blocks in (%{{.*}}, %c1, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %{{.*}} args(%{{.*}}#0 : memref<?x?xf16>, %{{.*}}#1 : memref<?x?xf16>, %[[C]] : memref<?x?xf16>{{(, %[0-9a-z_]+ : !llvm.ptr)*}})
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: } else {

// persistent: K >= 1024, past one wave, M and N whole tiles (the batch is
// 1 here, so batch_max needs no test).
// CHECK: %[[PK:.*]] = arith.cmpi sge, %{{.*}}, %c1024 : index
// CHECK: %[[PPAST:.*]] = arith.cmpi sge, %{{.*}}, %c133 : index
// CHECK-NEXT: %[[PB:.*]] = arith.andi %[[PK]], %[[PPAST]] : i1
// CHECK-NEXT: %[[NR:.*]] = arith.remui %{{.*}}, %c256 : index
// CHECK-NEXT: %[[NW:.*]] = arith.cmpi eq, %[[NR]], %c0 : index
// CHECK-NEXT: %[[MR:.*]] = arith.remui %{{.*}}, %c128 : index
// CHECK-NEXT: %[[MW:.*]] = arith.cmpi eq, %[[MR]], %c0 : index
// CHECK-NEXT: %[[WHOLE:.*]] = arith.andi %[[MW]], %[[NW]] : i1
// CHECK-NEXT: %[[PERS:.*]] = arith.andi %[[PB]], %[[WHOLE]] : i1
// CHECK-NEXT: scf.if %[[PERS]] {
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_25 blocks in (%{{.*}}, %c1, %c1) threads in (%c384, %c1, %c1) dynamic_shared_memory_size %{{.*}} args(%{{.*}}#0 : memref<?x?xf16>, %{{.*}}#1 : memref<?x?xf16>, %[[C]] : memref<?x?xf16>{{(, %[0-9a-z_]+ : !llvm.ptr)*}})
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: } else {

// default: unconditional, last.
// CHECK: gpu.launch_func @gemm_kernels::@dyn_gemm_26 blocks in (%{{.*}}, %c1, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %{{.*}} args(%{{.*}}#0 : memref<?x?xf16>, %{{.*}}#1 : memref<?x?xf16>, %[[C]] : memref<?x?xf16>{{(, %[0-9a-z_]+ : !llvm.ptr)*}})
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: return

// The kernels, each with its tile's block size and wgmma shape; the split-K
// kernel takes the workspace last and stores its partial sums there, its
// reduction kernel (32 x 8 threads) takes C and the workspace.
// CHECK: gpu.module @gemm_kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx84">]
// The family, then the pack kernel (created by the first member that packs).
// CHECK-LABEL: gpu.func @dyn_gemm(
// CHECK-SAME: %{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>, %[[NWSARG:[a-z0-9]+]]: memref<?x?x?x?xf32>{{(, %[a-z0-9]+: !llvm.ptr)*}}) {{(workgroup\(.*\) )?}}kernel attributes {known_block_size = array<i32: 128, 1, 1>}
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>
// CHECK: memref.store %{{.*}}, %[[NWSARG]][
// CHECK-LABEL: gpu.func @dyn_gemm_reduce(
// CHECK-LABEL: gpu.func @dyn_gemm_0(
// CHECK-SAME: kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// CHECK: gpu.shuffle  xor
// decode-wgmma's: all 128 threads copy through cp.async into the eight
// stages (no TMA, no producer warpgroup) and one warpgroup issues wgmma.
// CHECK-LABEL: gpu.func @dyn_gemm_2(
// CHECK-SAME: kernel attributes {known_block_size = array<i32: 128, 1, 1>}
// CHECK-NOT: nvvm.cp.async.bulk.tensor
// CHECK-NOT: nvvm.setmaxregister
// CHECK: nvgpu.device_async_copy
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>
// CHECK-LABEL: gpu.func @dyn_gemm_3(
// CHECK-SAME: kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// CHECK: llvm.intr.fshr
// CHECK: nvgpu.mma.sync
// CHECK: gpu.dynamic_shared_memory
// The wide decode members: a producer warpgroup issuing TMA loads into an
// mbarrier ring (decode-128x128 and decode-128x64: 384 threads,
// decode-192x128: 512, eight
// stages for the 64-row tiles), the split one storing its slice to the
// workspace; one block an SM (nvvm.minctasm), so that setmaxnreg holds.
// CHECK-LABEL: gpu.func @dyn_gemm_5(
// CHECK-SAME: kernel attributes {known_block_size = array<i32: 384, 1, 1>, nvvm.minctasm = 1 : i32}
// CHECK: nvvm.setmaxregister
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>
// CHECK-LABEL: gpu.func @dyn_gemm_6(
// CHECK-SAME: kernel attributes {known_block_size = array<i32: 512, 1, 1>, nvvm.minctasm = 1 : i32}
// CHECK: nvvm.setmaxregister
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>
// CHECK-LABEL: gpu.func @dyn_gemm_7(
// CHECK-SAME: kernel attributes {known_block_size = array<i32: 384, 1, 1>, nvvm.minctasm = 1 : i32}
// CHECK: nvvm.setmaxregister
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>
// CHECK-LABEL: gpu.func @dyn_gemm_8(
// CHECK-SAME: %{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>, %[[WDWSARG:[a-z0-9]+]]: memref<?x?x?x?xf32>{{(, %[a-z0-9]+: !llvm.ptr)*}}) {{(workgroup\(.*\) )?}}kernel attributes {known_block_size = array<i32: 256, 1, 1>, nvvm.minctasm = 1 : i32}
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>
// CHECK: memref.store %{{.*}}, %[[WDWSARG]][
// CHECK-LABEL: gpu.func @dyn_gemm_8_reduce(
// CHECK-LABEL: gpu.func @dyn_gemm_9(
// CHECK-SAME: kernel attributes {known_block_size = array<i32: 256, 1, 1>, nvvm.minctasm = 1 : i32}
// CHECK-LABEL: gpu.func @dyn_gemm_10(
// CHECK-SAME: kernel attributes {known_block_size = array<i32: 256, 1, 1>, nvvm.minctasm = 1 : i32}
// CHECK-LABEL: gpu.func @dyn_gemm_11(
// CHECK-SAME: %{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>{{(, %[a-z0-9]+: !llvm.ptr)*}}) {{(workgroup\(.*\) )?}}kernel attributes {known_block_size = array<i32: 128, 1, 1>}
// CHECK: nvgpu.mma.sync
// CHECK-LABEL: gpu.func @dyn_gemm_13(
// CHECK-SAME: %{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>, %[[DWSARG:[a-z0-9]+]]: memref<?x?x?x?xf32>{{(, %[a-z0-9]+: !llvm.ptr)*}}) {{(workgroup\(.*\) )?}}kernel attributes {known_block_size = array<i32: 128, 1, 1>}
// CHECK: nvgpu.mma.sync
// CHECK: memref.store %{{.*}}, %[[DWSARG]][
// CHECK-LABEL: gpu.func @dyn_gemm_13_reduce(
// CHECK-LABEL: gpu.func @dyn_gemm_14(
// CHECK: nvgpu.mma.sync
// CHECK-LABEL: gpu.func @dyn_gemm_16(
// CHECK: nvgpu.mma.sync
// CHECK-LABEL: gpu.func @dyn_gemm_16_reduce(
// CHECK-LABEL: gpu.func @dyn_gemm_17(
// CHECK-SAME: %{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>, %[[WSARG:[a-z0-9]+]]: memref<?x?x?x?xf32>{{(, %[a-z0-9]+: !llvm.ptr)*}}) {{(workgroup\(.*\) )?}}kernel attributes {known_block_size = array<i32: 128, 1, 1>}
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = [[SKBN]], k = 16>
// CHECK: memref.store %{{.*}}, %[[WSARG]][
// CHECK-LABEL: gpu.func @dyn_gemm_17_reduce(
// CHECK-SAME: %{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?x?x?xf32>) workgroup(%{{.*}} : memref<256xf32, #gpu.address_space<workgroup>>{{(, %[a-z0-9]+: !llvm.ptr)*}}) {{(workgroup\(.*\) )?}}kernel attributes {known_block_size = array<i32: 32, 8, 1>}
// CHECK-LABEL: gpu.func @dyn_gemm_18(
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>
// CHECK-LABEL: gpu.func @dyn_gemm_19(
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
// CHECK: nvgpu.mma.sync
// CHECK-LABEL: gpu.func @dyn_gemm_20(
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>
// CHECK-LABEL: gpu.func @dyn_gemm_21(
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 256, k = 16>
// CHECK-LABEL: gpu.func @dyn_gemm_22(
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>
// CHECK-LABEL: gpu.func @dyn_gemm_23(
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>
// CHECK-LABEL: gpu.func @dyn_gemm_24(
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 192, k = 16>
// CHECK-LABEL: gpu.func @dyn_gemm_25(
// CHECK-SAME: known_block_size = array<i32: 384, 1, 1>
// CHECK: nvvm.setmaxregister increase 232
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 256, k = 16>
// CHECK-LABEL: gpu.func @dyn_gemm_26(
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 256, k = 16>
// CHECK-NOT: gpu.func @dyn_gemm

// dispatch=false: the default kernel alone, launched unconditionally.
// ONE: module attributes {gemm.kernels = [{
// ONE-SAME: config = "#gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4, group = 8, load = tma>"
// ONE-SAME: name = "dyn_gemm",
// ONE-SAME: rule = "default", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {}}]
// ONE-LABEL: func.func @dyn(
// ONE: %[[P:.*]]:2 = scf.if
// ONE-NOT: gpu.launch_func @gemm_kernels::@dyn
// ONE: gpu.launch_func @gemm_kernels::@dyn_gemm blocks in (%{{.*}}, %c1, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %c197632_i32 args(%[[P]]#0
// ONE-NEXT: scf.if
// ONE-NEXT: gpu.dealloc %[[P]]#0
// ONE-NOT: gpu.launch_func
// ONE: gpu.func @dyn_gemm(
// ONE-NOT: gpu.func @dyn_gemm
func.func @dyn(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}

// -----

// GEMV (M = 1, N = K = 4096), static: gemv's bounds hold (M <= 1, K >= 256,
// 256 blocks of 1 x 16), so it is the only kernel: no workspace, no
// reduction, no test on the sizes.
// CHECK: module attributes {gemm.kernels = [{
// CHECK-SAME: config = "#gemm.config<kind = gemv, block = [1, 16, 512], warps = [1, 8], instr = [1, 1, 8], stages = 1, smem = plain>"
// CHECK-SAME: name = "gemv_gemm",
// CHECK-SAME: rule = "gemv", when = {}}]
// CHECK-LABEL: func.func @gemv(
// CHECK-NOT: scf.if
// CHECK-NOT: gpu.alloc
// CHECK: gpu.launch_func @gemm_kernels::@gemv_gemm blocks in (%c256, %c1, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %c0_i32
// CHECK-NEXT: return
// CHECK-LABEL: gpu.func @gemv_gemm(
// CHECK-NOT: gpu.func
func.func @gemv(%a: memref<1x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<1x4096xf16>) {
  gemm.matmul tn ins(%a, %b : memref<1x4096xf16>, memref<4096x4096xf16>) outs(%c : memref<1x4096xf16>) acc(f32)
  return
}

// -----

// Decode (M = 3, N = 4096, K = 8192, nn: past the K up to which gemv-mma
// serves a B stored K x N), static: M <= 16 and K >= 512 with 32 blocks
// of 16 x 128, fewer than 66, select decode-split statically, so it is the
// only kernel (with its reduction), launched without a test on the sizes;
// the slices fold to a constant, min(132 / 32, 128, 8192 / 512) = 4.
// CHECK: module attributes {gemm.kernels = [{
// CHECK-SAME: config = "#gemm.config<kind = mma_sync, block = [16, 128, 128], warps = [1, 4], instr = [16, 8, 16], stages = 6, split_k = 128>"
// CHECK-SAME: name = "decode_gemm",
// CHECK-SAME: rule = "decode-split", split_k = {
// CHECK-SAME: name = "decode_gemm_reduce"
// CHECK-SAME: when = {}}]
// CHECK-LABEL: func.func @decode(
// CHECK-NOT: scf.if
// CHECK: %[[WS:.*]] = gpu.alloc (%c1, %c4, %c3, %c4096) : memref<?x?x?x?xf32>
// CHECK-NOT: scf.if
// CHECK: gpu.launch_func @gemm_kernels::@decode_gemm blocks in (%c32, %c4, %c1) threads in (%c128, %c1, %c1) {{.*}}, %[[WS]] : memref<?x?x?x?xf32>)
// CHECK-NEXT: gpu.launch_func @gemm_kernels::@decode_gemm_reduce blocks in (%c128, %c1, %c1) threads in (%c32, %c8, %c1) {{.*}}, %[[WS]] : memref<?x?x?x?xf32>)
// CHECK-NEXT: gpu.dealloc %[[WS]]
// CHECK-NEXT: return
// CHECK-LABEL: gpu.func @decode_gemm(
// CHECK-SAME: memref<?x?x?x?xf32>{{(, %[a-z0-9]+: !llvm.ptr)*}}) {{(workgroup\(.*\) )?}}kernel attributes {known_block_size = array<i32: 128, 1, 1>}
// CHECK-LABEL: gpu.func @decode_gemm_reduce(
// CHECK-NOT: gpu.func

// ONE-LABEL: func.func @decode(
// ONE-NOT: gpu.alloc
// ONE: gpu.launch_func @gemm_kernels::@decode_gemm blocks in (%c16, %c1, %c1) threads in (%c256, %c1, %c1)
// ONE-NOT: gpu.launch_func
// ONE: gpu.func @decode_gemm(
// ONE-NOT: gpu.func
func.func @decode(%a: memref<3x8192xf16>, %b: memref<8192x4096xf16>, %c: memref<3x4096xf16>) {
  gemm.matmul nn ins(%a, %b : memref<3x8192xf16>, memref<8192x4096xf16>) outs(%c : memref<3x4096xf16>) acc(f32)
  return
}

// -----

// Three rows against a B stored K x N with an odd N (M = 3, N = 4097, K =
// 4093, nn), static: B's type rules out 16-byte copies, so
// gemv-mma-n-unaligned-narrow alone (8 x 16 tiles, 257 blocks), reading
// B's misaligned rows in place element by element where the decode tile
// would pack both operands first.
// CHECK: module attributes {gemm.kernels = [{
// CHECK-SAME: config = "#gemm.config<kind = gemv, block = [8, 16, 128], warps = [1, 8], instr = [8, 16, 16], stages = 1, smem = plain>"
// CHECK-SAME: rule = "gemv-mma-n-unaligned-narrow", when = {}}]
// CHECK-LABEL: func.func @gemv_mma_columns(
// CHECK-NOT: scf.if
// CHECK-NOT: gemm_pack
// CHECK: gpu.launch_func @gemm_kernels::@gemv_mma_columns_gemm blocks in (%c257, %c1, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %c4096_i32
// CHECK-NEXT: return
// CHECK-LABEL: gpu.func @gemv_mma_columns_gemm(
// CHECK: nvgpu.mma.sync
// CHECK-NOT: gpu.func

// The default kernel alone (dispatch=false) copies the misaligned rows.
// ONE-LABEL: func.func @gemv_mma_columns(
// ONE: gpu.launch_func @gemm_kernels::@gemm_pack_f16
// ONE: gpu.launch_func @gemm_kernels::@gemv_mma_columns_gemm
func.func @gemv_mma_columns(%a: memref<3x4093xf16>, %b: memref<4093x4097xf16>, %c: memref<3x4097xf16>) {
  gemm.matmul nn ins(%a, %b : memref<3x4093xf16>, memref<4093x4097xf16>) outs(%c : memref<3x4097xf16>) acc(f32)
  return
}

// -----

// Dynamic nn: the members for a B that rules out 16-byte copies come first
// (`b_aligned = false` in the manifest); the host code tests B's start
// address and leading stride (whole 16 bytes: 8 f16) before the sizes'
// bounds pick one.
// CHECK: module attributes {gemm.kernels = [
// CHECK-SAME: rule = "gemv-n-2"
// CHECK-SAME: rule = "gemv-mma-n-unaligned-narrow", when = {b_aligned = false, blocks_max = 396 : i64, blocks_min = 66 : i64, k_min = 256 : i64, m_max = 8 : i64, m_min = 3 : i64}
// CHECK-SAME: rule = "gemv-mma-n-unaligned", when = {b_aligned = false, blocks_max = 396 : i64, blocks_min = 199 : i64, k_min = 256 : i64, m_max = 8 : i64, m_min = 3 : i64}
// CHECK-SAME: rule = "gemv-mma-n-unaligned-wide", when = {b_aligned = false, blocks_min = 199 : i64, k_min = 256 : i64, m_max = 8 : i64, m_min = 3 : i64}
// CHECK-SAME: rule = "gemv-mma-16-n-unaligned-narrow", when = {b_aligned = false, blocks_max = 396 : i64, blocks_min = 66 : i64, k_min = 256 : i64, m_max = 16 : i64, m_min = 9 : i64}
// CHECK-SAME: rule = "gemv-mma-16-n-unaligned", when = {b_aligned = false, blocks_min = 199 : i64, k_min = 256 : i64, m_max = 16 : i64, m_min = 9 : i64}
// CHECK-SAME: rule = "gemv-mma-n-narrow", when = {blocks_max = 131 : i64
// CHECK-LABEL: func.func @dyn_nn(
// CHECK: gpu.launch_func @gemm_kernels::@dyn_nn_gemm_3
// CHECK: } else {
// CHECK: %[[BLOCKS:.*]] = arith.cmpi sle, %{{.*}}, %c396 : index
// CHECK-NEXT: %[[SIZES:.*]] = arith.andi %{{.*}}, %[[BLOCKS]] : i1
// CHECK-NEXT: %{{.*}}, %{{.*}}, %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %arg1
// CHECK-NEXT: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %arg1
// CHECK-NEXT: %[[PREM:.*]] = arith.remui %[[PTR]], %c16 : index
// CHECK-NEXT: %[[PTROK:.*]] = arith.cmpi eq, %[[PREM]], %c0 : index
// CHECK-NEXT: %[[SREM:.*]] = arith.remui %[[STRIDES]]#0, %c8 : index
// CHECK-NEXT: %[[STROK:.*]] = arith.cmpi eq, %[[SREM]], %c0 : index
// CHECK-NEXT: %[[OK:.*]] = arith.andi %[[PTROK]], %[[STROK]] : i1
// CHECK-NEXT: %[[NOTOK:.*]] = arith.xori %[[OK]], %true : i1
// CHECK-NEXT: %[[HOLDS:.*]] = arith.andi %[[SIZES]], %[[NOTOK]] : i1
// CHECK-NEXT: scf.if %[[HOLDS]] {
// CHECK: gpu.launch_func @gemm_kernels::@dyn_nn_gemm_4
func.func @dyn_nn(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}

// -----

// A misaligned A alone (K = 4093) keeps the members for aligned rows: B's
// type allows 16-byte copies, so no member is conditioned on it and
// gemv-mma-n (8 x 32, 128 blocks) runs.
// CHECK: module attributes {gemm.kernels = [{
// CHECK-SAME: rule = "gemv-mma-n", when = {}}]
// CHECK-LABEL: func.func @gemv_mma_a_unaligned(
// CHECK-NOT: scf.if
// CHECK: gpu.launch_func @gemm_kernels::@gemv_mma_a_unaligned_gemm blocks in (%c128, %c1, %c1)
func.func @gemv_mma_a_unaligned(%a: memref<5x4093xf16>, %b: memref<4093x4096xf16>, %c: memref<5x4096xf16>) {
  gemm.matmul nn ins(%a, %b : memref<5x4093xf16>, memref<4093x4096xf16>) outs(%c : memref<5x4096xf16>) acc(f32)
  return
}

// -----

// Eleven rows with an odd K (M = 11, N = 4097, K = 4093), static:
// gemv-mma-16 alone, reading the misaligned rows in place (the decode tile
// would pack both operands first).
// CHECK: module attributes {gemm.kernels = [{
// CHECK-SAME: config = "#gemm.config<kind = gemv, block = [16, 32, 64], warps = [1, 8], instr = [8, 16, 16], stages = 1, smem = plain>"
// CHECK-SAME: rule = "gemv-mma-16", when = {}}]
// CHECK-LABEL: func.func @gemv_mma_odd(
// CHECK-NOT: scf.if
// CHECK-NOT: gemm_pack
// CHECK: gpu.launch_func @gemm_kernels::@gemv_mma_odd_gemm blocks in (%c129, %c1, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %c16384_i32
// CHECK-NEXT: return
// CHECK-LABEL: gpu.func @gemv_mma_odd_gemm(
// CHECK: llvm.intr.fshr
// CHECK: nvgpu.mma.sync
// CHECK-NOT: gpu.func

// The default kernel alone (dispatch=false) copies the misaligned rows.
// ONE-LABEL: func.func @gemv_mma_odd(
// ONE: gpu.launch_func @gemm_kernels::@gemm_pack_f16
// ONE: gpu.launch_func @gemm_kernels::@gemv_mma_odd_gemm
func.func @gemv_mma_odd(%a: memref<11x4093xf16>, %b: memref<4097x4093xf16>, %c: memref<11x4097xf16>) {
  gemm.matmul tn ins(%a, %b : memref<11x4093xf16>, memref<4097x4093xf16>) outs(%c : memref<11x4097xf16>) acc(f32)
  return
}

// -----

// Two rows with an odd K (M = 2, N = 4097, K = 4093), static: gemv-2 alone.
// Its rows are not 16-byte aligned; the kernel reads them in place (the
// shifted path), so nothing is packed.
// CHECK: module attributes {gemm.kernels = [{
// CHECK-SAME: config = "#gemm.config<kind = gemv, block = [2, 16, 512], warps = [1, 8], instr = [1, 1, 8], stages = 1, smem = plain>"
// CHECK-SAME: rule = "gemv-2", when = {}}]
// CHECK-LABEL: func.func @gemv2_odd(
// CHECK-NOT: scf.if
// CHECK-NOT: gemm_pack
// CHECK: gpu.launch_func @gemm_kernels::@gemv2_odd_gemm blocks in (%c257, %c1, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %c0_i32
// CHECK-NEXT: return
// CHECK-LABEL: gpu.func @gemv2_odd_gemm(
// CHECK: llvm.intr.fshr
// CHECK-NOT: gpu.func

// The default kernel alone (dispatch=false) copies the misaligned rows.
// ONE-LABEL: func.func @gemv2_odd(
// ONE: gpu.launch_func @gemm_kernels::@gemm_pack_f16
// ONE: gpu.launch_func @gemm_kernels::@gemv2_odd_gemm
func.func @gemv2_odd(%a: memref<2x4093xf16>, %b: memref<4097x4093xf16>, %c: memref<2x4097xf16>) {
  gemm.matmul tn ins(%a, %b : memref<2x4093xf16>, memref<4097x4093xf16>) outs(%c : memref<2x4097xf16>) acc(f32)
  return
}

// -----

// 4096^3, static: no rule before persistent holds (the grids of split-k,
// small and mid are far over one wave: 512 blocks even in 128 x 128
// tiles), and M and N are whole 128 x 256 tiles, so the default tile
// walked persistently alone: one block an SM (132), a producer warpgroup
// beside the two compute ones (384 threads), no test on the sizes.
// CHECK: module attributes {gemm.kernels = [{
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4, group = 8, load = tma_ws, schedule = persistent>"
// CHECK-SAME: name = "large_gemm",
// CHECK-SAME: rule = "persistent", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {}}]
// CHECK-LABEL: func.func @large(
// CHECK-NOT: scf.if
// CHECK-NOT: gpu.alloc
// CHECK: gpu.launch_func @gemm_kernels::@large_gemm blocks in (%c132, %c1, %c1) threads in (%c384, %c1, %c1)
// CHECK-NOT: gpu.launch_func
// CHECK: return
// CHECK-LABEL: gpu.func @large_gemm(
// CHECK-SAME: kernel attributes {known_block_size = array<i32: 384, 1, 1>, nvvm.minctasm = 1 : i32}
// CHECK-NOT: gpu.func

// dispatch=false: the default tile.
// ONE-LABEL: func.func @large(
// ONE: gpu.launch_func @gemm_kernels::@large_gemm blocks in (%c512, %c1, %c1) threads in (%c256, %c1, %c1)
// ONE-NOT: gpu.launch_func
// ONE: gpu.func @large_gemm(
// ONE-NOT: gpu.func
func.func @large(%a: memref<4096x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<4096x4096xf16>) {
  gemm.matmul tn ins(%a, %b : memref<4096x4096xf16>, memref<4096x4096xf16>) outs(%c : memref<4096x4096xf16>) acc(f32)
  return
}

// -----

// M = 4096 and K = 256 static, N dynamic: K < 512 rules out split-k and
// M > 64 short-m; small, narrow-n, mid, half-n and wave-fit depend on N, and are
// tested on it alone (M's factor of the block count folded: 4096 / 64 = 64
// blocks of rows for small, 32 for mid; half-n launches mid's kernel).
// CHECK: module attributes {gemm.kernels = [{
// CHECK-SAME: name = "partial_gemm",
// CHECK-SAME: rule = "small", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_max = 132 : i64}}, {
// CHECK-SAME: name = "partial_gemm_0",
// CHECK-SAME: rule = "narrow-n", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {n_max = 64 : i64}}, {
// CHECK-SAME: name = "partial_gemm_1",
// CHECK-SAME: rule = "mid", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_max = [[MIDMAX:[0-9]+]] : i64}}, {
// CHECK-SAME: name = "partial_gemm_1",
// CHECK-SAME: rule = "half-n", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {n_max = 128 : i64}}, {
// CHECK-SAME: name = "partial_gemm_2",
// CHECK-SAME: rule = "wave-fit", {{.*}}when = {blocks_min = 133 : i64, wave_fit = {versus = [128, 256], versus_weight = 94 : i64, wave = 132 : i64, weight = 75 : i64}}}, {
// CHECK-SAME: name = "partial_gemm_3",
// CHECK-SAME: rule = "default", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {}}]
// CHECK-LABEL: func.func @partial(
// CHECK-SAME: %{{.*}}: memref<4096x256xf16>, %{{.*}}: memref<?x256xf16>, %[[C:[a-z0-9]+]]: memref<4096x?xf16>)
// CHECK: %[[N:.*]] = memref.dim %[[C]], %c1 : memref<4096x?xf16>
// CHECK-NEXT: %[[SMN0:.*]] = arith.addi %[[N]], %c63 : index
// CHECK-NEXT: %[[SMN:.*]] = arith.divui %[[SMN0]], %c64 : index
// CHECK-NEXT: %[[SMB:.*]] = arith.muli %[[SMN]], %c64 : index
// CHECK-NEXT: %[[SM:.*]] = arith.cmpi sle, %[[SMB]], %c132 : index
// CHECK-NEXT: scf.if %[[SM]] {
// CHECK: gpu.launch_func @gemm_kernels::@partial_gemm blocks
// CHECK: } else {
// CHECK-NEXT: %[[N2:.*]] = memref.dim %[[C]], %c1 : memref<4096x?xf16>
// CHECK-NEXT: %[[NARROW:.*]] = arith.cmpi sle, %[[N2]], %c64 : index
// CHECK-NEXT: scf.if %[[NARROW]] {
// CHECK: gpu.launch_func @gemm_kernels::@partial_gemm_0 blocks
// CHECK: } else {
// CHECK-NEXT: %[[N3:.*]] = memref.dim %[[C]], %c1 : memref<4096x?xf16>
// CHECK-NEXT: %[[MIDN0:.*]] = arith.addi %[[N3]], %c127 : index
// CHECK-NEXT: %[[MIDN:.*]] = arith.divui %[[MIDN0]], %c128 : index
// CHECK-NEXT: %[[MIDB:.*]] = arith.muli %[[MIDN]], %c32 : index
// CHECK-NEXT: %[[MID:.*]] = arith.cmpi sle, %[[MIDB]], %c[[MIDMAX]] : index
// CHECK-NEXT: scf.if %[[MID]] {
// CHECK: gpu.launch_func @gemm_kernels::@partial_gemm_1 blocks
// CHECK: } else {
// CHECK-NEXT: %[[N4:.*]] = memref.dim %[[C]], %c1 : memref<4096x?xf16>
// CHECK-NEXT: %[[HALF:.*]] = arith.cmpi sle, %[[N4]], %c128 : index
// CHECK-NEXT: scf.if %[[HALF]] {
// CHECK: gpu.launch_func @gemm_kernels::@partial_gemm_1 blocks
// CHECK: } else {
// wave-fit: 32 blocks of rows; 75 times the waves of 32 * ceil(N / 192)
// against 94 times those of 32 * ceil(N / 256).
// CHECK-NEXT: %[[N5:.*]] = memref.dim %[[C]], %c1 : memref<4096x?xf16>
// CHECK-NEXT: %[[FITN0:.*]] = arith.addi %[[N5]], %c191 : index
// CHECK-NEXT: %[[FITN:.*]] = arith.divui %[[FITN0]], %c192 : index
// CHECK-NEXT: %[[FITB:.*]] = arith.muli %[[FITN]], %c32 : index
// CHECK-NEXT: %[[PASTONE:.*]] = arith.cmpi sge, %[[FITB]], %c133 : index
// CHECK-NEXT: %[[VSN0:.*]] = arith.addi %[[N5]], %c255 : index
// CHECK-NEXT: %[[VSN:.*]] = arith.divui %[[VSN0]], %c256 : index
// CHECK-NEXT: %[[VSB:.*]] = arith.muli %[[VSN]], %c32 : index
// CHECK-NEXT: %[[VSW0:.*]] = arith.addi %[[VSB]], %c131 : index
// CHECK-NEXT: %[[VSW:.*]] = arith.divui %[[VSW0]], %c132 : index
// CHECK-NEXT: %[[VSX:.*]] = arith.muli %[[VSW]], %c94 : index
// CHECK-NEXT: %[[FITW0:.*]] = arith.addi %[[FITB]], %c131 : index
// CHECK-NEXT: %[[FITW:.*]] = arith.divui %[[FITW0]], %c132 : index
// CHECK-NEXT: %[[FITX:.*]] = arith.muli %[[FITW]], %c75 : index
// CHECK-NEXT: %[[FITS:.*]] = arith.cmpi sle, %[[FITX]], %[[VSX]] : index
// CHECK-NEXT: %[[FIT:.*]] = arith.andi %[[PASTONE]], %[[FITS]] : i1
// CHECK-NEXT: scf.if %[[FIT]] {
// CHECK: gpu.launch_func @gemm_kernels::@partial_gemm_2 blocks
// CHECK: } else {
// CHECK-NOT: scf.if
// CHECK: gpu.launch_func @gemm_kernels::@partial_gemm_3 blocks
// CHECK-NOT: gpu.launch_func
// CHECK-NOT: gpu.alloc
// CHECK: return
// CHECK-NOT: _reduce
// CHECK-LABEL: gpu.func @partial_gemm(
// CHECK-LABEL: gpu.func @partial_gemm_0(
// CHECK-LABEL: gpu.func @partial_gemm_1(
// CHECK-LABEL: gpu.func @partial_gemm_2(
// CHECK-LABEL: gpu.func @partial_gemm_3(
// CHECK-NOT: gpu.func

// ONE-LABEL: func.func @partial(
// ONE-NOT: scf.if
// ONE: gpu.launch_func @gemm_kernels::@partial_gemm blocks
// ONE-NOT: gpu.launch_func
// ONE: gpu.func @partial_gemm(
// ONE-NOT: gpu.func
func.func @partial(%a: memref<4096x256xf16>, %b: memref<?x256xf16>, %c: memref<4096x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<4096x256xf16>, memref<?x256xf16>) outs(%c : memref<4096x?xf16>) acc(f32)
  return
}

// -----

// M = 64 static: short-m holds statically, so it ends the family
// (unconditional, when = {}); split-k-narrow, split-k, small, tiny-k,
// short-k and short-k-narrow, before it, stay tested at run time, and so do the wide decode
// members of 64-row tiles and decode-64-split (33 <= M <= 64); the 16- and
// 32-row decode members, decode-128x128 (65 <= M), narrow-n, mid and the
// default are dropped.
// CHECK: module attributes {gemm.kernels = [{
// CHECK-SAME: name = "short_m_gemm",
// CHECK-SAME: rule = "split-k-narrow", split_k = {
// CHECK-SAME: when = {blocks_max = 132 : i64, k_min = 512 : i64, n_max = 64 : i64}}, {
// CHECK-SAME: name = "short_m_gemm_0",
// CHECK-SAME: rule = "decode-64x64-split", split_k = {
// CHECK-SAME: when = {blocks_max = 66 : i64, blocks_min = 33 : i64, k_min = 8192 : i64, m_max = 64 : i64, m_min = 33 : i64}}, {
// CHECK-SAME: name = "short_m_gemm_1",
// CHECK-SAME: rule = "decode-64x64", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_max = 132 : i64, blocks_min = 33 : i64, k_min = 512 : i64, m_max = 64 : i64, m_min = 33 : i64}}, {
// CHECK-SAME: name = "short_m_gemm_2",
// CHECK-SAME: rule = "decode-64x128", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_max = 132 : i64, blocks_min = 33 : i64, k_min = 512 : i64, m_max = 256 : i64, m_min = 33 : i64}}, {
// CHECK-SAME: name = "short_m_gemm_3",
// CHECK-SAME: rule = "decode-64-split", split_k = {
// CHECK-SAME: when = {blocks_max = 65 : i64, k_min = 512 : i64, m_max = 64 : i64, m_min = 33 : i64}}, {
// CHECK-SAME: name = "short_m_gemm_3",
// CHECK-SAME: rule = "split-k", split_k = {
// CHECK-SAME: when = {blocks_max = 132 : i64, k_min = 512 : i64}}, {
// CHECK-SAME: name = "short_m_gemm_4",
// CHECK-SAME: rule = "small", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_max = 132 : i64}}, {
// CHECK-SAME: name = "short_m_gemm_5",
// CHECK-SAME: rule = "tiny-k", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_max = 1056 : i64, k_max = 16 : i64}}, {
// CHECK-SAME: name = "short_m_gemm_6",
// CHECK-SAME: rule = "short-k", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_min = 529 : i64, k_max = 128 : i64, n_min = 65 : i64}}, {
// CHECK-SAME: name = "short_m_gemm_6",
// CHECK-SAME: rule = "short-k-narrow", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {blocks_min = 265 : i64, k_max = 128 : i64, n_max = 128 : i64, n_min = 65 : i64}}, {
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [64, 256, 64], warps = [1, 1], instr = [64, 256, 16], stages = 4, group = 8, load = tma>"
// CHECK-SAME: name = "short_m_gemm_7",
// CHECK-SAME: rule = "short-m", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {}}]
// CHECK-LABEL: func.func @short_m(
// CHECK: arith.cmpi sle, %{{.*}}, %c64 : index
// CHECK: scf.if
// CHECK: gpu.launch_func @gemm_kernels::@short_m_gemm blocks
// CHECK: gpu.launch_func @gemm_kernels::@short_m_gemm_reduce blocks
// CHECK: } else {
// CHECK: arith.cmpi sge, %{{.*}}, %c8192 : index
// CHECK: scf.if
// CHECK: gpu.launch_func @gemm_kernels::@short_m_gemm_0 blocks
// CHECK: gpu.launch_func @gemm_kernels::@short_m_gemm_0_reduce blocks
// CHECK: } else {
// CHECK: arith.cmpi sge, %{{.*}}, %c512 : index
// CHECK: scf.if
// CHECK: gpu.launch_func @gemm_kernels::@short_m_gemm_1 blocks
// CHECK: } else {
// CHECK: scf.if
// CHECK: gpu.launch_func @gemm_kernels::@short_m_gemm_2 blocks
// CHECK: } else {
// CHECK: scf.if
// CHECK: gpu.launch_func @gemm_kernels::@short_m_gemm_3 blocks
// CHECK: gpu.launch_func @gemm_kernels::@short_m_gemm_3_reduce blocks
// CHECK: } else {
// split-k: decode-64-split's kernel under split-k's bounds and fill.
// CHECK: arith.cmpi sge, %{{.*}}, %c512 : index
// CHECK: scf.if
// CHECK: gpu.launch_func @gemm_kernels::@short_m_gemm_3 blocks
// CHECK: gpu.launch_func @gemm_kernels::@short_m_gemm_3_reduce blocks
// CHECK: } else {
// CHECK: scf.if
// CHECK: gpu.launch_func @gemm_kernels::@short_m_gemm_4 blocks
// CHECK-NEXT: } else {
// CHECK: scf.if
// CHECK: gpu.launch_func @gemm_kernels::@short_m_gemm_5 blocks
// CHECK-NEXT: } else {
// CHECK: scf.if
// CHECK: gpu.launch_func @gemm_kernels::@short_m_gemm_6 blocks
// CHECK-NEXT: } else {
// CHECK: scf.if
// CHECK: gpu.launch_func @gemm_kernels::@short_m_gemm_6 blocks
// CHECK-NEXT: } else {
// CHECK-NOT: scf.if
// CHECK: gpu.launch_func @gemm_kernels::@short_m_gemm_7 blocks
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NOT: gpu.launch_func
// CHECK: return
// CHECK-NOT: gpu.func @short_m_gemm_8

// ONE-LABEL: func.func @short_m(
// ONE: %[[P:.*]]:2 = scf.if
// ONE-NOT: gpu.launch_func @gemm_kernels::@short_m
// ONE: gpu.launch_func @gemm_kernels::@short_m_gemm blocks in (%{{.*}}, %c1, %c1) threads in (%c256, %c1, %c1)
// ONE-NEXT: scf.if
// ONE: gpu.func @short_m_gemm(
// ONE-NOT: gpu.func @short_m_gemm_
func.func @short_m(%a: memref<64x?xf16>, %b: memref<?x?xf16>, %c: memref<64x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<64x?xf16>, memref<?x?xf16>) outs(%c : memref<64x?xf16>) acc(f32)
  return
}

// -----

// An explicit config: that kernel alone (rule "config"), with or without
// dispatch.
// CHECK: module attributes {gemm.kernels = [{
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [128, 128, 64], warps = [2, 1], instr = [64, 128, 16], stages = 4, group = 8>"
// CHECK-SAME: name = "explicit_gemm",
// CHECK-SAME: rule = "config", {{(tensor_maps = \[\{box = \[[0-9, ]*\], operand = "A", swizzle = 128 : i64\}, \{box = \[[0-9, ]*\], operand = "B", swizzle = 128 : i64\}\], )?}}when = {}}]
// CHECK-LABEL: func.func @explicit(
// CHECK: %[[P:.*]]:2 = scf.if
// CHECK-NOT: gpu.launch_func @gemm_kernels::@explicit
// CHECK: gpu.launch_func @gemm_kernels::@explicit_gemm blocks in (%{{.*}}, %c1, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %c132096_i32 args(%[[P]]#0
// CHECK-NEXT: scf.if
// CHECK-NEXT: gpu.dealloc %[[P]]#0
// CHECK-NOT: gpu.launch_func
// CHECK-LABEL: gpu.func @explicit_gemm(
// CHECK-NOT: gpu.func @explicit_gemm

// ONE: module attributes {gemm.kernels = [{
// ONE-SAME: config = "#gemm.config<kind = wgmma, block = [128, 128, 64], warps = [2, 1], instr = [64, 128, 16], stages = 4, group = 8>"
// ONE-SAME: rule = "config", when = {}}]
// ONE-LABEL: func.func @explicit(
// ONE: gpu.launch_func @gemm_kernels::@explicit_gemm blocks
// ONE-NOT: gpu.launch_func @gemm_kernels::@explicit_gemm
func.func @explicit(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 128, 64], warps = [2, 1], instr = [64, 128, 16], stages = 4, group = 8>}
  return
}

// -----

// f8: its default tile (192 x 128, three compute warpgroups and a
// producer) serves every grid past one wave (no persistent or 128 x 192
// member: measured, not kept; docs/dispatch.md).
// CHECK: module attributes {gemm.kernels = [{
// CHECK-SAME: rule = "small"
// CHECK-SAME: rule = "narrow-n"
// CHECK-NOT: persistent
// CHECK-SAME: config = "#gemm.config<kind = wgmma, block = [192, 128, 128], warps = [3, 1], instr = [64, 128, 32], stages = 4, group = 8, load = tma_ws>"
// CHECK-SAME: rule = "default", {{.*}}when = {}}]
// CHECK-LABEL: gpu.func @f8_gemm_1(
// CHECK-SAME: known_block_size = array<i32: 512, 1, 1>
func.func @f8(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}

