// RUN: gemm-opt %s --verify-roundtrip | FileCheck %s
// RUN: gemm-opt --verify-roundtrip %s --mlir-print-op-generic | gemm-opt --verify-roundtrip | FileCheck %s

// CHECK-LABEL: func @layouts
func.func @layouts(%a: memref<64x32xf16>, %at: memref<32x64xf16>,
                   %b: memref<32x16xf16>, %bt: memref<16x32xf16>,
                   %c: memref<64x16xf32>) {
  // CHECK: gemm.matmul nn ins(%{{.*}}, %{{.*}} : memref<64x32xf16>, memref<32x16xf16>) outs(%{{.*}} : memref<64x16xf32>) acc(f32)
  gemm.matmul nn ins(%a, %b : memref<64x32xf16>, memref<32x16xf16>) outs(%c : memref<64x16xf32>) acc(f32)
  // CHECK: gemm.matmul nt ins
  gemm.matmul nt ins(%at, %b : memref<32x64xf16>, memref<32x16xf16>) outs(%c : memref<64x16xf32>) acc(f32)
  // CHECK: gemm.matmul tn ins
  gemm.matmul tn ins(%a, %bt : memref<64x32xf16>, memref<16x32xf16>) outs(%c : memref<64x16xf32>) acc(f32)
  // CHECK: gemm.matmul tt ins
  gemm.matmul tt ins(%at, %bt : memref<32x64xf16>, memref<16x32xf16>) outs(%c : memref<64x16xf32>) acc(f32)
  return
}

// CHECK-LABEL: func @element_types
func.func @element_types(%h: memref<?x?xf16>, %bf: memref<?x?xbf16>,
                         %s: memref<?x?xf32>, %d: memref<?x?xf64>,
                         %i: memref<?x?xi8>, %i32: memref<?x?xi32>,
                         %e4: memref<?x?xf8E4M3FN>, %e5: memref<?x?xf8E5M2>,
                         %oh: memref<?x?xf16>) {
  // CHECK: acc(f16)
  gemm.matmul tn ins(%h, %h : memref<?x?xf16>, memref<?x?xf16>) outs(%oh : memref<?x?xf16>) acc(f16)
  // CHECK: memref<?x?xbf16>, memref<?x?xbf16>) {{.*}} acc(f32)
  gemm.matmul tn ins(%bf, %bf : memref<?x?xbf16>, memref<?x?xbf16>) outs(%s : memref<?x?xf32>) acc(f32)
  // CHECK: memref<?x?xf32>, memref<?x?xf32>) {{.*}} acc(f32)
  gemm.matmul nn ins(%s, %s : memref<?x?xf32>, memref<?x?xf32>) outs(%s : memref<?x?xf32>) acc(f32)
  // CHECK: acc(f64)
  gemm.matmul nn ins(%d, %d : memref<?x?xf64>, memref<?x?xf64>) outs(%d : memref<?x?xf64>) acc(f64)
  // CHECK: acc(i32)
  gemm.matmul tn ins(%i, %i : memref<?x?xi8>, memref<?x?xi8>) outs(%i32 : memref<?x?xi32>) acc(i32)
  // CHECK: memref<?x?xf8E4M3FN>, memref<?x?xf8E5M2>
  gemm.matmul tn ins(%e4, %e5 : memref<?x?xf8E4M3FN>, memref<?x?xf8E5M2>) outs(%oh : memref<?x?xf16>) acc(f32)
  return
}

// CHECK-LABEL: func @batched_strided
func.func @batched_strided(%a: memref<4x?x64xbf16, strided<[?, ?, 1], offset: ?>>,
                           %b: memref<?x128x64xbf16>, %c: memref<4x?x128xbf16>) {
  // CHECK: gemm.matmul tn ins(%{{.*}}, %{{.*}} : memref<4x?x64xbf16, strided<[?, ?, 1], offset: ?>>, memref<?x128x64xbf16>) outs(%{{.*}} : memref<4x?x128xbf16>) acc(f32)
  gemm.matmul tn ins(%a, %b : memref<4x?x64xbf16, strided<[?, ?, 1], offset: ?>>, memref<?x128x64xbf16>) outs(%c : memref<4x?x128xbf16>) acc(f32)
  return
}

