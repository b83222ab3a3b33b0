// RUN: gemm-opt %s -split-input-file --verify-roundtrip --gemm-from-linalg=bufferize=true | FileCheck %s
// RUN: gemm-opt %s -split-input-file --gemm-from-linalg="bufferize=true device-allocs=false" | FileCheck %s --check-prefix=HOST

// Contractions: the maps give the layout (docs/dialect.md: A is M x K for
// nn and tn, K x M for nt and tt; B is K x N for nn and nt, N x K for tn and
// tt), the output's element type the accumulator type.

// linalg.matmul with its default maps is nn; the zero fill is dropped and
// the epilogue, which would ignore C, left out.
// CHECK-LABEL: func.func @matmul_nn
//  CHECK-SAME: (%[[A:.*]]: memref<?x?xf16>, %[[B:.*]]: memref<?x?xf16>, %[[C:.*]]: memref<?x?xf32> {llvm.noalias})
//   CHECK-NOT: linalg
//       CHECK: gemm.matmul nn ins(%[[A]], %[[B]] : memref<?x?xf16>, memref<?x?xf16>) outs(%[[C]] : memref<?x?xf32>) acc(f32){{$}}
//   CHECK-NOT: linalg
func.func @matmul_nn(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32> {llvm.noalias}) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  return
}

// -----

// Without a fill, linalg.matmul accumulates into C: the epilogue adds it.
// CHECK-LABEL: func.func @matmul_accumulate
//       CHECK: gemm.matmul nn {{.*}} acc(f32) {
//  CHECK-NEXT: ^bb0(%[[ACC:.*]]: f32, %[[CIN:.*]]: f32):
//  CHECK-NEXT:   %[[S:.*]] = arith.addf %[[ACC]], %[[CIN]] : f32
//  CHECK-NEXT:   gemm.yield %[[S]] : f32
func.func @matmul_accumulate(%a: memref<64x32xf32>, %b: memref<32x16xf32>, %c: memref<64x16xf32> {llvm.noalias}) {
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x16xf32>)
                outs(%c : memref<64x16xf32>)
  return
}

// -----

// B indexed (n, k): B is N x K, layout tn.
// CHECK-LABEL: func.func @matmul_tn
//       CHECK: gemm.matmul tn ins(%{{.*}}, %{{.*}} : memref<?x?xf16>, memref<?x?xf16>) outs(%{{.*}} : memref<?x?xf32>) acc(f32){{$}}
func.func @matmul_tn(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32> {llvm.noalias}) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>)
  return
}

// -----

// A indexed (k, m): A is K x M, layout nt.
// CHECK-LABEL: func.func @matmul_nt
//       CHECK: gemm.matmul nt ins(%{{.*}}, %{{.*}} : memref<32x64xf16>, memref<32x16xf16>) outs(%{{.*}} : memref<64x16xf32>) acc(f32){{$}}
func.func @matmul_nt(%a: memref<32x64xf16>, %b: memref<32x16xf16>, %c: memref<64x16xf32> {llvm.noalias}) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x16xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                                 affine_map<(m, n, k) -> (k, n)>,
                                 affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<32x64xf16>, memref<32x16xf16>) outs(%c : memref<64x16xf32>)
  return
}

// -----

// Both transposed: tt.
// CHECK-LABEL: func.func @matmul_tt
//       CHECK: gemm.matmul tt ins(%{{.*}}, %{{.*}} : memref<32x64xbf16>, memref<16x32xbf16>) outs(%{{.*}} : memref<64x16xf32>) acc(f32){{$}}
func.func @matmul_tt(%a: memref<32x64xbf16>, %b: memref<16x32xbf16>, %c: memref<64x16xf32> {llvm.noalias}) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x16xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<32x64xbf16>, memref<16x32xbf16>) outs(%c : memref<64x16xf32>)
  return
}

// -----

