// RUN: gemm-opt %s -split-input-file -verify-diagnostics

func.func @rank(%a: memref<2x2x2x2xf16>, %b: memref<2x2xf16>, %c: memref<2x2xf32>) {
  // expected-error @+1 {{expected operand A of rank 2, or rank 3 with a batch dimension, got 'memref<2x2x2x2xf16>'}}
  gemm.matmul nn ins(%a, %b : memref<2x2x2x2xf16>, memref<2x2xf16>) outs(%c : memref<2x2xf32>) acc(f32)
  return
}

// -----

func.func @layout_map(%a: memref<4x8xf16, affine_map<(d0, d1) -> (d1 floordiv 2, d0)>>, %b: memref<8x4xf16>, %c: memref<4x4xf32>) {
  // expected-error @+1 {{expected operand A to have a strided layout, got 'memref<4x8xf16, affine_map<(d0, d1) -> (d1 floordiv 2, d0)>>'}}
  gemm.matmul nn ins(%a, %b : memref<4x8xf16, affine_map<(d0, d1) -> (d1 floordiv 2, d0)>>, memref<8x4xf16>) outs(%c : memref<4x4xf32>) acc(f32)
  return
}

// -----

func.func @shared_operand(%a: memref<4x8xf16>, %b: memref<8x4xf16, #gpu.address_space<workgroup>>, %c: memref<4x4xf32>) {
  // expected-error @+1 {{expected operand B in global memory, got memory space #gpu.address_space<workgroup>}}
  gemm.matmul nn ins(%a, %b : memref<4x8xf16>, memref<8x4xf16, #gpu.address_space<workgroup>>) outs(%c : memref<4x4xf32>) acc(f32)
  return
}

// -----

func.func @extra_space(%a: memref<4x8xf16>, %b: memref<8x4xf16>, %c: memref<4x4xf32>, %x: memref<4xf32, 3>) {
  // expected-error @+1 {{expected extra operand #0 in global memory, got memory space 3 : i64}}
  gemm.matmul nn ins(%a, %b : memref<4x8xf16>, memref<8x4xf16>) outs(%c : memref<4x4xf32>) extras(%x : memref<4xf32, 3>) acc(f32)
    attributes {broadcast = [#gemm.bcast<col>]}
  return
}

// -----

func.func @rank_mismatch(%a: memref<2x4x8xf16>, %b: memref<8x4xf16>, %c: memref<4x4xf32>) {
  // expected-error @+1 {{expected A, B and C to have the same rank, got 3, 2 and 2}}
  gemm.matmul nn ins(%a, %b : memref<2x4x8xf16>, memref<8x4xf16>) outs(%c : memref<4x4xf32>) acc(f32)
  return
}

// -----

func.func @bad_elem(%a: memref<4x8xi16>, %b: memref<8x4xi16>, %c: memref<4x4xi32>) {
  // expected-error @+1 {{A element type 'i16' is not supported (expected f16, bf16, f32, f64, i8, f8E4M3FN or f8E5M2)}}
  gemm.matmul nn ins(%a, %b : memref<4x8xi16>, memref<8x4xi16>) outs(%c : memref<4x4xi32>) acc(i32)
  return
}

// -----

func.func @bad_elem_b(%a: memref<4x8xf16>, %b: memref<8x4xi32>, %c: memref<4x4xf32>) {
  // expected-error @+1 {{B element type 'i32' is not supported}}
  gemm.matmul nn ins(%a, %b : memref<4x8xf16>, memref<8x4xi32>) outs(%c : memref<4x4xf32>) acc(f32)
  return
}

// -----

func.func @mixed(%a: memref<4x8xf16>, %b: memref<8x4xbf16>, %c: memref<4x4xf32>) {
  // expected-error @+1 {{A and B element types differ: 'f16' vs 'bf16' (only the two f8 types may be mixed)}}
  gemm.matmul nn ins(%a, %b : memref<4x8xf16>, memref<8x4xbf16>) outs(%c : memref<4x4xf32>) acc(f32)
  return
}

// -----

func.func @bf16_acc(%a: memref<4x8xbf16>, %b: memref<8x4xbf16>, %c: memref<4x4xbf16>) {
  // expected-error @+1 {{accumulator type 'bf16' is not supported for 'bf16' operands (expected f32)}}
  gemm.matmul nn ins(%a, %b : memref<4x8xbf16>, memref<8x4xbf16>) outs(%c : memref<4x4xbf16>) acc(bf16)
  return
}

// -----

func.func @i8_acc(%a: memref<4x8xi8>, %b: memref<8x4xi8>, %c: memref<4x4xi32>) {
  // expected-error @+1 {{accumulator type 'f32' is not supported for 'i8' operands (expected i32)}}
  gemm.matmul nn ins(%a, %b : memref<4x8xi8>, memref<8x4xi8>) outs(%c : memref<4x4xi32>) acc(f32)
  return
}

// -----

func.func @f64_acc(%a: memref<4x8xf64>, %b: memref<8x4xf64>, %c: memref<4x4xf32>) {
  // expected-error @+1 {{accumulator type 'f32' is not supported for 'f64' operands (expected f64)}}
  gemm.matmul nn ins(%a, %b : memref<4x8xf64>, memref<8x4xf64>) outs(%c : memref<4x4xf32>) acc(f32)
  return
}

// -----

func.func @k_mismatch_tn(%a: memref<64x32xf16>, %b: memref<16x64xf16>, %c: memref<64x16xf32>) {
  // expected-error @+1 {{K of A (32) does not match K of B (64) under layout tn (A is MxK, B is NxK)}}
  gemm.matmul tn ins(%a, %b : memref<64x32xf16>, memref<16x64xf16>) outs(%c : memref<64x16xf32>) acc(f32)
  return
}

// -----

func.func @k_mismatch_nt(%a: memref<64x32xf16>, %b: memref<32x16xf16>, %c: memref<32x16xf32>) {
  // For nt, A is KxM: K = 64 here, B (KxN) has K = 32.
  // expected-error @+1 {{K of A (64) does not match K of B (32) under layout nt (A is KxM, B is KxN)}}
  gemm.matmul nt ins(%a, %b : memref<64x32xf16>, memref<32x16xf16>) outs(%c : memref<32x16xf32>) acc(f32)
  return
}

// -----

func.func @m_mismatch(%a: memref<32x64xf16>, %b: memref<16x32xf16>, %c: memref<32x16xf32>) {
  // For tt, A is KxM: M = 64, but C has 32 rows.
  // expected-error @+1 {{M of A (64) does not match M of C (32) under layout tt (A is KxM, B is NxK)}}
  gemm.matmul tt ins(%a, %b : memref<32x64xf16>, memref<16x32xf16>) outs(%c : memref<32x16xf32>) acc(f32)
  return
}

// -----

func.func @n_mismatch(%a: memref<64x32xf16>, %b: memref<32x16xf16>, %c: memref<64x32xf32>) {
  // expected-error @+1 {{N of B (16) does not match N of C (32) under layout nn (A is MxK, B is KxN)}}
  gemm.matmul nn ins(%a, %b : memref<64x32xf16>, memref<32x16xf16>) outs(%c : memref<64x32xf32>) acc(f32)
  return
}

// -----

func.func @batch(%a: memref<2x4x8xf16>, %b: memref<3x8x4xf16>, %c: memref<2x4x4xf32>) {
  // expected-error @+1 {{batch sizes differ: A 2, B 3, C 2}}
  gemm.matmul nn ins(%a, %b : memref<2x4x8xf16>, memref<3x8x4xf16>) outs(%c : memref<2x4x4xf32>) acc(f32)
  return
}

// -----

func.func @empty(%a: memref<4x0xf16>, %b: memref<0x4xf16>, %c: memref<4x4xf32>) {
  // expected-error @+1 {{expected non-empty M, N and K, got a zero-sized dimension in 'memref<4x4xf32>' / 'memref<4x0xf16>'}}
  gemm.matmul nn ins(%a, %b : memref<4x0xf16>, memref<0x4xf16>) outs(%c : memref<4x4xf32>) acc(f32)
  return
}

// -----

func.func @c_type(%a: memref<4x8xf16>, %b: memref<8x4xf16>, %c: memref<4x4xindex>) {
  // expected-error @+1 {{C element type 'index' is not supported (expected f16, bf16, f32, f64 or a signless i1, i8, i16, i32, i64)}}
  gemm.matmul nn ins(%a, %b : memref<4x8xf16>, memref<8x4xf16>) outs(%c : memref<4x4xindex>) acc(f32)
  return
}

// -----

func.func @no_epilogue_conversion(%a: memref<4x8xi8>, %b: memref<8x4xi8>, %c: memref<4x4xf32>) {
  // expected-error @+1 {{without an epilogue the accumulator type 'i32' cannot be converted to C's element type 'f32'; add an epilogue region}}
  gemm.matmul nn ins(%a, %b : memref<4x8xi8>, memref<8x4xi8>) outs(%c : memref<4x4xf32>) acc(i32)
  return
}

// -----

func.func @broadcast_count(%a: memref<4x8xf16>, %b: memref<8x4xf16>, %c: memref<4x4xf32>, %x: memref<4xf32>) {
  // expected-error @+1 {{expected 1 broadcast entries, one per extra operand, got 2}}
  gemm.matmul nn ins(%a, %b : memref<4x8xf16>, memref<8x4xf16>) outs(%c : memref<4x4xf32>) extras(%x : memref<4xf32>) acc(f32)
    attributes {broadcast = [#gemm.bcast<row>, #gemm.bcast<col>]}
  return
}

// -----

func.func @broadcast_missing(%a: memref<4x8xf16>, %b: memref<8x4xf16>, %c: memref<4x4xf32>, %x: memref<4xf32>) {
  // expected-error @+1 {{extra operand #0 is a memref; a 'broadcast' attribute must say how it is indexed}}
  gemm.matmul nn ins(%a, %b : memref<4x8xf16>, memref<8x4xf16>) outs(%c : memref<4x4xf32>) extras(%x : memref<4xf32>) acc(f32)
  return
}

// -----

func.func @scalar_as_row(%a: memref<4x8xf16>, %b: memref<8x4xf16>, %c: memref<4x4xf32>, %x: f32) {
  // expected-error @+1 {{extra operand #0 is a scalar but its broadcast is 'row'}}
  gemm.matmul nn ins(%a, %b : memref<4x8xf16>, memref<8x4xf16>) outs(%c : memref<4x4xf32>) extras(%x : f32) acc(f32)
    attributes {broadcast = [#gemm.bcast<row>]}
  return
}

// -----

func.func @memref_as_scalar(%a: memref<4x8xf16>, %b: memref<8x4xf16>, %c: memref<4x4xf32>, %x: memref<4xf32>) {
  // expected-error @+1 {{extra operand #0 is a memref but its broadcast is 'scalar'}}
  gemm.matmul nn ins(%a, %b : memref<4x8xf16>, memref<8x4xf16>) outs(%c : memref<4x4xf32>) extras(%x : memref<4xf32>) acc(f32)
    attributes {broadcast = [#gemm.bcast<scalar>]}
  return
}

// -----

func.func @bias_length(%a: memref<4x8xf16>, %b: memref<8x16xf16>, %c: memref<4x16xf32>, %x: memref<4xf32>) {
  // expected-error @+1 {{extra operand #0 (broadcast col) has 4 elements but N is 16}}
  gemm.matmul nn ins(%a, %b : memref<4x8xf16>, memref<8x16xf16>) outs(%c : memref<4x16xf32>) extras(%x : memref<4xf32>) acc(f32)
    attributes {broadcast = [#gemm.bcast<col>]}
  return
}

// -----

func.func @bias_rank(%a: memref<4x8xf16>, %b: memref<8x16xf16>, %c: memref<4x16xf32>, %x: memref<4x4xf32>) {
  // expected-error @+1 {{extra operand #0 (broadcast row) must be a vector of M values, got 'memref<4x4xf32>'}}
  gemm.matmul nn ins(%a, %b : memref<4x8xf16>, memref<8x16xf16>) outs(%c : memref<4x16xf32>) extras(%x : memref<4x4xf32>) acc(f32)
    attributes {broadcast = [#gemm.bcast<row>]}
  return
}

// -----

func.func @residual_shape(%a: memref<4x8xf16>, %b: memref<8x16xf16>, %c: memref<4x16xf32>, %x: memref<4x8xf32>) {
  // expected-error @+1 {{extra operand #0 (broadcast full) has shape 'memref<4x8xf32>' incompatible with C 'memref<4x16xf32>'}}
  gemm.matmul nn ins(%a, %b : memref<4x8xf16>, memref<8x16xf16>) outs(%c : memref<4x16xf32>) extras(%x : memref<4x8xf32>) acc(f32)
    attributes {broadcast = [#gemm.bcast<full>]}
  return
}

// -----

func.func @extra_type(%a: memref<4x8xf16>, %b: memref<8x16xf16>, %c: memref<4x16xf32>, %x: vector<4xf32>) {
  // expected-error @+1 {{extra operand #0 has type 'vector<4xf32>' (expected a memref or a scalar of f16, bf16, f32, f64, index or a signless i1, i8, i16, i32, i64)}}
  gemm.matmul nn ins(%a, %b : memref<4x8xf16>, memref<8x16xf16>) outs(%c : memref<4x16xf32>) extras(%x : vector<4xf32>) acc(f32)
  return
}

// -----

func.func @epilogue_arity(%a: memref<4x8xf16>, %b: memref<8x4xf16>, %c: memref<4x4xf16>) {
  // expected-error @+1 {{epilogue expects 2 arguments (accumulator, C element, 0 extras), got 1}}
  gemm.matmul nn ins(%a, %b : memref<4x8xf16>, memref<8x4xf16>) outs(%c : memref<4x4xf16>) acc(f32) {
  ^bb0(%acc: f32):
    %0 = arith.truncf %acc : f32 to f16
    gemm.yield %0 : f16
  }
  return
}

// -----

func.func @epilogue_acc_type(%a: memref<4x8xf16>, %b: memref<8x4xf16>, %c: memref<4x4xf16>) {
  // expected-error @+1 {{epilogue argument #0 has type 'f16', expected the accumulator type 'f32'}}
  gemm.matmul nn ins(%a, %b : memref<4x8xf16>, memref<8x4xf16>) outs(%c : memref<4x4xf16>) acc(f32) {
  ^bb0(%acc: f16, %cin: f16):
    gemm.yield %acc : f16
  }
  return
}

// -----

func.func @epilogue_extra_type(%a: memref<4x8xf16>, %b: memref<8x4xf16>, %c: memref<4x4xf16>, %x: memref<4xf16>) {
  // expected-error @+1 {{epilogue argument #2 has type 'f32', expected the extra operand's element type 'f16'}}
  gemm.matmul nn ins(%a, %b : memref<4x8xf16>, memref<8x4xf16>) outs(%c : memref<4x4xf16>) extras(%x : memref<4xf16>) acc(f32)
    attributes {broadcast = [#gemm.bcast<col>]} {
  ^bb0(%acc: f32, %cin: f16, %bi: f32):
    %0 = arith.truncf %acc : f32 to f16
    gemm.yield %0 : f16
  }
  return
}

// -----

func.func @epilogue_yield_type(%a: memref<4x8xf16>, %b: memref<8x4xf16>, %c: memref<4x4xf16>) {
  gemm.matmul nn ins(%a, %b : memref<4x8xf16>, memref<8x4xf16>) outs(%c : memref<4x4xf16>) acc(f32) {
  ^bb0(%acc: f32, %cin: f16):
    // expected-error @+1 {{'gemm.yield' op yields 'f32', expected C's element type 'f16'}}
    gemm.yield %acc : f32
  }
  return
}

// -----

func.func @epilogue_yield_count(%a: memref<4x8xf16>, %b: memref<8x4xf16>, %c: memref<4x4xf16>) {
  gemm.matmul nn ins(%a, %b : memref<4x8xf16>, memref<8x4xf16>) outs(%c : memref<4x4xf16>) acc(f32) {
  ^bb0(%acc: f32, %cin: f16):
    // expected-error @+1 {{'gemm.yield' op must yield one value, got 2}}
    gemm.yield %cin, %cin : f16, f16
  }
  return
}

// -----

func.func @epilogue_side_effect(%a: memref<4x8xf16>, %b: memref<8x4xf16>, %c: memref<4x4xf16>) {
  gemm.matmul nn ins(%a, %b : memref<4x8xf16>, memref<8x4xf16>) outs(%c : memref<4x4xf16>) acc(f32) {
  ^bb0(%acc: f32, %cin: f16):
    // expected-error @+1 {{'memref.alloca' op is not allowed in a gemm.matmul epilogue: only side-effect-free scalar ops are}}
    %m = memref.alloca() : memref<4xf16>
    gemm.yield %cin : f16
  }
  return
}

// -----

func.func @epilogue_vector(%a: memref<4x8xf16>, %b: memref<8x4xf16>, %c: memref<4x4xf16>) {
  gemm.matmul nn ins(%a, %b : memref<4x8xf16>, memref<8x4xf16>) outs(%c : memref<4x4xf16>) acc(f32) {
  ^bb0(%acc: f32, %cin: f16):
    // expected-error @+1 {{'vector.broadcast' op produces type 'vector<4xf16>' in a gemm.matmul epilogue (expected f16, bf16, f32, f64, index or a signless i1, i8, i16, i32, i64)}}
    %v = vector.broadcast %cin : f16 to vector<4xf16>
    gemm.yield %cin : f16
  }
  return
}

// -----

func.func @epilogue_capture(%a: memref<4x8xf16>, %b: memref<8x4xf16>, %c: memref<4x4xf32>, %s: f32) {
  // expected-note @+1 {{required by region isolation constraints}}
  gemm.matmul nn ins(%a, %b : memref<4x8xf16>, memref<8x4xf16>) outs(%c : memref<4x4xf32>) acc(f32) {
  ^bb0(%acc: f32, %cin: f32):
    // expected-error @+1 {{using value defined outside the region}}
    %0 = arith.mulf %acc, %s : f32
    gemm.yield %0 : f32
  }
  return
}

// -----

func.func @yield_outside() {
  // expected-error @+1 {{'gemm.yield' op expects parent op 'gemm.matmul'}}
  gemm.yield
}

// -----

// f128 (and f80) stores do not lower to PTX or AMDGCN: LLVM's instruction
// selection aborts on them.
func.func @c_f128(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf128>) {
  // expected-error @+1 {{C element type 'f128' is not supported (expected f16, bf16, f32, f64 or a signless i1, i8, i16, i32, i64)}}
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf128>) acc(f32) {
  ^bb0(%acc: f32, %cin: f128):
    %0 = arith.extf %acc : f32 to f128
    gemm.yield %0 : f128
  }
  return
}

// -----

func.func @c_f8(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf8E4M3FN>) {
  // expected-error @+1 {{C element type 'f8E4M3FN' is not supported}}
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf8E4M3FN>) acc(f32) {
  ^bb0(%acc: f32, %cin: f8E4M3FN):
    %0 = arith.truncf %acc : f32 to f8E4M3FN
    gemm.yield %0 : f8E4M3FN
  }
  return
}

// -----

func.func @c_tf32(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xtf32>) {
  // expected-error @+1 {{C element type 'tf32' is not supported}}
  gemm.matmul tn ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xtf32>) acc(f32) {
  ^bb0(%acc: f32, %cin: tf32):
    %0 = arith.truncf %acc : f32 to tf32
    gemm.yield %0 : tf32
  }
  return
}

// -----

func.func @extra_f80(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %s: f80) {
  // expected-error @+1 {{extra operand #0 has type 'f80' (expected a memref or a scalar of f16, bf16, f32, f64, index or a signless i1, i8, i16, i32, i64)}}
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) extras(%s : f80) acc(f32) {
  ^bb0(%acc: f32, %cin: f32, %x: f80):
    gemm.yield %acc : f32
  }
  return
}

// -----

func.func @epilogue_f128(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32) {
  ^bb0(%acc: f32, %cin: f32):
    // expected-error @+1 {{'arith.extf' op produces type 'f128' in a gemm.matmul epilogue}}
    %0 = arith.extf %acc : f32 to f128
    %1 = arith.truncf %0 : f128 to f32
    gemm.yield %1 : f32
  }
  return
}

// -----

func.func @extra_memref_i128(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %v: memref<?xi128>) {
  // expected-error @+1 {{extra operand #0 has element type 'i128' (expected f16, bf16, f32, f64, index or a signless i1, i8, i16, i32, i64)}}
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) extras(%v : memref<?xi128>) acc(f32) attributes {broadcast = [#gemm.bcast<col>]} {
  ^bb0(%acc: f32, %cin: f32, %x: i128):
    gemm.yield %acc : f32
  }
  return
}

