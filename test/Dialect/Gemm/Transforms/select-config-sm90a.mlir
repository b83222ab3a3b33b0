// RUN: gemm-opt %s -split-input-file --gemm-select-config="target=sm_90a allow-tf32=true report=true" -verify-diagnostics | FileCheck %s
// RUN: gemm-opt --verify-roundtrip %s -split-input-file --gemm-select-config="target=sm_90a allow-tf32=true" --convert-gemm-to-nvgpu="chip=sm_90a allow-tf32=true" | FileCheck %s --check-prefix=LOWER

// On sm_90a wgmma reads tf32, i8 and f8 operands K-major only. Outside tn
// the lowering copies the MN-major operands transposed first
// (`transpose-operands`, Pack.cpp), so the lattice offers wgmma configs
// there too (the points legal in tn), and the cost model adds the copies
// (CostModel.cpp): a large GEMM picks wgmma, a one-row GEMM, whose copy
// would cost more than the whole GEMM, stays in place on mma.sync. Every
// choice lowers.

// CHECK-LABEL: func.func @tf32_nn
// CHECK: gemm.matmul nn {{.*}}kind = wgmma
// LOWER-LABEL: func.func @tf32_nn
// LOWER: gpu.launch_func @gemm_kernels::@gemm_transpose_f32
// LOWER: gpu.launch_func @gemm_kernels::@tf32_nn_gemm
func.func @tf32_nn(%a: memref<4096x4096xf32>, %b: memref<4096x4096xf32>, %c: memref<4096x4096xf32>) {
  // expected-remark @+1 {{config from the cost model for 4096x4096x4096}}
  gemm.matmul nn ins(%a, %b : memref<4096x4096xf32>, memref<4096x4096xf32>) outs(%c : memref<4096x4096xf32>) acc(f32)
  return
}

// -----

// CHECK-LABEL: func.func @i8_tt
// CHECK: gemm.matmul tt {{.*}}kind = wgmma
// LOWER-LABEL: func.func @i8_tt
// LOWER: gpu.launch_func @gemm_kernels::@gemm_transpose_i8
// LOWER: gpu.launch_func @gemm_kernels::@i8_tt_gemm
func.func @i8_tt(%a: memref<4096x4096xi8>, %b: memref<4096x4096xi8>, %c: memref<4096x4096xi32>) {
  // expected-remark @+1 {{config from the cost model for 4096x4096x4096}}
  gemm.matmul tt ins(%a, %b : memref<4096x4096xi8>, memref<4096x4096xi8>) outs(%c : memref<4096x4096xi32>) acc(i32)
  return
}

// -----

// i8 nt, both operands MN-major: mma.sync in place would gather both
// fragments a byte at a time (the model counts it; measured 36 TF/s against
// 813 transposed).
// CHECK-LABEL: func.func @i8_nt
// CHECK: gemm.matmul nt {{.*}}kind = wgmma
// LOWER-LABEL: func.func @i8_nt
// LOWER: gpu.launch_func @gemm_kernels::@gemm_transpose_i8
// LOWER: gpu.launch_func @gemm_kernels::@gemm_transpose_i8
// LOWER: gpu.launch_func @gemm_kernels::@i8_nt_gemm
func.func @i8_nt(%a: memref<4096x4096xi8>, %b: memref<4096x4096xi8>, %c: memref<4096x4096xi32>) {
  // expected-remark @+1 {{config from the cost model for 4096x4096x4096}}
  gemm.matmul nt ins(%a, %b : memref<4096x4096xi8>, memref<4096x4096xi8>) outs(%c : memref<4096x4096xi32>) acc(i32)
  return
}

// -----

// f8 has no lowering but wgmma: outside tn the lattice was empty ("no legal
// config") before it held the transposed points.
// CHECK-LABEL: func.func @f8_nt
// CHECK: gemm.matmul nt {{.*}}kind = wgmma
// LOWER-LABEL: func.func @f8_nt
// LOWER: gpu.launch_func @gemm_kernels::@gemm_transpose_f8E4M3FN
// LOWER: gpu.launch_func @gemm_kernels::@gemm_transpose_f8E4M3FN
// LOWER: gpu.launch_func @gemm_kernels::@f8_nt_gemm
func.func @f8_nt(%a: memref<4096x4096xf8E4M3FN>, %b: memref<4096x4096xf8E4M3FN>, %c: memref<4096x4096xf16>) {
  // expected-remark @+1 {{config from the cost model for 4096x4096x4096}}
  gemm.matmul nt ins(%a, %b : memref<4096x4096xf8E4M3FN>, memref<4096x4096xf8E4M3FN>) outs(%c : memref<4096x4096xf16>) acc(f32)
  return
}

// -----

// One row of A on an N-contiguous B: gemv reading B in 16-byte chunks
// along N (instr [1, 4, 1]: four f32 a lane), in f32 FMAs, in place.
// CHECK-LABEL: func.func @tf32_nn_row
// CHECK: gemm.matmul nn {{.*}}kind = gemv, {{.*}}instr = [1, 4, 1]
// LOWER-LABEL: func.func @tf32_nn_row
// LOWER-NOT: gemm_transpose
// LOWER: gpu.launch_func @gemm_kernels::@tf32_nn_row_gemm
func.func @tf32_nn_row(%a: memref<1x4096xf32>, %b: memref<4096x4096xf32>, %c: memref<1x4096xf32>) {
  // expected-remark @+1 {{config from the cost model for 1x4096x4096}}
  gemm.matmul nn ins(%a, %b : memref<1x4096xf32>, memref<4096x4096xf32>) outs(%c : memref<1x4096xf32>) acc(f32)
  return
}