// CHECK-LABEL: func @epilogue
func.func @epilogue(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>,
                    %alpha: f32, %beta: f32, %bias: memref<?xf32>, %res: memref<?x?xf16>) {
  // CHECK: extras(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f32, f32, memref<?xf32>, memref<?x?xf16>) acc(f32) attributes {broadcast = [#gemm.bcast<scalar>, #gemm.bcast<scalar>, #gemm.bcast<col>, #gemm.bcast<full>]}
  // CHECK: ^bb0(%[[ACC:.*]]: f32, %[[CIN:.*]]: f16, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f16):
  // CHECK: math.tanh
  // CHECK: gemm.yield %{{.*}} : f16
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
      extras(%alpha, %beta, %bias, %res : f32, f32, memref<?xf32>, memref<?x?xf16>) acc(f32)
      attributes {broadcast = [#gemm.bcast<scalar>, #gemm.bcast<scalar>, #gemm.bcast<col>, #gemm.bcast<full>]} {
  ^bb0(%acc: f32, %cin: f16, %al: f32, %be: f32, %bi: f32, %r: f16):
    %0 = arith.mulf %acc, %al : f32
    %1 = arith.extf %cin : f16 to f32
    %2 = arith.mulf %1, %be : f32
    %3 = arith.addf %0, %2 : f32
    %4 = arith.addf %3, %bi : f32
    %5 = math.tanh %4 : f32
    %6 = arith.extf %r : f16 to f32
    %7 = arith.addf %5, %6 : f32
    %8 = arith.truncf %7 : f32 to f16
    gemm.yield %8 : f16
  }
  return
}

// CHECK-LABEL: func @row_bias_i8
func.func @row_bias_i8(%a: memref<128x64xi8>, %b: memref<256x64xi8>, %c: memref<128x256xi8>, %bias: memref<128xi32>) {
  // CHECK: broadcast = [#gemm.bcast<row>]
  gemm.matmul tn ins(%a, %b : memref<128x64xi8>, memref<256x64xi8>) outs(%c : memref<128x256xi8>)
      extras(%bias : memref<128xi32>) acc(i32) attributes {broadcast = [#gemm.bcast<row>]} {
  ^bb0(%acc: i32, %cin: i8, %bi: i32):
    %0 = arith.addi %acc, %bi : i32
    %1 = arith.trunci %0 : i32 to i8
    gemm.yield %1 : i8
  }
  return
}

// CHECK-LABEL: func @configs
func.func @configs(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>,
                   %s: memref<?x?xf32>, %d: memref<?x?xf64>) {
  // CHECK: config = #gemm.config<kind = mma_sync, block = [128, 256, 32], warps = [2, 4], instr = [16, 8, 16], stages = 4, smem = pad, raster = column, group = 8, split_k = 2>
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [128, 256, 32], warps = [2, 4], instr = [16, 8, 16], stages = 4, smem = pad, raster = column, group = 8, split_k = 2>}
  // Default-valued parameters are elided when printed.
  // CHECK: config = #gemm.config<kind = simt, block = [64, 64, 8], warps = [2, 2], instr = [4, 8, 1]>
  gemm.matmul nn ins(%s, %s : memref<?x?xf32>, memref<?x?xf32>) outs(%s : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = simt, block = [64, 64, 8], warps = [2, 2], instr = [4, 8, 1], stages = 2>}
  // CHECK: config = #gemm.config<kind = mma_sync, block = [64, 64, 16], warps = [2, 2], instr = [8, 8, 4], stages = 3, smem = plain>
  gemm.matmul nn ins(%d, %d : memref<?x?xf64>, memref<?x?xf64>) outs(%d : memref<?x?xf64>) acc(f64)
    attributes {config = #gemm.config<kind = mma_sync, block = [64, 64, 16], warps = [2, 2], instr = [8, 8, 4], stages = 3, smem = plain>}
  // CHECK: config = #gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4>
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4>}
  // CHECK: config = #gemm.config<kind = mfma, block = [128, 128, 32], warps = [2, 2], instr = [32, 32, 8]>
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = mfma, block = [128, 128, 32], warps = [2, 2], instr = [32, 32, 8]>}
  return
}
