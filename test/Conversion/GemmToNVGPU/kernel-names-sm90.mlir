// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu=chip=sm_90 | FileCheck %s
// RUN: gemm-opt %s --gemm-to-ptx=chip=sm_90 | FileCheck %s --check-prefix=PTX

// Kernel names become PTX symbols, so characters other than letters,
// digits and '_' in the enclosing function's name become '_', and a leading
// digit gets a prefix (LLVM aborted with "Symbol name with unsupported
// characters" on `func.func @"a-b.c"`).

// CHECK-LABEL: func.func @"a-b.c"
// CHECK: gpu.launch_func @gemm_kernels::@a_b_c_gemm
// CHECK-LABEL: func.func @"1st"
// CHECK: gpu.launch_func @gemm_kernels::@k1st_gemm
// CHECK: gpu.func @a_b_c_gemm(
// CHECK: gpu.func @k1st_gemm(
// PTX: .entry a_b_c_gemm(
// PTX: .entry k1st_gemm(
func.func @"a-b.c"(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}

func.func @"1st"(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}
