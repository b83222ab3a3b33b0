// f16 tn with `reduction = fixup` (test/Runtime/fixup.test).
func.func @tn(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4, split_k = 4, reduction = fixup, load = tma>}
  return
}
