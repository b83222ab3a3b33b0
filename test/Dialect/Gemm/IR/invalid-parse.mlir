// RUN: gemm-opt %s -split-input-file -verify-diagnostics

// Malformed syntax is a parse error, never a crash.

func.func @bad_layout(%a: memref<8x8xf16>, %c: memref<8x8xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'layout' [nn, nt, tn, tt]}}
  gemm.matmul nx ins(%a, %a : memref<8x8xf16>, memref<8x8xf16>) outs(%c : memref<8x8xf32>) acc(f32)
  return
}

// -----

func.func @bad_kind(%a: memref<8x8xf16>, %c: memref<8x8xf32>) {
  // expected-error @+3 {{expected ::mlir::gemm::Kind to be one of: simt, mma_sync, wgmma, mfma}}
  // expected-error @+2 {{failed to parse Gemm_ConfigAttr parameter 'kind'}}
  gemm.matmul nn ins(%a, %a : memref<8x8xf16>, memref<8x8xf16>) outs(%c : memref<8x8xf32>) acc(f32)
    attributes {config = #gemm.config<kind = tensor, block = [64, 64, 16], warps = [2, 2], instr = [16, 8, 16]>}
  return
}

// -----

func.func @missing_block(%a: memref<8x8xf16>, %c: memref<8x8xf32>) {
  // expected-error @+2 {{struct is missing required parameter: block}}
  gemm.matmul nn ins(%a, %a : memref<8x8xf16>, memref<8x8xf16>) outs(%c : memref<8x8xf32>) acc(f32)
    attributes {config = #gemm.config<kind = simt, warps = [2, 2], instr = [4, 8, 1]>}
  return
}

// -----

func.func @bad_shape_list(%a: memref<8x8xf16>, %c: memref<8x8xf32>) {
  // expected-error @+3 {{expected integer value}}
  // expected-error @+2 {{failed to parse Gemm_ConfigAttr parameter 'block'}}
  gemm.matmul nn ins(%a, %a : memref<8x8xf16>, memref<8x8xf16>) outs(%c : memref<8x8xf32>) acc(f32)
    attributes {config = #gemm.config<kind = simt, block = [64, x], warps = [2, 2], instr = [4, 8, 1]>}
  return
}

// -----

// expected-error @+2 {{expected ::mlir::gemm::Broadcast to be one of: scalar, row, col, full}}
// expected-error @+1 {{failed to parse Gemm_BroadcastAttr parameter 'value'}}
#bad = #gemm.bcast<diagonal>