// i8 x i8 into i32 (arith.extsi in the body); a constant fill value that is
// not zero is added in the epilogue.
// CHECK-LABEL: func.func @matmul_i8
//   CHECK-NOT: linalg.fill
//       CHECK: gemm.matmul nn ins(%{{.*}}, %{{.*}} : memref<?x?xi8>, memref<?x?xi8>) outs(%{{.*}} : memref<?x?xi32>) acc(i32) {
//  CHECK-NEXT: ^bb0(%[[ACC:.*]]: i32, %{{.*}}: i32):
//  CHECK-NEXT:   %[[SEVEN:.*]] = arith.constant 7 : i32
//  CHECK-NEXT:   %[[S:.*]] = arith.addi %[[ACC]], %[[SEVEN]] : i32
//  CHECK-NEXT:   gemm.yield %[[S]] : i32
func.func @matmul_i8(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32> {llvm.noalias}) {
  %seven = arith.constant 7 : i32
  linalg.fill ins(%seven : i32) outs(%c : memref<?x?xi32>)
  linalg.matmul ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>)
  return
}

// -----

// A fill value from outside becomes a scalar extra; the store in between
// writes an llvm.noalias argument, which is not C.
// CHECK-LABEL: func.func @fill_scalar
//  CHECK-SAME: %[[BETA:[^:]*]]: f32
//   CHECK-NOT: linalg.fill
//       CHECK: memref.store
//       CHECK: gemm.matmul nn {{.*}} extras(%[[BETA]] : f32) acc(f32) attributes {broadcast = [#gemm.bcast<scalar>]} {
//  CHECK-NEXT: ^bb0(%[[ACC:.*]]: f32, %{{.*}}: f32, %[[X:.*]]: f32):
//  CHECK-NEXT:   %[[S:.*]] = arith.addf %[[ACC]], %[[X]] : f32
func.func @fill_scalar(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32> {llvm.noalias}, %beta: f32, %other: memref<?xf32> {llvm.noalias}) {
  linalg.fill ins(%beta : f32) outs(%c : memref<?x?xf32>)
  %c0 = arith.constant 0 : index
  memref.store %beta, %other[%c0] : memref<?xf32>
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @batch_matmul
//       CHECK: gemm.matmul nn ins(%{{.*}}, %{{.*}} : memref<?x?x?xf16>, memref<?x?x?xf16>) outs(%{{.*}} : memref<?x?x?xf32>) acc(f32){{$}}
func.func @batch_matmul(%a: memref<?x?x?xf16>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xf32> {llvm.noalias}) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?x?xf32>)
  linalg.batch_matmul ins(%a, %b : memref<?x?x?xf16>, memref<?x?x?xf16>)
                      outs(%c : memref<?x?x?xf32>)
  return
}

// -----

// f16 accumulation (no extension in the body), B transposed.
// CHECK-LABEL: func.func @batch_matmul_tn
//       CHECK: gemm.matmul tn ins(%{{.*}}, %{{.*}} : memref<4x64x32xf16>, memref<4x16x32xf16>) outs(%{{.*}} : memref<4x64x16xf16>) acc(f16) {
//       CHECK:   arith.addf %{{.*}}, %{{.*}} : f16
func.func @batch_matmul_tn(%a: memref<4x64x32xf16>, %b: memref<4x16x32xf16>, %c: memref<4x64x16xf16> {llvm.noalias}) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                       affine_map<(b, m, n, k) -> (b, n, k)>,
                                       affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%a, %b : memref<4x64x32xf16>, memref<4x16x32xf16>) outs(%c : memref<4x64x16xf16>)
  return
}

// -----

// CHECK-LABEL: func.func @contract_tt
//       CHECK: gemm.matmul tt ins(%{{.*}}, %{{.*}} : memref<?x?xf16>, memref<?x?xf16>) outs(%{{.*}} : memref<?x?xf32>) acc(f32){{$}}
func.func @contract_tt(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32> {llvm.noalias}) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.contract indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                                   affine_map<(m, n, k) -> (n, k)>,
                                   affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @contract_batched_nt
//       CHECK: gemm.matmul nt ins(%{{.*}}, %{{.*}} : memref<2x32x64xf32>, memref<2x32x16xf32>) outs(%{{.*}} : memref<2x64x16xf32>) acc(f32){{$}}
func.func @contract_batched_nt(%a: memref<2x32x64xf32>, %b: memref<2x32x16xf32>, %c: memref<2x64x16xf32> {llvm.noalias}) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<2x64x16xf32>)
  linalg.contract indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>,
                                   affine_map<(b, m, n, k) -> (b, k, n)>,
                                   affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%a, %b : memref<2x32x64xf32>, memref<2x32x16xf32>) outs(%c : memref<2x64x16xf32>)
  return
}

