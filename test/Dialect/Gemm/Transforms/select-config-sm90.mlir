// RUN: gemm-opt %s -split-input-file --gemm-select-config="target=sm_90 tuning-db=%S/Inputs/db-sm90.json report=true" -verify-diagnostics | FileCheck %s --check-prefix=DB
// RUN: gemm-opt --verify-roundtrip %s -split-input-file --gemm-select-config="target=sm_90" | FileCheck %s --check-prefix=MODEL
// RUN: gemm-opt --verify-roundtrip %s -split-input-file --gemm-select-config="target=sm_90 tuning-db=%S/Inputs/db-sm90.json" --convert-gemm-to-nvgpu=chip=sm_90 | FileCheck %s --check-prefix=LOWER
// RUN: gemm-opt --verify-roundtrip %s -split-input-file --gemm-select-config="target=sm_90" --convert-gemm-to-nvgpu=chip=sm_90 | FileCheck %s --check-prefix=LOWER

// Database hits (exact and nearest shape bucket, epilogue classes), misses
// that fall back to the cost model, explicit configs; every choice lowers.

// DB-LABEL: func.func @exact
// DB: block = [128, 256, 32], warps = [2, 4], instr = [16, 8, 16], stages = 4
// MODEL-LABEL: func.func @exact
// MODEL: gemm.matmul {{.*}}kind = mma_sync
// LOWER-LABEL: func.func @exact
// LOWER: gpu.launch_func
func.func @exact(%a: memref<4096x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<4096x4096xf16>) {
  // expected-remark @+1 {{config from the tuning database (exact bucket, entry 4096x4096x4096 none)}}
  gemm.matmul tn ins(%a, %b : memref<4096x4096xf16>, memref<4096x4096xf16>) outs(%c : memref<4096x4096xf16>) acc(f32)
  return
}

// -----

// 4000x2000x5000 is in bucket 4096x2048x4096: nearest is the 4096^3 entry
// (log2 distance 1), not the 16x4096x4096 one (distance 9).
// DB-LABEL: func.func @nearest
// DB: block = [128, 256, 32], warps = [2, 4], instr = [16, 8, 16], stages = 4
// LOWER-LABEL: func.func @nearest
// LOWER: gpu.launch_func
func.func @nearest(%a: memref<4000x5000xf16>, %b: memref<2000x5000xf16>, %c: memref<4000x2000xf16>) {
  // expected-remark @+1 {{config from the tuning database (nearest bucket, entry 4096x4096x4096 none)}}
  gemm.matmul tn ins(%a, %b : memref<4000x5000xf16>, memref<2000x5000xf16>) outs(%c : memref<4000x2000xf16>) acc(f32)
  return
}

// -----

// Dynamic sizes count as 4096; M = 16 is its own bucket.
// DB-LABEL: func.func @dynamic_and_skinny
// DB: block = [128, 256, 32]
// DB: block = [16, 64, 64], warps = [1, 2], instr = [16, 8, 16], stages = 5
// MODEL-LABEL: func.func @dynamic_and_skinny
// MODEL: gemm.matmul {{.*}}block = [{{[0-9]+}}
// MODEL: gemm.matmul {{.*}}block = [{{16|32}}, 
// LOWER-LABEL: func.func @dynamic_and_skinny
// LOWER-COUNT-2: gpu.launch_func
func.func @dynamic_and_skinny(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>,
                              %a16: memref<16x4096xf16>, %c16: memref<16x4096xf16>) {
  // expected-remark @+1 {{config from the tuning database (exact bucket, entry 4096x4096x4096 none)}}
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  // expected-remark @+1 {{config from the tuning database (exact bucket, entry 16x4096x4096 none)}}
  gemm.matmul tn ins(%a16, %b : memref<16x4096xf16>, memref<?x?xf16>) outs(%c16 : memref<16x4096xf16>) acc(f32)
  return
}

// -----

// An elementwise epilogue has its own entry; one that reads C has none and
// takes the entry without epilogue.
// DB-LABEL: func.func @epilogues
// DB: block = [64, 128, 64], warps = [2, 2], instr = [16, 8, 16], stages = 3, smem = pad
// DB: block = [128, 256, 32], warps = [2, 4]
// LOWER-LABEL: func.func @epilogues
// LOWER-COUNT-2: gpu.launch_func
func.func @epilogues(%a: memref<?x?xf16>, %c: memref<?x?xf16>, %bias: memref<?xf32>) {
  // expected-remark @+1 {{config from the tuning database (exact bucket, entry 4096x4096x4096 elementwise)}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
      extras(%bias : memref<?xf32>) acc(f32) attributes {broadcast = [#gemm.bcast<col>]} {
  ^bb0(%acc: f32, %cin: f16, %bi: f32):
    %0 = arith.addf %acc, %bi : f32
    %z = arith.constant 0.0 : f32
    %1 = arith.maximumf %0, %z : f32
    %2 = arith.truncf %1 : f32 to f16
    gemm.yield %2 : f16
  }
  // expected-remark @+1 {{config from the tuning database (exact bucket, entry 4096x4096x4096 none)}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32) {
  ^bb0(%acc: f32, %cin: f16):
    %0 = arith.extf %cin : f16 to f32
    %1 = arith.addf %acc, %0 : f32
    %2 = arith.truncf %1 : f32 to f16
    gemm.yield %2 : f16
  }
  return
}

