// RUN: gemm-opt %s -split-input-file --convert-gemm-to-nvgpu="chip=sm_90 dispatch=false" -verify-diagnostics

// Every gemv config the NVIDIA lowering rejects for its operands, with the
// reason (the structural rules are in test/Dialect/Gemm/IR/invalid-config.mlir).

func.func @layout(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{gemv needs a K-contiguous B (layout tn or tt), instr [1, 8, 1] or instr [8, 16, 16], got nn}}
  gemm.matmul nn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [1, 16, 512], warps = [1, 8], instr = [1, 1, 8], stages = 1>}
  return
}

// -----

func.func @types(%a: memref<?x?xi8>, %c: memref<?x?xi32>) {
  // expected-error @+1 {{gemv lowering supports f16/bf16/f32 operands with f32 accumulation, not i8 with i32}}
  gemm.matmul tn ins(%a, %a : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) acc(i32)
    attributes {config = #gemm.config<kind = gemv, block = [1, 16, 1024], warps = [1, 8], instr = [1, 1, 16], stages = 1>}
  return
}

// -----

func.func @f16_acc(%a: memref<?x?xf16>, %c: memref<?x?xf16>) {
  // expected-error @+1 {{gemv lowering supports f16/bf16/f32 operands with f32 accumulation, not f16 with f16}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f16)
    attributes {config = #gemm.config<kind = gemv, block = [1, 16, 512], warps = [1, 8], instr = [1, 1, 8], stages = 1>}
  return
}

// -----

func.func @lane_elems(%a: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{gemv instr must be [1, 1, 4] for f32 operands (one 16-byte load a lane), got 1x1x8}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [1, 16, 256], warps = [1, 8], instr = [1, 1, 8], stages = 1>}
  return
}

// -----

func.func @mma_types(%a: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{gemv on mma.sync supports f16/bf16 operands, not f32}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [8, 16, 64], warps = [1, 8], instr = [8, 16, 16], stages = 1>}
  return
}

// -----

func.func @fma_layout(%a: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{gemv needs a K-contiguous B (layout tn or tt), instr [1, 4, 1] or instr [8, 16, 16], got nt}}
  gemm.matmul nt ins(%a, %a : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [1, 16, 256], warps = [1, 8], instr = [1, 1, 4], stages = 1>}
  return
}

// -----

// gemv on an N-contiguous B (instr [1, V, 1]) reads B in 16-byte chunks
// along N: not for a K-contiguous B.
func.func @columns_layout(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{gemv with instr [1, 8, 1] needs an N-contiguous B (layout nn or nt), got tn}}
  gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [1, 32, 256], warps = [1, 8], instr = [1, 8, 1], stages = 1>}
  return
}

// -----

func.func @columns_lane_elems(%a: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{gemv instr must be [1, 4, 1] for f32 operands on an N-contiguous B (one 16-byte load a lane), got 1x8x1}}
  gemm.matmul nn ins(%a, %a : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [1, 32, 256], warps = [1, 8], instr = [1, 8, 1], stages = 1>}
  return
}

// -----

func.func @columns_types(%a: memref<?x?xi8>, %c: memref<?x?xi32>) {
  // expected-error @+1 {{gemv lowering supports f16/bf16/f32 operands with f32 accumulation, not i8 with i32}}
  gemm.matmul nn ins(%a, %a : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) acc(i32)
    attributes {config = #gemm.config<kind = gemv, block = [1, 64, 256], warps = [1, 8], instr = [1, 16, 1], stages = 1>}
  return
}

// -----

// gemv on mma.sync double-buffers (stages = 2) the path of 16-byte loads
// along K: not for a B stored K x N.
func.func @mma_stages_layout(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{gemv on mma.sync double-buffers (stages = 2) a K-contiguous B only (layout tn or tt), got nn}}
  gemm.matmul nn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = gemv, block = [8, 16, 64], warps = [1, 8], instr = [8, 16, 16], stages = 2>}
  return
}