// -----

// A matmul-like linalg.generic, mixed precision (f16 in, f32 out), the
// product on the left of the add.
// CHECK-LABEL: func.func @generic_nn
//       CHECK: gemm.matmul nn ins(%{{.*}}, %{{.*}} : memref<?x?xf16>, memref<?x?xf16>) outs(%{{.*}} : memref<?x?xf32>) acc(f32) {
//       CHECK:   arith.addf
func.func @generic_nn(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32> {llvm.noalias}) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (k, n)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The inputs in the other order (the first holds N and K): A is the second,
// stored K x M, and B the first, stored N x K: tt.
// CHECK-LABEL: func.func @generic_swapped
//  CHECK-SAME: (%[[B:.*]]: memref<16x32xf64>, %[[A:.*]]: memref<32x64xf64>, %[[C:.*]]: memref<64x16xf64> {llvm.noalias})
//       CHECK: gemm.matmul tt ins(%[[A]], %[[B]] : memref<32x64xf64>, memref<16x32xf64>) outs(%[[C]] : memref<64x16xf64>) acc(f64)
func.func @generic_swapped(%b: memref<16x32xf64>, %a: memref<32x64xf64>, %c: memref<64x16xf64> {llvm.noalias}) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (n, k)>,
                                   affine_map<(m, n, k) -> (k, m)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%b, %a : memref<16x32xf64>, memref<32x64xf64>) outs(%c : memref<64x16xf64>) {
  ^bb0(%x: f64, %y: f64, %acc: f64):
    %p = arith.mulf %x, %y : f64
    %s = arith.addf %acc, %p : f64
    linalg.yield %s : f64
  }
  return
}

// -----

// C indexed (j, i) holds (A B)^T = B^T A^T: M and N come from C, so the
// gemm.matmul's A is the second input (stored K x M) and its B the first
// (stored N x K): tt.
// CHECK-LABEL: func.func @generic_transposed_c
//  CHECK-SAME: (%[[X:.*]]: memref<64x32xf32>, %[[Y:.*]]: memref<32x16xf32>, %[[C:.*]]: memref<16x64xf32> {llvm.noalias})
//       CHECK: gemm.matmul tt ins(%[[Y]], %[[X]] : memref<32x16xf32>, memref<64x32xf32>) outs(%[[C]] : memref<16x64xf32>) acc(f32)
func.func @generic_transposed_c(%x: memref<64x32xf32>, %y: memref<32x16xf32>, %c: memref<16x64xf32> {llvm.noalias}) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>,
                                   affine_map<(i, j, k) -> (k, j)>,
                                   affine_map<(i, j, k) -> (j, i)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : memref<64x32xf32>, memref<32x16xf32>) outs(%c : memref<16x64xf32>) {
  ^bb0(%u: f32, %v: f32, %acc: f32):
    %p = arith.mulf %u, %v : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Epilogue fusion. Bias per column (N values) and relu, f32 -> f16: the
// f32 intermediate and its fill are gone, the GEMM writes the output.
// CHECK-LABEL: func.func @bias_col_relu
//  CHECK-SAME: (%[[A:.*]]: memref<?x?xf16>, %[[B:.*]]: memref<?x?xf16>, %[[BIAS:.*]]: memref<?xf32>, %[[OUT:.*]]: memref<?x?xf16> {llvm.noalias})
//   CHECK-NOT: memref.alloc
//   CHECK-NOT: linalg
//       CHECK: gemm.matmul nn ins(%[[A]], %[[B]] : memref<?x?xf16>, memref<?x?xf16>) outs(%[[OUT]] : memref<?x?xf16>) extras(%[[BIAS]] : memref<?xf32>) acc(f32) attributes {broadcast = [#gemm.bcast<col>]} {
//  CHECK-NEXT: ^bb0(%[[ACC:.*]]: f32, %{{.*}}: f16, %[[X:.*]]: f32):
//  CHECK-NEXT:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT:   %[[S:.*]] = arith.addf %[[ACC]], %[[X]] : f32
//  CHECK-NEXT:   %[[R:.*]] = arith.maximumf %[[S]], %[[ZERO]] : f32
//  CHECK-NEXT:   %[[H:.*]] = arith.truncf %[[R]] : f32 to f16
//  CHECK-NEXT:   gemm.yield %[[H]] : f16
//   CHECK-NOT: linalg
//   CHECK-NOT: dealloc
func.func @bias_col_relu(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %bias: memref<?xf32>, %out: memref<?x?xf16> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf16>
  %n = memref.dim %b, %c1 : memref<?x?xf16>
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc(%m, %n) : memref<?x?xf32>
  %tm = memref.dim %t, %c0 : memref<?x?xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%t : memref<?x?xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%t, %bias : memref<?x?xf32>, memref<?xf32>) outs(%out : memref<?x?xf16>) {
  ^bb0(%x: f32, %y: f32, %o: f16):
    %s = arith.addf %x, %y : f32
    %r = arith.maximumf %s, %zero : f32
    %h = arith.truncf %r : f32 to f16
    linalg.yield %h : f16
  }
  memref.dealloc %t : memref<?x?xf32>
  return
}

