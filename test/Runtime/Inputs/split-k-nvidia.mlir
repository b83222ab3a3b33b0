// An explicit split-K config (one kernel, up to 7 slices) and a static
// shape (one kernel, the member the rules pick), for the NVIDIA runtime
// tests.
func.func @split7(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  gemm.matmul nt ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32) attributes {config = #gemm.config<kind = simt, block = [64, 64, 16], warps = [2, 2], instr = [4, 8, 1], stages = 3, split_k = 7>}
  return
}

func.func @decode(%a: memref<1x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<1x4096xf16>) {
  gemm.matmul tn ins(%a, %b : memref<1x4096xf16>, memref<4096x4096xf16>) outs(%c : memref<1x4096xf16>) acc(f32)
  return
}
