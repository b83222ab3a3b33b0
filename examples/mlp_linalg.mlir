// An MLP block written in linalg on memrefs, as a linalg user would write
// it (linalg.fill + linalg.matmul + elementwise linalg.generic), for
// gemm-from-linalg (docs/linalg.md). f16 inputs and outputs, f32
// accumulation, every size dynamic:
//
//   H = GELU(X * W1^T + b1)       (GELU with erf: 0.5 h (1 + erf(h / sqrt 2)))
//   Y = H * W2^T + R
//
//   func.func @mlp(%x  : memref<?x?xf16>,   X,  M x K, row-major
//                  %w1 : memref<?x?xf16>,   W1, F x K, row-major (the
//                                           weight of a torch.nn.Linear(K, F):
//                                           one row per output feature)
//                  %b1 : memref<?xf16>,     b1, F values (one per column of H)
//                  %w2 : memref<?x?xf16>,   W2, N x F, row-major
//                  %r  : memref<?x?xf16>,   R,  M x N, the residual
//                  %y  : memref<?x?xf16>)   Y,  M x N, written
//
// M, K, F and N are read from the memrefs (M from X, K from X, F from W1,
// N from W2). The arguments must be device memory and may not overlap
// (`llvm.noalias`: that lets the bias/GELU and the residual fold into the
// GEMMs). The f32 accumulators fold away; H is an allocation of this
// function, which becomes a gpu.alloc freed before returning.
//
// Both matmuls have W stored N x K: layout tn (A M x K, B N x K), the
// tensor cores' native one. Compile:
//
//   build/bin/gemm-opt examples/mlp_linalg.mlir \
//     --gemm-to-ptx="chip=sm_90a output-dir=/tmp/mlp"
//
// gives two kernel families (manifest.json entries with "gemm": 0 and 1):
// gemm 0 writes H with the bias and GELU in its epilogue, gemm 1 writes Y
// with the residual in its epilogue. The same on tensors:
// examples/mlp_linalg_tensors.mlir.

#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
#col = affine_map<(m, n) -> (n)>

func.func @mlp(%x: memref<?x?xf16> {llvm.noalias},
               %w1: memref<?x?xf16> {llvm.noalias},
               %b1: memref<?xf16> {llvm.noalias},
               %w2: memref<?x?xf16> {llvm.noalias},
               %r: memref<?x?xf16> {llvm.noalias},
               %y: memref<?x?xf16> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %m = memref.dim %x, %c0 : memref<?x?xf16>
  %f = memref.dim %w1, %c0 : memref<?x?xf16>
  %n = memref.dim %w2, %c0 : memref<?x?xf16>
  %zero = arith.constant 0.0 : f32

  // H = GELU(X * W1^T + b1)
  %acc1 = memref.alloc(%m, %f) : memref<?x?xf32>
  linalg.fill ins(%zero : f32) outs(%acc1 : memref<?x?xf32>)
  linalg.matmul indexing_maps = [#mk, #nk, #mn]
      ins(%x, %w1 : memref<?x?xf16>, memref<?x?xf16>)
      outs(%acc1 : memref<?x?xf32>)
  %h = memref.alloc(%m, %f) : memref<?x?xf16>
  linalg.generic {indexing_maps = [#id, #col, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%acc1, %b1 : memref<?x?xf32>, memref<?xf16>)
      outs(%h : memref<?x?xf16>) {
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
  }
  memref.dealloc %acc1 : memref<?x?xf32>

  // Y = H * W2^T + R
  %acc2 = memref.alloc(%m, %n) : memref<?x?xf32>
  linalg.fill ins(%zero : f32) outs(%acc2 : memref<?x?xf32>)
  linalg.matmul indexing_maps = [#mk, #nk, #mn]
      ins(%h, %w2 : memref<?x?xf16>, memref<?x?xf16>)
      outs(%acc2 : memref<?x?xf32>)
  linalg.generic {indexing_maps = [#id, #id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%acc2, %r : memref<?x?xf32>, memref<?x?xf16>)
      outs(%y : memref<?x?xf16>) {
  ^bb0(%a: f32, %res: f16, %out: f16):
    %rr = arith.extf %res : f16 to f32
    %v = arith.addf %a, %rr : f32
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  }
  memref.dealloc %acc2 : memref<?x?xf32>
  memref.dealloc %h : memref<?x?xf16>
  return
}