// -----

// Bias per row (M values) added in place into C (the generic's output
// argument is the GEMM result), then GELU in its tanh form.
// CHECK-LABEL: func.func @bias_row_gelu_tanh
//  CHECK-SAME: (%{{.*}}: memref<128x64xf16>, %{{.*}}: memref<64x32xf16>, %[[BIAS:.*]]: memref<128xf32>, %[[C:.*]]: memref<128x32xf32> {llvm.noalias})
//       CHECK: gemm.matmul nn {{.*}} outs(%[[C]] : memref<128x32xf32>) extras(%[[BIAS]] : memref<128xf32>) acc(f32) attributes {broadcast = [#gemm.bcast<row>]} {
//  CHECK-NEXT: ^bb0(%[[ACC:.*]]: f32, %{{.*}}: f32, %[[X:.*]]: f32):
//  CHECK-NEXT:   %[[V:.*]] = arith.addf %[[ACC]], %[[X]] : f32
//       CHECK:   math.tanh
//       CHECK:   gemm.yield
//   CHECK-NOT: linalg
func.func @bias_row_gelu_tanh(%a: memref<128x64xf16>, %b: memref<64x32xf16>, %bias: memref<128xf32>, %c: memref<128x32xf32> {llvm.noalias}) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<128x32xf32>)
  linalg.matmul ins(%a, %b : memref<128x64xf16>, memref<64x32xf16>) outs(%c : memref<128x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<128xf32>) outs(%c : memref<128x32xf32>) {
  ^bb0(%y: f32, %x: f32):
    %v = arith.addf %x, %y : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %k0 = arith.constant 0.797884583 : f32
    %k1 = arith.constant 0.044715 : f32
    %v2 = arith.mulf %v, %v : f32
    %v3 = arith.mulf %v2, %v : f32
    %w = arith.mulf %v3, %k1 : f32
    %u = arith.addf %v, %w : f32
    %z = arith.mulf %u, %k0 : f32
    %th = math.tanh %z : f32
    %p = arith.addf %th, %one : f32
    %hv = arith.mulf %v, %half : f32
    %g = arith.mulf %hv, %p : f32
    linalg.yield %g : f32
  }
  return
}

// -----

