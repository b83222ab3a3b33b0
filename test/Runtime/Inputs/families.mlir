// Kernel families for the runtime tests (test/Runtime/): every layout,
// batched operands, scalar and memref extras of each broadcast, partially
// static sizes and two GEMMs in one function (split-k-nvidia.mlir adds an
// explicit split-K config).

// nn with alpha/beta scalars.
func.func @alpha_beta(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>, %alpha: f32, %beta: f32) {
  gemm.matmul nn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) extras(%alpha, %beta : f32, f32) acc(f32) attributes {broadcast = [#gemm.bcast<scalar>, #gemm.bcast<scalar>]} {
  ^bb0(%acc: f32, %cin: f16, %al: f32, %be: f32):
    %cv = arith.extf %cin : f16 to f32
    %t0 = arith.mulf %acc, %al : f32
    %t1 = arith.mulf %cv, %be : f32
    %t2 = arith.addf %t0, %t1 : f32
    %r = arith.truncf %t2 : f32 to f16
    gemm.yield %r : f16
  }
  return
}

// Batched tn.
func.func @batched(%a: memref<?x?x?xf16>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?x?xf16>, memref<?x?x?xf16>) outs(%c : memref<?x?x?xf16>) acc(f32)
  return
}

// nt in bf16 with a residual (full broadcast).
func.func @residual(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>, %res: memref<?x?xbf16>) {
  gemm.matmul nt ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xbf16>) extras(%res : memref<?x?xbf16>) acc(f32) attributes {broadcast = [#gemm.bcast<full>]} {
  ^bb0(%acc: f32, %cin: bf16, %r: bf16):
    %cv = arith.extf %r : bf16 to f32
    %t0 = arith.addf %acc, %cv : f32
    %o = arith.truncf %t0 : f32 to bf16
    gemm.yield %o : bf16
  }
  return
}

// tt with a row bias.
func.func @row_bias(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>, %bias: memref<?xf32>) {
  gemm.matmul tt ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) extras(%bias : memref<?xf32>) acc(f32) attributes {broadcast = [#gemm.bcast<row>]} {
  ^bb0(%acc: f32, %cin: f16, %bi: f32):
    %t0 = arith.addf %acc, %bi : f32
    %o = arith.truncf %t0 : f32 to f16
    gemm.yield %o : f16
  }
  return
}

// N and K static, M dynamic (docs/dispatch.md's example).
func.func @static_nk(%a: memref<?x4096xf16>, %b: memref<64x4096xf16>, %c: memref<?x64xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x4096xf16>, memref<64x4096xf16>) outs(%c : memref<?x64xf16>) acc(f32)
  return
}

// i8 x i8 -> i32.
func.func @int8(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) acc(i32)
  return
}

// Two GEMMs in one function: functions two#0 and two#1.
func.func @two(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>, %d: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  gemm.matmul tn ins(%c, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%d : memref<?x?xf16>) acc(f32)
  return
}
