// Operand packing for test/Runtime/pack-operands.test: nn (each operand on
// its own), tn (both whenever either), and nn with B statically aligned (A
// alone in the manifest's pack record).

func.func @nn(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}

func.func @tn(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}

func.func @nn_static_b(%a: memref<?x?xf16>, %b: memref<64x64xf16>, %c: memref<?x64xf16>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xf16>, memref<64x64xf16>) outs(%c : memref<?x64xf16>) acc(f32)
  return
}