// A chain: GELU (erf form) in place, then SiLU x / (1 + exp(-x)) into
// another buffer; one gemm.matmul writes the output.
// CHECK-LABEL: func.func @gelu_erf_silu
//  CHECK-SAME: %[[OUT:[^:]*]]: memref<?x?xf32> {llvm.noalias}
//   CHECK-NOT: memref.alloc
//       CHECK: gemm.matmul nn {{.*}} outs(%[[OUT]] : memref<?x?xf32>) acc(f32) {
//  CHECK-NEXT: ^bb0(%[[ACC:.*]]: f32, %{{.*}}: f32):
//       CHECK:   %[[RS2:.*]] = arith.constant 0.707106769 : f32
//       CHECK:   %[[S:.*]] = arith.mulf %[[ACC]], %[[RS2]] : f32
//       CHECK:   %[[E:.*]] = math.erf %[[S]] : f32
//       CHECK:   %[[P:.*]] = arith.addf %[[E]], %{{.*}} : f32
//       CHECK:   %[[H:.*]] = arith.mulf %[[ACC]], %{{.*}} : f32
//       CHECK:   %[[G:.*]] = arith.mulf %[[H]], %[[P]] : f32
//       CHECK:   %[[N:.*]] = arith.negf %[[G]] : f32
//       CHECK:   %[[X:.*]] = math.exp %[[N]] : f32
//       CHECK:   %[[D:.*]] = arith.addf %[[X]], %{{.*}} : f32
//       CHECK:   %[[Y:.*]] = arith.divf %[[G]], %[[D]] : f32
//       CHECK:   gemm.yield %[[Y]] : f32
//   CHECK-NOT: linalg
//   CHECK-NOT: dealloc
func.func @gelu_erf_silu(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %out: memref<?x?xf32> {llvm.noalias}, %m: index, %n: index) {
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc(%m, %n) : memref<?x?xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%t : memref<?x?xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<?x?xf32>) outs(%t : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %rs2 = arith.constant 0.707106769 : f32
    %s = arith.mulf %x, %rs2 : f32
    %e = math.erf %s : f32
    %p = arith.addf %e, %one : f32
    %hx = arith.mulf %x, %half : f32
    %g = arith.mulf %hx, %p : f32
    linalg.yield %g : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<?x?xf32>) outs(%out : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %nx = arith.negf %x : f32
    %e = math.exp %nx : f32
    %d = arith.addf %e, %one : f32
    %y = arith.divf %x, %d : f32
    linalg.yield %y : f32
  }
  memref.dealloc %t : memref<?x?xf32>
  return
}

// -----

// Scaling: by scalar inputs of the generic and by a value the body uses
// from outside (a rank-0 memref input is left alone: the scalar is in device
// memory).
// CHECK-LABEL: func.func @scale
//  CHECK-SAME: %[[ALPHA:[^:]*]]: f32, %[[BETA:[^:]*]]: f32, %[[GAMMA:[^:]*]]: f32)
//       CHECK: gemm.matmul nn {{.*}} extras(%[[ALPHA]], %[[BETA]], %[[GAMMA]] : f32, f32, f32) acc(f32) attributes {broadcast = [#gemm.bcast<scalar>, #gemm.bcast<scalar>, #gemm.bcast<scalar>]} {
//  CHECK-NEXT: ^bb0(%[[ACC:.*]]: f32, %{{.*}}: f32, %[[X:.*]]: f32, %[[Y:.*]]: f32, %[[Z:.*]]: f32):
//  CHECK-NEXT:   %[[S:.*]] = arith.mulf %[[ACC]], %[[X]] : f32
//  CHECK-NEXT:   %[[T:.*]] = arith.mulf %[[S]], %[[Y]] : f32
//  CHECK-NEXT:   %[[U:.*]] = arith.mulf %[[T]], %[[Z]] : f32
//  CHECK-NEXT:   gemm.yield %[[U]] : f32
func.func @scale(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32> {llvm.noalias}, %alpha: f32, %beta: f32, %gamma: f32) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> ()>,
                                   affine_map<(m, n) -> ()>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %alpha, %beta : memref<?x?xf32>, f32, f32) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %al: f32, %be: f32, %o: f32):
    %s = arith.mulf %x, %al : f32
    %t = arith.mulf %s, %be : f32
    %u = arith.mulf %t, %gamma : f32
    linalg.yield %u : f32
  }
  return
}

// -----

