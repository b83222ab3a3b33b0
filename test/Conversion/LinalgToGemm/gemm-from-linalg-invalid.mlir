// RUN: gemm-opt %s -split-input-file -verify-diagnostics --gemm-from-linalg=report=true -o /dev/null
// RUN: not gemm-opt %s -split-input-file --gemm-from-linalg=require-all=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR

// What gemm-from-linalg leaves alone, each with the remark naming the reason
// (report=true). With require-all=true (the GPU pipelines' setting) every
// linalg op left is an error with the same reason (ERR lines); the host
// allocation remarks come with report only.

// Tensors without bufferize=true.
func.func @tensors(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.matmul' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: has tensor semantics; bufferize first (gemm-from-linalg{bufferize=true} or one-shot-bufferize)
  // expected-remark @below {{'linalg.matmul' left alone: has tensor semantics; bufferize first (gemm-from-linalg{bufferize=true} or one-shot-bufferize)}}
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x4xf16>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

// Not a matrix-matrix product: no N dimension.
func.func @matvec(%a: memref<?x?xf32>, %x: memref<?xf32>, %y: memref<?xf32>) {
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.matvec' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: has 0 batch, 1 M or N and 1 K dimensions; a gemm.matmul has at most one batch dimension and one each of M, N and K
  // expected-remark @below {{'linalg.matvec' left alone: has 0 batch, 1 M or N and 1 K dimensions; a gemm.matmul has at most one batch dimension and one each of M, N and K}}
  linalg.matvec ins(%a, %x : memref<?x?xf32>, memref<?xf32>) outs(%y : memref<?xf32>)
  return
}

// -----

// The batch is reduced: two K dimensions.
func.func @batch_reduce(%a: memref<?x?x?xf32>, %b: memref<?x?x?xf32>, %c: memref<?x?xf32>) {
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.batch_reduce_matmul' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: has 0 batch, 2 M or N and 2 K dimensions; a gemm.matmul has at most one batch dimension and one each of M, N and K
  // expected-remark @below {{'linalg.batch_reduce_matmul' left alone: has 0 batch, 2 M or N and 2 K dimensions; a gemm.matmul has at most one batch dimension and one each of M, N and K}}
  linalg.batch_reduce_matmul ins(%a, %b : memref<?x?x?xf32>, memref<?x?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// -----

// Unsigned i8: gemm.matmul multiplies signed integers.
func.func @unsigned(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.matmul' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: the body zero-extends an input (arith.extui); gemm.matmul multiplies signed integers
  // expected-remark @below {{'linalg.matmul' left alone: the body zero-extends an input (arith.extui); gemm.matmul multiplies signed integers}}
  linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>)
  return
}

// -----

// f32 into f64: not an accumulator gemm.matmul has for f32; the fill of
// its output stays too.
func.func @f64_acc(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf64> {llvm.noalias}) {
  %zero = arith.constant 0.0 : f64
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.fill' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: the contraction that accumulates into its buffer is left alone
  // expected-remark @below {{'linalg.fill' left alone: the contraction that accumulates into its buffer is left alone}}
  linalg.fill ins(%zero : f64) outs(%c : memref<?x?xf64>)
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.matmul' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: gemm.matmul rejects it: accumulator type 'f64' is not supported for 'f32' operands (expected f32)
  // expected-remark @below {{'linalg.matmul' left alone: gemm.matmul rejects it: accumulator type 'f64' is not supported for 'f32' operands (expected f32)}}
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf64>)
  return
}

// -----

// bf16 accumulation.
func.func @bf16_acc(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16> {llvm.noalias}) {
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.matmul' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: gemm.matmul rejects it: accumulator type 'bf16' is not supported for 'bf16' operands (expected f32)
  // expected-remark @below {{'linalg.matmul' left alone: gemm.matmul rejects it: accumulator type 'bf16' is not supported for 'bf16' operands (expected f32)}}
  linalg.matmul ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xbf16>)
  return
}

// -----

// i32 operands.
func.func @i32_inputs(%a: memref<?x?xi32>, %b: memref<?x?xi32>, %c: memref<?x?xi32> {llvm.noalias}) {
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.matmul' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: gemm.matmul rejects it: A element type 'i32' is not supported (expected f16, bf16, f32, f64, i8, f8E4M3FN or f8E5M2)
  // expected-remark @below {{'linalg.matmul' left alone: gemm.matmul rejects it: A element type 'i32' is not supported (expected f16, bf16, f32, f64, i8, f8E4M3FN or f8E5M2)}}
  linalg.matmul ins(%a, %b : memref<?x?xi32>, memref<?x?xi32>) outs(%c : memref<?x?xi32>)
  return
}