// -----

// Misses: no entry for nt, for bf16, for f32 (the sm_80 entry is another
// chip): the cost model picks. Exact f32 stays on simt.
// DB-LABEL: func.func @misses
// DB: gemm.matmul nt {{.*}}kind = mma_sync
// DB: gemm.matmul tn {{.*}}kind = mma_sync
// DB: gemm.matmul nn {{.*}}kind = simt
// MODEL-LABEL: func.func @misses
// MODEL: gemm.matmul nt {{.*}}kind = mma_sync
// MODEL: gemm.matmul tn {{.*}}kind = mma_sync
// MODEL: gemm.matmul nn {{.*}}kind = simt
// LOWER-LABEL: func.func @misses
// LOWER-COUNT-3: gpu.launch_func
func.func @misses(%a: memref<?x?xf16>, %c: memref<?x?xf16>, %h: memref<?x?xbf16>, %hc: memref<?x?xbf16>,
                  %f: memref<1000x1000xf32>) {
  // expected-remark @+1 {{config from the cost model for 4096x4096x4096 (predicted}}
  gemm.matmul nt ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  // expected-remark @+1 {{config from the cost model for 4096x4096x4096 (predicted}}
  gemm.matmul tn ins(%h, %h : memref<?x?xbf16>, memref<?x?xbf16>) outs(%hc : memref<?x?xbf16>) acc(f32)
  // expected-remark @+1 {{config from the cost model for 1000x1000x1000 (predicted}}
  gemm.matmul nn ins(%f, %f : memref<1000x1000xf32>, memref<1000x1000xf32>) outs(%f : memref<1000x1000xf32>) acc(f32)
  return
}

// -----

// Explicit configs are kept.
// DB-LABEL: func.func @explicit
// DB: block = [64, 64, 32], warps = [2, 2], instr = [16, 8, 16]>
// MODEL-LABEL: func.func @explicit
// MODEL: block = [64, 64, 32], warps = [2, 2], instr = [16, 8, 16]>
func.func @explicit(%a: memref<?x?xf16>, %c: memref<?x?xf16>) {
  // expected-remark @+1 {{explicit config kept}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
      attributes {config = #gemm.config<kind = mma_sync, block = [64, 64, 32], warps = [2, 2], instr = [16, 8, 16], stages = 2>}
  return
}

// -----

// The operands' alignment is part of the match. K = 4095 rules out 16-byte
// copies of tn rows: the 4099x4097x4095 entry (listed after the 4096^3 one,
// in the same bucket) wins. Rows padded to 4096 elements are aligned and
// take the 4096^3 entry. An aligned A with a misaligned B matches neither
// entry's alignment: both stand in (the first listed wins the tie), and the
// remark says so.
// DB-LABEL: func.func @alignment
// DB: block = [256, 128, 64], warps = [4, 2], instr = [16, 8, 16], stages = 3
// DB: block = [128, 256, 32], warps = [2, 4], instr = [16, 8, 16], stages = 4
// DB: block = [128, 256, 32], warps = [2, 4], instr = [16, 8, 16], stages = 4
// LOWER-LABEL: func.func @alignment
// LOWER-COUNT-3: gpu.launch_func
func.func @alignment(%a: memref<4096x4095xf16>, %b: memref<4096x4095xf16>, %c: memref<4096x4096xf16>,
                     %pa: memref<4096x4095xf16, strided<[4096, 1]>>,
                     %pb: memref<4096x4095xf16, strided<[4096, 1]>>) {
  // expected-remark @+1 {{config from the tuning database (exact bucket, entry 4099x4097x4095 none)}}
  gemm.matmul tn ins(%a, %b : memref<4096x4095xf16>, memref<4096x4095xf16>) outs(%c : memref<4096x4096xf16>) acc(f32)
  // expected-remark @+1 {{config from the tuning database (exact bucket, entry 4096x4096x4096 none)}}
  gemm.matmul tn ins(%pa, %pb : memref<4096x4095xf16, strided<[4096, 1]>>, memref<4096x4095xf16, strided<[4096, 1]>>) outs(%c : memref<4096x4096xf16>) acc(f32)
  // expected-remark @+1 {{config from the tuning database (exact bucket, entry 4096x4096x4096 none, measured with other operand alignment)}}
  gemm.matmul tn ins(%pa, %b : memref<4096x4095xf16, strided<[4096, 1]>>, memref<4096x4095xf16>) outs(%c : memref<4096x4096xf16>) acc(f32)
  return
}
