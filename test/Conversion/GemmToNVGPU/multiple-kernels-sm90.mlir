// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu=chip=sm_90 | FileCheck %s

// Every gemm.matmul gets its own kernel in the one kernel module, named after
// its function (suffixed when a function holds several), and its own entry
// in `gemm.kernels`.

// CHECK: gemm.kernels = [{{{.*}}name = "layer_gemm"{{.*}}}, {{{.*}}name = "layer_gemm_0"{{.*}}}, {{{.*}}name = "other_gemm"
// CHECK-LABEL: func.func @layer
// CHECK: gpu.launch_func @gemm_kernels::@layer_gemm
// CHECK: gpu.launch_func @gemm_kernels::@layer_gemm_0
// CHECK-LABEL: func.func @other
// CHECK: gpu.launch_func @gemm_kernels::@other_gemm
// CHECK: gpu.module @gemm_kernels
// CHECK-COUNT-3: gpu.func
// CHECK-NOT: gpu.module
func.func @layer(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>, %d: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  gemm.matmul nn ins(%c, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%d : memref<?x?xf16>) acc(f32)
  return
}
func.func @other(%a: memref<?x?xf32>, %c: memref<?x?xf32>) {
  gemm.matmul nn ins(%a, %a : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}