// Named elementwise ops in place: linalg.add of a residual (a full M x N
// extra), then linalg.max against a buffer of bounds, both read into C's
// accumulation (linalg.matmul without a fill adds C first).
// CHECK-LABEL: func.func @named
//  CHECK-SAME: (%{{.*}}: memref<?x?xf32>, %{{.*}}: memref<?x?xf32>, %[[C:.*]]: memref<?x?xf32> {llvm.noalias}, %[[RES:.*]]: memref<?x?xf32>, %[[BOUND:.*]]: memref<?x?xf32>)
//       CHECK: gemm.matmul nn {{.*}} outs(%[[C]] : memref<?x?xf32>) extras(%[[RES]], %[[BOUND]] : memref<?x?xf32>, memref<?x?xf32>) acc(f32) attributes {broadcast = [#gemm.bcast<full>, #gemm.bcast<full>]} {
//  CHECK-NEXT: ^bb0(%[[ACC:.*]]: f32, %[[CIN:.*]]: f32, %[[R:.*]]: f32, %[[L:.*]]: f32):
//  CHECK-NEXT:   %[[S:.*]] = arith.addf %[[ACC]], %[[CIN]] : f32
//  CHECK-NEXT:   %[[T:.*]] = arith.addf %[[S]], %[[R]] : f32
//  CHECK-NEXT:   %[[U:.*]] = arith.maximumf %[[T]], %[[L]] : f32
//  CHECK-NEXT:   gemm.yield %[[U]] : f32
func.func @named(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32> {llvm.noalias}, %res: memref<?x?xf32>, %bound: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  linalg.add ins(%c, %res : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  linalg.max ins(%c, %bound : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// -----

// linalg.map and a named unary op (linalg.exp), in place.
// CHECK-LABEL: func.func @map_exp
//  CHECK-SAME: %[[R:[^:]*]]: memref<?x?xf32>)
//       CHECK: gemm.matmul nn {{.*}} extras(%[[R]] : memref<?x?xf32>) acc(f32) attributes {broadcast = [#gemm.bcast<full>]} {
//  CHECK-NEXT: ^bb0(%[[ACC:.*]]: f32, %[[CIN:.*]]: f32, %[[X:.*]]: f32):
//  CHECK-NEXT:   %[[S:.*]] = arith.addf %[[ACC]], %[[CIN]] : f32
//  CHECK-NEXT:   %[[D:.*]] = arith.subf %[[S]], %[[X]] : f32
//  CHECK-NEXT:   %[[E:.*]] = math.exp %[[D]] : f32
//  CHECK-NEXT:   gemm.yield %[[E]] : f32
//   CHECK-NOT: linalg
func.func @map_exp(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32> {llvm.noalias}, %r: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  linalg.map ins(%c, %r : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
    (%x: f32, %y: f32, %o: f32) {
      %s = arith.subf %x, %y : f32
      linalg.yield %s : f32
    }
  linalg.exp ins(%c : memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// -----

// linalg.elementwise with a broadcast map (bias per column), then max
// against a residual, then linalg.copy converting to f16 into the output.
// CHECK-LABEL: func.func @elementwise_chain
//  CHECK-SAME: (%{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>, %[[BIAS:.*]]: memref<?xf32>, %[[R:.*]]: memref<?x?xf32>, %[[OUT:.*]]: memref<?x?xf16> {llvm.noalias}
//   CHECK-NOT: memref.alloc
//       CHECK: gemm.matmul nn {{.*}} outs(%[[OUT]] : memref<?x?xf16>) extras(%[[BIAS]], %[[R]] : memref<?xf32>, memref<?x?xf32>) acc(f32) attributes {broadcast = [#gemm.bcast<col>, #gemm.bcast<full>]} {
//  CHECK-NEXT: ^bb0(%[[ACC:.*]]: f32, %{{.*}}: f16, %[[X:.*]]: f32, %[[Y:.*]]: f32):
//  CHECK-NEXT:   %[[S:.*]] = arith.addf %[[ACC]], %[[X]] : f32
//  CHECK-NEXT:   %[[M:.*]] = arith.maximumf %[[S]], %[[Y]] : f32
//  CHECK-NEXT:   %[[H:.*]] = arith.truncf %[[M]] : f32 to f16
//  CHECK-NEXT:   gemm.yield %[[H]] : f16
//   CHECK-NOT: linalg
func.func @elementwise_chain(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %bias: memref<?xf32>, %r: memref<?x?xf32>, %out: memref<?x?xf16> {llvm.noalias}, %m: index, %n: index) {
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc(%m, %n) : memref<?x?xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%t : memref<?x?xf32>)
  linalg.elementwise kind=#linalg.elementwise_kind<add>
      indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>]
      ins(%t, %bias : memref<?x?xf32>, memref<?xf32>) outs(%t : memref<?x?xf32>)
  linalg.elementwise kind=#linalg.elementwise_kind<max_signed>
      ins(%t, %r : memref<?x?xf32>, memref<?x?xf32>) outs(%t : memref<?x?xf32>)
  linalg.copy ins(%t : memref<?x?xf32>) outs(%out : memref<?x?xf16>)
  memref.dealloc %t : memref<?x?xf32>
  return
}

// -----

// The GEMM accumulates into an initialized buffer and the consumer writes
// elsewhere: the buffer's contents come in as a full extra, in place of the
// C input.
// CHECK-LABEL: func.func @accumulate_then_out
//  CHECK-SAME: %[[OUT:[^:]*]]: memref<?x?xf16> {llvm.noalias}
//       CHECK: %[[T:.*]] = memref.alloc
//       CHECK: memref.copy
//       CHECK: gemm.matmul nn {{.*}} outs(%[[OUT]] : memref<?x?xf16>) extras(%[[T]] : memref<?x?xf32>) acc(f32) attributes {broadcast = [#gemm.bcast<full>]} {
//  CHECK-NEXT: ^bb0(%[[ACC:.*]]: f32, %{{.*}}: f16, %[[INIT:.*]]: f32):
//  CHECK-NEXT:   %[[S:.*]] = arith.addf %[[ACC]], %[[INIT]] : f32
//  CHECK-NEXT:   %[[H:.*]] = arith.truncf %[[S]] : f32 to f16
//  CHECK-NEXT:   gemm.yield %[[H]] : f16
//       CHECK: memref.dealloc %[[T]]
func.func @accumulate_then_out(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %init: memref<?x?xf32>, %out: memref<?x?xf16> {llvm.noalias}, %m: index, %n: index) {
  %t = memref.alloc(%m, %n) : memref<?x?xf32>
  memref.copy %init, %t : memref<?x?xf32> to memref<?x?xf32>
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%t : memref<?x?xf32>)
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

// The consumer reads its own output (out += relu(A B)): that is the fused
// GEMM's C input.
// CHECK-LABEL: func.func @reads_output
//       CHECK: gemm.matmul nn {{.*}} acc(f32) {
//  CHECK-NEXT: ^bb0(%[[ACC:.*]]: f32, %[[CIN:.*]]: f32):
//  CHECK-NEXT:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT:   %[[R:.*]] = arith.maximumf %[[ACC]], %[[ZERO]] : f32
//  CHECK-NEXT:   %[[S:.*]] = arith.addf %[[CIN]], %[[R]] : f32
//  CHECK-NEXT:   gemm.yield %[[S]] : f32
func.func @reads_output(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %out: memref<?x?xf32> {llvm.noalias}, %m: index, %n: index) {
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc(%m, %n) : memref<?x?xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%t : memref<?x?xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<?x?xf32>) outs(%out : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    %s = arith.addf %o, %r : f32
    linalg.yield %s : f32
  }
  memref.dealloc %t : memref<?x?xf32>
  return
}

// -----

// Batched: a bias per batch element and column ([batch] x N), and one per
// row shared by the batch.
// CHECK-LABEL: func.func @batched
//  CHECK-SAME: %[[BIAS:[^:]*]]: memref<?x?xf32>, %[[RBIAS:[^:]*]]: memref<?xf32>, %[[C:[^:]*]]: memref<?x?x?xbf16>
//       CHECK: gemm.matmul nn {{.*}} outs(%[[C]] : memref<?x?x?xbf16>) extras(%[[BIAS]], %[[RBIAS]] : memref<?x?xf32>, memref<?xf32>) acc(f32) attributes {broadcast = [#gemm.bcast<col>, #gemm.bcast<row>]} {
//       CHECK:   arith.truncf %{{.*}} : f32 to bf16
func.func @batched(%a: memref<?x?x?xbf16>, %b: memref<?x?x?xbf16>, %bias: memref<?x?xf32>, %rbias: memref<?xf32>, %c: memref<?x?x?xbf16> {llvm.noalias}) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %nb = memref.dim %a, %c0 : memref<?x?x?xbf16>
  %m = memref.dim %a, %c1 : memref<?x?x?xbf16>
  %n = memref.dim %b, %c2 : memref<?x?x?xbf16>
  %t = memref.alloc(%nb, %m, %n) : memref<?x?x?xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<?x?x?xf32>)
  linalg.batch_matmul ins(%a, %b : memref<?x?x?xbf16>, memref<?x?x?xbf16>) outs(%t : memref<?x?x?xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, n)>,
                                   affine_map<(b, m, n) -> (m)>, affine_map<(b, m, n) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%t, %bias, %rbias : memref<?x?x?xf32>, memref<?x?xf32>, memref<?xf32>) outs(%c : memref<?x?x?xbf16>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %o: bf16):
    %s = arith.addf %x, %y : f32
    %u = arith.addf %s, %z : f32
    %h = arith.truncf %u : f32 to bf16
    linalg.yield %h : bf16
  }
  memref.dealloc %t : memref<?x?x?xf32>
  return
}