// -----

// A tropical (max-plus) product.
func.func @max_plus(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.generic' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: the body is not out + x * y of its inputs x and y (each optionally extended to the output type by arith.extf or arith.extsi)
  // expected-remark @below {{'linalg.generic' left alone: the body is not out + x * y of its inputs x and y (each optionally extended to the output type by arith.extf or arith.extsi)}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = arith.addf %x, %y : f32
    %m = arith.maximumf %acc, %s : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// The body uses the iteration index.
func.func @index(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.generic' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: the body uses linalg.index
  // expected-remark @below {{'linalg.generic' left alone: the body uses linalg.index}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %i = linalg.index 0 : index
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// An operand indexed by an affine expression.
func.func @offset_map(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.generic' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: the indexing map of operand #0 is not a projected permutation: (d0, d1, d2) -> (d0, d2 + 1)
  // expected-remark @below {{'linalg.generic' left alone: the indexing map of operand #0 is not a projected permutation: (d0, d1, d2) -> (d0, d2 + 1)}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k + 1)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The output is also an input.
func.func @output_is_input(%a: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.matmul' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: the output is also an input
  // expected-remark @below {{'linalg.matmul' left alone: the output is also an input}}
  linalg.matmul ins(%a, %c : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// -----

// The batch dimension is not leading in the output.
func.func @batch_inside(%a: memref<?x?x?xf32>, %b: memref<?x?x?xf32>, %c: memref<?x?x?xf32>) {
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.generic' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: the batch dimension is not the output's leading dimension
  // expected-remark @below {{'linalg.generic' left alone: the batch dimension is not the output's leading dimension}}
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (m, b, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<?x?x?xf32>, memref<?x?x?xf32>) outs(%c : memref<?x?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// K = 0 (static).
func.func @empty(%a: memref<4x0xf32>, %b: memref<0x4xf32>, %c: memref<4x4xf32> {llvm.noalias}) {
  %zero = arith.constant 0.0 : f32
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.fill' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: the contraction that accumulates into its buffer is left alone
  // expected-remark @below {{'linalg.fill' left alone: the contraction that accumulates into its buffer is left alone}}
  linalg.fill ins(%zero : f32) outs(%c : memref<4x4xf32>)
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.matmul' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: gemm.matmul rejects it: expected non-empty M, N and K, got a zero-sized dimension in 'memref<4x4xf32>' / 'memref<4x0xf32>'
  // expected-remark @below {{'linalg.matmul' left alone: gemm.matmul rejects it: expected non-empty M, N and K, got a zero-sized dimension in 'memref<4x4xf32>' / 'memref<4x0xf32>'}}
  linalg.matmul ins(%a, %b : memref<4x0xf32>, memref<0x4xf32>) outs(%c : memref<4x4xf32>)
  return
}

// -----

// Operands in workgroup memory.
func.func @workgroup(%a: memref<16x16xf16, 3>, %b: memref<16x16xf16, 3>, %c: memref<16x16xf32, 3> {llvm.noalias}) {
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.matmul' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: gemm.matmul rejects it: expected operand A in global memory, got memory space 3 : i64
  // expected-remark @below {{'linalg.matmul' left alone: gemm.matmul rejects it: expected operand A in global memory, got memory space 3 : i64}}
  linalg.matmul ins(%a, %b : memref<16x16xf16, 3>, memref<16x16xf16, 3>) outs(%c : memref<16x16xf32, 3>)
  return
}

// -----

// A convolution.
func.func @conv(%i: memref<1x8x8x4xf32>, %f: memref<3x3x4x8xf32>, %o: memref<1x6x6x8xf32>) {
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.conv_2d_nhwc_hwcf' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: the indexing map of operand #0 is not a projected permutation: (d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d4, d2 + d5, d6)
  // expected-remark @below {{'linalg.conv_2d_nhwc_hwcf' left alone: the indexing map of operand #0 is not a projected permutation: (d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d4, d2 + d5, d6)}}
  linalg.conv_2d_nhwc_hwcf ins(%i, %f : memref<1x8x8x4xf32>, memref<3x3x4x8xf32>) outs(%o : memref<1x6x6x8xf32>)
  return
}

// -----

// An elementwise op that does not follow a GEMM.
func.func @transpose(%a: memref<4x8xf32>, %b: memref<8x4xf32>) {
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.transpose' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: not an elementwise consumer of a gemm.matmul result (the first op after a gemm.matmul to touch its output)
  // expected-remark @below {{'linalg.transpose' left alone: not an elementwise consumer of a gemm.matmul result (the first op after a gemm.matmul to touch its output)}}
  linalg.transpose ins(%a : memref<4x8xf32>) outs(%b : memref<8x4xf32>) permutation = [1, 0]
  return
}

// -----

// A parallel loop that does not index the output.
func.func @parallel_unused(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?xf32>) {
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.generic' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: loop d1 is parallel but does not index the output
  // expected-remark @below {{'linalg.generic' left alone: loop d1 is parallel but does not index the output}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A reduction over one input only.
func.func @one_sided(%a: memref<?x?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.generic' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: loop d3 is not a batch, M, N or K dimension (it indexes only one operand)
  // expected-remark @below {{'linalg.generic' left alone: loop d3 is not a batch, M, N or K dimension (it indexes only one operand)}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k, j) -> (m, k, j)>, affine_map<(m, n, k, j) -> (k, n)>, affine_map<(m, n, k, j) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : memref<?x?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Three inputs.
func.func @three_inputs(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %e: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.generic' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: has 3 input(s) and 1 output(s); a contraction has 2 inputs and 1 output
  // expected-remark @below {{'linalg.generic' left alone: has 3 input(s) and 1 output(s); a contraction has 2 inputs and 1 output}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b, %e : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %q = arith.mulf %p, %z : f32
    %s = arith.addf %acc, %q : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A conversion gemm.matmul does not do (i8 to f32).
func.func @sitofp(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xf32>) {
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.matmul' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: the body converts with 'arith.sitofp'; only arith.extf and arith.extsi of the inputs are taken
  // expected-remark @below {{'linalg.matmul' left alone: the body converts with 'arith.sitofp'; only arith.extf and arith.extsi of the inputs are taken}}
  linalg.matmul ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xf32>)
  return
}

// -----

// Not a structured op.
func.func @softmax(%a: memref<2x16xf32>, %b: memref<2x16xf32>) {
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.softmax' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: not a structured linalg op; gemm-from-linalg takes contractions and their elementwise consumers
  // expected-remark @below {{'linalg.softmax' left alone: not a structured linalg op; gemm-from-linalg takes contractions and their elementwise consumers}}
  linalg.softmax dimension(1) ins(%a : memref<2x16xf32>) outs(%b : memref<2x16xf32>)
  return
}

// -----

#id = affine_map<(m, n) -> (m, n)>
// Epilogue fusion: the output may alias A, since only llvm.noalias tells
// two arguments apart; the intermediate then stays on the host.
func.func @may_alias(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %out: memref<?x?xf32>, %m: index, %n: index) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @below {{stays a host allocation: besides gemm.matmul it is used by 'linalg.generic' (only gemm.matmul, memref.dim, memref.dealloc and func.return uses make it device memory)}}
  %t = memref.alloc(%m, %n) : memref<?x?xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%t : memref<?x?xf32>)
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.generic' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: is the next op on the output of a gemm.matmul but is not folded into its epilogue: its output may alias A of the GEMM (function arguments are told apart when one of them is llvm.noalias)
  // expected-remark @below {{'linalg.generic' left alone: is the next op on the output of a gemm.matmul but is not folded into its epilogue: its output may alias A of the GEMM (function arguments are told apart when one of them is llvm.noalias)}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<?x?xf32>) outs(%out : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %t : memref<?x?xf32>
  return
}

// -----

#id = affine_map<(m, n) -> (m, n)>
// The intermediate is read after the consumer.
func.func @read_later(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %out: memref<?x?xf32> {llvm.noalias}, %keep: memref<?x?xf32> {llvm.noalias}, %m: index, %n: index) {
  // expected-remark @below {{stays a host allocation: besides gemm.matmul it is used by 'memref.copy' (only gemm.matmul, memref.dim, memref.dealloc and func.return uses make it device memory)}}
  %t = memref.alloc(%m, %n) : memref<?x?xf32>
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%t : memref<?x?xf32>)
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.generic' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: is the next op on the output of a gemm.matmul but is not folded into its epilogue: the GEMM result has another user, 'memref.copy'
  // expected-remark @below {{'linalg.generic' left alone: is the next op on the output of a gemm.matmul but is not folded into its epilogue: the GEMM result has another user, 'memref.copy'}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<?x?xf32>) outs(%out : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  }
  memref.copy %t, %keep : memref<?x?xf32> to memref<?x?xf32>
  return
}

// -----

#id = affine_map<(m, n) -> (m, n)>
// The GEMM writes an argument, which the caller may read: it stays.
func.func @argument_result(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32> {llvm.noalias}, %out: memref<?x?xf32> {llvm.noalias}) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.generic' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: is the next op on the output of a gemm.matmul but is not folded into its epilogue: the GEMM result is not a memref.alloc of this function, so it may be read after this op
  // expected-remark @below {{'linalg.generic' left alone: is the next op on the output of a gemm.matmul but is not folded into its epilogue: the GEMM result is not a memref.alloc of this function, so it may be read after this op}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<?x?xf32>) outs(%out : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// The result read transposed.
func.func @transposed(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32> {llvm.noalias}) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.generic' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: is the next op on the output of a gemm.matmul but is not folded into its epilogue: reads the GEMM result through (d0, d1) -> (d1, d0), not the identity
  // expected-remark @below {{'linalg.generic' left alone: is the next op on the output of a gemm.matmul but is not folded into its epilogue: reads the GEMM result through (d0, d1) -> (d1, d0), not the identity}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (n, m)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// A write to A between the GEMM and its consumer.
func.func @write_between(%a: memref<?x?xf32> {llvm.noalias}, %b: memref<?x?xf32>, %c: memref<?x?xf32> {llvm.noalias}, %v: f32) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  %c0 = arith.constant 0 : index
  memref.store %v, %a[%c0, %c0] : memref<?x?xf32>
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.generic' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: is the next op on the output of a gemm.matmul but is not folded into its epilogue: 'memref.store' between the GEMM and this op may write an operand the GEMM reads
  // expected-remark @below {{'linalg.generic' left alone: is the next op on the output of a gemm.matmul but is not folded into its epilogue: 'memref.store' between the GEMM and this op may write an operand the GEMM reads}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      outs(%c : memref<?x?xf32>) {
  ^bb0(%o: f32):
    %r = math.exp %o : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// An input indexed transposed: no gemm.matmul extra indexes like that.
func.func @bad_broadcast(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32> {llvm.noalias}, %r: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.generic' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: is the next op on the output of a gemm.matmul but is not folded into its epilogue: input #1 is indexed by (d0, d1) -> (d1, d0): not a scalar, a row or column vector, or the whole result
  // expected-remark @below {{'linalg.generic' left alone: is the next op on the output of a gemm.matmul but is not folded into its epilogue: input #1 is indexed by (d0, d1) -> (d1, d0): not a scalar, a row or column vector, or the whole result}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n, m)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%c, %r : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// An op with a region in the body.
func.func @region_in_body(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32> {llvm.noalias}, %flag: i1) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.generic' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: is the next op on the output of a gemm.matmul but is not folded into its epilogue: its body holds 'scf.if'; an epilogue holds side-effect-free scalar ops only
  // expected-remark @below {{'linalg.generic' left alone: is the next op on the output of a gemm.matmul but is not folded into its epilogue: its body holds 'scf.if'; an epilogue holds side-effect-free scalar ops only}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      outs(%c : memref<?x?xf32>) {
  ^bb0(%o: f32):
    %r = scf.if %flag -> f32 {
      %e = math.exp %o : f32
      scf.yield %e : f32
    } else {
      scf.yield %o : f32
    }
    linalg.yield %r : f32
  }
  return
}

// -----

// The consumer uses the iteration index.
func.func @index_in_body(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32> {llvm.noalias}) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.generic' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: is the next op on the output of a gemm.matmul but is not folded into its epilogue: the body uses linalg.index
  // expected-remark @below {{'linalg.generic' left alone: is the next op on the output of a gemm.matmul but is not folded into its epilogue: the body uses linalg.index}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      outs(%c : memref<?x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %f = arith.index_cast %i : index to i32
    %g = arith.sitofp %f : i32 to f32
    %r = arith.addf %o, %g : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// The body uses a memref from outside.
func.func @memref_in_body(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32> {llvm.noalias}) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.generic' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: is the next op on the output of a gemm.matmul but is not folded into its epilogue: its body uses a non-scalar value from outside
  // expected-remark @below {{'linalg.generic' left alone: is the next op on the output of a gemm.matmul but is not folded into its epilogue: its body uses a non-scalar value from outside}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      outs(%c : memref<?x?xf32>) {
  ^bb0(%o: f32):
    %c0 = arith.constant 0 : index
    %d = memref.dim %a, %c0 : memref<?x?xf32>
    %f = arith.index_cast %d : index to i32
    %g = arith.sitofp %f : i32 to f32
    %r = arith.addf %o, %g : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// The body rounds through f8, a type no epilogue computes in.
func.func @f8_value(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32> {llvm.noalias}) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>)
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.generic' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: is the next op on the output of a gemm.matmul but is not folded into its epilogue: the fused gemm.matmul would be invalid: produces type 'f8E4M3FN' in a gemm.matmul epilogue (expected f16, bf16, f32, f64, index or a signless i1, i8, i16, i32, i64)
  // expected-remark @below {{'linalg.generic' left alone: is the next op on the output of a gemm.matmul but is not folded into its epilogue: the fused gemm.matmul would be invalid: produces type 'f8E4M3FN' in a gemm.matmul epilogue (expected f16, bf16, f32, f64, index or a signless i1, i8, i16, i32, i64)}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = arith.truncf %x : f32 to f8E4M3FN
    %e = arith.extf %t : f8E4M3FN to f32
    linalg.yield %e : f32
  }
  return
}

// -----

// Two outputs.
func.func @two_outputs(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32> {llvm.noalias}, %d: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.generic' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: is the next op on the output of a gemm.matmul but is not folded into its epilogue: writes 2 outputs; a gemm.matmul writes one
  // expected-remark @below {{'linalg.generic' left alone: is the next op on the output of a gemm.matmul but is not folded into its epilogue: writes 2 outputs; a gemm.matmul writes one}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      outs(%c, %d : memref<?x?xf32>, memref<?x?xf32>) {
  ^bb0(%o: f32, %p: f32):
    linalg.yield %o, %o : f32, f32
  }
  return
}

// -----

// The next op overwrites the result without reading it.
func.func @overwrite(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32> {llvm.noalias}) {
  %one = arith.constant 1.0 : f32
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.fill' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: is the next op on the output of a gemm.matmul but is not folded into its epilogue: overwrites the GEMM result without reading it
  // expected-remark @below {{'linalg.fill' left alone: is the next op on the output of a gemm.matmul but is not folded into its epilogue: overwrites the GEMM result without reading it}}
  linalg.fill ins(%one : f32) outs(%c : memref<?x?xf32>)
  return
}

// -----

// A gemm.matmul without epilogue converts f32 to f16 itself.
func.func @implicit_conversion(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.generic' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: is the next op on the output of a gemm.matmul but is not folded into its epilogue: the gemm.matmul converts its accumulator implicitly (no epilogue region)
  // expected-remark @below {{'linalg.generic' left alone: is the next op on the output of a gemm.matmul but is not folded into its epilogue: the gemm.matmul converts its accumulator implicitly (no epilogue region)}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      outs(%c : memref<?x?xf16>) {
  ^bb0(%o: f16):
    %r = math.exp %o : f16
    linalg.yield %r : f16
  }
  return
}

