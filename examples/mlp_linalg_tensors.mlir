// The MLP block of examples/mlp_linalg.mlir on tensors, as a linalg-on-
// tensors producer (a framework importer) would hand it over: f16 inputs
// and output, f32 accumulation, every size dynamic:
//
//   H = GELU(X * W1^T + b1)       (GELU with erf: 0.5 h (1 + erf(h / sqrt 2)))
//   Y = H * W2^T + R
//
//   func.func @mlp(%x  : tensor<?x?xf16>,   X,  M x K, row-major
//                  %w1 : tensor<?x?xf16>,   W1, F x K, row-major (the
//                                           weight of a torch.nn.Linear(K, F))
//                  %b1 : tensor<?xf16>,     b1, F values (one per column of H)
//                  %w2 : tensor<?x?xf16>,   W2, N x F, row-major
//                  %r  : tensor<?x?xf16>)   R,  M x N, the residual
//       -> tensor<?x?xf16>                  Y,  M x N
//
// The pipelines bufferize it first (gemm-from-linalg{bufferize=true}:
// one-shot-bufferize with bufferize-function-boundaries and identity
// layouts at function boundaries), so the compiled function is
//
//   func.func @mlp(memref<?x?xf16> X, memref<?x?xf16> W1, memref<?xf16> b1,
//                  memref<?x?xf16> W2, memref<?x?xf16> R)
//       -> memref<?x?xf16> Y
//
// with device-memory arguments and Y a gpu.alloc the caller owns (and
// frees with the GPU runtime). Y and H are fresh buffers, so nothing here
// needs `llvm.noalias` for the bias/GELU and the residual to fold into the
// GEMMs. Compile:
//
//   build/bin/gemm-opt examples/mlp_linalg_tensors.mlir \
//     --gemm-to-ptx="chip=sm_90a output-dir=/tmp/mlp-tensors"
//
// gives two kernel families (manifest.json entries with "gemm": 0 and 1),
// both tn (A M x K, B N x K).

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
