// RUN: gemm-opt %s -split-input-file -verify-diagnostics --gemm-from-linalg=require-all=true -o /dev/null

// Under require-all (the GPU pipelines' setting) a buffer a gemm.matmul
// uses that stays a host allocation is an error naming the user that keeps
// it there: the kernel would be handed a host pointer.

#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @host_copy(%x: memref<?x?xf16> {llvm.noalias}, %w: memref<?x?xf16> {llvm.noalias},
                     %y: memref<?x?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %x, %c0 : memref<?x?xf16>
  %k = memref.dim %x, %c1 : memref<?x?xf16>
  // expected-error @below {{'memref.alloc' op stays a host allocation, which the gemm.matmul kernels using it cannot access: besides gemm.matmul it is used by 'memref.copy' (only gemm.matmul, memref.dim, memref.dealloc and func.return uses make it device memory)}}
  %t = memref.alloc(%m, %k) : memref<?x?xf16>
  // expected-note @below {{the 'memref.copy' that keeps it on the host}}
  memref.copy %x, %t : memref<?x?xf16> to memref<?x?xf16>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<?x?xf32>)
  linalg.matmul indexing_maps = [#mk, #nk, #mn]
      ins(%t, %w : memref<?x?xf16>, memref<?x?xf16>) outs(%y : memref<?x?xf32>)
  memref.dealloc %t : memref<?x?xf16>
  return
}

// -----

// A host store into a buffer a gemm.matmul writes.
func.func @host_store(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %v: f16, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  // expected-error @below {{'memref.alloc' op stays a host allocation, which the gemm.matmul kernels using it cannot access: besides gemm.matmul it is used by 'memref.store' (only gemm.matmul, memref.dim, memref.dealloc and func.return uses make it device memory)}}
  %t = memref.alloc(%m, %n) : memref<?x?xf16>
  gemm.matmul nn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%t : memref<?x?xf16>) acc(f32)
  // expected-note @below {{the 'memref.store' that keeps it on the host}}
  memref.store %v, %t[%c0, %c0] : memref<?x?xf16>
  memref.dealloc %t : memref<?x?xf16>
  return
}