// -----

// A buffer a gemm.matmul writes and the host stores into stays a host
// allocation.
func.func @host_alloc(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %v: f16, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  // expected-remark @below {{stays a host allocation: besides gemm.matmul it is used by 'memref.store' (only gemm.matmul, memref.dim, memref.dealloc and func.return uses make it device memory)}}
  %t = memref.alloc(%m, %n) : memref<?x?xf16>
  gemm.matmul nn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%t : memref<?x?xf16>) acc(f32)
  memref.store %v, %t[%c0, %c0] : memref<?x?xf16>
  memref.dealloc %t : memref<?x?xf16>
  return
}

// -----

#id = affine_map<(m, n) -> (m, n)>
// A view of the intermediate, taken before the GEMM, is read after the
// consumer: fusing would leave the buffer unwritten.
func.func @view_read_later(%a: memref<?x?xf32> {llvm.noalias}, %b: memref<?x?xf32> {llvm.noalias}, %out: memref<?x?xf32> {llvm.noalias}, %keep: memref<?x?xf32> {llvm.noalias}, %m: index, %n: index) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @below {{stays a host allocation: besides gemm.matmul it is used by 'linalg.generic' (only gemm.matmul, memref.dim, memref.dealloc and func.return uses make it device memory)}}
  %t = memref.alloc(%m, %n) : memref<?x?xf32>
  %view = memref.cast %t : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
  linalg.fill ins(%zero : f32) outs(%t : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%t : memref<?x?xf32>)
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.generic' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: is the next op on the output of a gemm.matmul but is not folded into its epilogue: the GEMM result has a view, 'memref.cast', through which it may be read after this op
  // expected-remark @below {{'linalg.generic' left alone: is the next op on the output of a gemm.matmul but is not folded into its epilogue: the GEMM result has a view, 'memref.cast', through which it may be read after this op}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<?x?xf32>) outs(%out : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  memref.copy %view, %keep : memref<?x?xf32, strided<[?, 1], offset: ?>> to memref<?x?xf32>
  return
}

