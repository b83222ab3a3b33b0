// RUN: gemm-opt %s -split-input-file --gemm-to-ptx="chip=sm_90a" -verify-diagnostics -o /dev/null
// RUN: gemm-opt %s -split-input-file --gemm-to-amdgcn="chip=gfx942" -verify-diagnostics -o /dev/null

// The pipelines run linalg on nothing: a linalg op gemm-from-linalg leaves
// (from-linalg, the default) is an error naming it and the reason it was
// not folded into a gemm.matmul.

// An elementwise consumer whose output may alias A.
func.func @may_alias(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %out: memref<?x?xf16>, %m: index, %n: index) {
  %zero = arith.constant 0.0 : f32
  // expected-error @below {{'memref.alloc' op stays a host allocation, which the gemm.matmul kernels using it cannot access: besides gemm.matmul it is used by 'linalg.generic' (only gemm.matmul, memref.dim, memref.dealloc and func.return uses make it device memory)}}
  %t = memref.alloc(%m, %n) : memref<?x?xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%t : memref<?x?xf32>)
  // expected-note @below {{the 'linalg.generic' that keeps it on the host}}
  // expected-error @below {{'linalg.generic' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: is the next op on the output of a gemm.matmul but is not folded into its epilogue: its output may alias A of the GEMM (function arguments are told apart when one of them is llvm.noalias)}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<?x?xf32>) outs(%out : memref<?x?xf16>) {
  ^bb0(%x: f32, %o: f16):
    %h = arith.truncf %x : f32 to f16
    linalg.yield %h : f16
  }
  memref.dealloc %t : memref<?x?xf32>
  return
}

// -----

// A contraction into f64 from f32, and the fill of its output.
func.func @f64_acc(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf64> {llvm.noalias}) {
  %zero = arith.constant 0.0 : f64
  // expected-error @below {{'linalg.fill' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: the contraction that accumulates into its buffer is left alone}}
  linalg.fill ins(%zero : f64) outs(%c : memref<?x?xf64>)
  // expected-error @below {{'linalg.matmul' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: gemm.matmul rejects it: accumulator type 'f64' is not supported for 'f32' operands (expected f32)}}
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf64>)
  return
}

// -----

// On tensors: bufferized first, then a matrix-vector product is left.
func.func @matvec(%a: tensor<?x?xf32>, %x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @below {{'linalg.matvec' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: has 0 batch, 1 M or N and 1 K dimensions; a gemm.matmul has at most one batch dimension and one each of M, N and K}}
  %r = linalg.matvec ins(%a, %x : tensor<?x?xf32>, tensor<?xf32>) outs(%y : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// A GEMM operand the host copies into stays a host allocation: the kernel
// would get a host pointer.
func.func @host_operand(%x: memref<?x?xf16> {llvm.noalias}, %w: memref<?x?xf16> {llvm.noalias}, %y: memref<?x?xf32> {llvm.noalias}, %m: index, %k: index) {
  // expected-error @below {{'memref.alloc' op stays a host allocation, which the gemm.matmul kernels using it cannot access: besides gemm.matmul it is used by 'memref.copy' (only gemm.matmul, memref.dim, memref.dealloc and func.return uses make it device memory)}}
  %t = memref.alloc(%m, %k) : memref<?x?xf16>
  // expected-note @below {{the 'memref.copy' that keeps it on the host}}
  memref.copy %x, %t : memref<?x?xf16> to memref<?x?xf16>
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%t, %w : memref<?x?xf16>, memref<?x?xf16>) outs(%y : memref<?x?xf32>)
  memref.dealloc %t : memref<?x?xf16>
  return
}
