// RUN: rm -rf %t && gemm-opt --verify-roundtrip %s --gemm-to-ptx="chip=sm_90a output-dir=%t" | FileCheck %s
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: FileCheck %s --check-prefix=PTX < %t/gemm_kernels.sm_90a.ptx

// The examples compile the same way (the memref one with llvm.noalias
// arguments and H an allocation of the function).
// RUN: rm -rf %t.ex && gemm-opt %gemm_src_root/examples/mlp_linalg.mlir --gemm-to-ptx="chip=sm_90a output-dir=%t.ex" | FileCheck %s
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.ex/manifest.json
// RUN: rm -rf %t.ext && gemm-opt %gemm_src_root/examples/mlp_linalg_tensors.mlir --gemm-to-ptx="chip=sm_90a output-dir=%t.ext" | FileCheck %s
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.ext/manifest.json

// A module without linalg or tensors compiles as without the entry from
// linalg (but for the serialization time the binary records).
// RUN: gemm-opt %gemm_src_root/examples/gemm_f16_tn.mlir --gemm-to-ptx="chip=sm_90a from-linalg=false" | sed -e 's/LLVMIRToISATimeInMs = [0-9]*/T/' > %t.without
// RUN: gemm-opt %gemm_src_root/examples/gemm_f16_tn.mlir --gemm-to-ptx="chip=sm_90a" | sed -e 's/LLVMIRToISATimeInMs = [0-9]*/T/' > %t.with
// RUN: diff %t.without %t.with

// An MLP block on tensors through gemm-to-ptx: from-linalg (the default)
// bufferizes it, rewrites both matmuls into gemm.matmul and folds the bias
// + GELU and the residual into their epilogues, so that exactly two kernel
// families (gemm 0 and gemm 1, twenty-five members each) are built and no linalg
// op is left.
//
//   H = GELU(X * W1^T + b1),  Y = H * W2^T + R   (f16, f32 accumulation)

// H (and the result on tensors) are device allocations.
// CHECK-NOT: linalg
// CHECK-LABEL: llvm.func @mlp
// CHECK-NOT: linalg
// CHECK: llvm.call @mgpuMemAlloc
// CHECK-NOT: linalg
// CHECK: llvm.call @mgpuMemFree
// CHECK-NOT: linalg
// CHECK: gpu.binary @gemm_kernels
// CHECK-NOT: linalg

// Gemm 0 writes H with the bias (one value per column) in its epilogue, gemm
// 1 writes Y with the residual (a full M x N operand); both are tn and
// neither reads C.
// MANIFEST: "function": "mlp",
// MANIFEST-NEXT: "gemm": 0,
// MANIFEST: "layout": "tn",
// MANIFEST: "broadcast": "col",
// MANIFEST: "reads_c": false,
// MANIFEST-COUNT-37: "gemm": 0,
// MANIFEST: "function": "mlp",
// MANIFEST-NEXT: "gemm": 1,
// MANIFEST: "layout": "tn",
// MANIFEST: "broadcast": "full",
// MANIFEST: "reads_c": false,
// MANIFEST-COUNT-37: "gemm": 1,
// MANIFEST-NOT: "gemm": 2,

// PTX: .entry mlp_gemm(
// PTX: .entry mlp_gemm_52(
// PTX-NOT: .entry mlp_gemm_53(

#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
#col = affine_map<(m, n) -> (n)>

func.func @mlp(%x: tensor<?x?xf16>, %w1: tensor<?x?xf16>, %b1: tensor<?xf16>,
               %w2: tensor<?x?xf16>, %r: tensor<?x?xf16>) -> tensor<?x?xf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf16>
  %f = tensor.dim %w1, %c0 : tensor<?x?xf16>
  %n = tensor.dim %w2, %c0 : tensor<?x?xf16>
  %zero = arith.constant 0.0 : f32

  // H = GELU(X * W1^T + b1)
  %e1 = tensor.empty(%m, %f) : tensor<?x?xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?x?xf32>)
      -> tensor<?x?xf32>
  %mm1 = linalg.matmul indexing_maps = [#mk, #nk, #mn]
      ins(%x, %w1 : tensor<?x?xf16>, tensor<?x?xf16>)
      outs(%z1 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %eh = tensor.empty(%m, %f) : tensor<?x?xf16>
  %h = linalg.generic {indexing_maps = [#id, #col, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm1, %b1 : tensor<?x?xf32>, tensor<?xf16>)
      outs(%eh : tensor<?x?xf16>) {
  ^bb0(%a: f32, %bias: f16, %out: f16):
    %b = arith.extf %bias : f16 to f32
    %v = arith.addf %a, %b : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %rsqrt2 = arith.constant 0.707106769 : f32
    %s = arith.mulf %v, %rsqrt2 : f32
    %e = math.erf %s : f32
    %p = arith.addf %e, %one : f32
    %hv = arith.mulf %v, %half : f32
    %g = arith.mulf %hv, %p : f32
    %t = arith.truncf %g : f32 to f16
    linalg.yield %t : f16
  } -> tensor<?x?xf16>

  // Y = H * W2^T + R
  %e2 = tensor.empty(%m, %n) : tensor<?x?xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?x?xf32>)
      -> tensor<?x?xf32>
  %mm2 = linalg.matmul indexing_maps = [#mk, #nk, #mn]
      ins(%h, %w2 : tensor<?x?xf16>, tensor<?x?xf16>)
      outs(%z2 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %ey = tensor.empty(%m, %n) : tensor<?x?xf16>
  %y = linalg.generic {indexing_maps = [#id, #id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm2, %r : tensor<?x?xf32>, tensor<?x?xf16>)
      outs(%ey : tensor<?x?xf16>) {
  ^bb0(%a: f32, %res: f16, %out: f16):
    %rr = arith.extf %res : f16 to f32
    %v = arith.addf %a, %rr : f32
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}