// -----

#id = affine_map<(m, n) -> (m, n)>
// A subview of the intermediate: refused the same way.
func.func @subview(%a: memref<?x?xf32> {llvm.noalias}, %b: memref<?x?xf32> {llvm.noalias}, %out: memref<?x?xf32> {llvm.noalias}, %m: index, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-remark @below {{stays a host allocation: besides gemm.matmul it is used by 'linalg.generic' (only gemm.matmul, memref.dim, memref.dealloc and func.return uses make it device memory)}}
  %t = memref.alloc(%m, %n) : memref<?x?xf32>
  %row = memref.subview %t[0, 0] [1, %n] [1, 1] : memref<?x?xf32> to memref<?xf32, strided<[1]>>
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%t : memref<?x?xf32>)
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.generic' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: is the next op on the output of a gemm.matmul but is not folded into its epilogue: the GEMM result has a view, 'memref.subview', through which it may be read after this op
  // expected-remark @below {{'linalg.generic' left alone: is the next op on the output of a gemm.matmul but is not folded into its epilogue: the GEMM result has a view, 'memref.subview', through which it may be read after this op}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<?x?xf32>) outs(%out : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  }
  %v = memref.load %row[%c0] : memref<?xf32, strided<[1]>>
  return %v : f32
}

// -----