// -----

// Device allocations: a buffer only GEMMs use becomes a gpu.alloc (its
// deallocation a gpu.dealloc); one neither freed nor returned is freed after
// its last use; one returned is not freed. With device-allocs=false they
// stay memref.alloc.
// CHECK-LABEL: func.func @device_allocs
//       CHECK: %[[T:.*]] = gpu.alloc (%{{.*}}, %{{.*}}) : memref<?x?xf16>
//       CHECK: gemm.matmul {{.*}} outs(%[[T]] : memref<?x?xf16>)
//       CHECK: %[[U:.*]] = gpu.alloc (%{{.*}}, %{{.*}}) : memref<?x?xf16>
//       CHECK: memref.dim %[[T]]
//       CHECK: gemm.matmul {{.*}} outs(%[[U]] : memref<?x?xf16>)
//       CHECK: %[[W:.*]] = gpu.alloc (%{{.*}}, %{{.*}}) : memref<?x?xf16>
//       CHECK: gemm.matmul nn ins(%[[T]], %[[U]] : {{.*}}) outs(%[[W]] : memref<?x?xf16>)
//       CHECK: gpu.dealloc %[[U]] : memref<?x?xf16>
//  CHECK-NEXT: gpu.dealloc %[[T]] : memref<?x?xf16>
//  CHECK-NEXT: return %[[W]]
//   CHECK-NOT: memref.alloc
// HOST-LABEL: func.func @device_allocs
//   HOST-NOT: gpu.
//       HOST: %[[T:.*]] = memref.alloc
//   HOST-NOT: gpu.
//       HOST: memref.dealloc %[[T]]
//  HOST-NEXT: return
func.func @device_allocs(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %m: index, %n: index) -> memref<?x?xf16> {
  %c1 = arith.constant 1 : index
  %t = memref.alloc(%m, %n) : memref<?x?xf16>
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%t : memref<?x?xf16>)
  %u = memref.alloc(%m, %n) : memref<?x?xf16>
  %k = memref.dim %t, %c1 : memref<?x?xf16>
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%u : memref<?x?xf16>)
  %w = memref.alloc(%m, %n) : memref<?x?xf16>
  linalg.matmul ins(%t, %u : memref<?x?xf16>, memref<?x?xf16>) outs(%w : memref<?x?xf16>)
  memref.dealloc %t : memref<?x?xf16>
  return %w : memref<?x?xf16>
}