// A rank-0 memref input: the scalar is in device memory, which the host
// cannot load.
func.func @rank0_input(%a: memref<?x?xf16> {llvm.noalias}, %b: memref<?x?xf16> {llvm.noalias}, %s: memref<f32> {llvm.noalias}, %out: memref<?x?xf32> {llvm.noalias}, %m: index, %n: index) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @below {{stays a host allocation: besides gemm.matmul it is used by 'linalg.generic' (only gemm.matmul, memref.dim, memref.dealloc and func.return uses make it device memory)}}
  %t = memref.alloc(%m, %n) : memref<?x?xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%t : memref<?x?xf32>)
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.generic' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: is the next op on the output of a gemm.matmul but is not folded into its epilogue: input #1 is a rank-0 memref: the scalar lives in device memory, and a scalar extra is passed by value (pass it as a scalar)
  // expected-remark @below {{'linalg.generic' left alone: is the next op on the output of a gemm.matmul but is not folded into its epilogue: input #1 is a rank-0 memref: the scalar lives in device memory, and a scalar extra is passed by value (pass it as a scalar)}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> ()>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%t, %s : memref<?x?xf32>, memref<f32>) outs(%out : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.mulf %x, %y : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// In place: another input, a plain argument, may alias the GEMM result the
// fused op overwrites.
func.func @in_place_may_alias(%a: memref<?x?xf32> {llvm.noalias}, %b: memref<?x?xf32> {llvm.noalias}, %c: memref<?x?xf32>, %r: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.generic' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: is the next op on the output of a gemm.matmul but is not folded into its epilogue: input #1 may alias the GEMM result it overwrites (function arguments are told apart when one of them is llvm.noalias)
  // expected-remark @below {{'linalg.generic' left alone: is the next op on the output of a gemm.matmul but is not folded into its epilogue: input #1 may alias the GEMM result it overwrites (function arguments are told apart when one of them is llvm.noalias)}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%c, %r : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A view of the output as an input.
func.func @output_view_input(%a: memref<?x?xf32> {llvm.noalias}, %c: memref<?x?xf32>, %n: index) {
  %v = memref.subview %c[0, 0] [%n, %n] [1, 1] : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1]>>
  // ERR: :[[@LINE+2]]:{{[0-9]+}}: error: 'linalg.matmul' op was not folded into a gemm.matmul, and the GPU pipelines run no linalg op: the output overlaps input #1
  // expected-remark @below {{'linalg.matmul' left alone: the output overlaps input #1}}
  linalg.matmul ins(%a, %v : memref<?x?xf32>, memref<?x?xf32, strided<[?, 1]>>) outs(%c : memref<?x?xf32>)
  return
}