// -----

// On tensors, with bufferize=true: one-shot-bufferize across the function
// boundary (identity layouts), then the same rewriting; the result is a
// device allocation the function returns.
// CHECK-LABEL: func.func @tensors
//  CHECK-SAME: (%[[A:.*]]: memref<?x?xf16>, %[[B:.*]]: memref<?x?xf16>, %[[BIAS:.*]]: memref<?xf32>) -> memref<?x?xf16>
//   CHECK-NOT: linalg
//       CHECK: %[[OUT:.*]] = gpu.alloc
//   CHECK-NOT: linalg
//       CHECK: gemm.matmul nn ins(%[[A]], %[[B]] : memref<?x?xf16>, memref<?x?xf16>) outs(%[[OUT]] : memref<?x?xf16>) extras(%[[BIAS]] : memref<?xf32>) acc(f32) attributes {broadcast = [#gemm.bcast<col>]}
//   CHECK-NOT: linalg
//       CHECK: return %[[OUT]] : memref<?x?xf16>
func.func @tensors(%a: tensor<?x?xf16>, %b: tensor<?x?xf16>, %bias: tensor<?xf32>) -> tensor<?x?xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf16>
  %n = tensor.dim %b, %c1 : tensor<?x?xf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<?x?xf16>, tensor<?x?xf16>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
  %eo = tensor.empty(%m, %n) : tensor<?x?xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<?x?xf32>, tensor<?xf32>) outs(%eo : tensor<?x?xf16>) {
  ^bb0(%x: f32, %y: f32, %o: f16):
    %s = arith.addf %x, %y : f32
    %h = arith.truncf %s : f32 to f16
    linalg.yield %h : f16
  } -> tensor<?x?xf16>
  return %r : tensor<?x?xf16>
}
